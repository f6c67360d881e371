import type { MealPlan } from '../catalogue/day.ts';
import type { DiscountType } from '../catalogue/offers.ts';
import type { Minor } from '../money.ts';
import type { SelectedProperty } from './order-request.ts';
import type { MealCharge, VasCharge } from './price-add-ons.ts';
import type { UnitNightBase } from './price-stay.ts';

/** One step of the item's cancellation schedule: cancel on or before cancelBy, get refundPercentage back. */
export interface CancellationPolicyStep {
  readonly cancelBy: string;
  readonly refundPercentage: number;
  readonly label: string;
}

/** The contract's Item record, money in paise. */
export interface PricedItem {
  readonly listingId: string;
  readonly checkIn: string;
  readonly checkOut: string;
  readonly nights: number;
  readonly soldOut: boolean;
  /** Stay after the cancellation-plan discount, plus meals and services; before the bank offer and GST. */
  readonly itemSubtotal: Minor;
  readonly cancellationPlanId: string;
  readonly cancellationPlanDiscount: Minor;
  readonly cancellationPolicy: readonly CancellationPolicyStep[];
}

/** The offer named in summary.bankOffer (the contract's bankOffer record). */
export interface AppliedBankOffer {
  readonly code: string;
  readonly title: string;
  readonly discountType: DiscountType;
  readonly discount: Minor;
  readonly applied: boolean;
  readonly reason: string;
}

/** The contract's Summary record, fields in the contract's order, money in paise. */
export interface PricedSummary {
  readonly baseSubtotal: Minor;
  readonly mealsSubtotal: Minor;
  readonly vasSubtotal: Minor;
  readonly cancellationPlanDiscount: Minor;
  readonly stayAfterCancellationPlan: Minor;
  readonly bankOffer: AppliedBankOffer | null;
  readonly priceAfterBankOffer: Minor;
  /** Every discount in the order: cancellation plan plus bank offer. */
  readonly offersDiscount: Minor;
  readonly taxableSubtotal: Minor;
  readonly gst: Minor;
  readonly grandTotal: Minor;
}

/** How one booked unit is occupied. */
export interface UnitOccupancy {
  readonly propertyId: string;
  /** 1-based among the units of this property in the order. */
  readonly unit: number;
  readonly adults: number;
  readonly children: number;
}

/** CLOSED_TO_ARRIVAL is reported on the arrival night, CLOSED_TO_DEPARTURE on the check-out date (the channel manager's restrictions). */
export const SOLD_OUT_REASONS = [
  'NO_INVENTORY',
  'NOT_ENOUGH_UNITS',
  'STOP_SELL',
  'MINIMUM_STAY',
  'MAXIMUM_STAY',
  'NO_RATE',
  'CLOSED_TO_ARRIVAL',
  'CLOSED_TO_DEPARTURE',
] as const;
export type SoldOutReason = (typeof SOLD_OUT_REASONS)[number];

/** Why one property cannot be sold on one night of the stay. */
export interface SoldOutNight {
  readonly propertyId: string;
  readonly date: string;
  readonly reason: SoldOutReason;
  readonly requiredUnits: number;
  /** Units open that night (0 without inventory). */
  readonly availableUnits: number;
  /** The night's stay limit, for MINIMUM_STAY and MAXIMUM_STAY. */
  readonly stayLimit?: number;
}

/** Money of one taxable line after discounts, as an invoice line needs it. */
export interface TaxedAmounts {
  readonly cancellationPlanDiscount: Minor;
  readonly bankOfferDiscount: Minor;
  readonly taxableValue: Minor;
  readonly gstRatePercent: number;
  readonly gst: Minor;
  readonly total: Minor;
}

/** One unit of one property on one night, with its share of discounts and tax. */
export interface UnitNightLine extends UnitNightBase, TaxedAmounts {}

/** One meal selection on one date, with its share of discounts and tax. */
export interface MealLine extends MealCharge, TaxedAmounts {}

/** One service selection on one date, or once for the stay (date null), with its share of discounts and tax. */
export interface VasLine extends VasCharge, TaxedAmounts {}

/** The numbers behind the summary; every summary figure is a sum over these lines. */
export interface PriceBreakdown {
  readonly mealPlan: MealPlan;
  /** The units priced: as requested, or as chosen for a listing-level booking. */
  readonly selectedProperties: readonly SelectedProperty[];
  readonly occupancy: readonly UnitOccupancy[];
  readonly unitNights: readonly UnitNightLine[];
  readonly meals: readonly MealLine[];
  readonly vas: readonly VasLine[];
  readonly soldOutNights: readonly SoldOutNight[];
}

export interface PricedOrder {
  readonly currency: 'INR';
  readonly items: readonly PricedItem[];
  readonly summary: PricedSummary;
  readonly breakdown: PriceBreakdown;
}
