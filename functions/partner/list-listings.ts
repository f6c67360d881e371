import { listPartnerListings } from '../../domain/reads/partner-reads.ts';
import { listListingsRoute } from '../contracts/partner-reads.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(listListingsRoute, async ({ principal, query, services }) => ({
  status: 200,
  body: await listPartnerListings(services, principal, query.page, query.size),
}));
