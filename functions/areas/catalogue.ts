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

/** Catalogue reads and search: the partner API's listings, inventories, rates and change feed, and the distribution API's listings, availability and search. */
export const handler = areaRouter(
  [listListings, listInventories, listRates, listChanges, listDistributionListings, getDistributionListing, readAvailability, searchListings],
  fallback,
);
