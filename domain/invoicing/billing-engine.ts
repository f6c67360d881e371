import type { BookingStatus } from '../bookings/booking.ts';
import type { GstRegistration } from '../catalogue/gst.ts';
import type { LedgerEntry } from '../ledger/ledger.ts';
import type { Minor } from '../money.ts';
import type { ChargeLine } from '../pricing/charge-lines.ts';
import { formatInr } from '../money.ts';
import { perNightOf } from '../pricing/rounding.ts';
import { bookingCredit, remainingOf, type CreditableLine } from './credit-notes.ts';
import type { BookingCreditPlan } from './raise-credit-note.ts';
import {
  SAC_ACCOMMODATION,
  type BlockedState,
  type InvoiceLine,
  type InvoiceLineKind,
  type InvoiceParties,
  type SkippedEntry,
  type UnreconciledEntry,
} from './invoice.ts';
import { splitInclusive, splitTax } from './tax.ts';

/** What billing needs of a stored booking. */
export interface BookingForBilling {
  readonly bookingRef: string;
  readonly bookingId: string;
  readonly status: BookingStatus;
  readonly listingId: string;
  readonly checkIn: string;
  readonly checkOut: string;
  /** The stay as last priced (at booking, or at the last amendment). */
  readonly grandTotal: Minor;
  readonly chargeLines: readonly ChargeLine[] | undefined;
}

/** What is already on invoices for one booking. */
export interface BilledSoFar {
  /** Σ lineTotal of every line written for the booking (its billing marker). */
  readonly total: Minor;
  /** line key → lineTotal; read only when `total` is neither 0 nor the whole amount. */
  readonly lines?: ReadonlyMap<string, Minor>;
  /** The invoiced lines with what credit notes took off them; read only when `total` is more than the booking owes. */
  readonly invoiced?: readonly CreditableLine[];
}

/** One POSTED charge selected for billing, with everything that moved its booking's amount since. */
export interface ChargeForBilling {
  readonly charge: LedgerEntry;
  /** The booking's POSTED ADJUSTMENT and REFUND entries. */
  readonly movements: readonly LedgerEntry[];
  readonly booking: BookingForBilling | undefined;
  readonly billed: BilledSoFar;
}

export interface PropertyFacts {
  readonly name: string;
  /** The listing's state: the place of supply. */
  readonly state: string;
}

export interface BillingPlanInput {
  readonly billTo: { readonly gstin: string | null; readonly name: string; readonly address: string };
  readonly charges: readonly ChargeForBilling[];
  readonly properties: ReadonlyMap<string, PropertyFacts>;
  /** Display names of meals and services by id; the id is printed when a name is missing. */
  readonly addOnNames: ReadonlyMap<string, string>;
  /** The service's GST registration by state. */
  readonly registrations: ReadonlyMap<string, GstRegistration>;
}

/** A line before it is stored: id, invoice and group come at write time. */
export type PlannedLine = Omit<InvoiceLine, 'id' | 'invoiceId' | 'agentGroupId'>;

export interface PlannedBooking {
  readonly bookingRef: string;
  readonly lines: readonly PlannedLine[];
}

export interface PlannedInvoice {
  readonly parties: InvoiceParties;
  readonly bookings: readonly PlannedBooking[];
}

export interface BillingPlan {
  readonly invoices: readonly PlannedInvoice[];
  readonly blockedStates: readonly BlockedState[];
  readonly skippedEntries: readonly SkippedEntry[];
  readonly unreconciledEntries: readonly UnreconciledEntry[];
  /** Bookings invoiced for more than they owe now (cancelled or refunded after invoicing): the credit their lines take. */
  readonly credits: readonly BookingCreditPlan[];
}

const sum = (xs: readonly Minor[]): Minor => xs.reduce((a, b) => a + b, 0);

/**
 * What a booking owes as of now: its charge plus every POSTED adjustment and refund (a
 * refund is negative, so a cancelled booking nets to its retained amount).
 */
export const netCharged = (c: Pick<ChargeForBilling, 'charge' | 'movements'>): Minor => c.charge.amount + sum(c.movements.map((m) => m.amount));

type Outcome =
  | { kind: 'lines'; state: string; lines: PlannedLine[] }
  | { kind: 'skip'; reason: SkippedEntry['reason'] }
  | { kind: 'unreconciled'; billedAmount: Minor }
  | { kind: 'credit'; plan: BookingCreditPlan }
  | { kind: 'nothing' };

/**
 * The billing engine: which lines the selected charges still owe, on which supplier's
 * invoice, and what cannot be billed and why. Pure; the run writes what it plans.
 *
 * Lines of a booking add up exactly to its net POSTED amount or nothing of it is billed:
 * - a live booking bills its charge lines (stay per property and night, meals, services);
 *   when amendments moved the charge away from the stay's own price (rate drift absorbed),
 *   one ADJUSTMENT line carries the difference, tax-inclusive at the stay's highest rate;
 * - a cancelled booking bills its retained amount as one CANCELLATION line, likewise;
 * - lines already invoiced are left out (only the difference is billed);
 * - a booking invoiced for more than it owes now (a cancellation or refund after invoicing)
 *   gets a credit note for the difference, spread over its invoiced lines in proportion to
 *   what is left of each (creditFor): the retained part stays billed on those lines, in
 *   their tax split, and what stays billed is exactly the net POSTED amount, in paise;
 * - where what is invoiced is neither part of what is owed nor more than it (lines that no
 *   longer match), it is reported NEEDS_CREDIT_NOTE for an operator.
 */
export function planBilling(input: BillingPlanInput): BillingPlan {
  const perState = new Map<string, PlannedBooking[]>();
  const skippedEntries: SkippedEntry[] = [];
  const unreconciledEntries: UnreconciledEntry[] = [];
  const credits: BookingCreditPlan[] = [];
  for (const c of input.charges) {
    const outcome = linesOwed(c, input);
    const bookingId = c.charge.bookingId ?? '';
    if (outcome.kind === 'skip') skippedEntries.push({ ledgerEntryId: c.charge.id, bookingId, reason: outcome.reason });
    else if (outcome.kind === 'credit') credits.push(outcome.plan);
    else if (outcome.kind === 'unreconciled')
      unreconciledEntries.push({ ledgerEntryId: c.charge.id, bookingId, chargedAmount: netCharged(c), billedAmount: outcome.billedAmount });
    else if (outcome.kind === 'lines' && outcome.lines.length > 0) {
      const list = perState.get(outcome.state) ?? [];
      list.push({ bookingRef: c.booking!.bookingRef, lines: outcome.lines });
      perState.set(outcome.state, list);
    }
  }
  const invoices: PlannedInvoice[] = [];
  const blockedStates: BlockedState[] = [];
  for (const [state, bookings] of [...perState.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const registration = input.registrations.get(state);
    if (!registration) {
      const lines = bookings.flatMap((b) => b.lines);
      blockedStates.push({ state, lineCount: lines.length, taxableValue: sum(lines.map((l) => l.taxableValue)) });
      continue;
    }
    const parties: InvoiceParties = {
      supplierGstin: registration.gstin,
      supplierName: registration.legalName,
      supplierAddress: registration.address,
      supplierStateCode: registration.stateCode,
      billToGstin: input.billTo.gstin,
      billToName: input.billTo.name,
      billToAddress: input.billTo.address,
      placeOfSupply: state,
      placeOfSupplyStateCode: registration.stateCode,
    };
    invoices.push({
      parties,
      bookings: bookings.map((b) => ({
        ...b,
        lines: b.lines.map((l) => ({ ...l, ...splitTax(l.cgst + l.sgst + l.igst, registration.stateCode, parties.placeOfSupplyStateCode) })),
      })),
    });
  }
  return { invoices, blockedStates, skippedEntries, unreconciledEntries, credits };
}

function linesOwed(c: ChargeForBilling, input: BillingPlanInput): Outcome {
  const b = c.booking;
  if (!b) return { kind: 'skip', reason: 'BOOKING_NOT_FOUND' };
  const owed = netCharged(c);
  if (c.billed.total === owed) return { kind: 'nothing' };
  if (c.billed.total > owed) return creditFor(c, b, owed);
  if (!b.chargeLines || b.chargeLines.length === 0) return { kind: 'skip', reason: 'NO_CHARGE_LINES' };
  const facts = b.chargeLines.map((l) => input.properties.get(l.propertyId));
  if (facts.some((f) => f === undefined)) return { kind: 'skip', reason: 'PROPERTY_UNKNOWN' };
  const state = facts[0]!.state;

  const all = fullLines(c, b, owed, input);
  if (all.kind !== 'lines') return all;
  if (c.billed.total === 0 && !c.billed.lines?.size) return { kind: 'lines', state, lines: all.lines };
  // Some of it is invoiced already: bill the rest only when what is invoiced is exactly part of what is owed.
  const billed = c.billed.lines ?? new Map<string, Minor>();
  const planned = new Map(all.lines.map((l) => [l.key, l]));
  for (const [key, total] of billed) if (planned.get(key)?.lineTotal !== total) return { kind: 'skip', reason: 'NEEDS_CREDIT_NOTE' };
  return { kind: 'lines', state, lines: all.lines.filter((l) => !billed.has(l.key)) };
}

/**
 * A booking invoiced for more than it owes: the difference credited over its invoiced lines
 * (credit-notes.ts spreadCredit). Its invoiced lines must still add up to what its marker
 * says, and it must owe something or nothing, never less: otherwise it is for an operator.
 */
function creditFor(c: ChargeForBilling, b: BookingForBilling, owed: Minor): Outcome {
  const invoiced = c.billed.invoiced;
  if (!invoiced) return { kind: 'skip', reason: 'NEEDS_CREDIT_NOTE' };
  const left = sum(invoiced.map(remainingOf));
  if (owed < 0 || left !== c.billed.total) return { kind: 'unreconciled', billedAmount: c.billed.total };
  const credit = c.billed.total - owed;
  const reason =
    b.status === 'CANCELLED'
      ? `Booking ${b.bookingId} (${b.checkIn} to ${b.checkOut}) cancelled: ${formatInr(credit)} refunded${owed > 0 ? `, the retained ${formatInr(owed)} stays billed` : ''}.`
      : `Booking ${b.bookingId} (${b.checkIn} to ${b.checkOut}) now owes ${formatInr(owed)} of the ${formatInr(c.billed.total)} invoiced: ${formatInr(credit)} credited.`;
  // Lines lowering the invoice first, then the largest: a note split for size never nets to nothing.
  const credits = bookingCredit(invoiced, c.billed.total, owed).sort((x, y) => (x.amount < 0 !== y.amount < 0 ? (x.amount < 0 ? -1 : 1) : y.amount - x.amount));
  return { kind: 'credit', plan: { bookingRef: b.bookingRef, billed: c.billed.total, credits, reason } };
}

/** Every line the booking owes, whether or not some are invoiced already. */
function fullLines(c: ChargeForBilling, b: BookingForBilling, owed: Minor, input: BillingPlanInput): { kind: 'lines'; lines: PlannedLine[] } | Outcome {
  const chargeLines = b.chargeLines!;
  const priced = sum(chargeLines.map((l) => l.total));
  const topRate = Math.max(...chargeLines.map((l) => l.gstRatePercent));
  const first = chargeLines[0]!;
  const common = {
    bookingRef: b.bookingRef,
    bookingId: b.bookingId,
    ledgerEntryId: c.charge.id,
    ...(c.charge.externalBookingId ? { externalBookingId: c.charge.externalBookingId } : {}),
    checkIn: b.checkIn,
    checkOut: b.checkOut,
    sac: SAC_ACCOMMODATION,
  };
  const inclusiveLine = (kind: InvoiceLineKind, amount: Minor, description: string): PlannedLine => {
    const { taxableValue, gst } = splitInclusive(amount, topRate);
    return {
      ...common,
      key: kind,
      lineKind: kind,
      description,
      propertyName: input.properties.get(first.propertyId)!.name,
      itemRef: kind,
      nightDate: null,
      quantity: 1,
      unitBase: taxableValue,
      discount: 0,
      taxableValue,
      gstRate: topRate,
      // Placeholder split: planBilling splits every line by the invoice's supplier and place of supply.
      cgst: 0,
      sgst: 0,
      igst: gst,
      lineTotal: amount,
    };
  };

  if (b.status === 'CANCELLED') {
    if (owed <= 0) return { kind: 'nothing' };
    return {
      kind: 'lines',
      lines: [inclusiveLine('CANCELLATION', owed, `Cancellation charge retained, booking ${b.bookingId} (${b.checkIn} to ${b.checkOut})`)],
    };
  }
  // The stored lines must be the stored stay's price; if not, they describe another stay and billing them would be a guess.
  if (priced !== b.grandTotal) return { kind: 'unreconciled', billedAmount: priced };
  const lines: PlannedLine[] = chargeLines.map((l) => chargeLine(l, common, input));
  const drift = owed - priced;
  if (drift !== 0) {
    // Only an amendment moves a live booking's charge away from its stay's price; anything else is reported.
    if (!c.movements.some((m) => m.type === 'ADJUSTMENT')) return { kind: 'unreconciled', billedAmount: priced };
    lines.push(inclusiveLine('ADJUSTMENT', drift, `Price difference absorbed by amendment, booking ${b.bookingId}`));
  }
  return { kind: 'lines', lines };
}

function chargeLine(
  l: ChargeLine,
  common: Pick<PlannedLine, 'bookingRef' | 'bookingId' | 'externalBookingId' | 'ledgerEntryId' | 'checkIn' | 'checkOut' | 'sac'>,
  input: BillingPlanInput,
): PlannedLine {
  const property = input.properties.get(l.propertyId)!;
  const addOn = l.ref.split('#')[0]!;
  const description =
    l.kind === 'STAY'
      ? 'Accommodation'
      : l.kind === 'MEAL'
        ? `Meals, ${input.addOnNames.get(addOn) ?? addOn}, ${l.date}`
        : `Service, ${input.addOnNames.get(addOn) ?? addOn}${l.date ? `, ${l.date}` : ', whole stay'}`;
  return {
    ...common,
    key: `${l.kind}#${l.ref}`,
    lineKind: l.kind,
    description,
    propertyName: property.name,
    itemRef: l.ref,
    nightDate: l.date,
    quantity: l.quantity,
    unitBase: perNightOf(l.base, l.quantity),
    discount: l.discount,
    taxableValue: l.taxableValue,
    gstRate: l.gstRatePercent,
    cgst: 0,
    sgst: 0,
    igst: l.gst,
    lineTotal: l.total,
  };
}
