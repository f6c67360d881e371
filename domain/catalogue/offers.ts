import type { Minor } from '../money.ts';

export const DISCOUNT_TYPES = ['PERCENTAGE', 'FLAT'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/** A bank offer visible on one channel only. Dates are inclusive calendar dates. */
export interface BankOffer {
  readonly channelId: string;
  readonly code: string;
  readonly title: string;
  readonly discountType: DiscountType;
  /** Whole percent, for PERCENTAGE offers; null for FLAT. */
  readonly percent: number | null;
  /** For FLAT offers; null for PERCENTAGE. */
  readonly flatAmount: Minor | null;
  /** Cap on a PERCENTAGE discount; null = uncapped. */
  readonly maxDiscount: Minor | null;
  readonly minOrderValue: Minor;
  /** The stay (check-in) must fall within these dates; null = open. */
  readonly stayFrom: string | null;
  readonly stayTo: string | null;
  readonly minNights: number;
  /** The order must be priced within these dates; null = open. */
  readonly validFrom: string | null;
  readonly validTo: string | null;
}
