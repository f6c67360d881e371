/**
 * The core of the wiring, in every function's bundle: config, the SDK clients, the clocks, the
 * adapters every area uses, and the helpers that read a group's test clock. The adapters only
 * some areas use are in adapter groups under infra/compose/adapters/ (`bookingAdapters` in
 * adapters/bookings.ts, ...). A function's entry (functions/areas/*.ts, a worker) names the groups
 * it uses with `wire(...)`, so its bundle carries those adapters and no others; `npm run
 * check:wiring` proves each entry wires what its code reads, and nothing more
 * (docs/decisions/platform.md, "Adapter groups").
 */
import type { AuditOrigin } from '../../domain/audit/audit-event.ts';
import type { AdminDeps } from '../../domain/admin.ts';
import type { CatalogueReader } from '../../domain/ports/catalogue-reader.ts';
import type { CatalogueStore } from '../../domain/ports/catalogue-store.ts';
import type { SearchCatalogue } from '../../domain/search/search-catalogue.ts';
import type { Clock } from '../../domain/ports/clock.ts';
import type { IdGenerator } from '../../domain/ports/ids.ts';
import type { SecretSealer } from '../../domain/ports/key-minter.ts';
import type { UrlGuard } from '../../domain/ports/url-guard.ts';
import type { WebhookStore } from '../../domain/ports/webhook-store.ts';
import type { OrderStore } from '../../domain/ports/order-store.ts';
import type { IdempotencyStore } from '../../domain/ports/idempotency-store.ts';
import { DynamoIdempotencyStore } from '../dynamo/dynamo-idempotency-store.ts';
import type { RateLimiter } from '../../domain/ports/rate-limiter.ts';
import type { TenantDirectory } from '../../domain/ports/tenant-directory.ts';
import { config, type Config } from '../config.ts';
import { lazily, once, onFirstCall, rebound } from '../lazy.ts';
import type { createSqsClient } from '../sqs/client.ts';
import type { createS3Client } from '../s3/client.ts';
import { cryptoKeyMinter } from '../crypto/key-minter.ts';
import { SecretBox } from '../crypto/secret-box.ts';
import { createDocumentClient } from '../dynamo/client.ts';
import { DynamoCatalogueReader } from '../dynamo/dynamo-catalogue-reader.ts';
import { DynamoCatalogueStore } from '../dynamo/dynamo-catalogue-store.ts';
import { DynamoRateLimiter } from '../dynamo/dynamo-rate-limiter.ts';
import { DynamoTenantDirectory } from '../dynamo/dynamo-tenant-directory.ts';
import { DynamoWebhookStore } from '../dynamo/dynamo-webhook-store.ts';
import { outboundUrlGuard } from '../http/guard-adapter.ts';
import { randomUUID } from 'node:crypto';
import type { ChangeFeed } from '../../domain/ports/change-feed.ts';
import type { CursorCodec } from '../../domain/ports/cursor-codec.ts';
import type { DeliveryQueue } from '../../domain/ports/delivery-queue.ts';
import type { DeliveryStore } from '../../domain/ports/delivery-store.ts';
import type { CallbackTransport, WebhookTransport } from '../../domain/ports/webhook-transport.ts';
import { GuardedCallbackTransport } from '../http/callback-transport.ts';
import { hmacCursorCodec } from '../crypto/cursor.ts';
import { DynamoChangeFeed } from '../dynamo/dynamo-change-feed.ts';
import { DynamoDeliveryStore } from '../dynamo/dynamo-delivery-store.ts';
import { GuardedWebhookTransport } from '../http/webhook-transport.ts';
import type { CreditLedger } from '../../domain/ports/credit-ledger.ts';
import { DynamoCreditLedger } from '../dynamo/dynamo-credit-ledger.ts';
import type { BookingQueue, BookingStore } from '../../domain/ports/booking-store.ts';
import type { PropertySystem } from '../../domain/ports/property-system.ts';
import type { SandboxScenarioBook } from '../../domain/sandbox/workflow-scenarios.ts';
import { DynamoAuditTrail } from '../dynamo/dynamo-audit-trail.ts';
import { sha256Hex } from '../crypto/api-keys.ts';
import type { BookingReads } from '../../domain/ports/booking-reads.ts';
import type { AmendmentStore } from '../../domain/ports/amendment-store.ts';
import { noMetrics, type Metrics } from '../../domain/ports/metrics.ts';
import { emfMetrics } from '../metrics.ts';
import type { DocumentStore } from '../../domain/ports/document-store.ts';
import type { InvoiceStore } from '../../domain/ports/invoice-store.ts';
import type { PaymentGateway, PaymentNotifications } from '../../domain/ports/payment-gateway.ts';
import type { PayLinkRefreshes } from '../../domain/ports/pay-link-refreshes.ts';
import type { ReceivablesStore } from '../../domain/ports/receivables-store.ts';
import type { PdfQueue } from '../../domain/ports/pdf-queue.ts';
import type { BillingQueue, BillingRunLog } from '../../domain/ports/billing-fan-out.ts';
import type { BookingMarks } from '../../domain/ports/booking-marks.ts';
import type { BillingRunControl } from '../../domain/ports/billing-run-control.ts';
import type { OwingFigures } from '../../domain/ports/owing-figures.ts';
import type { PayLinkStore } from '../../domain/ports/pay-link-store.ts';
import type { CreditNoteStore } from '../../domain/ports/credit-note-store.ts';
import type { BalanceStore } from '../../domain/ports/balance-store.ts';
import type { EInvoiceRegistry } from '../../domain/ports/e-invoice-registry.ts';
import type { UnbilledWork } from '../../domain/ports/unbilled-work.ts';
import type { ChannexChangesQueue, ChannexInbox } from '../../domain/ports/channex-inbox.ts';
import type { TestClockStore } from '../../domain/ports/test-clock-store.ts';
import { DynamoTestClockStore } from '../dynamo/dynamo-test-clock-store.ts';
import { clockOf } from '../../domain/test-clocks/test-clock.ts';
import type { GroupClocks } from '../../domain/test-clocks/group-clocks.ts';
import type { GuestDataStore } from '../../domain/ports/guest-data.ts';
import type { ConsoleStore } from '../../domain/ports/console-store.ts';
import type { PasskeyStore } from '../../domain/ports/passkey-store.ts';
import type { Mailer } from '../../domain/ports/mailer.ts';
import type { FinanceContactStore } from '../../domain/ports/finance-contacts.ts';
import type { MailLog } from '../../domain/ports/mail-log.ts';

/** The adapters wired once per process, shared by every area's dependency builders. */
export interface Services {
  readonly config: Config;
  /** "Now" for the work at hand: the real clock, or a sandbox group's test clock (`atClock`, `groupServices`). */
  readonly clock: Clock;
  /** The process's real clock, whatever `clock` is: delivery scheduling and test clocks themselves run on it. */
  readonly realClock: Clock;
  /** These adapters with `clock` and the adapters that read it made again at another clock. */
  readonly atClock: (clock: Clock) => Services;
  /** Sandbox test clocks, one per agent group at most (docs/sandbox.md). */
  readonly testClocks: TestClockStore;
  readonly tenants: TenantDirectory;
  readonly rateLimiter: RateLimiter;
  readonly secrets: SecretBox;
  readonly catalogue: CatalogueStore;
  readonly reader: CatalogueReader;
  /** Search's reads over the channel's search projection (docs/search.md). */
  readonly search: SearchCatalogue;
  readonly sealer: SecretSealer;
  readonly ids: IdGenerator;
  readonly urlGuard: UrlGuard;
  readonly webhooks: WebhookStore;
  readonly deliveries: DeliveryStore;
  readonly changes: ChangeFeed;
  readonly deliveryQueue: DeliveryQueue;
  readonly webhookTransport: WebhookTransport;
  readonly callbackTransport: CallbackTransport;
  readonly cursors: CursorCodec;
  readonly orders: OrderStore;
  /** Idempotency-Key of creating POSTs (functions/http/endpoint.ts). */
  readonly idempotency: IdempotencyStore;
  readonly ledger: CreditLedger;
  /** The audit trail: its reader, and the writer the stores add to their transactions (concrete: writers need it). */
  readonly auditTrail: DynamoAuditTrail;
  readonly bookings: BookingStore;
  readonly bookingQueue: BookingQueue;
  readonly propertySystem: PropertySystem;
  /** Sandbox stages: the simulator records the scenario a request forces for a booking or an amendment, and answers what was recorded (docs/sandbox.md). */
  readonly scenarioBook: SandboxScenarioBook;
  readonly bookingReads: BookingReads;
  readonly amendments: AmendmentStore;
  readonly metrics: Metrics;
  /**
   * Invoice and credit-note PDFs (S3). The PDF renderer is deliberately not here: every
   * function bundles this module, and only the invoice functions should carry pdf-lib and
   * fontkit; they construct `PdfInvoiceRenderer` where they are composed.
   */
  readonly documents: DocumentStore;
  /** Issued documents whose PDFs the PDF worker renders (SQS). */
  readonly pdfQueue: PdfQueue;
  /** Groups of a run over every group, for the billing worker (SQS). */
  readonly billingQueue: BillingQueue;
  /** Groups whose pay links must follow a change of what they owe, for the billing worker (the same queue). */
  readonly payLinkRefreshes: PayLinkRefreshes;
  /** The record of billing runs: each group's run, and each run over every group with its groups' outcomes. */
  readonly billingRuns: BillingRunLog;
  /** Each group's billing lock and the last period its scheduled billing closed. */
  readonly billingControl: BillingRunControl;
  /** Invoices and credit notes with their lines. */
  readonly invoices: InvoiceStore;
  /** What each booking was billed, and the marks issued invoices leave on their bookings. */
  readonly bookingMarks: BookingMarks;
  /** What each group owes across its invoices. */
  readonly owing: OwingFigures;
  /** Invoices' gateway orders and pay links. */
  readonly payLinks: PayLinkStore;
  readonly creditNotes: CreditNoteStore;
  readonly gateway: PaymentGateway & PaymentNotifications;
  /** Reading the gateway's signed notifications (Razorpay's webhooks, which the sandbox gateway sends too): no SDK needed. */
  readonly gatewayNotices: PaymentNotifications;
  readonly receivables: ReceivablesStore;
  /** The e-invoice registration portal (registrations marked for e-invoicing). */
  readonly eInvoices: EInvoiceRegistry;
  /** Balance checkpoints: statement openings read one and the entries after it. */
  readonly balances: BalanceStore;
  /** The index of each group's unbilled work, which billing runs read. */
  readonly unbilled: UnbilledWork;
  /** Channex's inbound notifications: their idempotency records and the queue of the apply step. */
  readonly channexInbox: ChannexInbox;
  readonly channexQueue: ChannexChangesQueue;
  /** Which bookings' guest data is due for erasure, and the erasure's final write. */
  readonly guestData: GuestDataStore;
  /** The console's people, sign-in links and sessions (docs/console.md). */
  readonly people: ConsoleStore;
  /** People's passkeys and the challenges of WebAuthn ceremonies under way. */
  readonly passkeys: PasskeyStore;
  /** Outbound e-mail (SESv2; the SES emulator on local and test stages), its SDK loaded at the first send. */
  readonly mailer: Mailer;
  /** Each group's finance contacts and the operator's pause of its e-mail. */
  readonly financeContacts: FinanceContactStore;
  /** Each e-mail sent, claimed before it is sent so a retried worker never sends it twice. */
  readonly mailLog: MailLog;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * The area whose adapter group makes each member. `core` members are in every function;
 * the others only where the function's entry wires their group.
 */
export const AREA_OF = {
  config: 'core',
  clock: 'core',
  realClock: 'core',
  testClocks: 'core',
  tenants: 'core',
  rateLimiter: 'core',
  secrets: 'core',
  sealer: 'core',
  ids: 'core',
  urlGuard: 'core',
  metrics: 'core',
  auditTrail: 'core',
  idempotency: 'core',
  cursors: 'core',
  catalogue: 'core',
  reader: 'core',
  ledger: 'core',
  documents: 'core',
  webhooks: 'core',
  deliveries: 'core',
  changes: 'core',
  deliveryQueue: 'core',
  webhookTransport: 'core',
  callbackTransport: 'core',
  orders: 'bookings',
  bookings: 'bookings',
  bookingQueue: 'bookings',
  bookingReads: 'bookings',
  amendments: 'bookings',
  propertySystem: 'bookings',
  scenarioBook: 'bookings',
  guestData: 'bookings',
  invoices: 'billing',
  bookingMarks: 'billing',
  billingControl: 'billing',
  billingRuns: 'billing',
  billingQueue: 'billing',
  payLinkRefreshes: 'billing',
  pdfQueue: 'billing',
  owing: 'billing',
  unbilled: 'billing',
  balances: 'billing',
  creditNotes: 'billing',
  eInvoices: 'billing',
  receivables: 'billing',
  payLinks: 'billing',
  gateway: 'payments',
  gatewayNotices: 'billing',
  mailer: 'mail',
  financeContacts: 'mail',
  mailLog: 'mail',
  people: 'console',
  passkeys: 'console',
  channexInbox: 'channelManager',
  channexQueue: 'channelManager',
  search: 'search',
} as const satisfies Record<Exclude<keyof Services, 'atClock'>, string>;

export type Area = (typeof AREA_OF)[keyof typeof AREA_OF];

/** The members a group of `area` makes. */
export type MembersOf<A extends Area> = { [K in keyof typeof AREA_OF]: (typeof AREA_OF)[K] extends A ? K : never }[keyof typeof AREA_OF];

/** One maker per member, each given the whole `Services` for the members it is built from. */
export type Makers<K extends keyof Services> = { readonly [P in K]: (self: Services) => Services[P] };

/** What the groups of one process share: its config and clock, the SDK clients, and the adapters that write in one transaction with others. */
export interface Wiring {
  readonly cfg: Config;
  /** The process's clock (`realClock`); a maker made again for a test clock gets that clock beside it. */
  readonly clock: Clock;
  readonly table: string;
  readonly db: () => ReturnType<typeof createDocumentClient>;
  readonly sqs: () => Promise<Awaited<ReturnType<typeof createSqsClient>>>;
  readonly s3: () => Promise<Awaited<ReturnType<typeof createS3Client>>>;
  /** Concrete types, not the ports: the stores that write in the same transactions need them. */
  readonly ledger: () => DynamoCreditLedger;
  readonly auditTrail: () => DynamoAuditTrail;
}

/**
 * The adapters of one area: `makers` builds each member at its first read; `atClock` makes
 * again, for a sandbox group's test clock, the members that read the clock.
 */
export interface AdapterGroup<A extends Area> {
  readonly area: A;
  readonly makers: (w: Wiring) => Makers<MembersOf<A>>;
  readonly atClock?: (w: Wiring, clock: Clock) => Partial<Makers<MembersOf<A>>>;
}

/** Any area's group, as `wire` and `composeServices` take them. */
export type AnyAdapterGroup = { [A in Area]: AdapterGroup<A> }[Area];

/** An area's group, its type naming the area (which `npm run check:wiring` reads). */
export const adapterGroup = <A extends Exclude<Area, 'core'>>(group: AdapterGroup<A>): AdapterGroup<A> => group;

/** A member read in a function whose entry does not wire its group: a wiring defect, found by `npm run check:wiring` before a deploy. */
export class NotWiredError extends Error {
  constructor(member: string, area: string) {
    super(`Services.${member} is not wired in this function: its entry must wire the ${area} adapters (infra/compose/core.ts, wire)`);
    this.name = 'NotWiredError';
  }
}

/**
 * The adapters every function has. The SQS and S3 adapters and their SDK clients load at their
 * first call (onFirstCall): most functions never queue a message or store a document, and those
 * SDKs would otherwise weigh on every cold start.
 */
const coreAdapters: AdapterGroup<'core'> = {
  area: 'core',
  makers: (w) => {
    const { cfg, table, db } = w;
    return {
      config: () => cfg,
      clock: () => w.clock,
      realClock: () => w.clock,
      testClocks: () => new DynamoTestClockStore(db(), table),
      tenants: () => new DynamoTenantDirectory(db(), table, w.auditTrail()),
      rateLimiter: () => new DynamoRateLimiter(db(), table),
      catalogue: () => new DynamoCatalogueStore(db(), table),
      reader: (svc) => new DynamoCatalogueReader(db(), table, svc.catalogue),
      secrets: () => new SecretBox(cfg.secretsKeys),
      sealer: (svc) => svc.secrets,
      ids: () => ({ uuid: randomUUID }),
      urlGuard: () => outboundUrlGuard(cfg.outbound),
      webhooks: () => new DynamoWebhookStore(db(), table, w.auditTrail()),
      deliveries: () => new DynamoDeliveryStore(db(), table),
      changes: () => new DynamoChangeFeed(db(), table),
      deliveryQueue: () => onFirstCall(async () => new (await import('../sqs/sqs-delivery-queue.ts')).SqsDeliveryQueue(await w.sqs(), cfg.webhookQueueUrl)),
      webhookTransport: (svc) => new GuardedWebhookTransport(svc.secrets, cfg.outbound),
      callbackTransport: (svc) => new GuardedCallbackTransport(svc.secrets, cfg.outbound, w.clock),
      cursors: () => hmacCursorCodec(cfg.cursorKeys),
      idempotency: () => new DynamoIdempotencyStore(db(), table),
      ledger: w.ledger,
      auditTrail: w.auditTrail,
      metrics: () => (cfg.metrics === 'emf' ? emfMetrics(cfg.stage) : noMetrics),
      documents: () => onFirstCall(async () => new (await import('../s3/s3-document-store.ts')).S3DocumentStore(await w.s3(), cfg.invoiceBucket)),
    };
  },
  atClock: (_w, clock) => ({ clock: () => clock }),
};

/**
 * The adapters of one process, the core's and `groups`', each built at its first read
 * (infra/lazy.ts), so a handler constructs only what it touches. A member of a group not
 * given throws NotWiredError when read. A new adapter is one more entry in its area's group.
 */
export function composeServices(cfg: Config, clock: Clock, groups: readonly AnyAdapterGroup[]): Services {
  const db = once(() => createDocumentClient(cfg));
  const table = cfg.tableName;
  const w: Wiring = {
    cfg,
    clock,
    table,
    db,
    sqs: once(async () => (await import('../sqs/client.ts')).createSqsClient(cfg)),
    s3: once(async () => (await import('../s3/client.ts')).createS3Client(cfg)),
    ledger: once(() => new DynamoCreditLedger(db(), table)),
    auditTrail: once(() => new DynamoAuditTrail(db(), table, cfg.stage, sha256Hex)),
  };
  const all: readonly AnyAdapterGroup[] = [coreAdapters, ...groups];
  const makers: Record<string, (self: Services) => unknown> = {};
  for (const [member, area] of Object.entries(AREA_OF))
    makers[member] = () => {
      throw new NotWiredError(member, area);
    };
  for (const group of all) Object.assign(makers, group.makers(w));
  // The members that read the clock, made again for a group's test clock.
  const atClock = (c: Clock) => Object.assign({}, ...all.map((g) => g.atClock?.(w, c) ?? {})) as Partial<Makers<keyof Services>>;
  makers.atClock = (self) => (c: Clock) => (c === clock ? self : rebound(self, atClock(c)));
  return lazily(makers as unknown as Makers<keyof Services>);
}

/** What the operator use cases need, from the same adapters. */
export function adminDeps(svc: Services, origin: AuditOrigin): AdminDeps {
  return { tenants: svc.tenants, clock: svc.clock, minter: cryptoKeyMinter, sealer: svc.secrets, ids: svc.ids, origin };
}

/**
 * The adapters for work of one agent group: at the group's test clock when it has one (sandbox
 * stages only; read once per request or message), else `svc` itself. Production never reads.
 */
export async function groupServices(svc: Services, agentGroupId: string): Promise<Services> {
  if (!svc.config.isSandbox) return svc;
  const testClock = await svc.testClocks.get(agentGroupId);
  return testClock ? svc.atClock(clockOf(testClock, svc.realClock)) : svc;
}

/**
 * A scheduled job's dependencies per group (`make` applied to `groupServices`, read once per
 * group per run) and the groups on a test clock, which the job looks at again at their own
 * time. Production never reads a clock.
 */
export function groupClocks<D>(svc: Services, make: (svc: Services) => D): GroupClocks<D> {
  const made = new Map<string, Promise<D>>();
  return {
    forGroup: (agentGroupId) => {
      const known = made.get(agentGroupId);
      if (known) return known;
      const own = groupServices(svc, agentGroupId).then(make);
      made.set(agentGroupId, own);
      return own;
    },
    clocked: async () => (svc.config.isSandbox ? (await svc.testClocks.list()).map((c) => c.agentGroupId) : []),
  };
}

/** Each group's "now" for work that learns the group from its payload (a payment notification). */
export const clockFor =
  (svc: Services) =>
  async (agentGroupId: string): Promise<Clock> =>
    (await groupServices(svc, agentGroupId)).clock;

let wired: readonly AnyAdapterGroup[] = [];
let cached: Services | undefined;

/**
 * Names the adapter groups this function uses, in its entry (functions/areas/*.ts, a worker),
 * before its first request. Adding to what is wired: a process that loads several entries (the
 * tests, the local tools) gets every group they name.
 */
export function wire(...groups: readonly AnyAdapterGroup[]): void {
  const added = groups.filter((g) => !wired.includes(g));
  if (added.length === 0) return;
  wired = [...wired, ...added];
  cached = undefined;
}

/** Services for this process, built at first use (cold start) from the environment and the groups its entry wired. */
export function services(): Services {
  cached ??= composeServices(config(), systemClock, wired);
  return cached;
}
