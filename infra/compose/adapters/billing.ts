/** The billing and receivables adapters, wired by the functions that bill, read invoices and record payments. */
import type { BillingQueue } from '../../../domain/ports/billing-fan-out.ts';
import type { Clock } from '../../../domain/ports/clock.ts';
import type { PayLinkRefreshes } from '../../../domain/ports/pay-link-refreshes.ts';
import { DynamoBalanceStore } from '../../dynamo/dynamo-balance-store.ts';
import { DynamoBillingRunControl } from '../../dynamo/dynamo-billing-run-control.ts';
import { DynamoBillingRunLog } from '../../dynamo/dynamo-billing-run-log.ts';
import { DynamoBookingMarks } from '../../dynamo/dynamo-booking-marks.ts';
import { DynamoCreditNoteStore } from '../../dynamo/dynamo-credit-note-store.ts';
import { DynamoInvoiceStore } from '../../dynamo/dynamo-invoice-store.ts';
import { DynamoIrpSessions } from '../../dynamo/dynamo-irp-sessions.ts';
import { DynamoOwingFigures } from '../../dynamo/dynamo-owing-figures.ts';
import { DynamoPayLinkStore } from '../../dynamo/dynamo-pay-link-store.ts';
import { DynamoReceivablesStore } from '../../dynamo/dynamo-receivables-store.ts';
import { DynamoSandboxIrpMemory } from '../../dynamo/dynamo-sandbox-irp-memory.ts';
import { DynamoUnbilledWork } from '../../dynamo/dynamo-unbilled-work.ts';
import { NicEInvoiceRegistry } from '../../einvoice/nic-e-invoice-registry.ts';
import { RoutedEInvoiceRegistry } from '../../einvoice/routed-e-invoice-registry.ts';
import { SandboxEInvoiceRegistry } from '../../einvoice/sandbox-e-invoice-registry.ts';
import { once, onFirstCall } from '../../lazy.ts';
import { RazorpayWebhooks } from '../../payments/razorpay-webhooks.ts';
import { loggedAsks } from '../../sqs/pay-link-asks.ts';
import { adapterGroup, type Services, type Wiring } from '../core.ts';

/**
 * The stage param irpProvider chooses: `nic`, the portal's API for every registration (one without
 * credentials waits for them); `sandbox`, the sandbox the project owns except for the registrations
 * whose portal credentials the stage secret holds (docs/decisions.md, "E-invoicing: one stage, the IRP per registration").
 * The portal's sessions expire in real time, so only the sandbox IRP follows a test clock.
 */
function eInvoicesAt(w: Wiring, svc: Services, clock: Clock) {
  const portal = new NicEInvoiceRegistry(w.cfg.irp.credentials, new DynamoIrpSessions(w.db(), w.table, svc.secrets), w.clock);
  if (w.cfg.irp.provider === 'nic') return portal;
  const sandbox = new SandboxEInvoiceRegistry(w.cfg.irpSigningKey, new DynamoSandboxIrpMemory(w.db(), w.table), clock);
  return new RoutedEInvoiceRegistry(new Set(Object.keys(w.cfg.irp.credentials)), portal, sandbox);
}

/** The billing and receivables adapters: invoices and credit notes, billing runs, what groups owe and pay, the e-invoice registry. */
export const billingAdapters = adapterGroup({
  area: 'billing',
  makers: (w) => {
    const { db, table } = w;
    const invoices = once(() => new DynamoInvoiceStore(db(), table, w.auditTrail()));
    // One adapter for the billing queue's two messages: a run's groups and the groups whose pay links must follow what they owe.
    const billingQueue = once(() =>
      onFirstCall<BillingQueue & PayLinkRefreshes>(
        async () => new (await import('../../sqs/sqs-billing-queue.ts')).SqsBillingQueue(await w.sqs(), w.cfg.billingQueueUrl),
      ),
    );
    return {
      invoices,
      bookingMarks: () => new DynamoBookingMarks(db(), table),
      billingControl: () => new DynamoBillingRunControl(db(), table),
      billingRuns: () => new DynamoBillingRunLog(db(), table, w.auditTrail()),
      billingQueue,
      // Asked by use cases after their change commits: best effort (infra/sqs/pay-link-asks.ts), the hourly reconciliation backs it.
      payLinkRefreshes: (svc) => loggedAsks(billingQueue(), () => svc.metrics),
      pdfQueue: () => onFirstCall(async () => new (await import('../../sqs/sqs-pdf-queue.ts')).SqsPdfQueue(await w.sqs(), w.cfg.pdfQueueUrl)),
      owing: () => new DynamoOwingFigures(db(), table),
      unbilled: () => new DynamoUnbilledWork(db(), table, (g, ids) => w.ledger().entriesById(g, ids)),
      balances: () => new DynamoBalanceStore(db(), table),
      creditNotes: () => new DynamoCreditNoteStore(db(), table, w.auditTrail()),
      eInvoices: (svc) => eInvoicesAt(w, svc, w.clock),
      receivables: () => new DynamoReceivablesStore(db(), table, invoices(), w.auditTrail()),
      payLinks: () => new DynamoPayLinkStore(db(), table),
      gatewayNotices: () => new RazorpayWebhooks(w.cfg.payments.webhookSecrets),
    };
  },
  atClock: (w, clock) => ({ eInvoices: (svc) => eInvoicesAt(w, svc, clock) }),
});
