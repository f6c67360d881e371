import type { Channel } from '../catalogue/channel.ts';
import type { PropertyMonth } from '../catalogue/day.ts';
import type { Listing } from '../catalogue/listing.ts';
import type { Property } from '../catalogue/property.ts';
import type { Stored } from '../catalogue/versioned.ts';

/** A listing with its properties: what catalogue reads show. */
export interface ListingView {
  readonly listing: Stored<Listing>;
  readonly properties: readonly Stored<Property>[];
}

/**
 * A listing's place in a channel's feed: `updatedAt` is the later of the listing's and its
 * properties' last change (the distribution row's feedUpdatedAt). Feeds are ordered by
 * (updatedAt, listingId), compared as plain strings.
 */
export interface FeedEntry {
  readonly listingId: string;
  readonly updatedAt: string;
}

/** One page of a channel's feed: entries updated at or after `since`, strictly after `after`. */
export interface FeedPageQuery {
  readonly since?: string;
  readonly after?: FeedEntry;
  readonly limit: number;
}

/** Some properties' months, read together: `months` holds every stored month of `propertyIds` in the window asked for. */
export interface MonthGroup {
  readonly propertyIds: readonly string[];
  readonly months: Promise<PropertyMonth[]>;
}

/** The read side of the catalogue, always through a channel: there is no unscoped listing read. */
export interface CatalogueReader {
  /** Ids of every listing the channel distributes, ascending. */
  distributedListingIds(channelId: string): Promise<string[]>;
  /** At most `limit` feed entries of the channel in feed order, from one index read. */
  feedPage(channelId: string, query: FeedPageQuery): Promise<FeedEntry[]>;
  /** Feed entries of those of these listings the channel distributes, in any order; the rest are absent. */
  feedEntries(channelId: string, listingIds: readonly string[]): Promise<FeedEntry[]>;
  /** Views of these listings, in the order given; ids with no stored listing are left out. */
  listingViews(listingIds: readonly string[]): Promise<ListingView[]>;
  /** The listing each property belongs to; unknown properties are absent from the map. */
  listingsOfProperties(propertyIds: readonly string[]): Promise<Map<string, string>>;
  /** Months fromMonth…toMonth (yyyy-mm, inclusive) of each property. */
  propertyMonths(propertyIds: readonly string[], fromMonth: string, toMonth: string): Promise<PropertyMonth[]>;
  /**
   * The same months as propertyMonths, in groups of whole properties that follow the order of
   * `propertyIds`, all read at once; each group settles as soon as its own reads arrive, so a
   * caller can work on one group while the others are still being read.
   */
  propertyMonthGroups(propertyIds: readonly string[], fromMonth: string, toMonth: string): MonthGroup[];
  channel(channelId: string): Promise<Stored<Channel> | undefined>;
  /** Channels that distribute a listing. */
  channelsOfListing(listingId: string): Promise<string[]>;
}
