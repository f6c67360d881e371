import type { Minor } from '../money.ts';

export const MEAL_TYPES = ['BREAKFAST', 'LUNCH', 'DINNER', 'HI_TEA', 'BBQ'] as const;
export type MealType = (typeof MEAL_TYPES)[number];

/** A meal a listing can serve, priced per person per serving. */
export interface Meal {
  readonly listingId: string;
  readonly mealId: string;
  readonly name: string;
  readonly mealType: MealType;
  readonly adultPrice: Minor;
  readonly childPrice: Minor;
  /** Added once per serving when the guest asks for a chef on call. */
  readonly chefOnCallPrice: Minor;
}

export const VAS_PRICING = ['PER_STAY', 'PER_NIGHT', 'PER_UNIT'] as const;
export type VasPricing = (typeof VAS_PRICING)[number];

export interface VasVariant {
  readonly variantId: string;
  readonly name: string;
  readonly price: Minor;
}

/** A value-added service (airport transfer, decoration, …) sold with a stay. */
export interface ValueAddedService {
  readonly listingId: string;
  readonly vasId: string;
  readonly name: string;
  readonly pricing: VasPricing;
  readonly variants: readonly VasVariant[];
}
