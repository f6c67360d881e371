import { repriceOrder } from '../../domain/orders/manage-orders.ts';
import { withOrderScenario } from '../../domain/sandbox/order-scenarios.ts';
import { orderDeps } from '../../infra/compose/bookings.ts';
import { repriceOrderRoute } from '../contracts/orders.ts';
import { endpoint } from '../http/endpoint.ts';
import { orderJson, sandboxScenarioOf } from './order-json.ts';

export const handler = endpoint(repriceOrderRoute, async ({ principal, params, services, event }) => ({
  status: 200,
  body: orderJson(await repriceOrder(withOrderScenario(orderDeps(services), sandboxScenarioOf(event, services.config)), principal, params.orderId)),
}));
