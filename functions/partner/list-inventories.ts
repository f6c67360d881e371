import { readInventories } from '../../domain/reads/partner-reads.ts';
import { listInventoriesRoute } from '../contracts/partner-reads.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(listInventoriesRoute, async ({ principal, query, services }) => ({
  status: 200,
  body: await readInventories(services, principal, query),
}));
