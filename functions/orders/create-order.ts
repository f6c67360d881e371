import { createOrder } from '../../domain/orders/manage-orders.ts';
import { withOrderScenario } from '../../domain/sandbox/order-scenarios.ts';
import { orderDeps } from '../../infra/compose/bookings.ts';
import { createOrderRoute } from '../contracts/orders.ts';
import { endpoint } from '../http/endpoint.ts';
import { orderCommand, orderJson, sandboxScenarioOf } from './order-json.ts';

export const handler = endpoint(createOrderRoute, async ({ principal, body, services, event }) => ({
  status: 200,
  body: orderJson(await createOrder(withOrderScenario(orderDeps(services), sandboxScenarioOf(event, services.config)), principal, orderCommand(body))),
}));
