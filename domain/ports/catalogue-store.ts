import type { ApiKeyRecord } from '../api-key.ts';
import type { Meal, ValueAddedService } from '../catalogue/add-ons.ts';
import type { CancellationPlan } from '../catalogue/cancellation.ts';
import type { CatalogueRefs, StoredCatalogue } from '../catalogue/catalogue-diff.ts';
import type { Channel } from '../catalogue/channel.ts';
import type { PropertyMonth } from '../catalogue/day.ts';
import type { ListingView } from './catalogue-reader.ts';
import type { PendingChunk } from '../world/import-chunks.ts';
import type { GstRegistration, GstSlabTable } from '../catalogue/gst.ts';
import type { Listing } from '../catalogue/listing.ts';
import type { BankOffer } from '../catalogue/offers.ts';
import type { Property } from '../catalogue/property.ts';
import type { SimulatorBehaviour } from '../catalogue/simulator.ts';
import type { Stored } from '../catalogue/versioned.ts';

/** A listing with everything stored under it, read in one query. */
export interface ListingBundle {
  readonly listing: Stored<Listing>;
  readonly properties: Stored<Property>[];
  readonly meals: Stored<Meal>[];
  readonly vas: Stored<ValueAddedService>[];
  readonly simulator: Stored<SimulatorBehaviour> | undefined;
}

/** Listings, properties, daily inventory and rates, offers, plans and GST data. */
export interface CatalogueStore {
  /** The stored versions of exactly these records; records not stored are simply absent. */
  load(refs: CatalogueRefs): Promise<StoredCatalogue>;
  /** Writes every record given, each as a complete item (the caller sends only changed ones). */
  save(writes: StoredCatalogue): Promise<void>;

  getListing(listingId: string): Promise<ListingBundle | undefined>;
  /** Read model: listings with their properties, in the order given; unknown ids left out. */
  getListingViews(listingIds: readonly string[]): Promise<ListingView[]>;
  /** The listing of each property; unknown properties are absent. */
  getPropertyOwners(propertyIds: readonly string[]): Promise<Map<string, string>>;
  /** Exactly these property months; months never written are absent. */
  getMonths(refs: readonly { propertyId: string; month: string }[]): Promise<PropertyMonth[]>;
  /** A property by its id alone (GSI2), whichever listing it is under. */
  getProperty(propertyId: string): Promise<Stored<Property> | undefined>;
  /** The listing a property belongs to. */
  listingIdOfProperty(propertyId: string): Promise<string | undefined>;
  /** Months `fromMonth`…`toMonth` (yyyy-mm, inclusive) of one property's days. */
  getPropertyMonths(propertyId: string, fromMonth: string, toMonth: string): Promise<PropertyMonth[]>;
  getChannel(channelId: string): Promise<Stored<Channel> | undefined>;
  listOffers(channelId: string): Promise<Stored<BankOffer>[]>;
  getCancellationPlans(planIds: readonly string[]): Promise<Stored<CancellationPlan>[]>;
  getGstRegistration(state: string): Promise<Stored<GstRegistration> | undefined>;
  listGstSlabTables(): Promise<Stored<GstSlabTable>[]>;

  /**
   * The fingerprint of the callback signing secret a world import last set for a group,
   * only while that secret is still the group's current one (a rotation since then makes
   * it undefined, so the next import sets the file's secret again).
   */
  importedSigningSecret(agentGroupId: string): Promise<string | undefined>;
  /** Records which secret (fingerprint and the sealed value written) the import set. */
  recordImportedSigningSecret(agentGroupId: string, fingerprint: string, sealed: string, at: string): Promise<void>;
  /**
   * Overwrites a stored key's record (label and rate limit from a world file). The tenant
   * directory has no update for keys; world import is the only caller.
   */
  overwriteKey(record: ApiKeyRecord): Promise<void>;

  /**
   * The journal of an import or sync run (`runKey` names the file's content): the chunk it
   * was writing when it stopped, recorded before that chunk's first write and cleared once
   * the chunk is whole, so a re-run of the same file finishes it first.
   */
  pendingChunk(runKey: string): Promise<PendingChunk | undefined>;
  recordPendingChunk(runKey: string, chunk: PendingChunk): Promise<void>;
  clearPendingChunk(runKey: string): Promise<void>;
}
