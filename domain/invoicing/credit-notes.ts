import { assertMinor, type Minor } from '../money.ts';
import { perNightOf } from '../pricing/rounding.ts';
import type { Invoice, InvoiceLine } from './invoice.ts';
import { sequenceOf } from './billing-period.ts';
import { splitTax } from './tax.ts';

/**
 * Credit notes (docs/receivables.md "Credit notes"): pure figures. A credit note corrects
 * an issued invoice whose own figures never change; each of its lines credits one invoice
 * line, in that line's tax split, and never more than is left of it.
 */

/** An invoice line as crediting sees it: what it billed and what credit notes took off it so far. */
export type CreditableLine = InvoiceLine & { readonly creditedTotal: Minor; readonly creditedGst: Minor };

export const gstOf = (l: Pick<InvoiceLine, 'cgst' | 'sgst' | 'igst'>): Minor => l.cgst + l.sgst + l.igst;
/** What is still billed on a line after the credit notes against it (signed like the line). */
export const remainingOf = (l: CreditableLine): Minor => l.lineTotal - l.creditedTotal;

/**
 * A statutory number from a registration's credit-note series, distinct from its invoice
 * series: `CN<state code>/<yyyy>/<n, 6 digits>`, e.g. `CN30/2627/000001` (16 characters, the
 * law's limit, of letters, digits and `/`).
 */
export function creditNoteNumberOf(stateCode: string, financialYear: string, sequence: number): string {
  if (!/^[0-9]{2}$/.test(stateCode)) throw new RangeError(`state code must be two digits, got ${stateCode}`);
  return `CN${stateCode}/${financialYear.slice(2, 4)}${financialYear.slice(5, 7)}/${sequenceOf(sequence)}`;
}

/** a × b / c rounded half away from zero, exactly (BigInt), for a non-zero c. */
function mulDivRound(a: Minor, b: Minor, c: Minor): Minor {
  const n = BigInt(a) * BigInt(b);
  const d = BigInt(c);
  const sign = n < 0n !== d < 0n ? -1n : 1n;
  const an = n < 0n ? -n : n;
  const ad = d < 0n ? -d : d;
  return Number(sign * ((2n * an + ad) / (2n * ad)));
}

/**
 * Spreads `amount` paise over lines in proportion to what is left of each (`remaining`,
 * signed): each gets remaining × amount / Σ remaining, rounded down, and the paise that
 * rounding left over go one each to the largest fractions (ties: the earlier line). So the
 * shares add up to `amount` exactly, each has its line's sign, and none exceeds what is
 * left of its line. Needs 0 < amount ≤ Σ remaining.
 */
export function spreadCredit(remaining: readonly Minor[], amount: Minor): Minor[] {
  assertMinor(amount);
  remaining.forEach(assertMinor);
  const total = remaining.reduce((s, r) => s + r, 0);
  if (amount <= 0 || amount > total) throw new RangeError(`a credit of ${amount} must be more than 0 and at most what is left to credit (${total})`);
  const t = BigInt(total);
  const floors = remaining.map((r) => {
    const n = BigInt(r) * BigInt(amount);
    const q = n / t;
    return n % t < 0n ? q - 1n : q;
  });
  const fractions = remaining.map((r, i) => BigInt(r) * BigInt(amount) - floors[i]! * t);
  let left = amount - floors.reduce((s, f) => s + Number(f), 0);
  const shares = floors.map(Number);
  const order = fractions.map((f, i) => ({ f, i })).sort((a, b) => (a.f === b.f ? a.i - b.i : a.f > b.f ? -1 : 1));
  for (const { f, i } of order) {
    if (left === 0 || f === 0n) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares;
}

/** The figures of one credit-note line taking `amount` off `line`. */
export interface LineCredit {
  readonly line: CreditableLine;
  readonly amount: Minor;
  readonly taxableValue: Minor;
  readonly gst: Minor;
  readonly cgst: Minor;
  readonly sgst: Minor;
  readonly igst: Minor;
}

/**
 * `amount` off one invoice line, in its tax split: its GST in proportion to the GST still
 * left on the line (all of it when the rest of the line is credited), the rest taxable
 * value. CGST and SGST are the differences of the split of the running credited GST, so
 * however a line is credited in parts, the parts add up to the line's own CGST and SGST
 * once it is credited whole.
 */
export function lineCredit(line: CreditableLine, amount: Minor, intraState: boolean): LineCredit {
  assertMinor(amount);
  const rest = remainingOf(line);
  const restGst = gstOf(line) - line.creditedGst;
  if (amount === 0 || Math.sign(amount) !== Math.sign(rest) || Math.abs(amount) > Math.abs(rest)) {
    throw new RangeError(`a credit of ${amount} does not fit what is left of line ${line.id} (${rest})`);
  }
  const gst = amount === rest ? restGst : mulDivRound(restGst, amount, rest);
  const before = intraState ? splitTax(line.creditedGst, '00', '00') : undefined;
  const after = intraState ? splitTax(line.creditedGst + gst, '00', '00') : undefined;
  return {
    line,
    amount,
    taxableValue: amount - gst,
    gst,
    cgst: before && after ? after.cgst - before.cgst : 0,
    sgst: before && after ? after.sgst - before.sgst : 0,
    igst: intraState ? 0 : gst,
  };
}

/** A credit note's line as stored: the credited line's description and identity, the credited figures. */
export function creditNoteLineOf(credit: LineCredit, id: string, creditNote: Pick<Invoice, 'id' | 'agentGroupId'>): InvoiceLine {
  const l = credit.line;
  return {
    id,
    invoiceId: creditNote.id,
    agentGroupId: creditNote.agentGroupId,
    key: `CREDIT#${l.id}`,
    lineKind: l.lineKind,
    sac: l.sac,
    description: l.description,
    propertyName: l.propertyName,
    bookingRef: l.bookingRef,
    bookingId: l.bookingId,
    ...(l.externalBookingId ? { externalBookingId: l.externalBookingId } : {}),
    ledgerEntryId: l.ledgerEntryId,
    itemRef: l.itemRef,
    nightDate: l.nightDate,
    checkIn: l.checkIn,
    checkOut: l.checkOut,
    quantity: l.quantity,
    unitBase: perNightOf(credit.taxableValue, l.quantity),
    discount: 0,
    taxableValue: credit.taxableValue,
    gstRate: l.gstRate,
    cgst: credit.cgst,
    sgst: credit.sgst,
    igst: credit.igst,
    lineTotal: credit.amount,
    creditNoteForLine: l.id,
  };
}

/** The credit a booking's invoiced lines owe when more is invoiced than it owes now: the difference, spread over them. */
export function bookingCredit(lines: readonly CreditableLine[], billed: Minor, owed: Minor): { line: CreditableLine; amount: Minor }[] {
  const live = lines.filter((l) => remainingOf(l) !== 0);
  const shares = spreadCredit(live.map(remainingOf), billed - owed);
  return live.map((line, i) => ({ line, amount: shares[i]! })).filter((c) => c.amount !== 0);
}
