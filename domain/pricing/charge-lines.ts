import type { Minor } from '../money.ts';
import type { PriceBreakdown } from './priced-order.ts';

export const CHARGE_LINE_KINDS = ['STAY', 'MEAL', 'SERVICE'] as const;
export type ChargeLineKind = (typeof CHARGE_LINE_KINDS)[number];

/**
 * What a booking was charged for, compactly, as an invoice needs it: the priced lines of
 * the breakdown grouped by what a tax invoice prints on one row. Stored on the booking at
 * the credit gate, so billing never re-prices a stay (rates may have moved since).
 *
 * `ref` is unique among the lines of one charge: STAY `<propertyId>#<night>#<rate>`, MEAL
 * `<mealId>#<date>#<selection>`, SERVICE `<vasId>#<variantId>#<date|STAY>#<selection>`. A
 * property's units on one night share a row unless their values put them in different GST
 * slabs (the rate is part of the ref, since a row carries one rate).
 */
export interface ChargeLine {
  readonly kind: ChargeLineKind;
  readonly ref: string;
  /** The property the stay row is for; for meals and services the booking's first property. */
  readonly propertyId: string;
  /** Night (STAY), service date (MEAL, SERVICE), or null for a once-per-stay service. */
  readonly date: string | null;
  readonly quantity: number;
  /** Sum of the lines' values before discounts. */
  readonly base: Minor;
  /** Cancellation-plan and bank-offer discounts already taken off `base`. */
  readonly discount: Minor;
  readonly taxableValue: Minor;
  readonly gstRatePercent: number;
  readonly gst: Minor;
  readonly total: Minor;
}

interface Part {
  kind: ChargeLineKind;
  ref: string;
  propertyId: string;
  date: string | null;
  quantity: number;
  base: Minor;
  discount: Minor;
  taxableValue: Minor;
  gstRatePercent: number;
  gst: Minor;
  total: Minor;
}

/**
 * The charge lines of a priced order. Every figure is a sum of breakdown lines, so the
 * totals add up to the order's grandTotal exactly (the pricing engine's own identity).
 */
export function chargeLinesOf(b: PriceBreakdown): ChargeLine[] {
  const rows = new Map<string, Part>();
  const add = (p: Part) => {
    const key = `${p.kind}#${p.ref}`;
    const row = rows.get(key);
    if (!row) rows.set(key, { ...p });
    else {
      row.quantity += p.quantity;
      row.base += p.base;
      row.discount += p.discount;
      row.taxableValue += p.taxableValue;
      row.gst += p.gst;
      row.total += p.total;
    }
  };
  const firstProperty = b.selectedProperties[0]?.propertyId ?? b.unitNights[0]?.propertyId ?? '';
  for (const u of b.unitNights) {
    add({
      kind: 'STAY',
      ref: `${u.propertyId}#${u.date}#${u.gstRatePercent}`,
      propertyId: u.propertyId,
      date: u.date,
      quantity: 1,
      base: u.base,
      discount: u.cancellationPlanDiscount + u.bankOfferDiscount,
      taxableValue: u.taxableValue,
      gstRatePercent: u.gstRatePercent,
      gst: u.gst,
      total: u.total,
    });
  }
  for (const m of b.meals) {
    add({
      kind: 'MEAL',
      ref: `${m.mealId}#${m.date}#${m.selection}`,
      propertyId: firstProperty,
      date: m.date,
      quantity: m.adults + m.children,
      base: m.amount,
      discount: m.cancellationPlanDiscount + m.bankOfferDiscount,
      taxableValue: m.taxableValue,
      gstRatePercent: m.gstRatePercent,
      gst: m.gst,
      total: m.total,
    });
  }
  for (const s of b.vas) {
    add({
      kind: 'SERVICE',
      ref: `${s.vasId}#${s.variantId}#${s.date ?? 'STAY'}#${s.selection}`,
      propertyId: firstProperty,
      date: s.date,
      quantity: s.quantity,
      base: s.amount,
      discount: s.cancellationPlanDiscount + s.bankOfferDiscount,
      taxableValue: s.taxableValue,
      gstRatePercent: s.gstRatePercent,
      gst: s.gst,
      total: s.total,
    });
  }
  return [...rows.values()];
}
