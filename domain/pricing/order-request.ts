import type { MealPlan, DayData } from '../catalogue/day.ts';
import type { Listing } from '../catalogue/listing.ts';
import type { Property } from '../catalogue/property.ts';
import type { Meal, ValueAddedService } from '../catalogue/add-ons.ts';
import type { CancellationPlan } from '../catalogue/cancellation.ts';
import type { Channel } from '../catalogue/channel.ts';
import type { BankOffer } from '../catalogue/offers.ts';
import type { GstSlabTable } from '../catalogue/gst.ts';

/** One property of the listing and how many of its units the order asks for. */
export interface SelectedProperty {
  readonly propertyId: string;
  readonly quantity: number;
}

/** Meals for some guests on some dates (the contract's Meal selection). */
export interface MealSelection {
  readonly mealId: string;
  readonly dates?: readonly string[];
  readonly unsureOfDates?: boolean;
  readonly adults?: number;
  readonly children?: number;
  readonly chefOnCall?: boolean;
}

export interface DateQuantity {
  readonly date: string;
  readonly quantity: number;
}

/** A value-added service variant on some dates (the contract's VAS selection). */
export interface VasSelection {
  readonly vasId: string;
  readonly variantId: string;
  readonly dates?: readonly string[];
  readonly unsureOfDates?: boolean;
  readonly quantity?: number;
  readonly dateQuantities?: readonly DateQuantity[];
}

/**
 * The priced part of an order body, already shape-checked at the edge. Optional fields
 * take the defaults docs/pricing.md lists.
 */
export interface OrderRequest {
  readonly listingId: string;
  readonly checkIn: string;
  readonly checkOut: string;
  readonly adults?: number;
  readonly children?: number;
  readonly infants?: number;
  /** Omitted or empty: a listing-level booking; pricing chooses the units. */
  readonly selectedProperties?: readonly SelectedProperty[];
  /** Our extension of the contract; EP (room only) when omitted. */
  readonly mealPlan?: MealPlan;
  readonly meals?: readonly MealSelection[];
  readonly vas?: readonly VasSelection[];
  /** Omitted: the listing's default plan. */
  readonly cancellationPlanId?: string;
  readonly bankOfferCode?: string;
  readonly applyBestBankOffer?: boolean;
}

/**
 * Everything pricing reads, loaded by the caller for one listing on the caller's channel.
 * Records of other listings or channels may be present; pricing ignores them.
 */
export interface PricingContext {
  readonly listing: Listing;
  readonly properties: readonly Property[];
  /** propertyId → date (yyyy-mm-dd) → that property's day; the stay's nights at least. */
  readonly days: ReadonlyMap<string, ReadonlyMap<string, DayData>>;
  readonly meals: readonly Meal[];
  readonly vas: readonly ValueAddedService[];
  readonly cancellationPlans: readonly CancellationPlan[];
  readonly channel: Channel;
  readonly bankOffers: readonly BankOffer[];
  readonly gstSlabTables: readonly GstSlabTable[];
  /** The pricing date (yyyy-mm-dd, India): offer validity and the cancellation schedule. */
  readonly today: string;
}

export interface PriceOrderInput {
  readonly request: OrderRequest;
  readonly context: PricingContext;
}
