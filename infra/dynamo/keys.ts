import { createHash } from 'node:crypto';

/**
 * Every key format of the single table lives here; nothing else in the code builds a
 * PK or SK string.
 */
export interface Key {
  readonly PK: string;
  readonly SK: string;
}

/**
 * Shards of the sparse work queues on GSI2 (open bookings, pending deliveries). A partition
 * takes about 1,000 WCU/s; at 1,000 bookings/s the open-bookings queue alone takes about
 * 18,000 (six index writes of a ~3 KB booking each), so one key would cap the service near
 * 55 bookings/s. 32 shards keep each near 560 WCU/s at that rate (docs/data-model.md
 * "Limits at scale"). The sweepers read every shard and merge.
 */
export const WORK_QUEUE_SHARDS = 32;

/** An item's shard, fixed by its own id, so every rewrite of the item stays on one key. */
export const workQueueShardOf = (id: string): number => createHash('sha256').update(id).digest().readUInt32BE(0) % WORK_QUEUE_SHARDS;

/**
 * Shards of the audit trail's day index: every audited change of a stage writes one index
 * entry under its day, so one key per day would cap audited changes near 1,000/s. The
 * monthly export reads each shard of each day.
 */
export const AUDIT_DAY_SHARDS = 8;
const auditShardOf = (id: string, shards: number): number => createHash('sha256').update(id).digest().readUInt32BE(0) % shards;

const everyShard = (queue: string): string[] => Array.from({ length: WORK_QUEUE_SHARDS }, (_, shard) => `${queue}#${shard}`);

export const keys = {
  partner: (partnerId: string): Key => ({ PK: `PARTNER#${partnerId}`, SK: 'PROFILE' }),
  partnerIndex: (partnerId: string) => ({ GSI1PK: 'PARTNERS', GSI1SK: partnerId }),
  allPartners: () => ({ GSI1PK: 'PARTNERS' }),

  agentGroup: (agentGroupId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: 'PROFILE' }),
  agentGroupIndex: (agentGroupId: string, partnerId: string) => ({ GSI1PK: 'GROUPS', GSI1SK: `${partnerId}#${agentGroupId}` }),
  allAgentGroups: () => ({ GSI1PK: 'GROUPS' }),
  agentGroupsOfPartnerPrefix: (partnerId: string) => `${partnerId}#`,
  callbackSecret: (agentGroupId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: 'CALLBACK_SECRET' }),
  /** A group's mail settings: its finance contacts and the operator's pause (domain/mail/finance-contacts.ts). */
  mailSettings: (agentGroupId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: 'MAIL_SETTINGS' }),
  /** A group with a finance contact at this (lower-cased) address: SES reports bounces by address, across groups. */
  mailAddress: (email: string, agentGroupId: string): Key => ({ PK: `MAIL_ADDRESS#${email}`, SK: `GROUP#${agentGroupId}` }),
  /** One e-mail to one contact about one record, claimed before it is sent (domain/ports/mail-log.ts). */
  mailSend: (agentGroupId: string, what: string, contactId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `MAIL#${what}#${contactId}` }),
  /** The group's sandbox test clock (at most one; docs/sandbox.md). */
  testClock: (agentGroupId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: 'TEST_CLOCK' }),
  /** Every test clock, one GSI2 partition: the scheduled jobs sweep each clocked group again at its own time. */
  testClockIndex: (agentGroupId: string) => ({ GSI2PK: 'TEST_CLOCKS', GSI2SK: agentGroupId }),
  allTestClocks: () => ({ GSI2PK: 'TEST_CLOCKS' }),
  /** An Idempotency-Key of a creating request: per caller and operation (the scope), kept 24 hours by the table's TTL. */
  idempotencyKey: (scope: string, key: string): Key => ({ PK: `IDEMPOTENCY#${scope}`, SK: `KEY#${key}` }),
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

  /** Console people (docs/console.md): the person, the claim on their address, their team's index. */
  person: (personId: string): Key => ({ PK: `PERSON#${personId}`, SK: 'PERSON' }),
  personEmail: (email: string): Key => ({ PK: `PERSON_EMAIL#${email}`, SK: 'PERSON_EMAIL' }),
  personTeamIndex: (account: string, email: string) => ({ GSI1PK: `TEAM#${account}`, GSI1SK: email }),
  team: (account: string) => ({ GSI1PK: `TEAM#${account}` }),
  /** A sign-in link and a console session, each under the hash of its secret. */
  signInLink: (linkHash: string): Key => ({ PK: `SIGNIN#${linkHash}`, SK: 'SIGNIN' }),
  consoleSession: (sessionHash: string): Key => ({ PK: `SESSION#${sessionHash}`, SK: 'SESSION' }),
  /** A person's passkey beside them, the claim on its credential id (which person it signs in), and a ceremony's challenge. */
  passkey: (personId: string, credentialId: string): Key => ({ PK: `PERSON#${personId}`, SK: `PASSKEY#${credentialId}` }),
  passkeyClaim: (credentialId: string): Key => ({ PK: `PASSKEY#${credentialId}`, SK: 'PASSKEY' }),
  passkeyChallenge: (challenge: string): Key => ({ PK: `WEBAUTHN#${challenge}`, SK: 'CHALLENGE' }),

  listing: (listingId: string): Key => ({ PK: `LISTING#${listingId}`, SK: 'LISTING' }),
  /** Everything stored under a listing: the listing, its properties, meals, services, simulator. */
  listingPartition: (listingId: string) => ({ PK: `LISTING#${listingId}` }),
  property: (listingId: string, propertyId: string): Key => ({ PK: `LISTING#${listingId}`, SK: `PROPERTY#${propertyId}` }),
  propertyIndex: (propertyId: string) => ({ GSI2PK: `PROPERTY#${propertyId}`, GSI2SK: 'PROPERTY' }),
  meal: (listingId: string, mealId: string): Key => ({ PK: `LISTING#${listingId}`, SK: `MEAL#${mealId}` }),
  vas: (listingId: string, vasId: string): Key => ({ PK: `LISTING#${listingId}`, SK: `VAS#${vasId}` }),
  simulator: (listingId: string): Key => ({ PK: `LISTING#${listingId}`, SK: 'SIMULATOR' }),
  /** Sparse: only on a simulator item whose listing is connected to Channex, so the index lists exactly the connections. */
  channexConnectionIndex: (listingId: string) => ({ GSI2PK: 'CHANNEX_CONNECTIONS', GSI2SK: listingId }),
  /** Read model: the listing with its properties in one item, so a page of listings is one BatchGet. */
  listingView: (listingId: string): Key => ({ PK: `LISTING#${listingId}`, SK: 'VIEW' }),
  /** Which listing a property is under, BatchGet-able (GSI2 answers the same one Query at a time). */
  propertyOwner: (propertyId: string): Key => ({ PK: `PROPERTY#${propertyId}`, SK: 'OWNER' }),

  propertyMonth: (propertyId: string, month: string): Key => ({ PK: `PROPERTY#${propertyId}`, SK: `MONTH#${month}` }),

  channel: (channelId: string): Key => ({ PK: `CHANNEL#${channelId}`, SK: 'CHANNEL' }),
  distribution: (channelId: string, listingId: string): Key => ({ PK: `CHANNEL#${channelId}`, SK: `LISTING#${listingId}` }),
  channelFeedIndex: (channelId: string, feedUpdatedAt: string, listingId: string) => ({
    GSI1PK: `CHANNEL#${channelId}#FEED`,
    GSI1SK: `${feedUpdatedAt}#${listingId}`,
  }),
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
  searchCards: (channelId: string, shard: string): Key => ({ PK: `SEARCH#${channelId}`, SK: `C#${shard}` }),
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
  /** The unfinished chunk of an import or sync of one file (its content's digest). */
  importJournal: (runKey: string): Key => ({ PK: `IMPORT#${runKey}`, SK: 'PENDING_CHUNK' }),

  webhookEndpoint: (partnerId: string, endpointId: string): Key => ({ PK: `PARTNER#${partnerId}`, SK: `WEBHOOK#${endpointId}` }),
  webhookEndpointsOfPartner: (partnerId: string) => ({ PK: `PARTNER#${partnerId}`, SKPrefix: 'WEBHOOK#' }),
  webhookChannelIndex: (channelId: string, partnerId: string, endpointId: string) => ({
    GSI1PK: `CHANNEL#${channelId}#WEBHOOKS`,
    GSI1SK: `${partnerId}#${endpointId}`,
  }),
  webhooksOfChannel: (channelId: string) => ({ GSI1PK: `CHANNEL#${channelId}#WEBHOOKS` }),
  webhookCounter: (partnerId: string): Key => ({ PK: `PARTNER#${partnerId}`, SK: 'WEBHOOK_COUNT' }),

  delivery: (partnerId: string, deliveryId: string): Key => ({ PK: `PARTNER#${partnerId}`, SK: `DELIVERY#${deliveryId}` }),
  deliveriesOfPartner: (partnerId: string) => ({ PK: `PARTNER#${partnerId}`, SKPrefix: 'DELIVERY#' }),
  endpointDeliveryIndex: (endpointId: string, createdAt: string, deliveryId: string) => ({
    GSI1PK: `ENDPOINT#${endpointId}#DELIVERIES`,
    GSI1SK: `${createdAt}#${deliveryId}`,
  }),
  deliveriesOfEndpoint: (endpointId: string) => ({ GSI1PK: `ENDPOINT#${endpointId}#DELIVERIES` }),
  /** On booking callbacks, in place of the endpoint index (a callback has no endpoint): the callbacks of one booking. */
  bookingDeliveryIndex: (bookingRef: string, createdAt: string, deliveryId: string) => ({
    GSI1PK: `BOOKING#${bookingRef}#DELIVERIES`,
    GSI1SK: `${createdAt}#${deliveryId}`,
  }),
  deliveriesOfBooking: (bookingRef: string) => ({ GSI1PK: `BOOKING#${bookingRef}#DELIVERIES` }),
  /** Sparse: only PENDING deliveries carry it, so the sweeper reads exactly the work still open. */
  pendingDeliveryIndex: (nextAttemptAt: string, deliveryId: string) => ({
    GSI2PK: `DELIVERIES#PENDING#${workQueueShardOf(deliveryId)}`,
    GSI2SK: `${nextAttemptAt}#${deliveryId}`,
  }),
  /** Every shard's GSI2PK: the sweeper queries each and merges. */
  pendingDeliveryShards: () => everyShard('DELIVERIES#PENDING'),
  changeRecord: (channelId: string, recordedAt: string, eventId: string): Key => ({ PK: `CHANNEL#${channelId}#CHANGES`, SK: `${recordedAt}#${eventId}` }),
  changesOfChannel: (channelId: string) => ({ PK: `CHANNEL#${channelId}#CHANGES` }),
  /** The group's running exposure (paise), moved only in the same transaction as the ledger entry that justifies it. */
  creditCounter: (agentGroupId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: 'CREDIT' }),
  ledgerEntry: (agentGroupId: string, entryId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `LEDGER#${entryId}` }),
  ledgerEntriesOfGroup: (agentGroupId: string) => ({ PK: `GROUP#${agentGroupId}`, SKPrefix: 'LEDGER#' }),
  /** On ledger entries: the group's ledger in occurred-at order, for newest-first pages. */
  ledgerTimelineIndex: (agentGroupId: string, occurredAt: string, entryId: string) => ({
    GSI1PK: `GROUP#${agentGroupId}#LEDGER`,
    GSI1SK: `${occurredAt}#${entryId}`,
  }),
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
  /** The group's net POSTED balance of everything that occurred before `at` (an India midnight); see domain/ledger/balance-checkpoints.ts. */
  balanceCheckpoint: (agentGroupId: string, at: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `BALANCE#${at}` }),
  /** SK bounds of the checkpoints with `at` ≤ an instant (instants sort as strings). */
  balanceCheckpointsUpTo: (agentGroupId: string, atOrBefore: string) => ({ PK: `GROUP#${agentGroupId}`, lower: 'BALANCE#', upper: `BALANCE#${atOrBefore}` }),
  /** Idempotency record of POST /v1/bookings: one per (group, externalBookingId), holding the request's content hash. */
  bookingClaim: (agentGroupId: string, externalBookingId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `IDEMPOTENCY#BOOKING#${externalBookingId}` }),
  /** A booking, under its group; bookingRef is the service's own id, fixed at the credit gate. */
  booking: (agentGroupId: string, bookingRef: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `BOOKING#${bookingRef}` }),
  /** Written when a booking lands: the property-system booking id partners address it by → bookingRef. */
  bookingAlias: (agentGroupId: string, bookingId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `BOOKINGID#${bookingId}` }),
  /** On bookings: the group's bookings in order of last change (GET /v1/bookings, updatedSince). */
  bookingFeedIndex: (agentGroupId: string, updatedAt: string, bookingRef: string) => ({
    GSI1PK: `GROUP#${agentGroupId}#BOOKINGS`,
    GSI1SK: `${updatedAt}#${bookingRef}`,
  }),
  bookingFeed: (agentGroupId: string) => ({ GSI1PK: `GROUP#${agentGroupId}#BOOKINGS` }),
  /** Back from a bookingFeedIndex sort key to its parts (updatedAt is an ISO instant, never holding '#'): where a feed read stopped. */
  bookingFeedPositionOf: (gsi1sk: string) => ({ updatedAt: gsi1sk.slice(0, gsi1sk.indexOf('#')), bookingRef: gsi1sk.slice(gsi1sk.indexOf('#') + 1) }),
  /** Sparse: only bookings the workflow still has to look at carry it, so the sweeper reads exactly the open work. */
  openBookingIndex: (nextCheckAt: string, agentGroupId: string, bookingRef: string) => ({
    GSI2PK: `BOOKINGS#OPEN#${workQueueShardOf(bookingRef)}`,
    GSI2SK: `${nextCheckAt}#${agentGroupId}#${bookingRef}`,
  }),
  /** Every shard's GSI2PK: the sweeper queries each and merges. */
  openBookingShards: () => everyShard('BOOKINGS#OPEN'),
  /**
   * Sparse, on bookings whose workflow is done (never beside openBookingIndex) and whose guest
   * data is still held: the date their stay ended, so the daily erasure reads exactly the
   * bookings whose retention ran out (docs/personal-data.md). Sharded like the open bookings:
   * every settled booking joins it.
   */
  guestErasureIndex: (endedOn: string, agentGroupId: string, bookingRef: string) => ({
    GSI2PK: `GUESTS#ERASABLE#${workQueueShardOf(bookingRef)}`,
    GSI2SK: `${endedOn}#${agentGroupId}#${bookingRef}`,
  }),
  /** Every shard's GSI2PK: the erasure job queries each and merges. */
  guestErasureShards: () => everyShard('GUESTS#ERASABLE'),
  /** Back from a guestErasureIndex sort key to the booking (group ids and refs hold no '#'). */
  guestErasurePositionOf: (gsi2sk: string) => {
    const [, agentGroupId, bookingRef] = gsi2sk.split('#');
    return { agentGroupId: agentGroupId!, bookingRef: bookingRef! };
  },
  /** A Channex changes notification's idempotency record, by Channex's request_id. */
  channexRequest: (requestId: string): Key => ({ PK: `CHANNEX#REQ#${requestId}`, SK: 'REQUEST' }),
  /** A listing's Channex notifications by when they arrived: operators' view of its connection. */
  channexRequestIndex: (hotelCode: string, receivedAt: string, requestId: string) => ({
    GSI1PK: `CHANNEX#LISTING#${hotelCode}`,
    GSI1SK: `${receivedAt}#${requestId}`,
  }),
  channexRequestsOfListing: (hotelCode: string) => ({ GSI1PK: `CHANNEX#LISTING#${hotelCode}` }),
  /** The Channex adapter's record of one booking revision pushed (its idempotency record). */
  channexRevision: (bookingRef: string, key: string): Key => ({ PK: `CHANNEX#BOOKING#${bookingRef}`, SK: `REVISION#${key}` }),
  /** The Channex adapter's booking: what was last pushed and whether Channex took it. */
  channexBooking: (bookingRef: string): Key => ({ PK: `CHANNEX#BOOKING#${bookingRef}`, SK: 'BOOKING' }),
  /** The property-system simulator's reservation for one booking (sandbox stages). */
  simulatedReservation: (bookingRef: string): Key => ({ PK: `SIMRES#${bookingRef}`, SK: 'RESERVATION' }),
  /** The simulator's stored answer to one modification of a reservation (its idempotency record). */
  simulatedModification: (bookingRef: string, key: string): Key => ({ PK: `SIMRES#${bookingRef}`, SK: `MODIFICATION#${key}` }),
  /** A sandbox scenario a request forced for one booking (its bookingRef) or amendment (its id), read by the simulator; expires after a week. */
  forcedScenario: (key: string): Key => ({ PK: `SIMSCENARIO#${key}`, SK: 'SCENARIO' }),
  /** An amendment of a booking, under its group (the durable record of its steps). */
  amendment: (agentGroupId: string, bookingRef: string, amendmentId: string): Key => ({
    PK: `GROUP#${agentGroupId}`,
    SK: `AMENDMENT#${bookingRef}#${amendmentId}`,
  }),
  amendmentsOf: (agentGroupId: string, bookingRef: string) => ({ PK: `GROUP#${agentGroupId}`, SKPrefix: `AMENDMENT#${bookingRef}#` }),
  /** Held by the one amendment of a booking in flight: a second one finds it and is told to re-quote. */
  amendmentLock: (agentGroupId: string, bookingRef: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `AMENDING#${bookingRef}` }),
  /** Sparse: amendments whose steps are not finished, for the sweeper; sharded like the open bookings. */
  openAmendmentIndex: (nextCheckAt: string, agentGroupId: string, amendmentId: string) => ({
    GSI2PK: `AMENDMENTS#OPEN#${workQueueShardOf(amendmentId)}`,
    GSI2SK: `${nextCheckAt}#${agentGroupId}#${amendmentId}`,
  }),
  /** Every shard's GSI2PK: the sweeper queries each and merges. */
  openAmendmentShards: () => everyShard('AMENDMENTS#OPEN'),
  /** An invoice, under its group: tenancy is part of the key. */
  invoice: (agentGroupId: string, invoiceId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `INVOICE#${invoiceId}` }),
  /** On ISSUED invoices only: the group's invoices by issue date (GET /v1/invoices); DRAFT and CANCELLED never carry it. */
  invoiceListIndex: (agentGroupId: string, issueDate: string, issuedAt: string, invoiceId: string) => ({
    GSI1PK: `GROUP#${agentGroupId}#INVOICES`,
    GSI1SK: `${issueDate}#${issuedAt}#${invoiceId}`,
  }),
  invoiceList: (agentGroupId: string) => ({ GSI1PK: `GROUP#${agentGroupId}#INVOICES` }),
  /** A registration's documents voided at the IRP (number kept, no longer the group's), by issue date: GSTR-1 reports them cancelled. */
  cancelledDocumentIndex: (supplierGstin: string, issueDate: string, invoiceNumber: string) => ({
    GSI1PK: `GSTIN#${supplierGstin}#CANCELLED`,
    GSI1SK: `${issueDate}#${invoiceNumber}`,
  }),
  /** Back from an invoiceListIndex sort key to the invoice id (the part after the last '#'). */
  invoiceIdOfListKey: (gsi1sk: string) => gsi1sk.slice(gsi1sk.lastIndexOf('#') + 1),
  /** Sparse: invoices with a step still to do (DRAFT, or ISSUED without PDF or booking marks). */
  openInvoiceIndex: (agentGroupId: string, createdAt: string, invoiceId: string) => ({
    GSI2PK: 'INVOICES#OPEN',
    GSI2SK: `${agentGroupId}#${createdAt}#${invoiceId}`,
  }),
  openInvoices: () => ({ GSI2PK: 'INVOICES#OPEN' }),
  /**
   * One invoice line, keyed by what it bills (booking, kind, item), not by the invoice: a
   * second line for the same thing collides here whichever invoice or run writes it.
   */
  invoiceLine: (agentGroupId: string, bookingRef: string, lineKey: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `INVLINE#${bookingRef}#${lineKey}` }),
  linesOfBooking: (agentGroupId: string, bookingRef: string) => ({ PK: `GROUP#${agentGroupId}`, SKPrefix: `INVLINE#${bookingRef}#` }),
  /** On lines: the lines of one invoice. */
  invoiceLineIndex: (invoiceId: string, bookingRef: string, lineKey: string) => ({ GSI1PK: `INVOICE#${invoiceId}#LINES`, GSI1SK: `${bookingRef}#${lineKey}` }),
  linesOfInvoice: (invoiceId: string) => ({ GSI1PK: `INVOICE#${invoiceId}#LINES` }),
  /**
   * One lane of an invoice's parallel line writes: the figures of the lines written through it,
   * moved in the same transactions as those lines, until the lane is closed onto the invoice.
   */
  invoiceLineLane: (agentGroupId: string, invoiceId: string, lane: number): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `INVLANE#${invoiceId}#${lane}` }),
  lanesOfInvoice: (agentGroupId: string, invoiceId: string) => ({ PK: `GROUP#${agentGroupId}`, SKPrefix: `INVLANE#${invoiceId}#` }),
  /** Σ of a booking's invoiced lines, moved in the same transaction as the lines. */
  billingMarker: (agentGroupId: string, bookingRef: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `BILLED#${bookingRef}` }),
  /** The last number taken from one registration's invoice series in one financial year; a sandbox test clock's own series beside it. */
  invoiceSeries: (gstin: string, financialYear: string, testClockId?: string): Key => ({
    PK: `SERIES#${gstin}`,
    SK: `INVOICE#${financialYear}${testClockId ? `#CLOCK#${testClockId}` : ''}`,
  }),
  /** The last number taken from one registration's credit-note series (its own, beside the invoice series) in one financial year; a test clock's beside it. */
  creditNoteSeries: (gstin: string, financialYear: string, testClockId?: string): Key => ({
    PK: `SERIES#${gstin}`,
    SK: `CREDITNOTE#${financialYear}${testClockId ? `#CLOCK#${testClockId}` : ''}`,
  }),
  /** A credit note's line, under its group; found through invoiceLineIndex like an invoice's. Never under INVLINE#: it bills nothing. */
  creditNoteLine: (agentGroupId: string, creditNoteId: string, lineId: string): Key => ({
    PK: `GROUP#${agentGroupId}`,
    SK: `CNLINE#${creditNoteId}#${lineId}`,
  }),
  /** One payment received from a group, keyed by its source and reference so a duplicate collides. */
  payment: (agentGroupId: string, paymentKey: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `PAYMENT#${paymentKey}` }),
  paymentsOfGroup: (agentGroupId: string) => ({ PK: `GROUP#${agentGroupId}`, SKPrefix: 'PAYMENT#' }),
  /** A gateway payment id → its group, written with the payment (a refund names only the payment). */
  gatewayPayment: (paymentId: string): Key => ({ PK: `GATEWAYPAYMENT#${paymentId}`, SK: 'PAYMENT' }),
  /** One refund of a group's payment, keyed by the gateway's refund id so a duplicate collides. */
  paymentRefund: (agentGroupId: string, refundId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `PAYMENTREFUND#${refundId}` }),
  refundsOfGroup: (agentGroupId: string) => ({ PK: `GROUP#${agentGroupId}`, SKPrefix: 'PAYMENTREFUND#' }),
  /** Reconciliation's last look at the gateway's refunds (one account-wide list). */
  refundLook: (): Key => ({ PK: 'GATEWAYREFUNDS', SK: 'LOOK' }),
  disputeLook: (): Key => ({ PK: 'GATEWAYDISPUTES', SK: 'LOOK' }),
  /** The group's money received and not yet allocated to an invoice, with a version allocations commit on. */
  receivablesAccount: (agentGroupId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: 'RECEIVABLES' }),
  /** The ids of a booking's POSTED ledger entries (charge, adjustments, refunds), added in each posting's transaction; never removed. */
  bookingEntries: (agentGroupId: string, bookingId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `BOOKENTRIES#${bookingId}` }),
  /** Present while a booking may have unbilled work: put by each posting, deleted by the run that bills it all. */
  unbilled: (agentGroupId: string, bookingId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `UNBILLED#${bookingId}` }),
  unbilledOfGroup: (agentGroupId: string) => ({ PK: `GROUP#${agentGroupId}`, SKPrefix: 'UNBILLED#' }),
  /** Says the group's unbilled index covers its whole history (new groups once a run found them, old ones once backfilled). */
  unbilledIndex: (agentGroupId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: 'UNBILLED_INDEX' }),
  /** The group's running figures over its invoices still owing (outstanding, how many), moved in the transactions that move what they owe. */
  dues: (agentGroupId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: 'DUES' }),
  /** One per invoice still owing, by due date: the first is the oldest due. */
  dueMarker: (agentGroupId: string, dueDate: string, invoiceId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `DUE#${dueDate}#${invoiceId}` }),
  dueMarkers: (agentGroupId: string) => ({ PK: `GROUP#${agentGroupId}`, SKPrefix: 'DUE#' }),
  /** A gateway order → the group and invoice it was opened for (notifications name only the order). */
  gatewayOrder: (orderId: string): Key => ({ PK: `GATEWAYORDER#${orderId}`, SK: 'ORDER' }),
  /** A pay link → the group and invoice it was made for (`payment_link.paid` names the link). */
  payLink: (linkId: string): Key => ({ PK: `PAYLINK#${linkId}`, SK: 'LINK' }),
  /** One per invoice of the group holding a pay link: the links a payment or refund may have to replace or cancel. */
  payLinkOf: (agentGroupId: string, invoiceId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `PAYLINKOF#${invoiceId}` }),
  payLinksOf: (agentGroupId: string) => ({ PK: `GROUP#${agentGroupId}`, SKPrefix: 'PAYLINKOF#' }),
  /** The group's Smart Collect virtual account (and the intent written before creating it, and reconciliation's last look). */
  groupVirtualAccount: (agentGroupId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: 'VIRTUALACCOUNT' }),
  /** A virtual account → its group (a virtual_account.credited event names only the account). */
  virtualAccount: (virtualAccountId: string): Key => ({ PK: `VIRTUALACCOUNT#${virtualAccountId}`, SK: 'ACCOUNT' }),
  /** A gateway payment that is no group's money, kept once per payment id; listed for operators through GSI1. */
  /** A dispute of one of the group's gateway payments, as last seen (one per dispute id). */
  paymentDispute: (agentGroupId: string, disputeId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `PAYMENTDISPUTE#${disputeId}` }),
  disputesOfGroup: (agentGroupId: string) => ({ PK: `GROUP#${agentGroupId}`, SKPrefix: 'PAYMENTDISPUTE#' }),
  /** Only while a dispute is open or under review: operators' list of disputes to answer. */
  openDisputeIndex: (createdAt: string, disputeId: string) => ({ GSI1PK: 'OPENDISPUTES', GSI1SK: `${createdAt}#${disputeId}` }),
  /** A bank transfer's UTR → the one payment that recorded it (typed in, or through Smart Collect), written with it. */
  transferClaim: (utr: string): Key => ({ PK: `TRANSFERUTR#${utr}`, SK: 'CLAIM' }),
  unmatchedPayment: (paymentId: string): Key => ({ PK: `UNMATCHEDPAYMENT#${paymentId}`, SK: 'PAYMENT' }),
  unmatchedPaymentIndex: (keptAt: string, paymentId: string) => ({ GSI1PK: 'UNMATCHEDPAYMENTS', GSI1SK: `${keptAt}#${paymentId}` }),
  /** The sandbox IRP's own record of a document it registered, by IRN (infra/einvoice: what the real IRP keeps on its side). */
  sandboxIrn: (irn: string): Key => ({ PK: `SANDBOXIRP#${irn}`, SK: 'REGISTRATION' }),
  /** A document the IRP holds registered that an operator must see to (needs reconciliation, or a signature that does not verify): one partition, listed by `invoices held`. */
  eInvoiceHold: (agentGroupId: string, invoiceId: string): Key => ({ PK: 'EINVOICEHOLDS', SK: `${agentGroupId}#${invoiceId}` }),
  eInvoiceHolds: () => ({ PK: 'EINVOICEHOLDS' }),
  /** The IRP session (auth token and Sek, sealed) of one registration GSTIN, shared by every process of a stage, with its sign-in lease. */
  irpSession: (gstin: string): Key => ({ PK: `IRPSESSION#${gstin}`, SK: 'SESSION' }),
  billingLock: (agentGroupId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: 'BILLING_LOCK' }),
  billingState: (agentGroupId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: 'BILLING_STATE' }),
  billingRun: (agentGroupId: string, startedAt: string, runId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: `BILLINGRUN#${startedAt}#${runId}` }),
  billingRunsOfGroup: (agentGroupId: string) => ({ PK: `GROUP#${agentGroupId}`, SKPrefix: 'BILLINGRUN#' }),
  billingRunIndex: (startedAt: string, agentGroupId: string, runId: string) => ({ GSI1PK: 'BILLINGRUNS', GSI1SK: `${startedAt}#${agentGroupId}#${runId}` }),
  billingRuns: () => ({ GSI1PK: 'BILLINGRUNS' }),
  /** One audit chain per target (docs/audit.md): its events by position, and its head. */
  auditEvent: (target: string, seq: number): Key => ({ PK: `AUDIT#${target}`, SK: `EVENT#${String(seq).padStart(10, '0')}` }),
  auditEventsOf: (target: string) => ({ PK: `AUDIT#${target}`, SKPrefix: 'EVENT#' }),
  auditHead: (target: string): Key => ({ PK: `AUDIT#${target}`, SK: 'HEAD' }),
  /** An account's events, oldest first by `<at>#<id>` (GET /v1/audit-events). */
  auditAccountIndex: (account: string, at: string, eventId: string) => ({ GSI1PK: `AUDIT#ACCOUNT#${account}`, GSI1SK: `${at}#${eventId}` }),
  auditAccount: (account: string) => ({ GSI1PK: `AUDIT#ACCOUNT#${account}` }),
  auditDayIndex: (at: string, eventId: string) => ({
    GSI2PK: `AUDIT#DAY#${at.slice(0, 10)}#${auditShardOf(eventId, AUDIT_DAY_SHARDS)}`,
    GSI2SK: `${at}#${eventId}`,
  }),
  auditDayShards: (day: string) => Array.from({ length: AUDIT_DAY_SHARDS }, (_, shard) => `AUDIT#DAY#${day}#${shard}`),
  /** Every chain's head, sharded like the work queues, so verify can enumerate the chains. */
  auditChainIndex: (target: string) => ({ GSI2PK: `AUDIT#CHAINS#${workQueueShardOf(target)}`, GSI2SK: target }),
  auditChainShards: () => everyShard('AUDIT#CHAINS'),
  /** A run over every group (the daily fan-out): its record, listed newest first through GSI1, and one item per group it reached. */
  billingFanOut: (runId: string): Key => ({ PK: `BILLINGFANOUT#${runId}`, SK: 'RUN' }),
  billingFanOutIndex: (startedAt: string, runId: string) => ({ GSI1PK: 'BILLINGFANOUTS', GSI1SK: `${startedAt}#${runId}` }),
  billingFanOuts: () => ({ GSI1PK: 'BILLINGFANOUTS' }),
  billingFanOutGroup: (runId: string, agentGroupId: string): Key => ({ PK: `BILLINGFANOUT#${runId}`, SK: `GROUP#${agentGroupId}` }),
  billingFanOutGroups: (runId: string) => ({ PK: `BILLINGFANOUT#${runId}`, SKPrefix: 'GROUP#' }),
} as const;

/** An update's values `:gpk`/`:gsk` for moving an item to a GSI1 index (`SET GSI1PK = :gpk, GSI1SK = :gsk`). */
export const prefixed = (index: { GSI1PK: string; GSI1SK: string }) => ({ ':gpk': index.GSI1PK, ':gsk': index.GSI1SK });
