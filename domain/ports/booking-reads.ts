import type { Booking, BookingStatus } from '../bookings/booking.ts';
import type { Minor } from '../money.ts';

/**
 * A place in a group's booking feed: the feed is ordered by (updatedAt, bookingRef), both
 * compared as plain strings, exactly as the feed index sorts them.
 */
export interface BookingFeedPosition {
  readonly updatedAt: string;
  readonly bookingRef: string;
}

/** Filters every booking read can apply; all given ones must hold (AND). */
export interface BookingFilter {
  readonly statuses?: readonly BookingStatus[];
  /** Inclusive check-in dates (yyyy-mm-dd). */
  readonly checkInFrom?: string;
  readonly checkInTo?: string;
  /** Canonical instant (toISOString form): updatedAt at or after it. */
  readonly updatedSince?: string;
}

export interface BookingFeedQuery {
  readonly filter: BookingFilter;
  /** Only bookings strictly after this position. */
  readonly after?: BookingFeedPosition;
  readonly limit: number;
}

export interface BookingFeedPage {
  /** At most `limit` bookings matching the filter, in feed order. */
  readonly bookings: readonly Booking[];
  /**
   * Where the next page starts, or null when the feed holds nothing more after this page.
   * When the read budget ran out before the page filled, this is the last position read,
   * so the page may be short (even empty) and still be followed by more.
   */
  readonly resumeAfter: BookingFeedPosition | null;
}

/**
 * Reads of stored bookings. Tenancy is a parameter of every read: each takes the agent
 * group and can only ever return that group's bookings.
 */
export interface BookingReads {
  /** Bookings by the property-system id partners address them by; unknown ids are absent. */
  byBookingIds(agentGroupId: string, bookingIds: readonly string[]): Promise<Booking[]>;
  /** Bookings by the caller's own references (unique per group); unknown ones are absent. */
  byExternalIds(agentGroupId: string, externalBookingIds: readonly string[]): Promise<Booking[]>;
  /** One page of the group's bookings in feed order, filtered. */
  feedPage(agentGroupId: string, query: BookingFeedQuery): Promise<BookingFeedPage>;
  /** One booking by its property-system id, or undefined when the group has none such. */
  byBookingId(agentGroupId: string, bookingId: string): Promise<Booking | undefined>;
  /**
   * bookingRef → paise of payments that reached the booking's invoice lines: each invoice's
   * amountPaid covers its bookings in the invoice's line order. Absent = nothing paid.
   */
  paidOfBookings(
    agentGroupId: string,
    bookings: readonly { readonly bookingRef: string; readonly invoicedIn?: readonly string[] }[],
  ): Promise<Map<string, Minor>>;
}
