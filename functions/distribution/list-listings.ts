import { listDistributionListings } from '../../domain/reads/distribution-reads.ts';
import { listDistributionListingsRoute } from '../contracts/distribution-catalogue.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(listDistributionListingsRoute, async ({ principal, query, services }) => ({
  status: 200,
  body: await listDistributionListings(services, principal, query),
}));
