import { getOrder } from '../../domain/orders/manage-orders.ts';
import { orderDeps } from '../../infra/compose/bookings.ts';
import { getOrderRoute } from '../contracts/orders.ts';
import { endpoint } from '../http/endpoint.ts';
import { orderJson } from './order-json.ts';

export const handler = endpoint(getOrderRoute, async ({ principal, params, services }) => ({
  status: 200,
  body: orderJson(await getOrder(orderDeps(services), principal, params.orderId)),
}));
