import type { CancellationPlan } from '../catalogue/cancellation.ts';
import type { Channel } from '../catalogue/channel.ts';
import type { BankOffer } from '../catalogue/offers.ts';
import type { ListingView } from '../ports/catalogue-reader.ts';
import type { Days } from './listing-offer.ts';
import type { Locator, ProjectionHead, Shard } from './projection.ts';

/** The first read of a search: the channel's projection head, the channel, and where pinned properties sit. */
export interface SearchHead {
  readonly head: ProjectionHead;
  readonly channel: Channel | undefined;
  /** Pinned property → its listing and shard on this channel; properties not sold on the channel are absent. */
  readonly pinned: ReadonlyMap<string, Locator>;
}

/** What a search prices against: the listing entries of its shards, their days on the stay's months, the plans. */
export interface SearchShards {
  /** Views without card-only fields (projection.ts, searchEntryOf), in no order. */
  readonly entries: readonly ListingView[];
  readonly days: Days;
  readonly plans: readonly CancellationPlan[];
}

/**
 * What search reads, always through the caller's channel, over the channel's search
 * projection (docs/search.md). Each method is one batched round trip, so the use case
 * decides how many a search costs: head, then shards, then the page's full views.
 */
export interface SearchCatalogue {
  /** The head, current: a missing head or one of another projection version is rebuilt from the catalogue first. */
  head(channelId: string, pinnedPropertyIds: readonly string[]): Promise<SearchHead>;
  bankOffers(channelId: string): Promise<BankOffer[]>;
  /** The shards' entries, their properties' days on these nights (yyyy-mm-dd; the day shards of their months are read), and these plans. */
  shards(channelId: string, shards: readonly Shard[], nights: readonly string[], planIds: readonly string[]): Promise<SearchShards>;
  /** Full views of these listings (for the result cards); ids with no stored listing are left out. */
  listingViews(listingIds: readonly string[]): Promise<ListingView[]>;
}
