import type { Minor } from '../money.ts';
import type { ChargeLine } from '../pricing/charge-lines.ts';
import type { OrderRequest, PricedItem, PricedSummary, SelectedProperty } from '../pricing/index.ts';

/**
 * Booking row statuses (docs/product-rules.md "Bookings"). CREATED and ALREADY_EXISTS exist only as
 * the status of a POST /v1/bookings reply, never on a stored booking.
 */
export const BOOKING_STATUSES = ['PROCESSING', 'CONFIRMED', 'FAILED', 'CANCELLED'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** The contract's Guest record. Which fields a guest needs is checked at the edge (docs/product-rules.md "Bookings"). */
export interface Guest {
  readonly guestId?: string;
  readonly salutation?: string;
  readonly firstName: string;
  readonly lastName?: string;
  readonly email?: string;
  readonly phone?: string;
  readonly countryCode?: string;
  readonly city?: string;
  readonly dob?: string;
  readonly anniversary?: string;
  readonly position?: number;
}

export const BOOKING_FAILURE_REASONS = ['BOOKING_NOT_COMPLETED', 'CHANNEL_REFUSED'] as const;

/**
 * Why a booking failed, as the booking.failed callback and the booking read say it:
 * BOOKING_NOT_COMPLETED (the window closed without a confirmation) or CHANNEL_REFUSED (the
 * channel manager refused the reservation; its own message is kept for operators only).
 */
export interface BookingFailure {
  readonly reasonCode: (typeof BOOKING_FAILURE_REASONS)[number];
  readonly reason: string;
  readonly failedAt: string;
}

/** What a cancellation did; stored so a repeated cancel answers the same. */
export interface BookingCancellation {
  readonly cancelledAt: string;
  readonly reason: string | null;
  readonly refundPercentage: number;
  /** Paise given back (positive here; the REFUND ledger entry carries it negative). */
  readonly refundAmount: Minor;
  readonly refundEntryId: string;
}

/**
 * The steps of the booking workflow that follow an outcome. The outcome itself (status,
 * ledger movement, alias) is one transaction; these come after it, each done at most once
 * because its flag is set in the same write as the step, so a worker that crashes between
 * two steps and runs again finishes the rest and repeats nothing.
 */
export interface BookingWorkflowSteps {
  readonly inventoryTaken: boolean;
  readonly inventoryReturned: boolean;
  /** Event types whose callback delivery exists (publishing is idempotent; this only saves a write). */
  readonly callbacksPublished: readonly string[];
}

/**
 * One booking on credit. `bookingRef` is the service's own id, fixed at the credit gate;
 * `bookingId` is the property system's id, known only once the booking lands (it is the
 * id partners address a booking by, and the one the ledger carries once a charge posts).
 */
export interface Booking {
  readonly bookingRef: string;
  readonly agentGroupId: string;
  readonly partnerId: string;
  readonly channelId: string;
  readonly externalBookingId: string;
  readonly orderId: string;
  /** Short human code shown on booking rows from the start (bookingId is null until landing). */
  readonly code: string;
  readonly status: BookingStatus;
  readonly bookingId: string | null;
  readonly listingId: string;
  readonly checkIn: string;
  readonly checkOut: string;
  /** The units the booking holds: the order's priced choice. */
  readonly selectedProperties: readonly SelectedProperty[];
  readonly currency: 'INR';
  readonly items: readonly PricedItem[];
  readonly summary: PricedSummary;
  /** The grand total authorized (and, once landed, posted) on credit: the original charge, never moved by amendments. */
  readonly amount: Minor;
  /**
   * What the group has been charged for the booking: the charge plus every applied
   * amendment's ADJUSTMENT. Equals `amount` until an amendment applies (absent on old items).
   */
  readonly chargedTotal: Minor;
  /**
   * The priced request as booked or last amended (the booking's own copy: an order may be
   * booked more than once, so amending one booking never edits the order). Absent on items
   * written before amendments: the order's request then is the booking's.
   */
  readonly request?: OrderRequest;
  /** Ids of ISSUED invoices holding lines of this booking; set by invoicing. A booking on one cannot be amended. */
  readonly invoicedIn: readonly string[];
  /** The latest applied amendment and its content hash: an identical resend answers it again. */
  readonly lastAmendment: { readonly amendmentId: string; readonly contentHash: string } | null;
  /** Set while an amendment has rewritten the rows and is not yet settled; a cancellation waits for it. */
  readonly amendingId: string | null;
  /**
   * What `summary` was priced from, grouped as invoice rows (domain/pricing/charge-lines.ts);
   * billing reads it instead of re-pricing. Absent on a booking stored without it: such a
   * booking is reported by a billing run, never billed from a guess.
   */
  readonly chargeLines?: readonly ChargeLine[];
  readonly ledgerEntryId: string;
  readonly primaryGuest: Guest;
  readonly additionalGuests: readonly Guest[];
  readonly specialRequests: string | null;
  readonly callbackUrl: string | null;
  /** End of the workflow window: unresolved after this, the booking FAILS. */
  readonly deadline: string;
  /** After a failure, how long the workflow keeps watching for a late landing. */
  readonly watchUntil: string;
  readonly steps: BookingWorkflowSteps;
  readonly failure: BookingFailure | null;
  readonly cancellation: BookingCancellation | null;
  readonly confirmedAt: string | null;
  /**
   * When the guest fields were replaced by the erasure marker (docs/personal-data.md); absent or
   * null while they are held.
   */
  readonly guestDataErasedAt?: string | null;
  /** When the workflow next needs to look at this booking; null once nothing is left to do. */
  readonly nextCheckAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Bumped by every write; each write is conditional on the version it was computed from. */
  readonly version: number;
}

export const NO_STEPS_DONE: BookingWorkflowSteps = { inventoryTaken: false, inventoryReturned: false, callbacksPublished: [] };
