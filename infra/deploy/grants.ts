import type { Intrinsic } from './cloudformation.ts';
import { getAtt, sub } from './cloudformation.ts';

/**
 * Every IAM statement a function may be given, by name (docs/decisions/platform.md "Functions and
 * IAM from manifests"). A function's manifest (functions/manifests/*.ts) lists the names it needs, so
 * a misspelt grant fails the type check; `npm run deploy:generate` writes them into
 * infra/deploy/functions.yml for serverless-iam-roles-per-function. Least privilege: DynamoDB grants
 * pin their partition keys with dynamodb:LeadingKeys to the key prefixes (infra/dynamo/keys.ts) that
 * the function's access patterns use. `why` says what needs the grant; it becomes the comment above
 * the statement in the generated file.
 */
export interface IamStatement {
  readonly Effect: 'Allow';
  readonly Action: readonly string[];
  readonly Resource: Intrinsic | readonly Intrinsic[];
  readonly Condition?: { readonly 'ForAllValues:StringLike': { readonly 'dynamodb:LeadingKeys': readonly string[] } };
}

export interface Grant {
  readonly why?: string;
  readonly statement: IamStatement;
}

const tableArn = getAtt('Table');
/** A global secondary index of the table: `<table arn>/index/<name>`. */
const tableIndex = (name: string): Intrinsic => ({ 'Fn::Join': ['/', [tableArn, 'index', name]] });
/** DynamoDB actions on the table or an index, only on items whose partition key matches one of the patterns (keys.ts's prefixes). */
const dynamo = (actions: readonly string[], resource: IamStatement['Resource'], leadingKeys: readonly string[]): IamStatement => ({
  Effect: 'Allow',
  Action: actions.map((action) => `dynamodb:${action}`),
  Resource: resource,
  Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': leadingKeys } },
});

export const grants = {
  // authenticate
  readTenants: { statement: dynamo(['GetItem'], tableArn, ['APIKEY#*', 'PARTNER#*', 'GROUP#*']) },
  spendToken: { statement: dynamo(['UpdateItem'], tableArn, ['BUCKET#*']) },
  keepTestClocks: {
    why: "Sandbox test clocks (docs/sandbox.md): one item under each group that has one. UpdateItem: creating and removing a clock sets and removes the group record's testClockId in the same transaction.",
    statement: dynamo(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], tableArn, ['GROUP#*']),
  },

  // audit
  writeAudit: {
    why: "An audited change adds its event and its chain's head (docs/audit.md) to its own transaction; the head is read first.",
    statement: dynamo(['GetItem', 'PutItem'], tableArn, ['AUDIT#*']),
  },
  writeAuditDigests: {
    why: 'Audit items are never updated or deleted: no function is granted UpdateItem, DeleteItem or BatchWriteItem on AUDIT#* (test/integration/iam-coverage.test.ts checks every statement). PutItem cannot be limited to new items by IAM; the writers\' conditions refuse overwrites, and an overwrite made with these rights outside the code is what the signed digests catch. The hourly digest (writeAuditDigest, docs/audit.md "Digests"): reads every chain head, signs with the stage\'s KMS key and stores the digest write-once. No other function may sign or write there.',
    statement: dynamo(['Query'], tableIndex('GSI2'), ['AUDIT#CHAINS#*']),
  },
  signAuditDigests: { statement: { Effect: 'Allow', Action: ['kms:Sign'], Resource: getAtt('AuditSigningKey') } },
  storeAuditDigests: {
    statement: {
      Effect: 'Allow',
      Action: ['s3:PutObject', 's3:GetObject', 's3:ListBucket'],
      Resource: [getAtt('AuditDigestBucket'), { 'Fn::Join': ['', [getAtt('AuditDigestBucket'), '/*']] }],
    },
  },
  readAuditEvents: { statement: dynamo(['Query'], tableIndex('GSI1'), ['AUDIT#ACCOUNT#*']) },

  // catalogue
  readCatalogue: {
    statement: dynamo(
      ['GetItem', 'BatchGetItem', 'Query'],
      [tableArn, { 'Fn::Join': ['', [tableArn, '/index/GSI2']] }],
      ['CHANNEL#*', 'LISTING#*', 'PROPERTY#*'],
    ),
  },

  // distributionCatalogue
  readDistributionCatalogue: {
    why: "/v1 catalogue reads: the channel's feed on GSI1 (CHANNEL#<c>#FEED), then BatchGets of distribution rows (CHANNEL#), listing views (LISTING#) and property months (PROPERTY#).",
    statement: dynamo(['GetItem', 'BatchGetItem', 'Query'], [tableArn, tableIndex('GSI1')], ['CHANNEL#*', 'LISTING#*', 'PROPERTY#*']),
  },

  // orders
  readPricing: {
    why: 'Pricing reads beyond the listing Query: one BatchGet of the channel, the distribution row, cancellation plans (PLAN#) and property months, plus the GST slab tables (one Query).',
    statement: dynamo(['BatchGetItem', 'Query'], tableArn, ['CHANNEL#*', 'PROPERTY#*', 'PLAN#*', 'GST#SLABS']),
  },
  readOrders: {
    why: 'Orders live under GROUP#<g> (SK ORDER#<id>); the preview has no write grant at all.',
    statement: dynamo(['GetItem'], tableArn, ['GROUP#*']),
  },
  writeOrders: { statement: dynamo(['PutItem', 'UpdateItem'], tableArn, ['GROUP#*']) },

  // bookingReads
  readBookings: {
    why: 'GET /v1/bookings(/{id}): alias (BOOKINGID#), claim (IDEMPOTENCY#BOOKING#) and booking items all sit under GROUP#<g>; the feed is GSI1 GROUP#<g>#BOOKINGS. Read only.',
    statement: dynamo(['GetItem', 'BatchGetItem'], tableArn, ['GROUP#*']),
  },
  readBookingFeed: { statement: dynamo(['Query'], tableIndex('GSI1'), ['GROUP#*']) },

  // webhooks
  manageWebhooks: { statement: dynamo(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query'], tableArn, ['PARTNER#*']) },

  // deliveries
  workDeliveries: {
    why: 'Deliveries live under PARTNER#<id>; the endpoint log reads GSI1 (ENDPOINT#…), the sweeper GSI2 (DELIVERIES#PENDING#<shard>).',
    statement: dynamo(['GetItem', 'PutItem', 'UpdateItem', 'BatchWriteItem'], tableArn, ['PARTNER#*']),
  },
  readEndpointDeliveries: { statement: dynamo(['Query'], tableIndex('GSI1'), ['ENDPOINT#*']) },
  readCallbackSecrets: {
    why: "The delivery worker signs each booking callback with the group's secret (GROUP#<id> / CALLBACK_SECRET).",
    statement: dynamo(['GetItem'], tableArn, ['GROUP#*']),
  },
  readBookingDeliveries: {
    why: "The delivery worker signs each booking callback with the group's secret (GROUP#<id> / CALLBACK_SECRET). A booking's callbacks (GSI1 BOOKING#<bookingRef>#DELIVERIES), for the booking read.",
    statement: dynamo(['Query'], tableIndex('GSI1'), ['BOOKING#*']),
  },
  sweepPending: {
    why: "A booking's callbacks (GSI1 BOOKING#<bookingRef>#DELIVERIES), for the booking read.",
    statement: dynamo(['Query'], tableIndex('GSI2'), ['DELIVERIES#PENDING#*']),
  },
  readChanges: { statement: dynamo(['Query'], tableArn, ['CHANNEL#*']) },
  publishCatalogueEvents: {
    why: 'For the catalogue sync that publishes events: endpoints of a channel (GSI1) and change-feed rows.',
    statement: dynamo(['Query', 'BatchWriteItem'], [tableArn, tableIndex('GSI1')], ['CHANNEL#*', 'PARTNER#*']),
  },
  queueDeliveries: { statement: { Effect: 'Allow', Action: ['sqs:SendMessage'], Resource: getAtt('WebhookDeliveriesQueue') } },

  // sync
  writeCatalogue: {
    why: "The sync reads and rewrites catalogue records (listing partitions, property months and owners, channel distributions) and looks properties and a listing's channels up on GSI2. It keeps the search projection in the same flow: UpdateItem of its shards, head (SEARCH#<channel>) and locators (PROPERTY#<id>, SK SEARCH), or a rebuild of a channel without a current head (Query, BatchWrite). IMPORT#*: a sync's chunk journal (written before a chunk, deleted once it is announced).",
    statement: dynamo(
      ['GetItem', 'Query', 'BatchGetItem', 'BatchWriteItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
      [tableArn, tableIndex('GSI2')],
      ['LISTING#*', 'PROPERTY#*', 'CHANNEL#*', 'PLAN#*', 'GSTREG#*', 'GST#*', 'SEARCH#*', 'IMPORT#*'],
    ),
  },

  // ledger
  readLedger: {
    why: "GET /v1/ledger and /v1/statement: the group's timeline on GSI1 (GROUP#<g>#LEDGER) and one BatchGet of PROFILE + CREDIT for the live position. Read-only: no write grant at all.",
    statement: dynamo(['Query'], tableIndex('GSI1'), ['GROUP#*']),
  },
  readCreditPosition: { statement: dynamo(['BatchGetItem'], tableArn, ['GROUP#*']) },
  readBalances: {
    why: 'Statement openings: the latest balance checkpoint (GROUP#<g> BALANCE#<at>) at or before from, one Query.',
    statement: dynamo(['Query'], tableArn, ['GROUP#*']),
  },
  keepBalances: {
    why: "Billing runs write the settled days' checkpoints (GROUP#<g> BALANCE#<at>) in batches of Puts.",
    statement: dynamo(['Query', 'BatchWriteItem'], tableArn, ['GROUP#*']),
  },

  // invoicing
  billInvoices: {
    why: "Invoices, their lines, billing markers, the lock, billing state and runs sit under GROUP#<g>; invoice series under SERIES#<gstin>. Lines are conditional Puts in transactions with the invoice's figures and the booking's marker; issuing is a transaction of series + invoice; booking marks are conditional Updates of GROUP#<g> BOOKING# items. The sandbox IRP keeps the documents it registered under SANDBOXIRP#<irn> (conditional Put, Get on a duplicate); the real IRP's sessions sit under IRPSESSION#<gstin> (Get, conditional Update for the sign-in lease).",
    statement: dynamo(['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query'], tableArn, [
      'GROUP#*',
      'SERIES#*',
      'GATEWAYORDER#*',
      'SANDBOXIRP#*',
      'VIRTUALACCOUNT#*',
      'IRPSESSION#*',
    ]),
  },
  receivePayments: {
    why: "Lists: a group's issued invoices and runs (GSI1 GROUP#<g>#INVOICES, BILLINGRUNS), an invoice's lines (GSI1 INVOICE#<id>#LINES), open invoices (GSI2 INVOICES#OPEN), the ledger timeline (GSI1), and (scheduled run) every group (GSI1 GROUPS). Payments: the order's way to its invoice (GATEWAYORDER#), the payment, its ledger entry and the group's counters in one transaction (Put, Update, ConditionCheck), then allocation to invoices. Refunds: the payment's way to its group (GATEWAYPAYMENT#) and reconciliation's look at refunds (GATEWAYREFUNDS).",
    statement: dynamo(['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem', 'Query'], tableArn, [
      'GROUP#*',
      'GATEWAYORDER#*',
      'VIRTUALACCOUNT#*',
      'UNMATCHEDPAYMENT#*',
      'GATEWAYPAYMENT#*',
      'GATEWAYREFUNDS',
    ]),
  },
  listInvoices: {
    statement: dynamo(
      ['Query'],
      [tableIndex('GSI1'), tableIndex('GSI2')],
      ['GROUP#*', 'INVOICE#*', 'BILLINGRUNS', 'INVOICES#OPEN', 'GROUPS', 'UNMATCHEDPAYMENTS'],
    ),
  },
  readBillingCatalogue: {
    why: 'A run names properties and our GST registration in their state: Query LISTING#<l>, GetItem GSTREG#<state>.',
    statement: dynamo(['GetItem', 'Query'], tableArn, ['LISTING#*', 'GSTREG#*']),
  },

  // search
  searchCatalogue: {
    why: "POST /v1/listings/search: BatchGets of the channel's search projection (SEARCH#<channel>: head, shards), the channel (CHANNEL#), pinned properties' locators (PROPERTY#), plans (PLAN#) and the page's listing views (LISTING#); Query of the channel's offers. A listing without a stored view falls back to a Query of its partition. A channel whose projection head is missing or of an older version is rebuilt first (Query of distributions and months, BatchWrite of shards, UpdateItem of locators). No GST read: prices are before GST.",
    statement: dynamo(
      ['GetItem', 'BatchGetItem', 'Query', 'BatchWriteItem', 'UpdateItem'],
      [tableArn, tableIndex('GSI2')],
      ['CHANNEL#*', 'LISTING#*', 'PROPERTY#*', 'PLAN#*', 'SEARCH#*'],
    ),
  },

  // bookings
  workBookings: {
    why: "A booking, its idempotency claim and alias, its ledger entries and the group's credit counter all live under GROUP#<g>; the gate and each workflow step are transactions of Put, Update and ConditionCheck on them, plus consistent Gets and BatchGets.",
    statement: dynamo(['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'], tableArn, ['GROUP#*']),
  },
  bookInventory: {
    why: "Taking and returning a booking's units: the property months (PROPERTY#<id>, SK MONTH#), read with the properties' search locators (SK SEARCH) in one BatchGet, and the search projection's day shards (SEARCH#<channel>) updated in the same transaction.",
    statement: dynamo(['GetItem', 'BatchGetItem', 'UpdateItem'], tableArn, ['PROPERTY#*', 'SEARCH#*']),
  },
  simulatePropertySystem: {
    why: "The property-system simulator: its reservations (SIMRES#), the sandbox scenarios forced per booking or amendment (SIMSCENARIO#, read in one BatchGet with the listing's behaviour, and alone by a sandbox amendment's money step) and each listing's behaviour (LISTING#<id>, SK SIMULATOR).",
    statement: dynamo(['GetItem', 'PutItem', 'UpdateItem'], tableArn, ['SIMRES#*', 'SIMSCENARIO#*']),
  },
  readSimulatorBehaviour: { statement: dynamo(['GetItem', 'BatchGetItem'], tableArn, ['LISTING#*', 'SIMSCENARIO#*']) },
  amendBookings: {
    why: "Amendments: a booking's amendment records and its lock (GROUP#<g>, SK AMENDMENT#… and AMENDING#…); the lock is deleted when an amendment settles.",
    statement: dynamo(['DeleteItem', 'Query'], tableArn, ['GROUP#*']),
  },
  keepIdempotencyKeys: {
    why: 'Idempotency-Key of creating POSTs (IDEMPOTENCY#<tenant>#<operation>, SK KEY#<key>): claimed by a conditional put, answered, or freed.',
    statement: dynamo(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], tableArn, ['IDEMPOTENCY#*']),
  },
  readAmendments: { statement: dynamo(['Query'], tableArn, ['GROUP#*']) },
  sweepOpenAmendments: { statement: dynamo(['Query'], tableIndex('GSI2'), ['AMENDMENTS#OPEN#*']) },
  sweepOpenBookings: { statement: dynamo(['Query'], tableIndex('GSI2'), ['BOOKINGS#OPEN#*']) },
  listTestClocks: {
    why: 'Sandbox test clocks (docs/sandbox.md): a scheduled job that judges bookings by time lists the clocked groups (GSI2 TEST_CLOCKS) to look at each again at its own time; production lists none.',
    statement: dynamo(['Query'], tableIndex('GSI2'), ['TEST_CLOCKS']),
  },
  findErasableGuests: {
    why: "Guest data retention (docs/personal-data.md): the bookings whose retention ran out (GSI2 GUESTS#ERASABLE#<shard>), then per booking its record and amendments (GROUP#), the Channex adapter's copy (CHANNEX#BOOKING#), and the booking's final conditional write.",
    statement: dynamo(['Query'], tableIndex('GSI2'), ['GUESTS#ERASABLE#*']),
  },
  eraseGuests: { statement: dynamo(['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'], tableArn, ['GROUP#*', 'CHANNEX#BOOKING#*']) },
  eraseGuestCallbacks: {
    why: "Erasure reaches the booking's callbacks kept for resend (their bodies carry a cancellation's reason).",
    statement: dynamo(['Query'], tableIndex('GSI1'), ['BOOKING#*']),
  },
  eraseGuestCallbackTexts: { statement: dynamo(['UpdateItem'], tableArn, ['PARTNER#*']) },
  queueBookingChecks: { statement: { Effect: 'Allow', Action: ['sqs:SendMessage'], Resource: getAtt('BookingWorkflowQueue') } },

  // mail
  keepMailSettings: {
    why: "Outbound e-mail through SESv2 (infra/mail/ses-mailer.ts): any verified identity of the account (the stage's mailFrom) and its configuration sets; only the functions that e-mail someone add it. A group's mail settings (GROUP#<id> / MAIL_SETTINGS): finance contacts and the operator's pause. Each change also writes or deletes the contacts' address items (MAIL_ADDRESS#<email>), by which a bounce finds them.",
    statement: dynamo(['GetItem', 'PutItem', 'DeleteItem', 'Query'], tableArn, ['GROUP#*', 'MAIL_ADDRESS#*']),
  },
  logMail: {
    why: "Each e-mail sent (GROUP#<id> / MAIL#…): claimed, marked sent, or given back when SES refused it; read to skip a month's statement already sent.",
    statement: dynamo(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], tableArn, ['GROUP#*']),
  },
  sendMail: {
    statement: {
      Effect: 'Allow',
      Action: ['ses:SendEmail'],
      Resource: [
        sub('arn:${AWS::Partition}:ses:${AWS::Region}:${AWS::AccountId}:identity/*'),
        sub('arn:${AWS::Partition}:ses:${AWS::Region}:${AWS::AccountId}:configuration-set/*'),
      ],
    },
  },

  // invoiceDocuments
  readInvoiceDocuments: {
    why: 'Invoice and credit-note PDFs in the InvoiceBucket (infra/s3/s3-document-store.ts): objects only, never the bucket itself. A function that serves PDFs reads; one that issues or re-renders them also writes. No function uses these yet; the invoice functions add them.',
    statement: { Effect: 'Allow', Action: ['s3:GetObject'], Resource: { 'Fn::Join': ['', [getAtt('InvoiceBucket'), '/*']] } },
  },
  writeInvoiceDocuments: { statement: { Effect: 'Allow', Action: ['s3:PutObject'], Resource: { 'Fn::Join': ['', [getAtt('InvoiceBucket'), '/*']] } } },
  queueInvoicePdfs: {
    why: "A billing run queues each issued document's PDF for renderInvoicePdfs.",
    statement: { Effect: 'Allow', Action: ['sqs:SendMessage'], Resource: getAtt('InvoicePdfQueue') },
  },
  keepBillingRuns: {
    why: "The daily run: its record and each group's outcome (BILLINGFANOUT#<runId>), and the queue of its groups.",
    statement: dynamo(['GetItem', 'UpdateItem', 'Query'], tableArn, ['BILLINGFANOUT#*']),
  },
  queueBillingJobs: { statement: { Effect: 'Allow', Action: ['sqs:SendMessage'], Resource: getAtt('BillingQueue') } },

  // console
  consolePeople: {
    why: "People, their sign-in links and sessions (infra/dynamo/dynamo-console-store.ts), and a team's index.",
    statement: dynamo(
      ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query'],
      [tableArn, tableIndex('GSI1')],
      ['PERSON#*', 'PERSON_EMAIL#*', 'SIGNIN#*', 'SESSION#*', 'TEAM#*', 'PASSKEY#*', 'WEBAUTHN#*'],
    ),
  },
  issueGroupKeys: {
    why: "A group's key issued, replaced or revoked from the console (domain/admin.ts): the key and the group's callback secret, and the owner's key list.",
    statement: dynamo(['PutItem', 'UpdateItem', 'Query'], [tableArn, tableIndex('GSI1')], ['APIKEY#*', 'GROUP#*', 'KEYS#*']),
  },
  holdGroups: {
    why: "An operator's hold and release (domain/admin.ts updateAgentGroup, with its audit event).",
    statement: dynamo(['UpdateItem'], tableArn, ['GROUP#*']),
  },
  createTenants: {
    why: "An operator's new partner or group from the console (domain/admin.ts createPartner, createAgentGroup, with its audit event).",
    statement: dynamo(['PutItem'], tableArn, ['PARTNER#*', 'GROUP#*']),
  },
  readGatewayExceptions: {
    why: "Operators' lists of the gateway's unmatched payments and open disputes (GSI1).",
    statement: dynamo(['Query'], tableIndex('GSI1'), ['UNMATCHEDPAYMENTS', 'OPENDISPUTES']),
  },

  // channelManager
  keepChannexRequests: {
    why: "Channex notifications' idempotency records (CHANNEX#REQ#<request_id>) and the queue of their apply step.",
    statement: dynamo(['GetItem', 'PutItem', 'UpdateItem'], tableArn, ['CHANNEX#*']),
  },
  readChannexConnections: {
    why: "Operators' view of a listing's connection: its latest notifications (GSI1 CHANNEX#LISTING#<id>); the list of connections (GSI2 CHANNEX_CONNECTIONS).",
    statement: dynamo(['Query'], [tableIndex('GSI1'), tableIndex('GSI2')], ['CHANNEX#LISTING#*', 'CHANNEX_CONNECTIONS']),
  },
  queueChannexChanges: { statement: { Effect: 'Allow', Action: ['sqs:SendMessage'], Resource: getAtt('ChannexChangesQueue') } },
} as const satisfies Record<string, Grant>;

export type GrantName = keyof typeof grants;
