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

/** The read side of the catalogue, always through a channel: there is no unscoped listing read. */
export interface CatalogueReader {
  /** Ids of every listing the channel distributes, ascending. */
  distributedListingIds(channelId: string): Promise<string[]>;
  /** Views of these listings, in the order given; ids with no stored listing are left out. */
  listingViews(listingIds: readonly string[]): Promise<ListingView[]>;
  /** The listing each property belongs to; unknown properties are absent from the map. */
  listingsOfProperties(propertyIds: readonly string[]): Promise<Map<string, string>>;
  /** Months fromMonth…toMonth (yyyy-mm, inclusive) of each property. */
  propertyMonths(propertyIds: readonly string[], fromMonth: string, toMonth: string): Promise<PropertyMonth[]>;
  channel(channelId: string): Promise<Stored<Channel> | undefined>;
  /** Channels that distribute a listing. */
  channelsOfListing(listingId: string): Promise<string[]>;
}
