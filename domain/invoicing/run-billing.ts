import type { AuditOrigin } from '../audit/audit-event.ts';
import type { DocumentMailDeps } from '../mail/document-mail.ts';
import type { StatementRenderer } from '../ports/statement-renderer.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { Booking } from '../bookings/booking.ts';
import type { GstRegistration } from '../catalogue/gst.ts';
import type { LedgerEntry } from '../ledger/ledger.ts';
import type { BookingReads } from '../ports/booking-reads.ts';
import type { CatalogueStore } from '../ports/catalogue-store.ts';
import type { Clock } from '../ports/clock.ts';
import type { CreditLedger } from '../ports/credit-ledger.ts';
import type { DocumentStore } from '../ports/document-store.ts';
import type { IdGenerator } from '../ports/ids.ts';
import type { InvoiceStore } from '../ports/invoice-store.ts';
import type { BookingMarks } from '../ports/booking-marks.ts';
import type { BillingRunControl } from '../ports/billing-run-control.ts';
import type { BillingRunLog } from '../ports/billing-fan-out.ts';
import type { PayLinkRefreshes } from '../ports/pay-link-refreshes.ts';
import type { PayLinkStore } from '../ports/pay-link-store.ts';
import type { PendingBooking, UnbilledWork } from '../ports/unbilled-work.ts';
import type { CreditNoteStore } from '../ports/credit-note-store.ts';
import { raiseBookingCredit } from './raise-credit-note.ts';
import type { ReceivablesStore } from '../ports/receivables-store.ts';
import type { PaymentGateway } from '../ports/payment-gateway.ts';
import { virtualAccountOf } from '../receivables/gateway-accounts.ts';
import { MIN_ORDER_AMOUNT } from '../receivables/gateway-orders.ts';
import { makePayLink } from '../receivables/pay-links.ts';
import type { EInvoiceRegistry } from '../ports/e-invoice-registry.ts';
import type { PdfQueue } from '../ports/pdf-queue.ts';
import { paymentTermsOf, type AgentGroup, type PostalAddress } from '../tenants.ts';
import { addDays } from '../catalogue/calendar.ts';
import { planBilling, netCharged, type BookingForBilling, type ChargeForBilling, type PlannedInvoice, type PropertyFacts } from './billing-engine.ts';
import { indiaToday } from '../reads/date-window.ts';
import { financialYearOf, invoiceNumberOf, numberingOf, type BillingPeriod } from './billing-period.ts';
import { keepBalancesAfterRun, type BalanceDeps } from '../ledger/balance-checkpoints.ts';
import { newDraftInvoice, type BillingRunResult, type BillingTrigger, type Invoice, type InvoiceLine } from './invoice.ts';
import { markedRegistrationOf, registerForEInvoicing, registerIssuedCreditNote } from './register-e-invoice.ts';

export interface BillingDeps extends Pick<BalanceDeps, 'balances' | 'settleSeconds'> {
  readonly invoices: InvoiceStore;
  /** What each booking was billed (a charge is billed once) and the marks issued invoices leave. */
  readonly bookingMarks: BookingMarks;
  /** The group's billing lock, held by the run. */
  readonly billingControl: BillingRunControl;
  /** Where each run's record goes. */
  readonly billingRuns: Pick<BillingRunLog, 'saveRun'>;
  /** The gateway order and pay link an issued invoice is given. */
  readonly payLinks: Pick<PayLinkStore, 'setGatewayOrder' | 'setPayLink'>;
  /** A run whose credit notes or settled credit moved what invoices owe asks for their pay links to follow. */
  readonly payLinkRefreshes: PayLinkRefreshes;
  /** Credit notes for bookings invoiced for more than they owe now (cancelled or refunded after invoicing). */
  readonly creditNotes: CreditNoteStore;
  readonly ledger: Pick<CreditLedger, 'queryEntries' | 'creditPosition'>;
  /** The group's bookings with unbilled work: what a run reads instead of the whole history. */
  readonly unbilled: UnbilledWork;
  readonly bookingReads: Pick<BookingReads, 'byBookingIds'>;
  readonly catalogue: Pick<CatalogueStore, 'getListing' | 'getGstRegistration'>;
  readonly gateway: PaymentGateway;
  /** The e-invoice registration portal, for registrations marked for e-invoicing. */
  readonly eInvoices: EInvoiceRegistry;
  /** Issued documents' PDFs: queued for the PDF worker (request path) or rendered at once (tools). */
  readonly pdfs: PdfQueue;
  readonly documents: DocumentStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Money the group paid ahead (over-payments) goes to the invoices a run issues. */
  readonly receivables: Pick<
    ReceivablesStore,
    'settle' | 'openDues' | 'setCreditHold' | 'groupVirtualAccount' | 'requestVirtualAccount' | 'saveVirtualAccount'
  >;
  readonly metrics: Metrics;
  /**
   * The group's finance contacts and the mail they are sent: the daily run's reminders (reminder-mail.ts) and
   * monthly statement (statement-mail.ts, whose PDF needs the renderer); absent, the run sends none.
   */
  readonly mail?: Pick<DocumentMailDeps, 'financeContacts' | 'mailLog' | 'mailer'> & { readonly statementRenderer?: StatementRenderer };
}

/** What rendering and storing one document's PDF needs. */
export interface PdfDeps extends Pick<BillingDeps, 'invoices' | 'documents' | 'clock'> {
  /** Prints a stored invoice from its stored figures (never re-priced). */
  readonly renderPdf: (invoice: Invoice, lines: readonly InvoiceLine[]) => Promise<Uint8Array>;
}

export interface BillingRequest {
  readonly period: BillingPeriod;
  /** Charges that occurred up to this instant are selected. */
  readonly cutoff: string;
  /** Only these property-system booking ids (POST /v1/invoices with bookingIds). */
  readonly bookingIds?: readonly string[];
  readonly trigger: BillingTrigger;
  /**
   * True once the caller must answer (POST /v1/invoices's request budget). Asked before each
   * transaction of lines: past it the run writes no more, closes what it wrote and reports
   * `handedOff`; its DRAFTs are continued (`continues`) by the billing worker.
   */
  readonly timeUp?: () => boolean;
  /** DRAFTs a run handed on (its `invoiceIds`): this run writes its lines into them, then issues them. */
  readonly continues?: readonly string[];
}

export const pdfKeyOf = (invoice: Pick<Invoice, 'agentGroupId' | 'id'>): string => `invoices/${invoice.agentGroupId}/${invoice.id}.pdf`;

const addressLine = (a: PostalAddress): string => [a.line1, a.line2, a.city, `${a.state} ${a.postalCode}`, a.country].filter(Boolean).join(', ');

/** Who an invoice of the group is billed to, as its profile has it now. */
const billToOf = (group: AgentGroup) => ({ gstin: group.gstin, name: group.legalName, address: addressLine(group.address) });

/**
 * One billing run for one group, the same for the API, the schedule and the admin tool:
 * select, plan (billing-engine.ts), write DRAFTs with their lines, then take every open
 * invoice of the group one step further: gateway order → number (ISSUED) → PDF asked for
 * (deps.pdfs) → bookings marked. Each step is durable and done at most once, so a run that fails or dies midway
 * leaves DRAFTs (or issued invoices missing a PDF) that the next run finishes.
 * The caller holds the group's billing lock.
 */
export async function runBilling(deps: BillingDeps, group: AgentGroup, req: BillingRequest, origin: AuditOrigin): Promise<BillingRunResult> {
  const startedAt = deps.clock.now().toISOString();
  const runId = deps.ids.uuid();
  const g = group.agentGroupId;
  const [selection, continued] = await Promise.all([selectCharges(deps, g, req), continuedDrafts(deps, g, req.continues ?? [])]);
  const { charges } = selection;
  const { properties, addOnNames, registrations } = await catalogueFacts(deps, charges);
  const plan = planBilling({ billTo: billToOf(group), charges, properties, addOnNames, registrations });

  const invoiceIds: string[] = [];
  let linesWritten = 0;
  // Every planned invoice's DRAFT first: a run cut short still answers each id it will bill into.
  const free = new Map(continued);
  const drafts = await Promise.all(plan.invoices.map((planned) => draftFor(deps, g, runId, req.period, planned, free)));
  let cut = false;
  for (const [i, planned] of plan.invoices.entries()) {
    const draft = drafts[i]!;
    const written = cut ? { written: 0, unwrittenBookings: planned.bookings.length } : await writeLines(deps, draft, planned, req.timeUp);
    linesWritten += written.written;
    if (written.unwrittenBookings > 0) cut = true;
    // A new DRAFT that took no line (every booking went to a racing run) is removed; one handed on keeps its id.
    if (cut || written.written > 0 || draft.lineCount > 0) invoiceIds.push(draft.id);
    else if (!continued.has(draft.id)) await deps.invoices.deleteEmptyDraft(g, draft.id);
  }
  const resultOf = (draftsLeft: number, handedOff?: true): BillingRunResult => ({
    runId,
    agentGroupId: g,
    trigger: req.trigger,
    startedAt,
    finishedAt: deps.clock.now().toISOString(),
    periodFrom: req.period.from,
    periodTo: req.period.to,
    cutoff: req.cutoff,
    invoiceIds,
    linesWritten,
    blockedStates: plan.blockedStates,
    skippedEntries: plan.skippedEntries,
    unreconciledEntries: plan.unreconciledEntries,
    draftsLeft,
    ...(handedOff ? { handedOff } : {}),
  });
  if (cut) {
    // The caller's time ran out: the DRAFTs hold the lines written so far (lanes closed, figures
    // final for what is there) and go to the billing worker's continuation, which writes the rest
    // into them and issues them. Credit notes, issuing, the index and the balances are all the
    // continuation's (it selects again).
    const result = resultOf(invoiceIds.length, true);
    await saveRunRecord(deps, result, origin);
    deps.metrics.count('BillingRunHandedOff');
    return result;
  }
  // Credit notes are issued as they are written (number, lines, the invoice's figures in one
  // transaction); the loop below renders their PDFs like any issued invoice's.
  for (const credit of plan.credits) {
    for (const note of await raiseBookingCredit(deps, g, runId, credit)) {
      invoiceIds.push(note.id);
      linesWritten += note.lineCount;
    }
  }
  let draftsLeft = 0;
  const now = deps.clock.now().getTime();
  const advanceOpen = async () => {
    for (const open of await deps.invoices.openInvoices(g)) {
      if (open.runId !== runId && !continued.has(open.id) && !leftByAnotherRun(open, now)) continue;
      // A run that died while writing a large invoice's lines left their figures on its lanes.
      const invoice = open.linesOpen ? await deps.invoices.closeLines(g, open.id, deps.clock.now().toISOString()) : open;
      if (invoice.status === 'DRAFT' && invoice.lineCount === 0) {
        await deps.invoices.deleteEmptyDraft(g, invoice.id);
        continue;
      }
      // An invoice left open by an earlier run is finished here too, and reported with this run.
      if (!invoiceIds.includes(invoice.id) && invoice.status === 'DRAFT') invoiceIds.push(invoice.id);
      const after = await advanceInvoice(deps, group, invoice);
      if (after.status === 'DRAFT') draftsLeft += 1;
    }
  };
  // The index is settled while the invoices advance: it reads the billing markers the lines wrote
  // and removes index items, neither of which an invoice's steps touch (numbering, bookings marked),
  // so a 5,000-booking run waits for the longer of the two, not their sum. Both end before the run
  // goes on (and before its lock is released); either failing fails the run, which the next one resumes.
  await bothSettled(keepIndex(deps, g, req, selection), advanceOpen());
  // Unallocated credit (an earlier over-payment) pays the invoices just issued, oldest due first.
  const settled = await deps.receivables.settle(g, deps.clock.now().toISOString());
  // A credit note lowered an invoice's amount due, or credit paid part of one just issued (its first link was made for the total).
  if (plan.credits.length > 0 || settled.allocated > 0) await deps.payLinkRefreshes.ask(g);
  const result = resultOf(draftsLeft);
  await saveRunRecord(deps, result, origin);
  deps.metrics.count('BillingRun');
  await keepBalancesAfterRun(deps, g);
  return result;
}

/** The run's record is its last write; its audit event goes in the same transaction. */
async function saveRunRecord(deps: BillingDeps, result: BillingRunResult, origin: AuditOrigin): Promise<void> {
  const { runId, agentGroupId: g, trigger, periodFrom, periodTo, invoiceIds, linesWritten, draftsLeft } = result;
  await deps.billingRuns.saveRun(result, {
    id: deps.ids.uuid(),
    at: result.finishedAt,
    origin,
    action: 'billing.run',
    target: `billing:${g}`,
    account: g,
    before: null,
    after: { runId, trigger, periodFrom, periodTo, invoiceIds, linesWritten, draftsLeft, ...(result.handedOff ? { handedOff: true } : {}) },
  });
}

/** Waits for both, then throws the first failure: neither goes on writing after the run has failed. */
async function bothSettled(a: Promise<void>, b: Promise<void>): Promise<void> {
  const failed = (await Promise.allSettled([a, b])).find((o) => o.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Seconds after its last write that another run's DRAFT counts as left behind. Runs of one
 * group hold its lock, so another run's open invoice is normally a finished run's; only a
 * run racing without the lock could still be writing one, and its drafts are left to it.
 */
const LEFT_BEHIND_SECONDS = 60;

/** True for an invoice another run left open: its issue failed (lastError), it is issued with a step to do, or it has been idle a while. */
const leftByAnotherRun = (invoice: Invoice, now: number): boolean =>
  invoice.status !== 'DRAFT' || invoice.lastError !== null || now - Date.parse(invoice.updatedAt) > LEFT_BEHIND_SECONDS * 1000;

/** What a run selected, and from where: the unbilled index (with the versions read) or the group's whole history. */
export interface Selection {
  readonly charges: ChargeForBilling[];
  /** The index's bookings as read before the entries. */
  readonly pending: readonly PendingBooking[];
  /** The entries read: the whole history when the index is not complete yet. */
  readonly entries: readonly LedgerEntry[];
  readonly fromHistory: boolean;
}

/**
 * The POSTED charges up to the cutoff of the group's bookings with unbilled work (the index,
 * unbilled-work.ts), each with its booking, later movements and what is invoiced already. A
 * group whose index is not complete yet is read from its whole history instead.
 */
export async function selectCharges(
  deps: Pick<BillingDeps, 'unbilled' | 'ledger' | 'bookingReads' | 'bookingMarks' | 'creditNotes'>,
  g: string,
  req: Pick<BillingRequest, 'bookingIds' | 'cutoff'>,
): Promise<Selection> {
  if (req.bookingIds && req.bookingIds.length === 0) return { charges: [], entries: [], pending: [], fromHistory: false };
  // Read before the entries: a posting after this read moves a booking's version, so the run cannot take out what it did not see.
  const { complete, bookings: pending } = await deps.unbilled.pending(g, req.bookingIds);
  if (!complete) return { ...(await selectFromHistory(deps, g, req)), pending, fromHistory: true };
  const entries = pending.length
    ? await deps.unbilled.entriesOf(
        g,
        pending.map((p) => p.bookingId),
      )
    : [];
  return { charges: await chargesOf(deps, g, entries, req.cutoff), pending, entries, fromHistory: false };
}

/**
 * Every POSTED charge, adjustment and refund the group ever had: the selection before the
 * index, kept for groups not backfilled yet and as the index's oracle in the consistency test.
 */
export async function selectFromHistory(
  deps: Pick<BillingDeps, 'ledger' | 'bookingReads' | 'bookingMarks' | 'creditNotes'>,
  g: string,
  req: Pick<BillingRequest, 'bookingIds' | 'cutoff'>,
): Promise<Selection> {
  if (req.bookingIds && req.bookingIds.length === 0) return { charges: [], entries: [], pending: [], fromHistory: true };
  const { entries } = await deps.ledger.queryEntries(g, {
    statuses: ['POSTED'],
    types: ['CHARGE', 'ADJUSTMENT', 'REFUND'],
    ...(req.bookingIds ? { bookingIds: req.bookingIds } : {}),
    order: 'oldest-first',
  });
  return { charges: await chargesOf(deps, g, entries, req.cutoff), entries, pending: [], fromHistory: true };
}

/** Bookings per read of a run's selection (a page of booking items in memory at a time per read). */
const BOOKINGS_PER_READ = 1_000;

/** The charges among POSTED entries (oldest first) up to the cutoff, each with its booking, later movements and what is invoiced already. */
async function chargesOf(
  deps: Pick<BillingDeps, 'bookingReads' | 'bookingMarks' | 'creditNotes'>,
  g: string,
  entries: readonly LedgerEntry[],
  cutoff: string,
): Promise<ChargeForBilling[]> {
  const movements = new Map<string, LedgerEntry[]>();
  for (const e of entries) {
    if (e.type === 'CHARGE' || !e.bookingId) continue;
    movements.set(e.bookingId, [...(movements.get(e.bookingId) ?? []), e]);
  }
  const selected = entries.filter((e) => e.type === 'CHARGE' && e.bookingId !== null && e.occurredAt <= cutoff);
  const bookings = new Map<string, Booking>();
  // Slices read at once (each is its own batches in parallel): a 5,000-booking run waits for one round of reads, not fifty in a row.
  const slices: string[][] = [];
  for (let i = 0; i < selected.length; i += BOOKINGS_PER_READ) slices.push(selected.slice(i, i + BOOKINGS_PER_READ).map((e) => e.bookingId!));
  for (const read of await Promise.all(slices.map((ids) => deps.bookingReads.byBookingIds(g, ids))))
    for (const b of read) if (b.bookingId) bookings.set(b.bookingId, b);
  const billedTotals = await deps.bookingMarks.billedTotals(
    g,
    [...bookings.values()].map((b) => b.bookingRef),
  );
  return Promise.all(
    selected.map(async (charge): Promise<ChargeForBilling> => {
      const booking = bookings.get(charge.bookingId!);
      const moved = movements.get(charge.bookingId!) ?? [];
      const total = booking ? (billedTotals.get(booking.bookingRef) ?? 0) : 0;
      const net = netCharged({ charge, movements: moved });
      const partly = booking !== undefined && total !== 0 && total < net;
      const over = booking !== undefined && total > net;
      return {
        charge,
        movements: moved,
        booking: booking && billingFacts(booking),
        billed: {
          total,
          ...(partly ? { lines: await deps.bookingMarks.billedLines(g, booking.bookingRef) } : {}),
          ...(over ? { invoiced: await deps.creditNotes.creditableLines(g, booking.bookingRef) } : {}),
        },
      };
    }),
  );
}

/**
 * After the run's lines and credit notes are written: a booking now invoiced for exactly what
 * it owes leaves the index (unless a posting moved it since it was read); the rest stay for
 * the next run, which reports them again as today. A run that read the whole history indexes
 * it (the group's backfill), so the next run reads only what is unbilled.
 */
async function keepIndex(deps: BillingDeps, g: string, req: BillingRequest, selection: Selection): Promise<void> {
  const refs = selection.charges.flatMap((c) => (c.booking ? [c.booking.bookingRef] : []));
  const billedNow = refs.length ? await deps.bookingMarks.billedTotals(g, refs) : new Map<string, number>();
  const open = new Set<string>();
  const done = new Set<string>();
  for (const c of selection.charges) {
    const settled = c.booking !== undefined && (billedNow.get(c.booking.bookingRef) ?? 0) === netCharged(c);
    (settled ? done : open).add(c.charge.bookingId!);
  }
  for (const b of open) done.delete(b);
  if (selection.fromHistory && !req.bookingIds) {
    const pending = [...new Set(selection.entries.flatMap((e) => (e.bookingId && !done.has(e.bookingId) ? [e.bookingId] : [])))];
    await deps.unbilled.backfill(g, selection.entries, pending);
  }
  const taken = selection.pending.filter((p) => done.has(p.bookingId));
  if (taken.length) await deps.unbilled.settle(g, taken);
}

const billingFacts = (b: Booking): BookingForBilling => ({
  bookingRef: b.bookingRef,
  bookingId: b.bookingId!,
  status: b.status,
  listingId: b.listingId,
  checkIn: b.checkIn,
  checkOut: b.checkOut,
  grandTotal: b.summary.grandTotal,
  chargeLines: b.chargeLines,
});

/** Names and states of the properties billed, and our registrations in those states. */
async function catalogueFacts(deps: BillingDeps, charges: readonly ChargeForBilling[]) {
  const listingIds = [...new Set(charges.flatMap((c) => (c.booking ? [c.booking.listingId] : [])))];
  const properties = new Map<string, PropertyFacts>();
  const addOnNames = new Map<string, string>();
  for (const bundle of await Promise.all(listingIds.map((id) => deps.catalogue.getListing(id)))) {
    if (!bundle) continue;
    for (const p of bundle.properties) properties.set(p.id, { name: p.name, state: bundle.listing.state });
    for (const m of bundle.meals) addOnNames.set(m.mealId, m.name);
    for (const v of bundle.vas) addOnNames.set(v.vasId, v.name);
  }
  const states = [...new Set([...properties.values()].map((p) => p.state))];
  const registrations = new Map<string, GstRegistration>();
  for (const [state, reg] of await Promise.all(states.map(async (s) => [s, await deps.catalogue.getGstRegistration(s)] as const)))
    if (reg) registrations.set(state, reg);
  return { properties, addOnNames, registrations };
}

/** The DRAFTs a run handed on that are still DRAFTs, by id; lanes a dead run left open are closed first. */
async function continuedDrafts(deps: BillingDeps, g: string, ids: readonly string[]): Promise<Map<string, Invoice>> {
  const found = await Promise.all(ids.map((id) => deps.invoices.get(g, id)));
  const open = await Promise.all(found.map((i) => (i?.linesOpen ? deps.invoices.closeLines(g, i.id, deps.clock.now().toISOString()) : i)));
  return new Map(open.flatMap((i) => (i && i.status === 'DRAFT' ? [[i.id, i] as const] : [])));
}

/** Which DRAFT a planned invoice's lines may join: the same supplier registration, place of supply, recipient and period. */
const draftKey = (i: Pick<Invoice, 'supplierGstin' | 'placeOfSupplyStateCode' | 'billToGstin' | 'periodFrom' | 'periodTo'>): string =>
  [i.supplierGstin, i.placeOfSupplyStateCode, i.billToGstin ?? '-', i.periodFrom, i.periodTo].join('|');

/**
 * A handed-on DRAFT for the planned invoice, taken out of `free` (before any await, so
 * planned invoices drafted side by side never share one), or a new DRAFT.
 */
async function draftFor(
  deps: BillingDeps,
  g: string,
  runId: string,
  period: BillingPeriod,
  planned: PlannedInvoice,
  free: Map<string, Invoice>,
): Promise<Invoice> {
  const draft = newDraftInvoice({ id: deps.ids.uuid(), agentGroupId: g, runId, period, parties: planned.parties, at: deps.clock.now().toISOString() });
  const handedOn = [...free.values()].find((open) => draftKey(open) === draftKey(draft));
  if (handedOn) {
    free.delete(handedOn.id);
    return handedOn;
  }
  await deps.invoices.createDraft(draft);
  return draft;
}

async function writeLines(
  deps: BillingDeps,
  draft: Invoice,
  planned: PlannedInvoice,
  timeUp: (() => boolean) | undefined,
): Promise<{ written: number; unwrittenBookings: number }> {
  const lines: InvoiceLine[] = planned.bookings.flatMap((b) =>
    b.lines.map((l) => ({ ...l, id: deps.ids.uuid(), invoiceId: draft.id, agentGroupId: draft.agentGroupId })),
  );
  return deps.invoices.addLines(draft, lines, deps.clock.now().toISOString(), timeUp ? { stop: timeUp } : {});
}

/** Why a step failed, as stored for operators (`<step>: <message>`): the message only, never a stack. */
export const failureOf = (step: string, err: unknown): string => `${step}: ${err instanceof Error ? err.message : String(err)}`;

/**
 * Takes one open invoice as far as it goes. Steps that can fail go before the number, so a
 * number is never spent on an invoice that stays DRAFT: the gateway order, then issue (the
 * number, issue and due dates in one transaction). For a registration marked for e-invoicing
 * the number is reserved first and the invoice issued once registered (register-e-invoice.ts);
 * a DRAFT holding a reserved number is retried with that number until it is issued. The PDF and the booking marks come
 * after and are retried until done: the PDF is asked for (on the request path the PDF worker
 * renders it off the queue) while the invoice has none, and is also rendered on demand when
 * a partner asks for it first.
 */
export async function advanceInvoice(deps: BillingDeps, group: AgentGroup, invoice: Invoice): Promise<Invoice> {
  const g = invoice.agentGroupId;
  let current = invoice;
  if (current.status === 'DRAFT') {
    try {
      let gatewayOrderId = current.gatewayOrderId;
      if (!gatewayOrderId && current.total > 0) {
        // The group's transfer account first (printed on the invoice), then the order; both survive a retry without a second one.
        const payTo = await virtualAccountOf(deps, group);
        const order = await deps.gateway.createOrder({
          receipt: current.id,
          amount: current.total,
          currency: 'INR',
          description: `Invoice for ${current.periodFrom} to ${current.periodTo}`,
          // The number is taken only once the order exists (a gateway outage never spends one): the receipt is the invoice id.
          notes: { invoice_id: current.id, agent_group_id: g, group_name: group.legalName.slice(0, 200), period: `${current.periodFrom}..${current.periodTo}` },
        });
        gatewayOrderId = order.orderId;
        await deps.payLinks.setGatewayOrder(g, current.id, gatewayOrderId, deps.clock.now().toISOString(), payTo);
      }
      if (current.payLink === undefined && current.total >= MIN_ORDER_AMOUNT) {
        // The pay link the invoice e-mail and PDF carry, for the whole total; before the number too, so an outage spends none.
        const payLink = await makePayLink(deps, current, current.total, 1);
        // Refused only when a concurrent attempt stored its link first: the same one (one link per reference at the gateway).
        if (payLink) await deps.payLinks.setPayLink(g, current.id, payLink, null, deps.clock.now().toISOString());
        current = { ...current, payLink };
      }
      const now = deps.clock.now();
      const issueDate = indiaToday(now);
      const issue = {
        issueDate,
        dueDate: addDays(issueDate, paymentTermsOf(group)),
        issuedAt: now.toISOString(),
        financialYear: financialYearOf(issueDate),
        ...numberingOf(deps.clock, 'I', financialYearOf(issueDate), (n) => invoiceNumberOf(current.supplierStateCode, financialYearOf(issueDate), n)),
      };
      // A registration marked for e-invoicing issues only once the IRP registered the numbered document.
      const marked = await markedRegistrationOf(deps, current);
      current = marked
        ? await registerForEInvoicing(deps, { ...current, gatewayOrderId }, issue, partiesNow(group, marked))
        : await deps.invoices.issue({ ...current, gatewayOrderId }, issue);
    } catch (err) {
      await deps.invoices.recordFailure(g, current.id, failureOf('issue', err), deps.clock.now().toISOString());
      return current;
    }
  }
  if (current.status === 'CANCELLED') return current;
  if (current.creditNoteFor && !current.eInvoice) {
    // Its PDF waits for the registration, so that it prints the IRN; the credit note stays open until then.
    try {
      current = await registerIssuedCreditNote(deps, current);
    } catch (err) {
      const lastError = failureOf('issue', err);
      await deps.invoices.recordFailure(g, current.id, lastError, deps.clock.now().toISOString());
      return { ...current, lastError };
    }
  }
  if (!current.pdfKey) {
    try {
      current = await deps.pdfs.request(current);
    } catch (err) {
      await deps.invoices.recordFailure(g, current.id, failureOf('pdf', err), deps.clock.now().toISOString());
    }
  }
  if (!current.bookingsMarked) {
    await deps.bookingMarks.markBookingsInvoiced(current, deps.clock.now().toISOString());
    current = { ...current, bookingsMarked: true };
  }
  return current;
}

/** A DRAFT's recipient and supplier names and addresses as the group profile and our registration have them now. */
const partiesNow = (group: AgentGroup, registration: GstRegistration) => {
  const billTo = billToOf(group);
  return {
    billToGstin: billTo.gstin,
    billToName: billTo.name,
    billToAddress: billTo.address,
    supplierName: registration.legalName,
    supplierAddress: registration.address,
  };
};

/** Renders an issued invoice from its stored figures, stores the PDF and records where; returns the invoice and the bytes. */
export async function storePdf(deps: PdfDeps, invoice: Invoice): Promise<Invoice & { readonly pdf: Uint8Array }> {
  const bytes = await deps.renderPdf(invoice, await deps.invoices.lines(invoice.agentGroupId, invoice.id));
  const key = pdfKeyOf(invoice);
  await deps.documents.put(key, bytes, 'application/pdf');
  await deps.invoices.setPdf(invoice.agentGroupId, invoice.id, key, deps.clock.now().toISOString());
  return { ...invoice, pdfKey: key, pdf: bytes };
}
