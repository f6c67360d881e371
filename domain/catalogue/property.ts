import type { Minor } from '../money.ts';

export interface Photo {
  readonly url: string;
  readonly name: string;
}

export interface PropertyAmenity {
  readonly icon: string;
  readonly name: string;
  readonly category: string;
}

/**
 * A sellable unit type inside a listing (a room category, a cottage, the whole villa).
 * `quantity` units of it exist; daily inventory says how many are open on a date. City,
 * state and country are the listing's and are joined on read.
 */
export interface Property {
  readonly id: string;
  readonly listingId: string;
  readonly name: string;
  readonly title: string;
  readonly brand: string;
  readonly type: string;
  readonly bedrooms: number;
  readonly bathrooms: number;
  readonly numberOfBeds: number;
  readonly maxAdults: number;
  readonly maxChildren: number;
  /** Adults included in the occupancy rate; rates exist for 1…applicableAdult. */
  readonly applicableAdult: number;
  readonly applicableChild: number;
  /** Per extra adult per night, beyond applicableAdult up to maxAdults. */
  readonly extraAdultRate: Minor;
  readonly extraChildRate: Minor;
  readonly quantity: number;
  readonly isPetFriendly: boolean;
  readonly numberOfPets: number;
  readonly isStressed: boolean;
  readonly isHighDemand: boolean;
  readonly imageUrl: string;
  readonly photos: readonly Photo[];
  readonly amenities: readonly PropertyAmenity[];
  readonly location: string;
  readonly latitude: number;
  readonly longitude: number;
  readonly basePrice: Minor;
}
