/** The pricing engine: priceOrder and the types and helpers callers need around it. */
export { priceOrder, MAX_STAY_NIGHTS, MAX_UNITS_PER_PROPERTY, DEFAULT_MEAL_PLAN } from './price-order.ts';
export { searchPrice, searchPriceOf, type SearchPrice } from './search-price.ts';
export { percentOf, apportion, perNightOf, wholePercentDown } from './rounding.ts';
export { chooseBankOffer, offerDiscount, offerIneligibility, type OfferTerms } from './bank-offer.ts';
export { cancellationPolicy, choosePlan } from './cancellation-policy.ts';
export { allocateParty, chooseUnits } from './occupancy.ts';
export { departureRestrictions, nightRestrictions, priceStay, staySellable } from './price-stay.ts';
export { MAX_ADD_ON_QUANTITY } from './price-add-ons.ts';
export { unitNightGstRate, addOnGstRate, lineGst } from './tax-lines.ts';
export type * from './order-request.ts';
export type * from './priced-order.ts';
export { SOLD_OUT_REASONS } from './priced-order.ts';
export { explainSoldOutNight, explainSoldOutNights, type UnavailableNight } from './unavailable-nights.ts';
