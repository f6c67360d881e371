import { areaRouter } from '../http/area-router.ts';
import { handler as listChanges } from '../deliveries/list-changes.ts';
import { handler as getDistributionListing } from '../distribution/get-listing.ts';
import { handler as listDistributionListings } from '../distribution/list-listings.ts';
import { handler as readAvailability } from '../distribution/read-availability.ts';
import { handler as searchListings } from '../distribution/search-listings.ts';
import { handler as listInventories } from '../partner/list-inventories.ts';
import { handler as listListings } from '../partner/list-listings.ts';
import { handler as listRates } from '../partner/list-rates.ts';
import { handler as fallback } from '../system/fallback.ts';
import { searchAdapters } from '../../infra/compose/adapters/search.ts';
import { wire } from '../../infra/compose/core.ts';

// The adapters this function uses beyond the core's (infra/compose/core.ts, wire; `npm run check:wiring` holds it to what its code reads).
wire(searchAdapters);

/** Catalogue reads and search: the partner API's listings, inventories, rates and change feed, and the distribution API's listings, availability and search. */
export const handler = areaRouter(
  [listListings, listInventories, listRates, listChanges, listDistributionListings, getDistributionListing, readAvailability, searchListings],
  fallback,
);
