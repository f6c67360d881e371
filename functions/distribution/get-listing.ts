import { getDistributionListing } from '../../domain/reads/distribution-reads.ts';
import { getDistributionListingRoute } from '../contracts/distribution-catalogue.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(getDistributionListingRoute, async ({ principal, params, services }) => ({
  status: 200,
  body: await getDistributionListing(services, principal, params.listingId),
}));
