import type { Guest } from '../bookings/booking.ts';
import type { MealPlan } from '../catalogue/day.ts';
import type { Minor } from '../money.ts';
import type { OrderRequest, PricedSummary, SelectedProperty } from '../pricing/index.ts';

/**
 * What a channel manager is told the stay was sold for: the party, the meal plan and the
 * amounts before GST and the bank offer (the simulator ignores it; Channex needs per-night
 * prices and services).
 */
export interface ChannelStay {
  readonly mealPlan: MealPlan;
  readonly adults: number;
  readonly children: number;
  readonly infants: number;
  /** The rooms after the cancellation-plan discount. */
  readonly roomsAmount: Minor;
  readonly mealsAmount: Minor;
  readonly servicesAmount: Minor;
}

/** The ChannelStay of a booking's (or an amendment's) priced request. */
export function channelStayOf(s: { readonly request?: OrderRequest; readonly summary: PricedSummary }): ChannelStay {
  return {
    mealPlan: s.request?.mealPlan ?? 'EP',
    adults: s.request?.adults ?? 1,
    children: s.request?.children ?? 0,
    infants: s.request?.infants ?? 0,
    roomsAmount: s.summary.baseSubtotal - s.summary.cancellationPlanDiscount,
    mealsAmount: s.summary.mealsSubtotal,
    servicesAmount: s.summary.vasSubtotal,
  };
}

/** What the service asks the property system (channel manager) to reserve for one booking. */
export interface ReservationRequest {
  /** The service's own booking id: the property system's idempotency key, so a repeated reserve books once. */
  readonly bookingRef: string;
  readonly listingId: string;
  readonly checkIn: string;
  readonly checkOut: string;
  readonly selectedProperties: readonly SelectedProperty[];
  readonly primaryGuest: Guest;
  /** When the credit gate admitted the booking; sandbox behaviours are timed from it. */
  readonly requestedAt: string;
  readonly stay?: ChannelStay;
}

/** Where a reservation stands on the property system's side. */
export type ReservationState =
  | { readonly state: 'CONFIRMED'; readonly bookingId: string }
  /** Not (yet) landed; `checkAgainAt` is the property system's hint of when to ask again, if it gives one. */
  | { readonly state: 'PENDING'; readonly checkAgainAt: string | null }
  /**
   * The property system will not take it, and asking again cannot change that (a channel
   * manager's 4xx): the booking fails now rather than at the end of its window. `reason` is
   * the property system's own words, for operators; the partner gets the service's.
   */
  | { readonly state: 'REFUSED'; readonly reason: string };

/** A change to a landed reservation: the whole stay as it must now stand. */
export interface ModificationRequest {
  readonly bookingRef: string;
  readonly listingId: string;
  /**
   * Idempotency key of this change: the same key twice is one change with one answer. An
   * amendment uses its id; pushing the original stay back (compensation) uses another.
   */
  readonly key: string;
  /** `amend` may be refused; `restore` puts back a stay the property system held before and is never refused. */
  readonly kind: 'amend' | 'restore';
  readonly checkIn: string;
  readonly checkOut: string;
  readonly selectedProperties: readonly SelectedProperty[];
  readonly stay?: ChannelStay;
}

/** The property system's answer to a modification. */
export type ModificationResult =
  | { readonly accepted: true }
  | { readonly accepted: false; readonly reasonCode: 'CHANNEL_REFUSED' | 'CHANNEL_CANNOT_MODIFY'; readonly reason: string };

/**
 * The provider's property system. Every call is idempotent on the booking: reserving twice
 * is one reservation, asking after it is free, cancelling a cancelled one does nothing.
 */
export interface PropertySystem {
  /** Places the reservation (once) and says where it stands now. */
  reserve(request: ReservationRequest): Promise<ReservationState>;
  /** Where an earlier reservation stands; PENDING with no hint when none was ever placed. */
  status(bookingRef: string): Promise<ReservationState>;
  /** Cancels a landed reservation. */
  cancel(bookingRef: string, at: string): Promise<void>;
  /** Whether the listing's channel manager can modify a reservation at all (otherwise: cancel and rebook). */
  canModify(listingId: string): Promise<boolean>;
  /** Changes a landed reservation's stay, once per key. */
  modify(request: ModificationRequest): Promise<ModificationResult>;
  /**
   * Replaces the guest in the copy of the reservation this service keeps (docs/personal-data.md)
   * with `marker`; nothing is pushed to the channel manager. Idempotent; nothing kept, nothing done.
   */
  forgetGuest(bookingRef: string, marker: Guest): Promise<void>;
}
