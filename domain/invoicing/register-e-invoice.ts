import { NotFoundError } from '../errors.ts';
import type { CatalogueStore } from '../ports/catalogue-store.ts';
import type { Clock } from '../ports/clock.ts';
import type { DocumentStore } from '../ports/document-store.ts';
import { EInvoiceUnavailableError, type EInvoiceRegistry } from '../ports/e-invoice-registry.ts';
import type { InvoiceStore, IssueRequest, RefreshedParties } from '../ports/invoice-store.ts';
import type { GstRegistration } from '../catalogue/gst.ts';
import { eInvoiceOfRecord, type EInvoicePayload, type EInvoiceRecord } from './e-invoice.ts';
import type { EInvoiceRegistration } from './invoice-document.ts';
import type { Invoice } from './invoice.ts';

export interface EInvoicingDeps {
  readonly invoices: InvoiceStore;
  readonly catalogue: Pick<CatalogueStore, 'getGstRegistration'>;
  readonly eInvoices: EInvoiceRegistry;
  readonly documents: DocumentStore;
  readonly clock: Clock;
}

/** Where the IRP's signed document of a registered record is kept (beside its PDF). */
export const signedEInvoiceKeyOf = (invoice: Pick<Invoice, 'agentGroupId' | 'id'>): string => `einvoices/${invoice.agentGroupId}/${invoice.id}.jwt`;

/**
 * The supplier registration of a record when it is marked for e-invoicing (our GSTIN in the
 * property's state, `eInvoicing: true`); undefined when the record is issued as before.
 */
export async function markedRegistrationOf(deps: Pick<EInvoicingDeps, 'catalogue'>, invoice: Invoice): Promise<GstRegistration | undefined> {
  const registration = await deps.catalogue.getGstRegistration(invoice.placeOfSupply);
  return registration?.gstin === invoice.supplierGstin && registration.eInvoicing === true ? registration : undefined;
}

/** Whether a record is registered with the IRP before it is issued: a marked registration, and a recipient with a GSTIN (B2C supplies are outside e-invoicing). */
export async function registersEInvoices(deps: Pick<EInvoicingDeps, 'catalogue'>, invoice: Invoice): Promise<boolean> {
  return invoice.billToGstin !== null && (await markedRegistrationOf(deps, invoice)) !== undefined;
}

/** The INV-01 JSON of a record holding its number; a credit note's names its invoice's number and date. */
export async function eInvoicePayloadOf(deps: Pick<EInvoicingDeps, 'invoices'>, record: EInvoiceRecord): Promise<EInvoicePayload> {
  const lines = await deps.invoices.lines(record.agentGroupId, record.id);
  if (!record.creditNoteFor) return eInvoiceOfRecord(record, lines);
  const original = await deps.invoices.get(record.agentGroupId, record.creditNoteFor);
  return eInvoiceOfRecord(record, lines, original?.invoiceNumber && original.issueDate ? { number: original.invoiceNumber, date: original.issueDate } : undefined);
}

const sameParties = (a: RefreshedParties, b: RefreshedParties): boolean =>
  a.billToGstin === b.billToGstin && a.billToName === b.billToName && a.billToAddress === b.billToAddress && a.supplierName === b.supplierName && a.supplierAddress === b.supplierAddress;

/**
 * Issues a DRAFT of a registration marked for e-invoicing. The IRN covers the document
 * number, so the number comes first: reserved (the invoice stays DRAFT, never listed, and
 * cannot be abandoned), then the INV-01 registered, then the invoice ISSUED with the IRP's
 * answer stored on it. When the IRP refuses the document or cannot answer, this throws and
 * the invoice stays DRAFT with its number; the next run sends the same document again (a
 * document the IRP registered meanwhile comes back as its duplicate, with the same IRN).
 *
 * `parties`: the recipient and supplier as the master data now has them. A DRAFT takes them
 * before it is rendered, so data an operator corrected after the IRP refused it (a GSTIN, a
 * name, an address) reaches the next attempt; a recipient left without a GSTIN is a B2C
 * supply and is issued without registration.
 */
export async function registerForEInvoicing(deps: EInvoicingDeps, invoice: Invoice, issue: IssueRequest, parties: RefreshedParties): Promise<Invoice> {
  let draft = invoice;
  if (!sameParties(draft, parties) && (await deps.invoices.setParties(draft.agentGroupId, draft.id, parties, deps.clock.now().toISOString()))) draft = { ...draft, ...parties };
  if (!draft.billToGstin) return deps.invoices.issue(draft, issue);
  try {
    // Our own refusal of the document (an address without a PIN, figures that do not add up) comes before a number is spent.
    if (!draft.invoiceNumber) await eInvoicePayloadOf(deps, { ...draft, invoiceNumber: issue.numberOf(1), issueDate: issue.issueDate, dueDate: issue.dueDate });
  } catch (err) {
    throw new Error(`e-invoice document (no number taken): ${err instanceof Error ? err.message : String(err)}`);
  }
  const numbered = await deps.invoices.reserveNumber(draft, issue);
  if (numbered.status !== 'DRAFT') return numbered;
  const eInvoice = await registerDocument(deps, numbered);
  return deps.invoices.issue(numbered, { ...issue, issuedAt: deps.clock.now().toISOString() }, eInvoice);
}

/** Sends a numbered record's INV-01 to the IRP and keeps the IRP's signed document beside its PDF; the registration to store on it. */
async function registerDocument(deps: EInvoicingDeps, record: Invoice): Promise<EInvoiceRegistration> {
  let registered;
  try {
    registered = await deps.eInvoices.register(await eInvoicePayloadOf(deps, record));
  } catch (err) {
    throw new Error(`e-invoice registration of ${record.invoiceNumber}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (registered.signedInvoice) await deps.documents.put(signedEInvoiceKeyOf(record), new TextEncoder().encode(registered.signedInvoice), 'application/jwt');
  return { irn: registered.irn, ackNo: registered.ackNo, ackDate: registered.ackDate, signedQr: registered.signedQrCode };
}

/** True for an issued credit note of a registration marked for e-invoicing that the IRP has not registered yet. */
export async function awaitsEInvoice(deps: Pick<EInvoicingDeps, 'catalogue'>, record: Invoice): Promise<boolean> {
  return !!record.creditNoteFor && !record.eInvoice && (record.status === 'ISSUED' || record.status === 'PAID') && (await registersEInvoices(deps, record));
}

/**
 * Registers an issued credit note of a registration marked for e-invoicing (document type
 * CRN, naming the invoice it corrects) and stores the IRP's answer on it. A credit note is
 * numbered and issued in the one transaction that also moves the corrected invoice's figures,
 * so it cannot wait as a DRAFT the way an invoice does; it is registered right after, before
 * its PDF is rendered. When the IRP refuses or cannot answer this throws: the credit note
 * stays open without a PDF and the next billing run sends the same document again (one the
 * IRP registered meanwhile comes back as its duplicate, with the same IRN).
 */
export async function registerIssuedCreditNote(deps: EInvoicingDeps, note: Invoice): Promise<Invoice> {
  if (!(await awaitsEInvoice(deps, note))) return note;
  const eInvoice = await registerDocument(deps, note);
  if (await deps.invoices.setEInvoice(note.agentGroupId, note.id, eInvoice, deps.clock.now().toISOString())) return { ...note, eInvoice, lastError: null };
  // A racing run stored the same registration first.
  return (await deps.invoices.get(note.agentGroupId, note.id)) ?? note;
}

/** The IRP of the sandbox scenario `einvoice-irp-unavailable` (docs/sandbox.md): down for the whole run. */
const outage = async (): Promise<never> => {
  throw new EInvoiceUnavailableError('the sandbox scenario einvoice-irp-unavailable took the IRP down for this run; the next run registers the invoice');
};
export const IRP_OUTAGE: EInvoiceRegistry = { register: outage, cancel: outage, taxpayer: outage };

/** Where a record stands with the IRP (the admin tool's `invoices einvoice`). */
export type EInvoiceState =
  /** Registered: IRN, acknowledgement and signed QR stored and printed. */
  | 'REGISTERED'
  /** Numbered (an invoice's DRAFT, or an issued credit note) and waiting for the IRP (it refused, or did not answer): the next run sends it again. */
  | 'PENDING'
  /** A DRAFT without a number yet: there is no document to register. */
  | 'NOT_NUMBERED'
  /** Issued without registration: its registration is not marked for e-invoicing, or the recipient has no GSTIN. */
  | 'NOT_REQUIRED'
  /** An abandoned draft, or an invoice voided at the IRP (its IRN cancelled, `registration.cancelledAt`). */
  | 'CANCELLED';

/** One record's e-invoice: its state, the IRP's answer when registered, the last failure, and the INV-01 JSON once it has a number. */
export async function eInvoiceStatus(deps: Pick<EInvoicingDeps, 'invoices' | 'catalogue'>, agentGroupId: string, invoiceId: string) {
  const invoice = await deps.invoices.get(agentGroupId, invoiceId);
  if (!invoice) throw new NotFoundError('Invoice');
  const state: EInvoiceState =
    invoice.status === 'CANCELLED'
      ? 'CANCELLED'
      : invoice.eInvoice
        ? 'REGISTERED'
        : invoice.status !== 'DRAFT'
          ? (await awaitsEInvoice(deps, invoice))
            ? 'PENDING'
            : 'NOT_REQUIRED'
          : invoice.invoiceNumber
            ? 'PENDING'
            : 'NOT_NUMBERED';
  let document: EInvoicePayload | null = null;
  let documentError: string | null = null;
  if (invoice.invoiceNumber && state !== 'CANCELLED') {
    try {
      document = await eInvoicePayloadOf(deps, invoice);
    } catch (err) {
      // Figures the IRP could never accept: shown to the operator instead of a document.
      documentError = err instanceof Error ? err.message : String(err);
    }
  }
  return {
    invoiceId: invoice.id,
    invoiceNumber: invoice.invoiceNumber,
    status: invoice.status,
    state,
    markedForEInvoicing: await registersEInvoices(deps, invoice),
    registration: invoice.eInvoice ?? null,
    lastError: invoice.lastError,
    document,
    documentError,
  };
}
