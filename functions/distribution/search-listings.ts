import { searchListings } from '../../domain/search/search-listings.ts';
import { searchListingsRoute } from '../contracts/search.ts';
import { endpoint } from '../http/endpoint.ts';
import { searchResultBody } from './search-body.ts';

export const handler = endpoint(searchListingsRoute, async ({ principal, body, services }) => ({
  status: 200,
  body: searchResultBody(await searchListings({ catalogue: services.search, clock: services.clock }, principal, body), body.rawParams),
}));
