import { readAvailability } from '../../domain/reads/distribution-reads.ts';
import { readAvailabilityRoute } from '../contracts/distribution-catalogue.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(readAvailabilityRoute, async ({ principal, query, services }) => ({
  status: 200,
  body: await readAvailability(services, principal, query),
}));
