import { previewOrder } from '../../domain/orders/manage-orders.ts';
import { withOrderScenario } from '../../domain/sandbox/order-scenarios.ts';
import { orderDeps } from '../../infra/compose/bookings.ts';
import { previewOrderRoute } from '../contracts/orders.ts';
import { endpoint } from '../http/endpoint.ts';
import { orderCommand, pricedJson, sandboxScenarioOf } from './order-json.ts';

export const handler = endpoint(previewOrderRoute, async ({ principal, body, services, event }) => ({
  status: 200,
  body: pricedJson(await previewOrder(withOrderScenario(orderDeps(services), sandboxScenarioOf(event, services.config)), principal, orderCommand(body))),
}));
