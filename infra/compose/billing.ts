/**
 * The billing area's wiring: billing runs (the accounts function, the billing worker, the daily
 * run) and invoice reads. Billing creates Razorpay orders and virtual accounts: the functions
 * that bill wire the payments adapter group, which brings Razorpay's SDK.
 * Handlers import this module and `core.ts`, never another area's (docs/decisions/platform.md, "Composition per area").
 */
import { renderAtOnce } from '../../domain/invoicing/invoice-pdf.ts';
import type { BillingDeps, PdfDeps } from '../../domain/invoicing/run-billing.ts';
import type { BillingQueue, BillingRunLog } from '../../domain/ports/billing-fan-out.ts';
import type { CursorCodec } from '../../domain/ports/cursor-codec.ts';
import type { InvoiceRenderer } from '../../domain/ports/invoice-renderer.ts';
import type { OwingFigures } from '../../domain/ports/owing-figures.ts';
import type { PayLinkStore } from '../../domain/ports/pay-link-store.ts';
import type { RateLimiter } from '../../domain/ports/rate-limiter.ts';
import type { ReceivablesStore } from '../../domain/ports/receivables-store.ts';
import type { TenantDirectory } from '../../domain/ports/tenant-directory.ts';
import { settleSecondsOf } from '../../domain/ledger/balance-checkpoints.ts';
import type { Services } from './core.ts';
import { pdfDeps } from './invoice-pdf.ts';

type BillingExtras = {
  readonly rateLimiter: RateLimiter;
  readonly tenants: TenantDirectory;
  readonly cursors: CursorCodec;
  readonly billingRuns: BillingRunLog;
  readonly billingQueue: BillingQueue;
  readonly owing: OwingFigures;
  /** The whole stores: the billing worker also refreshes a group's pay links (functions/workers/bill-group.ts). */
  readonly payLinks: PayLinkStore;
  readonly receivables: ReceivablesStore;
};

/**
 * What billing runs and invoice reads need. Without a renderer the issued documents' PDFs go
 * to the PDF worker's queue (the request path); with one they are rendered at once in this
 * process (the admin tool, the daily run, tests). Only callers that render bundle pdf-lib
 * (see Services.documents).
 */
export function billingDeps(svc: Services): BillingDeps & BillingExtras;
export function billingDeps(svc: Services, renderer: InvoiceRenderer): BillingDeps & PdfDeps & BillingExtras;
export function billingDeps(svc: Services, renderer?: InvoiceRenderer): BillingDeps & BillingExtras & Partial<PdfDeps> {
  const deps = {
    invoices: svc.invoices,
    bookingMarks: svc.bookingMarks,
    billingControl: svc.billingControl,
    payLinks: svc.payLinks,
    owing: svc.owing,
    ledger: svc.ledger,
    unbilled: svc.unbilled,
    bookingReads: svc.bookingReads,
    catalogue: svc.catalogue,
    gateway: svc.gateway,
    eInvoices: svc.eInvoices,
    receivables: svc.receivables,
    balances: svc.balances,
    settleSeconds: settleSecondsOf(svc.config.booking),
    metrics: svc.metrics,
    creditNotes: svc.creditNotes,
    pdfs: svc.pdfQueue,
    documents: svc.documents,
    clock: svc.clock,
    ids: svc.ids,
    rateLimiter: svc.rateLimiter,
    tenants: svc.tenants,
    cursors: svc.cursors,
    billingRuns: svc.billingRuns,
    billingQueue: svc.billingQueue,
    payLinkRefreshes: svc.payLinkRefreshes,
    mail: { financeContacts: svc.financeContacts, mailLog: svc.mailLog, mailer: svc.mailer },
  };
  if (!renderer) return deps;
  const pdf = pdfDeps(svc, renderer);
  return { ...deps, renderPdf: pdf.renderPdf, pdfs: renderAtOnce(pdf) };
}
