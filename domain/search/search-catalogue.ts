import type { CancellationPlan } from '../catalogue/cancellation.ts';
import type { Channel } from '../catalogue/channel.ts';
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
  /**
   * listingId → the listing's card (projection.ts, searchCardOf) for every listing of the shards,
   * when the search read its cards with its shards (a search of a few shards); absent otherwise.
   */
  readonly cards?: ReadonlyMap<string, string>;
}

/**
 * What search reads, always through the caller's channel, over the channel's search
 * projection (docs/search.md). Each method is one batched round trip, so the use case
 * decides how many a search costs: head (with the channel's bank offers), then shards (with
 * their cards when they are few), then the page's full views when the cards were not read.
 */
export interface SearchCatalogue {
  /** The head, current: a missing head or one of another projection version is rebuilt from the catalogue first. */
  head(channelId: string, pinnedPropertyIds: readonly string[]): Promise<SearchHead>;
  /** The shards' entries, their properties' days on these nights (yyyy-mm-dd; the day shards of their months are read), these plans and, for a few shards, their cards. */
  shards(channelId: string, shards: readonly Shard[], nights: readonly string[], planIds: readonly string[]): Promise<SearchShards>;
  /** Full views of these listings (for the result cards); ids with no stored listing are left out. */
  listingViews(listingIds: readonly string[]): Promise<ListingView[]>;
}
