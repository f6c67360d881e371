import { toRupees } from '../money.ts';
import type { PricedItem, PricedSummary } from './priced-order.ts';

/**
 * The contract's Item and Summary records with money in rupees. Responses use them, and so
 * does the price-moved 409, whose `breakup` is the current summary.
 */
export const itemInRupees = (i: PricedItem) => ({
  listingId: i.listingId,
  checkIn: i.checkIn,
  checkOut: i.checkOut,
  nights: i.nights,
  soldOut: i.soldOut,
  itemSubtotal: toRupees(i.itemSubtotal),
  cancellationPlanId: i.cancellationPlanId,
  cancellationPlanDiscount: toRupees(i.cancellationPlanDiscount),
  cancellationPolicy: i.cancellationPolicy.map((s) => ({ cancelBy: s.cancelBy, refundPercentage: s.refundPercentage, label: s.label })),
});

export const summaryInRupees = (s: PricedSummary) => ({
  baseSubtotal: toRupees(s.baseSubtotal),
  mealsSubtotal: toRupees(s.mealsSubtotal),
  vasSubtotal: toRupees(s.vasSubtotal),
  cancellationPlanDiscount: toRupees(s.cancellationPlanDiscount),
  stayAfterCancellationPlan: toRupees(s.stayAfterCancellationPlan),
  bankOffer: s.bankOffer && { ...s.bankOffer, discount: toRupees(s.bankOffer.discount) },
  priceAfterBankOffer: toRupees(s.priceAfterBankOffer),
  offersDiscount: toRupees(s.offersDiscount),
  taxableSubtotal: toRupees(s.taxableSubtotal),
  gst: toRupees(s.gst),
  grandTotal: toRupees(s.grandTotal),
});
