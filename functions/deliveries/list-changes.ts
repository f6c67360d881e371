import { readChanges } from '../../domain/deliveries/read-deliveries.ts';
import { deliveryDeps } from '../../infra/compose/catalogue.ts';
import { listChangesRoute } from '../contracts/deliveries.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(listChangesRoute, async ({ principal, query, services }) => ({
  status: 200,
  body: await readChanges(deliveryDeps(services), principal, query),
}));
