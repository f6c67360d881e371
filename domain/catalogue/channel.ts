import type { Minor } from '../money.ts';

/** A sales channel: who sees which listings, at which rates, with which bank offers. */
export interface Channel {
  readonly channelId: string;
  readonly name: string;
  /** Whole percent applied to every base rate on this channel; -10 sells 10 % below base. */
  readonly rateAdjustmentPercent: number;
}

/** A listing distributed to a channel. */
export interface Distribution {
  readonly channelId: string;
  readonly listingId: string;
}

/**
 * Where the listing sits in the channel's feed: the later of the listing's and its
 * properties' updatedAt, because a feed row carries the properties too and a reader
 * paging by updatedSince must see a property change.
 */
export interface StoredDistribution extends Distribution {
  readonly feedUpdatedAt: string;
}

export const MIN_RATE_ADJUSTMENT_PERCENT = -90;
export const MAX_RATE_ADJUSTMENT_PERCENT = 200;

/**
 * A base rate as sold on a channel: base × (100 + percent) / 100, rounded half up to whole
 * rupees. Rates are whole rupees in the contract (RateRow.rate is int32), so this is the
 * one place an adjusted rate is rounded.
 */
export function channelRate(base: Minor, rateAdjustmentPercent: number): Minor {
  if (!Number.isSafeInteger(base) || base < 0) throw new RangeError(`base rate must be non-negative paise, got ${base}`);
  if (!Number.isInteger(rateAdjustmentPercent) || rateAdjustmentPercent < MIN_RATE_ADJUSTMENT_PERCENT || rateAdjustmentPercent > MAX_RATE_ADJUSTMENT_PERCENT) {
    throw new RangeError(`rateAdjustmentPercent must be an integer from ${MIN_RATE_ADJUSTMENT_PERCENT} to ${MAX_RATE_ADJUSTMENT_PERCENT}`);
  }
  // paise × percent-factor is in units of 1/100 paise; one rupee is 10 000 of them.
  const scaled = base * (100 + rateAdjustmentPercent);
  return Math.floor((scaled + 5_000) / 10_000) * 100;
}
