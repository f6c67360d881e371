import type { Minor } from '../money.ts';

export const LISTING_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

export interface Usp {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly isDifferentiator: boolean;
}

export interface Badge {
  readonly label: string;
  readonly type: string;
  readonly placement: string;
}

/**
 * A bookable place (a villa, an estate) as the catalogue holds it. Covers both read shapes
 * of the contract: ListingWithProperties (`/api`) and Listing (`/v1`), plus what search
 * shows. Its properties, meals, services and simulator behaviour are separate records.
 */
export interface Listing {
  readonly id: string;
  readonly title: string;
  readonly type: string;
  readonly status: ListingStatus;
  readonly brand: string;
  readonly locality: string;
  readonly city: string;
  readonly state: string;
  readonly country: string;
  readonly addressLine: string;
  readonly latitude: number;
  readonly longitude: number;
  readonly maxAdults: number;
  readonly maxChildren: number;
  /** Indicative price per night ("price" in the contract). */
  readonly basePrice: Minor;
  readonly amenities: readonly string[];
  readonly tags: readonly string[];
  readonly coverPicture: string;
  /** 0–5. */
  readonly rating: number;
  readonly reviewCount: number;
  readonly usps: readonly Usp[];
  readonly badges: readonly Badge[];
  readonly cancellationPlanIds: readonly string[];
  readonly defaultCancellationPlanId: string;
}
