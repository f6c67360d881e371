import type { CancellationPlan } from '../catalogue/cancellation.ts';
import type { Channel } from '../catalogue/channel.ts';
import type { PropertyMonth } from '../catalogue/day.ts';
import type { BankOffer } from '../catalogue/offers.ts';
import type { ListingView } from '../ports/catalogue-reader.ts';

/**
 * What search reads, always through the caller's channel. Each method is one batched
 * read (a Query, a GetItem or BatchGets), so the use case decides how many round trips a
 * search costs and in which order.
 */
export interface SearchCatalogue {
  /** Ids of every listing the channel distributes. */
  distributedListingIds(channelId: string): Promise<string[]>;
  /** The listing of each property; unknown properties are absent. */
  propertyOwners(propertyIds: readonly string[]): Promise<Map<string, string>>;
  /** Views of these listings; ids with no stored listing are left out. */
  listingViews(listingIds: readonly string[]): Promise<ListingView[]>;
  /** Each property's days on these dates (yyyy-mm-dd), as month records holding only those days. */
  stayDays(propertyIds: readonly string[], dates: readonly string[]): Promise<PropertyMonth[]>;
  channel(channelId: string): Promise<Channel | undefined>;
  bankOffers(channelId: string): Promise<BankOffer[]>;
  cancellationPlans(planIds: readonly string[]): Promise<CancellationPlan[]>;
}
