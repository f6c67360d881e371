import type { BankOffer } from '../catalogue/offers.ts';
import { ValidationError } from '../errors.ts';
import { formatRupees, type Minor } from '../money.ts';
import type { AppliedBankOffer } from './priced-order.ts';
import { percentOf } from './rounding.ts';

/** What an offer's conditions are checked against. */
export interface OfferTerms {
  /** Stay after the cancellation plan, plus meals and services: the value the offer discounts. */
  readonly orderValue: Minor;
  readonly checkIn: string;
  readonly nights: number;
  /** The pricing date, for the offer's validity window. */
  readonly today: string;
}

/** Why the offer cannot be used for these terms, as a clause for a message; undefined when it can. */
export function offerIneligibility(offer: BankOffer, terms: OfferTerms): string | undefined {
  if (offer.validFrom !== null && terms.today < offer.validFrom) return `it can be used from ${offer.validFrom}`;
  if (offer.validTo !== null && terms.today > offer.validTo) return `it ended on ${offer.validTo}`;
  if ((offer.stayFrom !== null && terms.checkIn < offer.stayFrom) || (offer.stayTo !== null && terms.checkIn > offer.stayTo)) {
    return `it is for check-in ${window(offer.stayFrom, offer.stayTo)}; this stay checks in on ${terms.checkIn}`;
  }
  if (terms.nights < offer.minNights) return `it needs at least ${offer.minNights} nights; this stay has ${terms.nights}`;
  if (terms.orderValue < offer.minOrderValue)
    return `it needs an order value of at least ${rupees(offer.minOrderValue)}; this order is ${rupees(terms.orderValue)}`;
  return undefined;
}

/**
 * The discount an offer gives on `orderValue`: a PERCENTAGE offer takes its percent,
 * rounded half up to the paisa, then its cap; a FLAT offer its amount. Never more than the
 * order value, so a price can never go below zero.
 */
export function offerDiscount(offer: BankOffer, orderValue: Minor): Minor {
  const raw = offer.discountType === 'PERCENTAGE' ? percentOf(orderValue, offer.percent ?? 0) : (offer.flatAmount ?? 0);
  const capped = offer.discountType === 'PERCENTAGE' && offer.maxDiscount !== null ? Math.min(raw, offer.maxDiscount) : raw;
  return Math.max(0, Math.min(capped, orderValue));
}

/**
 * The bank offer for an order, or null.
 * - Only offers of `channelId` exist for the caller; codes match ignoring case.
 * - A `code` wins over applyBestBankOffer even when a richer offer exists. An unknown or
 *   other-channel code (one message for both, so other channels' codes cannot be probed)
 *   or an ineligible one is a ValidationError on `bankOfferCode`, never dropped or swapped.
 * - applyBestBankOffer takes the eligible offer with the largest discount (ties: the
 *   code first in alphabetical order); when none gives a discount the order has none.
 */
export function chooseBankOffer(args: {
  readonly offers: readonly BankOffer[];
  readonly channelId: string;
  readonly code: string | undefined;
  readonly applyBest: boolean;
  readonly terms: OfferTerms;
}): AppliedBankOffer | null {
  const { offers, channelId, code, applyBest, terms } = args;
  const visible = offers.filter((o) => o.channelId === channelId);
  if (code !== undefined) {
    const wanted = code.trim().toUpperCase();
    const offer = visible.find((o) => o.code.toUpperCase() === wanted);
    if (!offer) throw new ValidationError('bankOfferCode', `bankOfferCode ${code} is not an offer available on this channel.`);
    const why = offerIneligibility(offer, terms);
    if (why !== undefined) throw new ValidationError('bankOfferCode', `bankOfferCode ${offer.code} cannot be used for this order: ${why}.`);
    return applied(offer, offerDiscount(offer, terms.orderValue), `Applied the requested offer ${offer.code}${capNote(offer, terms.orderValue)}.`);
  }
  if (!applyBest) return null;
  let best: { offer: BankOffer; discount: Minor } | undefined;
  for (const offer of [...visible].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))) {
    if (offerIneligibility(offer, terms) !== undefined) continue;
    const discount = offerDiscount(offer, terms.orderValue);
    if (discount > 0 && (!best || discount > best.discount)) best = { offer, discount };
  }
  if (!best) return null;
  return applied(
    best.offer,
    best.discount,
    `Applied ${best.offer.code}, the largest discount among this channel's eligible offers${capNote(best.offer, terms.orderValue)}.`,
  );
}

function applied(offer: BankOffer, discount: Minor, reason: string): AppliedBankOffer {
  return { code: offer.code, title: offer.title, discountType: offer.discountType, discount, applied: true, reason };
}

function capNote(offer: BankOffer, orderValue: Minor): string {
  if (offer.discountType !== 'PERCENTAGE' || offer.maxDiscount === null) return '';
  return percentOf(orderValue, offer.percent ?? 0) > offer.maxDiscount ? ` (capped at ${rupees(offer.maxDiscount)})` : '';
}

function window(from: string | null, to: string | null): string {
  if (from !== null && to !== null) return `from ${from} to ${to}`;
  return from !== null ? `on or after ${from}` : `on or before ${to}`;
}

/** Paise as "₹1234.50" for messages. */
const rupees = (amount: Minor): string => (amount < 0 ? `-₹${formatRupees(-amount)}` : `₹${formatRupees(amount)}`);
