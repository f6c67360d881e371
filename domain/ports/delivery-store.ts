import type { CallbackDelivery, Delivery, DeliveryAttempt, DeliveryStatus } from '../deliveries/delivery.ts';

/** A page of a keyset-paginated read; `next` is an opaque position for the cursor codec, null on the last page. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly next: string | null;
}

/** What follows a recorded attempt: another attempt due at `nextAttemptAt`, or a final status. */
export type AttemptVerdict =
  | { readonly status: 'PENDING'; readonly nextAttemptAt: string }
  | { readonly status: 'SUCCEEDED' }
  | { readonly status: 'FAILED'; readonly failureReason: string };

/**
 * Delivery records (the outbox), always addressed through the owning partner. Every state
 * change is conditional on the attempt count it was computed from, so two copies of one
 * queue message can never both record (or send) the same attempt.
 */
export interface DeliveryStore {
  /** Writes new PENDING deliveries; each must not exist yet. */
  createAll(deliveries: readonly Delivery[]): Promise<void>;
  /**
   * Writes a new PENDING delivery unless one with its id already exists; true when this
   * call created it. An existing delivery is left exactly as it is (body, attempts, status).
   */
  createOnce(delivery: Delivery): Promise<boolean>;
  get(partnerId: string, deliveryId: string): Promise<Delivery | undefined>;
  /**
   * Takes the right to make attempt `attemptCount + 1`: true only when the delivery is
   * PENDING with exactly `attemptCount` attempts and no unexpired claim. The claim lapses
   * at `until`, so a worker that dies mid-send does not block the delivery for ever.
   */
  claim(delivery: Delivery, claimId: string, until: string, now: string): Promise<boolean>;
  /** Appends the attempt and applies the verdict; false when the claim was lost meanwhile. */
  recordAttempt(delivery: Delivery, claimId: string, attempt: DeliveryAttempt, verdict: AttemptVerdict, now: string): Promise<boolean>;
  /** Ends a PENDING delivery without an attempt (its endpoint is gone or disabled); false when it moved on meanwhile. */
  abandon(delivery: Delivery, reason: string, now: string): Promise<boolean>;
  /** PENDING deliveries due before `dueBefore`, oldest first, at most `limit`. */
  listOverdue(dueBefore: string, limit: number): Promise<Delivery[]>;
  /**
   * Notes that the sweeper re-queued the delivery: its due time moves to `now` (so the next
   * sweep leaves it alone for a grace period) and its re-queue count goes up. False when
   * the delivery moved on meanwhile.
   */
  markRequeued(delivery: Delivery, now: string): Promise<boolean>;
  /** An endpoint's deliveries, newest first, optionally only those with `status`. */
  listForEndpoint(partnerId: string, endpointId: string, query: { status?: DeliveryStatus; size: number; after?: string }): Promise<Page<Delivery>>;
  /** The booking callbacks of one booking (the service's bookingRef), oldest first. */
  listForBooking(partnerId: string, bookingRef: string): Promise<CallbackDelivery[]>;
  /**
   * Replaces a callback's body, its attempts' kept answers and its failure reason with their
   * erased form (docs/personal-data.md), if it is still as read (no attempt recorded since);
   * false when it moved on (the caller reads it again).
   */
  eraseText(previous: CallbackDelivery, erased: Pick<CallbackDelivery, 'payload' | 'attempts' | 'failureReason'>): Promise<boolean>;
  /** A partner's deliveries with `status` (operator use; bounded by the delivery TTL). */
  listByStatus(partnerId: string, status: DeliveryStatus): Promise<Delivery[]>;
}
