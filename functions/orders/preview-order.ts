import { previewOrder } from '../../domain/orders/manage-orders.ts';
import { orderDeps } from '../../infra/container.ts';
import { previewOrderRoute } from '../contracts/orders.ts';
import { endpoint } from '../http/endpoint.ts';
import { orderCommand, pricedJson, sandboxScenarioOf } from './order-json.ts';

export const handler = endpoint(previewOrderRoute, async ({ principal, body, services, event }) => ({
  status: 200,
  body: pricedJson(await previewOrder(orderDeps(services), principal, { ...orderCommand(body), scenario: sandboxScenarioOf(event, services.config) })),
}));
