import { repriceOrder } from '../../domain/orders/manage-orders.ts';
import { orderDeps } from '../../infra/container.ts';
import { repriceOrderRoute } from '../contracts/orders.ts';
import { endpoint } from '../http/endpoint.ts';
import { orderJson, sandboxScenarioOf } from './order-json.ts';

export const handler = endpoint(repriceOrderRoute, async ({ principal, params, services, event }) => ({
  status: 200,
  body: orderJson(await repriceOrder(orderDeps(services), principal, params.orderId, sandboxScenarioOf(event, services.config))),
}));
