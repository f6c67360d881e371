import { addDays, daysBetween } from '../catalogue/calendar.ts';
import { requireCalendarDate } from '../reads/date-window.ts';
import { MEAL_PLANS, type MealPlan } from '../catalogue/day.ts';
import type { Property } from '../catalogue/property.ts';
import { ValidationError } from '../errors.ts';
import { CURRENCY, type Minor } from '../money.ts';
import { sumOf } from './amounts.ts';
import { chooseBankOffer } from './bank-offer.ts';
import { cancellationPolicy, choosePlan } from './cancellation-policy.ts';
import { allocateParty, chooseUnits } from './occupancy.ts';
import type { OrderRequest, PriceOrderInput, PricingContext, SelectedProperty } from './order-request.ts';
import { priceMeals, priceVas } from './price-add-ons.ts';
import { priceStay } from './price-stay.ts';
import type { MealLine, PricedOrder, PricedSummary, UnitNightLine, VasLine } from './priced-order.ts';
import { apportion, percentOf } from './rounding.ts';
import { addOnGstRate, lineGst, unitNightGstRate } from './tax-lines.ts';

/** Longest stay one order may price. */
export const MAX_STAY_NIGHTS = 90;
/** Most units of one property one order may ask for. */
export const MAX_UNITS_PER_PROPERTY = 50;
/** The meal plan of the occupancy rate when the request names none: room only. */
export const DEFAULT_MEAL_PLAN: MealPlan = 'EP';

/**
 * Prices an order: the one path behind search, order preview, orders, reprice, bookings
 * and amendments. Pure: everything it reads is in `input`, so identical inputs give
 * identical outputs. Refuses a request that breaks a rule with a ValidationError naming
 * the parameter; a stay that cannot be sold is still priced and marked soldOut.
 *
 * Steps (docs/pricing.md has the rules and a worked example):
 * 1. occupancy: units (selected, or chosen for a listing-level booking) and the party spread over them;
 * 2. base: every unit-night at its channel rate, with sold-out reasons;
 * 3. meals and services;
 * 4. cancellation plan: percent off the base → stayAfterCancellationPlan;
 * 5. bank offer on stay + meals + services → priceAfterBankOffer;
 * 6. discounts apportioned to lines, GST per line → taxableSubtotal, gst, grandTotal.
 */
export function priceOrder(input: PriceOrderInput): PricedOrder {
  const { request, context } = input;
  const stay = checkStay(request, context);
  const properties = new Map(context.properties.filter((p) => p.listingId === context.listing.id).map((p) => [p.id, p]));
  const mealPlan = checkMealPlan(request.mealPlan);

  const selected = request.selectedProperties?.length
    ? checkSelected(request.selectedProperties, properties)
    : chooseUnits([...properties.values()], stay.adults, stay.children);
  const units = selected.flatMap((s) => Array.from({ length: s.quantity }, () => properties.get(s.propertyId)!));
  const occupancy = allocateParty(units, stay.adults, stay.children);

  const { unitNights: bases, soldOutNights } = priceStay({
    occupancy,
    selected,
    properties,
    nights: stay.nights,
    days: context.days,
    mealPlan,
    rateAdjustmentPercent: context.channel.rateAdjustmentPercent,
  });
  const meals = priceMeals(
    request.meals ?? [],
    context.meals.filter((m) => m.listingId === context.listing.id),
    stay,
  );
  const vas = priceVas(
    request.vas ?? [],
    context.vas.filter((v) => v.listingId === context.listing.id),
    stay,
  );

  const plan = choosePlan(context.listing, context.cancellationPlans, request.cancellationPlanId);
  const baseSubtotal = sumOf(bases.map((b) => b.base));
  const mealsSubtotal = sumOf(meals.map((m) => m.amount));
  const vasSubtotal = sumOf(vas.map((v) => v.amount));
  const cancellationPlanDiscount = percentOf(baseSubtotal, plan.discountPercent);
  const stayAfterCancellationPlan = baseSubtotal - cancellationPlanDiscount;
  const orderValue = stayAfterCancellationPlan + mealsSubtotal + vasSubtotal;

  const bankOffer = chooseBankOffer({
    offers: context.bankOffers,
    channelId: context.channel.channelId,
    code: request.bankOfferCode,
    applyBest: request.applyBestBankOffer ?? false,
    terms: { orderValue, checkIn: stay.checkIn, nights: stay.nights.length, today: context.today },
  });
  const bankOfferDiscount = bankOffer?.discount ?? 0;
  const priceAfterBankOffer = orderValue - bankOfferDiscount;

  // Discounts reach the lines in proportion to their value, so each unit-night's slab is
  // chosen on what is really charged for it, and line sums equal the summary exactly.
  const planShares = apportion(
    cancellationPlanDiscount,
    bases.map((b) => b.base),
  );
  const afterPlan = bases.map((b, i) => b.base - planShares[i]!);
  const bankShares = apportion(bankOfferDiscount, [...afterPlan, ...meals.map((m) => m.amount), ...vas.map((v) => v.amount)]);
  const bankShare = (i: number) => bankShares[i]!;

  const unitNights: UnitNightLine[] = bases.map((b, i) => {
    const taxableValue = afterPlan[i]! - bankShare(i);
    const gstRatePercent = unitNightGstRate(context.gstSlabTables, b.date, taxableValue);
    const gst = lineGst(taxableValue, gstRatePercent);
    return {
      ...b,
      cancellationPlanDiscount: planShares[i]!,
      bankOfferDiscount: bankShare(i),
      taxableValue,
      gstRatePercent,
      gst,
      total: taxableValue + gst,
    };
  });
  const addOnRate = addOnGstRate(unitNights.map((u) => u.gstRatePercent));
  const taxed = (amount: Minor, share: Minor) => {
    const taxableValue = amount - share;
    const gst = lineGst(taxableValue, addOnRate);
    return { cancellationPlanDiscount: 0, bankOfferDiscount: share, taxableValue, gstRatePercent: addOnRate, gst, total: taxableValue + gst };
  };
  const mealLines: MealLine[] = meals.map((m, i) => ({ ...m, ...taxed(m.amount, bankShare(bases.length + i)) }));
  const vasLines: VasLine[] = vas.map((v, i) => ({ ...v, ...taxed(v.amount, bankShare(bases.length + meals.length + i)) }));

  const taxableSubtotal = priceAfterBankOffer;
  const gst = sumOf([...unitNights, ...mealLines, ...vasLines].map((l) => l.gst));
  const summary: PricedSummary = {
    baseSubtotal,
    mealsSubtotal,
    vasSubtotal,
    cancellationPlanDiscount,
    stayAfterCancellationPlan,
    bankOffer,
    priceAfterBankOffer,
    offersDiscount: cancellationPlanDiscount + bankOfferDiscount,
    taxableSubtotal,
    gst,
    grandTotal: taxableSubtotal + gst,
  };

  return {
    currency: CURRENCY,
    items: [
      {
        listingId: context.listing.id,
        checkIn: stay.checkIn,
        checkOut: stay.checkOut,
        nights: stay.nights.length,
        soldOut: soldOutNights.length > 0,
        itemSubtotal: orderValue,
        cancellationPlanId: plan.planId,
        cancellationPlanDiscount,
        cancellationPolicy: cancellationPolicy(plan, stay.checkIn, context.today),
      },
    ],
    summary,
    breakdown: { mealPlan, selectedProperties: selected, occupancy, unitNights, meals: mealLines, vas: vasLines, soldOutNights },
  };
}

interface Stay {
  readonly checkIn: string;
  readonly checkOut: string;
  readonly nights: readonly string[];
  readonly adults: number;
  readonly children: number;
}

function checkStay(request: OrderRequest, context: PricingContext): Stay {
  if (request.listingId !== context.listing.id) throw new RangeError(`context is for listing ${context.listing.id}, the order for ${request.listingId}`);
  const { checkIn, checkOut } = request;
  requireCalendarDate('checkIn', checkIn);
  requireCalendarDate('checkOut', checkOut);
  if (checkIn < context.today) throw new ValidationError('checkIn', `checkIn ${checkIn} is in the past; the earliest is ${context.today}.`);
  const nights = daysBetween(checkIn, checkOut);
  if (nights < 1) throw new ValidationError('checkOut', 'checkOut must be after checkIn.');
  if (nights > MAX_STAY_NIGHTS) throw new ValidationError('checkOut', `checkOut: a stay is at most ${MAX_STAY_NIGHTS} nights; this one is ${nights}.`);
  const adults = request.adults ?? 1;
  if (!Number.isInteger(adults) || adults < 1) throw new ValidationError('adults', 'adults must be a whole number, at least 1.');
  const children = request.children ?? 0;
  if (!Number.isInteger(children) || children < 0) throw new ValidationError('children', 'children must be a whole number, at least 0.');
  const infants = request.infants ?? 0;
  if (!Number.isInteger(infants) || infants < 0) throw new ValidationError('infants', 'infants must be a whole number, at least 0.');
  return { checkIn, checkOut, nights: Array.from({ length: nights }, (_, i) => addDays(checkIn, i)), adults, children };
}

function checkMealPlan(mealPlan: string | undefined): MealPlan {
  if (mealPlan === undefined) return DEFAULT_MEAL_PLAN;
  const known = MEAL_PLANS.find((p) => p === mealPlan);
  if (!known) throw new ValidationError('mealPlan', `mealPlan must be one of ${MEAL_PLANS.join(', ')}.`);
  return known;
}

function checkSelected(selected: readonly SelectedProperty[], properties: ReadonlyMap<string, Property>): SelectedProperty[] {
  const seen = new Set<string>();
  return selected.map((s, i) => {
    const at = `selectedProperties[${i}]`;
    if (!properties.has(s.propertyId)) throw new ValidationError(`${at}.propertyId`, `${at}.propertyId ${s.propertyId} is not a property of this listing.`);
    if (seen.has(s.propertyId))
      throw new ValidationError(`${at}.propertyId`, `${at}.propertyId ${s.propertyId} is listed twice; give one entry with the total quantity.`);
    seen.add(s.propertyId);
    if (!Number.isInteger(s.quantity) || s.quantity < 1 || s.quantity > MAX_UNITS_PER_PROPERTY) {
      throw new ValidationError(`${at}.quantity`, `${at}.quantity must be a whole number from 1 to ${MAX_UNITS_PER_PROPERTY}.`);
    }
    return { propertyId: s.propertyId, quantity: s.quantity };
  });
}
