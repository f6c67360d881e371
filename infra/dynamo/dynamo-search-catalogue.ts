import type { BankOffer } from '../../domain/catalogue/offers.ts';
import type { CancellationPlan } from '../../domain/catalogue/cancellation.ts';
import type { Channel } from '../../domain/catalogue/channel.ts';
import type { PropertyMonth } from '../../domain/catalogue/day.ts';
import type { CatalogueReader, ListingView } from '../../domain/ports/catalogue-reader.ts';
import type { CatalogueStore } from '../../domain/ports/catalogue-store.ts';
import type { SearchCatalogue } from '../../domain/search/search-catalogue.ts';

/**
 * Search's reads over the catalogue adapters: the distribution Query, BatchGets of listing
 * views, property owners, months and plans, GetItem of the channel, Query of its offers.
 */
export class DynamoSearchCatalogue implements SearchCatalogue {
  constructor(
    private readonly reader: CatalogueReader,
    private readonly store: CatalogueStore,
  ) {}

  distributedListingIds(channelId: string): Promise<string[]> {
    return this.reader.distributedListingIds(channelId);
  }

  propertyOwners(propertyIds: readonly string[]): Promise<Map<string, string>> {
    return this.reader.listingsOfProperties(propertyIds);
  }

  listingViews(listingIds: readonly string[]): Promise<ListingView[]> {
    return this.reader.listingViews(listingIds);
  }

  propertyMonths(propertyIds: readonly string[], fromMonth: string, toMonth: string): Promise<PropertyMonth[]> {
    return this.reader.propertyMonths(propertyIds, fromMonth, toMonth);
  }

  channel(channelId: string): Promise<Channel | undefined> {
    return this.reader.channel(channelId);
  }

  bankOffers(channelId: string): Promise<BankOffer[]> {
    return this.store.listOffers(channelId);
  }

  cancellationPlans(planIds: readonly string[]): Promise<CancellationPlan[]> {
    return this.store.getCancellationPlans(planIds);
  }
}
