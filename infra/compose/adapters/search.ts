import { DynamoSearchCatalogue } from '../../dynamo/dynamo-search-catalogue.ts';
import { DynamoSearchProjection } from '../../dynamo/dynamo-search-projection.ts';
import { adapterGroup } from '../core.ts';

/** Search's reads over the channel's search projection (docs/search.md), wired by the catalogue function. */
export const searchAdapters = adapterGroup({
  area: 'search',
  makers: (w) => ({
    search: (svc) => new DynamoSearchCatalogue(w.db(), w.table, svc.catalogue, new DynamoSearchProjection(w.db(), w.table, svc.catalogue)),
  }),
});
