/**
 * Every key format of the single table lives here; nothing else in the code builds a
 * PK or SK string.
 */
export interface Key {
  readonly PK: string;
  readonly SK: string;
}

export const keys = {
  partner: (partnerId: string): Key => ({ PK: `PARTNER#${partnerId}`, SK: 'PROFILE' }),
  partnerIndex: (partnerId: string) => ({ GSI1PK: 'PARTNERS', GSI1SK: partnerId }),
  allPartners: () => ({ GSI1PK: 'PARTNERS' }),

  agentGroup: (agentGroupId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: 'PROFILE' }),
  agentGroupIndex: (agentGroupId: string, partnerId: string) => ({ GSI1PK: 'GROUPS', GSI1SK: `${partnerId}#${agentGroupId}` }),
  allAgentGroups: () => ({ GSI1PK: 'GROUPS' }),
  agentGroupsOfPartnerPrefix: (partnerId: string) => `${partnerId}#`,
  callbackSecret: (agentGroupId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: 'CALLBACK_SECRET' }),
  /** An order lives in its group's partition, so tenancy is part of the key. */
  order: (agentGroupId: string, orderId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `ORDER#${orderId}` }),

  apiKey: (keyHash: string): Key => ({ PK: `APIKEY#${keyHash}`, SK: 'APIKEY' }),
  apiKeyOwnerIndex: (ownerKind: string, ownerId: string, createdAt: string, keyId: string) => ({
    GSI1PK: `KEYS#${ownerKind}#${ownerId}`,
    GSI1SK: `${createdAt}#${keyId}`,
  }),
  keysOfOwner: (ownerKind: string, ownerId: string) => ({ GSI1PK: `KEYS#${ownerKind}#${ownerId}` }),
  apiKeyIdIndex: (keyId: string) => ({ GSI2PK: `KEYID#${keyId}`, GSI2SK: 'APIKEY' }),

  rateBucket: (bucketId: string): Key => ({ PK: `BUCKET#${bucketId}`, SK: 'BUCKET' }),

  listing: (listingId: string): Key => ({ PK: `LISTING#${listingId}`, SK: 'LISTING' }),
  /** Everything stored under a listing: the listing, its properties, meals, services, simulator. */
  listingPartition: (listingId: string) => ({ PK: `LISTING#${listingId}` }),
  property: (listingId: string, propertyId: string): Key => ({ PK: `LISTING#${listingId}`, SK: `PROPERTY#${propertyId}` }),
  propertyIndex: (propertyId: string) => ({ GSI2PK: `PROPERTY#${propertyId}`, GSI2SK: 'PROPERTY' }),
  meal: (listingId: string, mealId: string): Key => ({ PK: `LISTING#${listingId}`, SK: `MEAL#${mealId}` }),
  vas: (listingId: string, vasId: string): Key => ({ PK: `LISTING#${listingId}`, SK: `VAS#${vasId}` }),
  simulator: (listingId: string): Key => ({ PK: `LISTING#${listingId}`, SK: 'SIMULATOR' }),
  /** Read model: the listing with its properties in one item, so a page of listings is one BatchGet. */
  listingView: (listingId: string): Key => ({ PK: `LISTING#${listingId}`, SK: 'VIEW' }),
  /** Which listing a property is under, BatchGet-able (GSI2 answers the same one Query at a time). */
  propertyOwner: (propertyId: string): Key => ({ PK: `PROPERTY#${propertyId}`, SK: 'OWNER' }),

  propertyMonth: (propertyId: string, month: string): Key => ({ PK: `PROPERTY#${propertyId}`, SK: `MONTH#${month}` }),

  channel: (channelId: string): Key => ({ PK: `CHANNEL#${channelId}`, SK: 'CHANNEL' }),
  distribution: (channelId: string, listingId: string): Key => ({ PK: `CHANNEL#${channelId}`, SK: `LISTING#${listingId}` }),
  channelFeedIndex: (channelId: string, feedUpdatedAt: string, listingId: string) => ({ GSI1PK: `CHANNEL#${channelId}#FEED`, GSI1SK: `${feedUpdatedAt}#${listingId}` }),
  channelFeed: (channelId: string) => ({ GSI1PK: `CHANNEL#${channelId}#FEED` }),
  distributionsOfChannel: (channelId: string) => ({ PK: `CHANNEL#${channelId}`, SKPrefix: 'LISTING#' }),
  /** On distribution rows: which channels sell a listing (who must hear that it changed). */
  listingChannelIndex: (listingId: string, channelId: string) => ({ GSI2PK: `LISTING#${listingId}#CHANNELS`, GSI2SK: channelId }),
  channelsOfListing: (listingId: string) => ({ GSI2PK: `LISTING#${listingId}#CHANNELS` }),
  offer: (channelId: string, code: string): Key => ({ PK: `CHANNEL#${channelId}`, SK: `OFFER#${code}` }),
  offersOfChannel: (channelId: string) => ({ PK: `CHANNEL#${channelId}`, SKPrefix: 'OFFER#' }),

  /** Search projection (docs/search.md): one partition per channel — head, listing shards, day shards per month. */
  searchHead: (channelId: string): Key => ({ PK: `SEARCH#${channelId}`, SK: 'HEAD' }),
  searchEntries: (channelId: string, shard: string): Key => ({ PK: `SEARCH#${channelId}`, SK: `L#${shard}` }),
  searchDays: (channelId: string, shard: string, month: string): Key => ({ PK: `SEARCH#${channelId}`, SK: `D#${shard}#${month}` }),
  searchPartition: (channelId: string) => ({ PK: `SEARCH#${channelId}` }),
  /** Beside the property's months: its listing and its shard on each channel, so a unit move finds its day shards in the same BatchGet. */
  searchLocator: (propertyId: string): Key => ({ PK: `PROPERTY#${propertyId}`, SK: 'SEARCH' }),

  cancellationPlan: (planId: string): Key => ({ PK: `PLAN#${planId}`, SK: 'PLAN' }),
  gstRegistration: (state: string): Key => ({ PK: `GSTREG#${state}`, SK: 'GSTREG' }),
  gstSlabTable: (effectiveFrom: string): Key => ({ PK: 'GST#SLABS', SK: effectiveFrom }),
  gstSlabTables: () => ({ PK: 'GST#SLABS' }),
  /** Beside the group's callback secret: which secret a world import last set there. */
  importedSigningSecret: (agentGroupId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: 'CALLBACK_SECRET_IMPORT' }),

  webhookEndpoint: (partnerId: string, endpointId: string): Key => ({ PK: `PARTNER#${partnerId}`, SK: `WEBHOOK#${endpointId}` }),
  webhookEndpointsOfPartner: (partnerId: string) => ({ PK: `PARTNER#${partnerId}`, SKPrefix: 'WEBHOOK#' }),
  webhookChannelIndex: (channelId: string, partnerId: string, endpointId: string) => ({ GSI1PK: `CHANNEL#${channelId}#WEBHOOKS`, GSI1SK: `${partnerId}#${endpointId}` }),
  webhooksOfChannel: (channelId: string) => ({ GSI1PK: `CHANNEL#${channelId}#WEBHOOKS` }),
  webhookCounter: (partnerId: string): Key => ({ PK: `PARTNER#${partnerId}`, SK: 'WEBHOOK_COUNT' }),

  delivery: (partnerId: string, deliveryId: string): Key => ({ PK: `PARTNER#${partnerId}`, SK: `DELIVERY#${deliveryId}` }),
  deliveriesOfPartner: (partnerId: string) => ({ PK: `PARTNER#${partnerId}`, SKPrefix: 'DELIVERY#' }),
  endpointDeliveryIndex: (endpointId: string, createdAt: string, deliveryId: string) => ({ GSI1PK: `ENDPOINT#${endpointId}#DELIVERIES`, GSI1SK: `${createdAt}#${deliveryId}` }),
  deliveriesOfEndpoint: (endpointId: string) => ({ GSI1PK: `ENDPOINT#${endpointId}#DELIVERIES` }),
  /** On booking callbacks, in place of the endpoint index (a callback has no endpoint): the callbacks of one booking. */
  bookingDeliveryIndex: (bookingRef: string, createdAt: string, deliveryId: string) => ({ GSI1PK: `BOOKING#${bookingRef}#DELIVERIES`, GSI1SK: `${createdAt}#${deliveryId}` }),
  deliveriesOfBooking: (bookingRef: string) => ({ GSI1PK: `BOOKING#${bookingRef}#DELIVERIES` }),
  /** Sparse: only PENDING deliveries carry it, so the sweeper reads exactly the work still open. */
  pendingDeliveryIndex: (nextAttemptAt: string, deliveryId: string) => ({ GSI2PK: 'DELIVERIES#PENDING', GSI2SK: `${nextAttemptAt}#${deliveryId}` }),
  pendingDeliveries: () => ({ GSI2PK: 'DELIVERIES#PENDING' }),
  changeRecord: (channelId: string, recordedAt: string, eventId: string): Key => ({ PK: `CHANNEL#${channelId}#CHANGES`, SK: `${recordedAt}#${eventId}` }),
  changesOfChannel: (channelId: string) => ({ PK: `CHANNEL#${channelId}#CHANGES` }),
  /** The group's running exposure (paise), moved only in the same transaction as the ledger entry that justifies it. */
  creditCounter: (agentGroupId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: 'CREDIT' }),
  ledgerEntry: (agentGroupId: string, entryId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `LEDGER#${entryId}` }),
  ledgerEntriesOfGroup: (agentGroupId: string) => ({ PK: `GROUP#${agentGroupId}`, SKPrefix: 'LEDGER#' }),
  /** On ledger entries: the group's ledger in occurred-at order, for newest-first pages. */
  ledgerTimelineIndex: (agentGroupId: string, occurredAt: string, entryId: string) => ({ GSI1PK: `GROUP#${agentGroupId}#LEDGER`, GSI1SK: `${occurredAt}#${entryId}` }),
  ledgerTimeline: (agentGroupId: string) => ({ GSI1PK: `GROUP#${agentGroupId}#LEDGER` }),
  /**
   * GSI1SK bounds of an occurred-at window on the ledger timeline. `<occurredAt>#<id>` sorts
   * after the bare instant and, since ids hold only hex digits and '-', before `<instant>#~`:
   * so `from` is an inclusive lower bound as it stands, `to` an inclusive upper one with `#~`
   * appended, and `before` an exclusive upper one as it stands (no key equals a bare instant).
   */
  ledgerTimelineRange: (w: { from?: string; to?: string; before?: string }): { lower?: string; upper?: string } => {
    const uppers = [w.to === undefined ? undefined : `${w.to}#~`, w.before].filter((u) => u !== undefined);
    return { lower: w.from, upper: uppers.length ? uppers.reduce((a, b) => (b < a ? b : a)) : undefined };
  },
  /** Idempotency record of POST /v1/bookings: one per (group, externalBookingId), holding the request's content hash. */
  bookingClaim: (agentGroupId: string, externalBookingId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `IDEMPOTENCY#BOOKING#${externalBookingId}` }),
  /** A booking, under its group; bookingRef is the service's own id, fixed at the credit gate. */
  booking: (agentGroupId: string, bookingRef: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `BOOKING#${bookingRef}` }),
  /** Written when a booking lands: the property-system booking id partners address it by → bookingRef. */
  bookingAlias: (agentGroupId: string, bookingId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `BOOKINGID#${bookingId}` }),
  /** On bookings: the group's bookings in order of last change (GET /v1/bookings, updatedSince). */
  bookingFeedIndex: (agentGroupId: string, updatedAt: string, bookingRef: string) => ({ GSI1PK: `GROUP#${agentGroupId}#BOOKINGS`, GSI1SK: `${updatedAt}#${bookingRef}` }),
  bookingFeed: (agentGroupId: string) => ({ GSI1PK: `GROUP#${agentGroupId}#BOOKINGS` }),
  /** Back from a bookingFeedIndex sort key to its parts (updatedAt is an ISO instant, never holding '#'): where a feed read stopped. */
  bookingFeedPositionOf: (gsi1sk: string) => ({ updatedAt: gsi1sk.slice(0, gsi1sk.indexOf('#')), bookingRef: gsi1sk.slice(gsi1sk.indexOf('#') + 1) }),
  /** Sparse: only bookings the workflow still has to look at carry it, so the sweeper reads exactly the open work. */
  openBookingIndex: (nextCheckAt: string, agentGroupId: string, bookingRef: string) => ({ GSI2PK: 'BOOKINGS#OPEN', GSI2SK: `${nextCheckAt}#${agentGroupId}#${bookingRef}` }),
  openBookings: () => ({ GSI2PK: 'BOOKINGS#OPEN' }),
  /** The property-system simulator's reservation for one booking (sandbox stages). */
  simulatedReservation: (bookingRef: string): Key => ({ PK: `SIMRES#${bookingRef}`, SK: 'RESERVATION' }),
} as const;
