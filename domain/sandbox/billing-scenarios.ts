import { EInvoiceUnavailableError, type EInvoiceRegistry } from '../ports/e-invoice-registry.ts';
import type { InvoiceStore } from '../ports/invoice-store.ts';

/**
 * Sandbox scenarios of a billing run (docs/sandbox.md). Each is a wrapper of a real port (or of
 * the request's time budget) that the edge puts in the run's dependencies for one request; the
 * billing use cases run with what they are given and never read a scenario.
 */
export const BILLING_SCENARIOS = ['invoice-issue-fails', 'einvoice-irp-unavailable', 'billing-hands-off'] as const;
export type BillingScenario = (typeof BILLING_SCENARIOS)[number];

/** The IRP of `einvoice-irp-unavailable`: down for the whole run. */
const outage = async (): Promise<never> => {
  throw new EInvoiceUnavailableError('the sandbox scenario einvoice-irp-unavailable took the IRP down for this run; the next run registers the invoice');
};
export const IRP_OUTAGE: EInvoiceRegistry = { register: outage, accept: outage, cancel: outage, taxpayer: outage };

/**
 * The invoice store of an `invoice-issue-fails` run: the drafts this run creates cannot take a
 * number (issue, or reserve one for e-invoicing), so they stay DRAFT with the failure recorded;
 * drafts of earlier runs that it finishes are issued as usual.
 */
export function failingIssues(store: InvoiceStore): InvoiceStore {
  const created = new Set<string>();
  const refuse = async (): Promise<never> => {
    throw new Error('the sandbox scenario invoice-issue-fails made this issue fail; the next run issues it');
  };
  const wrapped: InvoiceStore = Object.create(store);
  return Object.assign(wrapped, {
    createDraft: async (invoice: Parameters<InvoiceStore['createDraft']>[0]) => {
      await store.createDraft(invoice);
      created.add(invoice.id);
    },
    issue: (...args: Parameters<InvoiceStore['issue']>) => (created.has(args[0].id) ? refuse() : store.issue(...args)),
    reserveNumber: (...args: Parameters<InvoiceStore['reserveNumber']>) => (created.has(args[0].id) ? refuse() : store.reserveNumber(...args)),
  });
}

/** A run's dependencies as a request asking for `scenario` sees them (unchanged without one, or for billing-hands-off). */
export function withBillingScenario<D extends { readonly invoices: InvoiceStore; readonly eInvoices: EInvoiceRegistry }>(
  deps: D,
  scenario: BillingScenario | undefined,
): D {
  if (scenario === 'einvoice-irp-unavailable') return { ...deps, eInvoices: IRP_OUTAGE };
  if (scenario === 'invoice-issue-fails') return { ...deps, invoices: failingIssues(deps.invoices) };
  return deps;
}

/** The request's time budget: `billing-hands-off` runs out before the first line, as a large run's does. */
export const billingTimeUp = (scenario: BillingScenario | undefined, timeUp: () => boolean): (() => boolean) =>
  scenario === 'billing-hands-off' ? () => true : timeUp;
