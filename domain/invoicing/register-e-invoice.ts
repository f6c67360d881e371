import { ConflictError, NotFoundError } from '../errors.ts';
import type { CatalogueStore } from '../ports/catalogue-store.ts';
import type { Clock } from '../ports/clock.ts';
import type { DocumentStore } from '../ports/document-store.ts';
import { indiaToday } from '../reads/date-window.ts';
import { EInvoiceHeldError, EInvoiceRejectedError, type EInvoiceDetails, type EInvoiceRegistered, type EInvoiceRegistry } from '../ports/e-invoice-registry.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { InvoiceStore, IssueRequest, RefreshedParties } from '../ports/invoice-store.ts';
import type { GstRegistration } from '../catalogue/gst.ts';
import { eInvoiceOfRecord, type EInvoicePayload, type EInvoiceRecord } from './e-invoice.ts';
import type { EInvoiceHold, EInvoiceRegistration } from './invoice-document.ts';
import type { Invoice } from './invoice.ts';
import { closingWindowText, PAST_REPORTING_WINDOW_CODE, pastWindowText, type ReportingWindow, reportingWindowOf } from './reporting-window.ts';

export interface EInvoicingDeps {
  readonly invoices: InvoiceStore;
  readonly catalogue: Pick<CatalogueStore, 'getGstRegistration'>;
  readonly eInvoices: EInvoiceRegistry;
  readonly documents: DocumentStore;
  readonly clock: Clock;
  readonly metrics: Metrics;
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
  return eInvoiceOfRecord(
    record,
    lines,
    original?.invoiceNumber && original.issueDate ? { number: original.invoiceNumber, date: original.issueDate } : undefined,
  );
}

const sameParties = (a: RefreshedParties, b: RefreshedParties): boolean =>
  a.billToGstin === b.billToGstin &&
  a.billToName === b.billToName &&
  a.billToAddress === b.billToAddress &&
  a.supplierName === b.supplierName &&
  a.supplierAddress === b.supplierAddress;

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
  if (!sameParties(draft, parties) && (await deps.invoices.setParties(draft.agentGroupId, draft.id, parties, deps.clock.now().toISOString())))
    draft = { ...draft, ...parties };
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
  const issued = await deps.invoices.issue(numbered, { ...issue, issuedAt: deps.clock.now().toISOString() }, eInvoice);
  await released(deps, numbered);
  return issued;
}

/**
 * Sends a numbered record's INV-01 to the IRP and keeps the IRP's signed document beside its
 * PDF; the registration to store on it. A held record is never sent again: one whose hold
 * carries the portal's signatures (a SIGNATURE hold, or a RECONCILE hold an operator gave the
 * portal's record) is taken once they verify under the current key; any other held record
 * waits for its operator. A registration the IRP holds but that cannot be taken as ours
 * (EInvoiceHeldError) is held and counted (`EInvoiceHeld`, alarmed).
 */
async function registerDocument(deps: EInvoicingDeps, record: Invoice): Promise<EInvoiceRegistration> {
  let registered: EInvoiceRegistered;
  const window = await reportingWindowOfRecord(deps, record);
  try {
    const held = record.eInvoiceHold;
    // Past its window the IRP refuses the document (2305); one it registered already (a hold with its signatures) is still taken.
    if (window?.closed && !held?.signedQrCode) throw new PastReportingWindowError(pastWindowText(record.issueDate ?? '', window.lastDay));
    const payload = await eInvoicePayloadOf(deps, record);
    if (held && !held.signedQrCode) throw new EInvoiceHeldError(held.kind, held, held.reason);
    registered = held ? await deps.eInvoices.accept(payload, detailsOfHold(held)) : await deps.eInvoices.register(payload);
  } catch (err) {
    let error = `e-invoice registration of ${record.invoiceNumber}: ${err instanceof Error ? err.message : String(err)}`;
    if (err instanceof EInvoiceHeldError) {
      const at = deps.clock.now().toISOString();
      await deps.invoices.holdEInvoice(record.agentGroupId, record.id, { kind: err.kind, reason: err.reason, ...err.held, since: at }, failureText(error), at);
      deps.metrics.count('EInvoiceHeld');
    } else if (err instanceof PastReportingWindowError || (err instanceof EInvoiceRejectedError && err.code === PAST_REPORTING_WINDOW_CODE)) {
      deps.metrics.count('EInvoicePastReportingWindow');
      if (!(err instanceof PastReportingWindowError)) error += ` (${REPORTING_WINDOW_NOTE})`;
    } else if (window?.closing) {
      deps.metrics.count('EInvoiceReportingWindowClosing');
      error += `; ${closingWindowText(window)}`;
    }
    throw new Error(error);
  }
  if (registered.signedInvoice) await deps.documents.put(signedEInvoiceKeyOf(record), new TextEncoder().encode(registered.signedInvoice), 'application/jwt');
  return { irn: registered.irn, ackNo: registered.ackNo, ackDate: registered.ackDate, signedQr: registered.signedQrCode };
}

/** A document the IRP's 30-day reporting window no longer admits: never sent (the portal would refuse it, 2305). */
class PastReportingWindowError extends Error {
  override readonly name = 'PastReportingWindowError';
}

/** What a portal's 2305 adds for a registration whose setting did not say it is subject to the window. */
const REPORTING_WINDOW_NOTE =
  'the IRP applies its 30-day reporting window to this registration: set `irpReportingWindow: true` on it in the world file; the document needs a new one (docs/receivables.md "The 30-day reporting window")';

/** The reporting window of a numbered record of a registration subject to it (by the record's own date). */
async function reportingWindowOfRecord(deps: Pick<EInvoicingDeps, 'catalogue' | 'clock'>, record: Invoice): Promise<ReportingWindow | undefined> {
  if (!record.issueDate) return undefined;
  return reportingWindowOf(await markedRegistrationOf(deps, record), record.issueDate, indiaToday(deps.clock.now()));
}

/** The lastError a billing run records for a failed registration (run-billing.ts `failureOf('issue', …)`). */
const failureText = (error: string): string => `issue: ${error}`;

/** A hold's signatures as the portal's Get IRN details answers them. */
const detailsOfHold = (h: EInvoiceHold): EInvoiceDetails => ({
  Irn: h.irn,
  AckNo: h.ackNo ?? '',
  AckDt: h.ackDate ?? '',
  SignedQRCode: h.signedQrCode ?? '',
  ...(h.signedInvoice ? { SignedInvoice: h.signedInvoice } : {}),
});

/** Ends a record's hold once its registration is stored on it. */
async function released(deps: EInvoicingDeps, record: Invoice): Promise<void> {
  if (record.eInvoiceHold) await deps.invoices.releaseEInvoiceHold(record.agentGroupId, record.id, deps.clock.now().toISOString());
}

/**
 * An operator's resolution of a held record (`invoices reconcile`): `details`, the portal's
 * record of the registration (Get IRN details' JSON, as the portal's e-invoice download gives
 * it), verified under the registration's current key and compared with our document, then
 * kept on the hold for the group's next billing run to issue with; or `sendAgain`, for a
 * RECONCILE hold only, after the operator removed the cause at the portal (the hold ends and
 * the next run sends the document again). A SIGNATURE hold is never sent again.
 */
export async function reconcileEInvoice(
  deps: EInvoicingDeps,
  agentGroupId: string,
  invoiceId: string,
  resolution: { readonly details: EInvoiceDetails } | { readonly sendAgain: true },
): Promise<Invoice> {
  const invoice = await deps.invoices.get(agentGroupId, invoiceId);
  if (!invoice) throw new NotFoundError('Invoice');
  const hold = invoice.eInvoiceHold;
  if (!hold || invoice.eInvoice || invoice.status === 'CANCELLED')
    throw new ConflictError('CONFLICT', `Invoice ${invoiceId} is not held for the IRP (\`invoices einvoice\` shows its state).`);
  const at = deps.clock.now().toISOString();
  if ('sendAgain' in resolution) {
    if (hold.kind === 'SIGNATURE')
      throw new ConflictError(
        'CONFLICT',
        `Invoice ${invoice.invoiceNumber} is registered at the IRP (IRN ${hold.irn}); it is never sent again. Store the portal's new signing key (docs/deploy.md "E-invoicing", rotation) and the next billing run takes the registration.`,
      );
    await deps.invoices.releaseEInvoiceHold(agentGroupId, invoiceId, at);
    return { ...invoice, eInvoiceHold: undefined };
  }
  const d = resolution.details;
  let accepted: EInvoiceRegistered;
  try {
    accepted = await deps.eInvoices.accept(await eInvoicePayloadOf(deps, invoice), d);
  } catch (err) {
    throw new ConflictError(
      'CONFLICT',
      `The portal's record does not settle invoice ${invoice.invoiceNumber}, nothing changed: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const next: EInvoiceHold = {
    ...hold,
    irn: accepted.irn,
    ackNo: accepted.ackNo,
    ackDate: accepted.ackDate,
    signedQrCode: accepted.signedQrCode,
    ...(accepted.signedInvoice ? { signedInvoice: accepted.signedInvoice } : {}),
  };
  await deps.invoices.holdEInvoice(
    agentGroupId,
    invoiceId,
    next,
    failureText(
      `e-invoice registration of ${invoice.invoiceNumber}: the portal's record of IRN ${accepted.irn} verified by an operator; the next billing run issues it`,
    ),
    at,
  );
  return { ...invoice, eInvoiceHold: next };
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
  const stored = await deps.invoices.setEInvoice(note.agentGroupId, note.id, eInvoice, deps.clock.now().toISOString());
  await released(deps, note);
  if (stored) return { ...note, eInvoice, lastError: null, eInvoiceHold: undefined };
  // A racing run stored the same registration first.
  return (await deps.invoices.get(note.agentGroupId, note.id)) ?? note;
}

/** Where a record stands with the IRP (the admin tool's `invoices einvoice`). */
export type EInvoiceState =
  /** Registered: IRN, acknowledgement and signed QR stored and printed. */
  | 'REGISTERED'
  /** Numbered (an invoice's DRAFT, or an issued credit note) and waiting for the IRP (it refused, or did not answer): the next run sends it again. */
  | 'PENDING'
  /** Numbered and never registered, past the IRP's 30-day reporting window (or refused by the IRP for it, 2305): never sent again; it needs a new document. */
  | 'PAST_REPORTING_WINDOW'
  /** The IRP holds a registration of this number that cannot be taken as ours without an operator (2283, or another document): never sent again until resolved (`invoices reconcile`). */
  | 'NEEDS_RECONCILIATION'
  /** Registered at the IRP, but its signatures do not verify under our signing key: IRN and acknowledgement kept, never sent again; taken once the portal's new key is stored. */
  | 'SIGNATURE_UNVERIFIED'
  /** A DRAFT without a number yet: there is no document to register. */
  | 'NOT_NUMBERED'
  /** Issued without registration: its registration is not marked for e-invoicing, or the recipient has no GSTIN. */
  | 'NOT_REQUIRED'
  /** An abandoned draft, or an invoice voided at the IRP (its IRN cancelled, `registration.cancelledAt`). */
  | 'CANCELLED';

/** One record's e-invoice: its state, the IRP's answer when registered, the last failure, and the INV-01 JSON once it has a number. */
export async function eInvoiceStatus(deps: Pick<EInvoicingDeps, 'invoices' | 'catalogue' | 'clock'>, agentGroupId: string, invoiceId: string) {
  const invoice = await deps.invoices.get(agentGroupId, invoiceId);
  if (!invoice) throw new NotFoundError('Invoice');
  let state: EInvoiceState =
    invoice.status === 'CANCELLED'
      ? 'CANCELLED'
      : invoice.eInvoice
        ? 'REGISTERED'
        : invoice.eInvoiceHold
          ? invoice.eInvoiceHold.kind === 'SIGNATURE'
            ? 'SIGNATURE_UNVERIFIED'
            : 'NEEDS_RECONCILIATION'
          : invoice.status !== 'DRAFT'
            ? (await awaitsEInvoice(deps, invoice))
              ? 'PENDING'
              : 'NOT_REQUIRED'
            : invoice.invoiceNumber
              ? 'PENDING'
              : 'NOT_NUMBERED';
  const window = state === 'PENDING' ? await reportingWindowOfRecord(deps, invoice) : undefined;
  if (state === 'PENDING' && (window?.closed || invoice.lastError?.includes(`(${PAST_REPORTING_WINDOW_CODE})`))) state = 'PAST_REPORTING_WINDOW';
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
    hold: invoice.eInvoiceHold
      ? {
          kind: invoice.eInvoiceHold.kind,
          reason: invoice.eInvoiceHold.reason,
          irn: invoice.eInvoiceHold.irn,
          ackNo: invoice.eInvoiceHold.ackNo,
          ackDate: invoice.eInvoiceHold.ackDate,
          since: invoice.eInvoiceHold.since,
          portalRecordGiven: !!invoice.eInvoiceHold.signedQrCode,
        }
      : null,
    lastError: invoice.lastError,
    /** The IRP's 30-day reporting window of a document still waiting for it, when its registration is subject to it. */
    reportingWindow: window ? { lastDay: window.lastDay, daysLeft: window.daysLeft } : null,
    document,
    documentError,
  };
}
