/**
 * The core of the wiring, in every function's bundle: config, the SDK clients, the clocks and the
 * adapters of one process, each built at its first use, and the helpers that read a group's test
 * clock. Each area's dependency builders are in the area's module beside this one
 * (infra/compose/<area>.ts); a handler imports its area's module and this one, never another
 * area's (docs/decisions/platform.md, "Composition per area").
 */
import type { AuditOrigin } from '../../domain/audit/audit-event.ts';
import type { AdminDeps } from '../../domain/admin.ts';
import type { CatalogueReader } from '../../domain/ports/catalogue-reader.ts';
import type { CatalogueStore } from '../../domain/ports/catalogue-store.ts';
import type { Clock } from '../../domain/ports/clock.ts';
import type { IdGenerator } from '../../domain/ports/ids.ts';
import type { SecretSealer } from '../../domain/ports/key-minter.ts';
import type { UrlGuard } from '../../domain/ports/url-guard.ts';
import type { WebhookStore } from '../../domain/ports/webhook-store.ts';
import type { OrderStore } from '../../domain/ports/order-store.ts';
import { DynamoOrderStore } from '../dynamo/dynamo-order-store.ts';
import type { IdempotencyStore } from '../../domain/ports/idempotency-store.ts';
import { DynamoIdempotencyStore } from '../dynamo/dynamo-idempotency-store.ts';
import type { RateLimiter } from '../../domain/ports/rate-limiter.ts';
import type { TenantDirectory } from '../../domain/ports/tenant-directory.ts';
import { config, type Config } from '../config.ts';
import { lazily, once, onFirstCall, rebound } from '../lazy.ts';
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
import { DynamoBookingStore } from '../dynamo/dynamo-booking-store.ts';
import { DynamoAuditTrail } from '../dynamo/dynamo-audit-trail.ts';
import { SimulatedPropertySystem } from '../property-system/simulated-property-system.ts';
import { loggedAsks } from '../sqs/pay-link-asks.ts';
import { sha256Hex } from '../crypto/api-keys.ts';
import type { BookingReads } from '../../domain/ports/booking-reads.ts';
import type { AmendmentStore } from '../../domain/ports/amendment-store.ts';
import { DynamoAmendmentStore } from '../dynamo/dynamo-amendment-store.ts';
import { DynamoBookingReads } from '../dynamo/dynamo-booking-reads.ts';
import { noMetrics, type Metrics } from '../../domain/ports/metrics.ts';
import { emfMetrics } from '../metrics.ts';
import type { DocumentStore } from '../../domain/ports/document-store.ts';
import type { InvoiceStore } from '../../domain/ports/invoice-store.ts';
import type { PaymentGateway, PaymentNotifications } from '../../domain/ports/payment-gateway.ts';
import type { PayLinkRefreshes } from '../../domain/ports/pay-link-refreshes.ts';
import type { ReceivablesStore } from '../../domain/ports/receivables-store.ts';
import { DynamoReceivablesStore } from '../dynamo/dynamo-receivables-store.ts';
import type { PdfQueue } from '../../domain/ports/pdf-queue.ts';
import type { BillingQueue, BillingRunLog } from '../../domain/ports/billing-fan-out.ts';
import { DynamoBillingRunLog } from '../dynamo/dynamo-billing-run-log.ts';
import { DynamoInvoiceStore } from '../dynamo/dynamo-invoice-store.ts';
import type { BookingMarks } from '../../domain/ports/booking-marks.ts';
import { DynamoBookingMarks } from '../dynamo/dynamo-booking-marks.ts';
import type { BillingRunControl } from '../../domain/ports/billing-run-control.ts';
import { DynamoBillingRunControl } from '../dynamo/dynamo-billing-run-control.ts';
import type { OwingFigures } from '../../domain/ports/owing-figures.ts';
import { DynamoOwingFigures } from '../dynamo/dynamo-owing-figures.ts';
import type { PayLinkStore } from '../../domain/ports/pay-link-store.ts';
import { DynamoPayLinkStore } from '../dynamo/dynamo-pay-link-store.ts';
import { DynamoCreditNoteStore } from '../dynamo/dynamo-credit-note-store.ts';
import type { CreditNoteStore } from '../../domain/ports/credit-note-store.ts';
import type { BalanceStore } from '../../domain/ports/balance-store.ts';
import { DynamoBalanceStore } from '../dynamo/dynamo-balance-store.ts';
import { RazorpayPaymentGateway } from '../payments/razorpay-payment-gateway.ts';
import { SandboxPaymentGateway } from '../payments/sandbox-payment-gateway.ts';
import type { EInvoiceRegistry } from '../../domain/ports/e-invoice-registry.ts';
import { SandboxEInvoiceRegistry } from '../einvoice/sandbox-e-invoice-registry.ts';
import { DynamoSandboxIrpMemory } from '../dynamo/dynamo-sandbox-irp-memory.ts';
import type { UnbilledWork } from '../../domain/ports/unbilled-work.ts';
import { DynamoUnbilledWork } from '../dynamo/dynamo-unbilled-work.ts';
import type { ChannexChangesQueue, ChannexInbox } from '../../domain/ports/channex-inbox.ts';
import { DynamoChannexInbox } from '../dynamo/dynamo-channex-inbox.ts';
import { ChannexPropertySystem } from '../property-system/channex-property-system.ts';
import { RoutedPropertySystem } from '../property-system/routed-property-system.ts';
import { NicEInvoiceRegistry } from '../einvoice/nic-e-invoice-registry.ts';
import { DynamoIrpSessions } from '../dynamo/dynamo-irp-sessions.ts';
import type { TestClockStore } from '../../domain/ports/test-clock-store.ts';
import { DynamoTestClockStore } from '../dynamo/dynamo-test-clock-store.ts';
import { clockOf } from '../../domain/test-clocks/test-clock.ts';
import type { GroupClocks } from '../../domain/test-clocks/group-clocks.ts';
import { RoutedEInvoiceRegistry } from '../einvoice/routed-e-invoice-registry.ts';
import type { GuestDataStore } from '../../domain/ports/guest-data.ts';
import { DynamoGuestDataStore } from '../dynamo/dynamo-guest-data.ts';
import type { ConsoleStore } from '../../domain/ports/console-store.ts';
import { DynamoConsoleStore } from '../dynamo/dynamo-console-store.ts';
import { DynamoPasskeyStore } from '../dynamo/dynamo-passkey-store.ts';
import type { PasskeyStore } from '../../domain/ports/passkey-store.ts';
import type { Mailer } from '../../domain/ports/mailer.ts';
import type { FinanceContactStore } from '../../domain/ports/finance-contacts.ts';
import { DynamoFinanceContactStore } from '../dynamo/dynamo-finance-contacts.ts';
import type { MailLog } from '../../domain/ports/mail-log.ts';
import { DynamoMailLog } from '../dynamo/dynamo-mail-log.ts';

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
 * The adapters of one process, each built at its first use (infra/lazy.ts), so a handler
 * constructs only what it touches. The SQS and S3 adapters and their SDK clients also load at
 * their first call (onFirstCall): most functions never queue a message or store a document,
 * and those SDKs would otherwise weigh on every cold start. A new adapter is one more entry.
 */
export function buildServices(cfg: Config, clock: Clock = systemClock): Services {
  const db = once(() => createDocumentClient(cfg));
  const sqs = once(async () => (await import('../sqs/client.ts')).createSqsClient(cfg));
  const s3 = once(async () => (await import('../s3/client.ts')).createS3Client(cfg));
  const table = cfg.tableName;
  // Shared by adapters that write in the same transactions (concrete types, not the ports).
  const ledger = once(() => new DynamoCreditLedger(db(), table));
  const auditTrail = once(() => new DynamoAuditTrail(db(), table, cfg.stage, sha256Hex));
  // One adapter for the billing queue's two messages: a run's groups and the groups whose pay links must follow what they owe.
  const billingQueue = once(() =>
    onFirstCall<BillingQueue & PayLinkRefreshes>(
      async () => new (await import('../sqs/sqs-billing-queue.ts')).SqsBillingQueue(await sqs(), cfg.billingQueueUrl),
    ),
  );
  const invoices = once(() => new DynamoInvoiceStore(db(), table, auditTrail()));
  const simulator = (c: Clock) =>
    new SimulatedPropertySystem(db(), table, c, { timeScale: cfg.timeScale, windowSeconds: cfg.booking.windowSeconds, syncWaitMs: cfg.booking.syncWaitMs });
  // The entries that read the clock, made again for a group's test clock by atClock.
  const atClockMakers = (c: Clock) => ({
    clock: () => c,
    // The stage param PROPERTY_SYSTEM chooses: Channex for every listing, or the simulator the project owns, where a
    // listing connected to Channex (channelManager: channex) still goes out through Channex when the stage has its
    // settings (docs/channel-manager.md; docs/decisions.md, "Channex outbound per listing").
    propertySystem: () => {
      const { baseUrl, apiKey, providerCode, userApiKey, apiUrl } = cfg.channex;
      const channex =
        baseUrl && apiKey && providerCode ? new ChannexPropertySystem(db(), table, c, { baseUrl, apiKey, providerCode, userApiKey, apiUrl }) : undefined;
      if (cfg.channex.propertySystem === 'channex') return channex!;
      return channex ? new RoutedPropertySystem(db(), table, simulator(c), channex) : simulator(c);
    },
    // The stage param irpProvider chooses: `nic`, the portal's API for every registration (one without
    // credentials waits for them); `sandbox`, the sandbox the project owns except for the registrations
    // whose portal credentials the stage secret holds (docs/decisions.md, "E-invoicing: one stage, the IRP per registration").
    // The portal's sessions expire in real time, so only the sandbox IRP follows a test clock.
    eInvoices: (svc: Services) => {
      const portal = new NicEInvoiceRegistry(cfg.irp.credentials, new DynamoIrpSessions(db(), table, svc.secrets), clock);
      if (cfg.irp.provider === 'nic') return portal;
      const sandbox = new SandboxEInvoiceRegistry(cfg.irpSigningKey, new DynamoSandboxIrpMemory(db(), table), c);
      return new RoutedEInvoiceRegistry(new Set(Object.keys(cfg.irp.credentials)), portal, sandbox);
    },
  });
  return lazily<Services>({
    config: () => cfg,
    ...atClockMakers(clock),
    realClock: () => clock,
    atClock: (self) => (c) => (c === clock ? self : rebound(self, atClockMakers(c))),
    testClocks: () => new DynamoTestClockStore(db(), table),
    // The record lives on the table whichever clock reads it, so the process's clock dates its expiry (a test clock never runs behind it).
    scenarioBook: () => simulator(clock),
    tenants: () => new DynamoTenantDirectory(db(), table, auditTrail()),
    people: () => new DynamoConsoleStore(db(), table, auditTrail()),
    passkeys: () => new DynamoPasskeyStore(db(), table, auditTrail()),
    rateLimiter: () => new DynamoRateLimiter(db(), table),
    catalogue: () => new DynamoCatalogueStore(db(), table),
    reader: (svc) => new DynamoCatalogueReader(db(), table, svc.catalogue),
    secrets: () => new SecretBox(cfg.secretsKeys),
    sealer: (svc) => svc.secrets,
    ids: () => ({ uuid: randomUUID }),
    urlGuard: () => outboundUrlGuard(cfg.outbound),
    webhooks: () => new DynamoWebhookStore(db(), table, auditTrail()),
    deliveries: () => new DynamoDeliveryStore(db(), table),
    changes: () => new DynamoChangeFeed(db(), table),
    deliveryQueue: () => onFirstCall(async () => new (await import('../sqs/sqs-delivery-queue.ts')).SqsDeliveryQueue(await sqs(), cfg.webhookQueueUrl)),
    webhookTransport: (svc) => new GuardedWebhookTransport(svc.secrets, cfg.outbound),
    callbackTransport: (svc) => new GuardedCallbackTransport(svc.secrets, cfg.outbound, clock),
    cursors: () => hmacCursorCodec(cfg.cursorKeys),
    orders: () => new DynamoOrderStore(db(), table),
    idempotency: () => new DynamoIdempotencyStore(db(), table),
    ledger,
    auditTrail,
    bookings: () => new DynamoBookingStore(db(), table, ledger(), auditTrail()),
    bookingQueue: () => onFirstCall(async () => new (await import('../sqs/sqs-booking-queue.ts')).SqsBookingQueue(await sqs(), cfg.booking.queueUrl)),
    bookingReads: () => new DynamoBookingReads(db(), table),
    amendments: () => new DynamoAmendmentStore(db(), table, ledger(), auditTrail()),
    metrics: () => (cfg.metrics === 'emf' ? emfMetrics(cfg.stage) : noMetrics),
    documents: () => onFirstCall(async () => new (await import('../s3/s3-document-store.ts')).S3DocumentStore(await s3(), cfg.invoiceBucket)),
    pdfQueue: () => onFirstCall(async () => new (await import('../sqs/sqs-pdf-queue.ts')).SqsPdfQueue(await sqs(), cfg.pdfQueueUrl)),
    billingQueue,
    // Asked by use cases after their change commits: best effort (infra/sqs/pay-link-asks.ts), the hourly reconciliation backs it.
    payLinkRefreshes: (svc) => loggedAsks(billingQueue(), () => svc.metrics),
    billingRuns: () => new DynamoBillingRunLog(db(), table, auditTrail()),
    billingControl: () => new DynamoBillingRunControl(db(), table),
    invoices,
    bookingMarks: () => new DynamoBookingMarks(db(), table),
    owing: () => new DynamoOwingFigures(db(), table),
    payLinks: () => new DynamoPayLinkStore(db(), table),
    // PAYMENT_GATEWAY picks Razorpay or the sandbox the project owns; both read Razorpay's signed webhooks.
    gateway: () =>
      cfg.payments.razorpay && cfg.payments.gateway === 'razorpay'
        ? new RazorpayPaymentGateway({ ...cfg.payments.razorpay, webhookSecrets: cfg.payments.webhookSecrets })
        : new SandboxPaymentGateway(cfg.payments.webhookSecrets),
    receivables: () => new DynamoReceivablesStore(db(), table, invoices(), auditTrail()),
    creditNotes: () => new DynamoCreditNoteStore(db(), table, auditTrail()),
    balances: () => new DynamoBalanceStore(db(), table),
    unbilled: () => new DynamoUnbilledWork(db(), table, (g, ids) => ledger().entriesById(g, ids)),
    channexInbox: () => new DynamoChannexInbox(db(), table, cfg.channex.propertySystem === 'channex'),
    channexQueue: () => onFirstCall(async () => new (await import('../sqs/sqs-channex-queue.ts')).SqsChannexQueue(await sqs(), cfg.channex.queueUrl)),
    guestData: () => new DynamoGuestDataStore(db(), table, auditTrail()),
    financeContacts: () => new DynamoFinanceContactStore(db(), table, auditTrail()),
    mailLog: () => new DynamoMailLog(db(), table, auditTrail()),
    mailer: () =>
      onFirstCall(async () => {
        const { SesMailer, createSesClient } = await import('../mail/ses-mailer.ts');
        return new SesMailer(await createSesClient(cfg), cfg.mail);
      }),
  });
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

let cached: Services | undefined;

/** Services for this process, built at first use (cold start) from the environment. */
export function services(): Services {
  cached ??= buildServices(config());
  return cached;
}
