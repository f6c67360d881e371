import { systemOrigin, type AuditDraft, type AuditOrigin } from '../audit/audit-event.ts';
import { findBookingForOperator } from '../bookings/find-booking.ts';
import type { Booking } from '../bookings/booking.ts';
import { bookingTarget } from '../bookings/booking-audit.ts';
import { DomainError, NotFoundError, ValidationError } from '../errors.ts';
import type { AmendmentStore } from '../ports/amendment-store.ts';
import type { DeliveryStore } from '../ports/delivery-store.ts';
import type { OrderStore } from '../ports/order-store.ts';
import type { BookingReads } from '../ports/booking-reads.ts';
import type { BookingStore } from '../ports/booking-store.ts';
import type { Clock } from '../ports/clock.ts';
import type { IdGenerator } from '../ports/ids.ts';
import type { BookingAddress, ErasureCause, GuestDataStore } from '../ports/guest-data.ts';
import type { PropertySystem } from '../ports/property-system.ts';
import type { TenantDirectory } from '../ports/tenant-directory.ts';
import { clockPasses, depsOfGroup, type AtGroupClocks } from '../test-clocks/group-clocks.ts';
import {
  amendmentHoldsGuests,
  bookingHasGuestEmail,
  ERASED_GUEST,
  erasableEndedOnOrBefore,
  erasedAmendment,
  erasedBooking,
  erasedCallback,
  isGuestDataErased,
  orderRefHeld,
  retentionHasRunOut,
  stayHasEnded,
} from './guest-erasure.ts';

export interface GuestErasureDeps {
  readonly bookings: Pick<BookingStore, 'get' | 'findClaim'>;
  readonly bookingReads: Pick<BookingReads, 'byBookingId' | 'feedPage'>;
  readonly amendments: Pick<AmendmentStore, 'list' | 'save'>;
  /** The booking's callbacks kept for resend: their bodies carry a cancellation's reason. */
  readonly deliveries: Pick<DeliveryStore, 'listForBooking' | 'eraseText'>;
  /** The order the booking was made from: its externalRef is the partner's free text. */
  readonly orders: Pick<OrderStore, 'get' | 'eraseExternalRef'>;
  readonly propertySystem: Pick<PropertySystem, 'forgetGuest'>;
  readonly guestData: GuestDataStore;
  readonly tenants: Pick<TenantDirectory, 'listAgentGroups'>;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Days guest data is kept after the stay ended (GUEST_RETENTION_DAYS). */
  readonly retentionDays: number;
}

/** Bookings the daily job erases per batch, and batches per run: bounded, the rest waits for tomorrow's run. */
export const ERASURE_BATCH = 100;
export const ERASURE_MAX_BATCHES = 50;

/** Rounds of re-reading a booking that moved under the erasure before giving up for this run. */
const MAX_ROUNDS = 3;

export type ErasureOutcome = 'erased' | 'already-erased' | 'not-due' | 'busy';

export interface ErasureResult {
  readonly agentGroupId: string;
  readonly bookingRef: string;
  readonly bookingId: string | null;
  readonly code: string;
  readonly outcome: ErasureOutcome;
}

/** Refusal of an erasure on request: the stay it would erase has not ended. */
export class StayNotEndedError extends DomainError {
  override readonly name = 'StayNotEndedError';
  constructor(bookings: readonly Booking[]) {
    super(
      'CONFLICT',
      `The stay has not ended for ${bookings.map((b) => `booking ${b.bookingId ?? b.bookingRef} (${b.status}, check-out ${b.checkOut})`).join(', ')}: ` +
        'guest data is erased only once the check-out date has passed in India, or the booking is cancelled or failed. Nothing was erased.',
    );
  }
}

const resultOf = (b: Booking, outcome: ErasureOutcome): ErasureResult => ({
  agentGroupId: b.agentGroupId,
  bookingRef: b.bookingRef,
  bookingId: b.bookingId,
  code: b.code,
  outcome,
});

/** The erasure's event: that the booking's guest data went, why and on whose word; never the data itself. */
const erasureAudit = (id: string, at: string, cause: ErasureCause, b: Booking): AuditDraft => ({
  id,
  at,
  origin: cause.origin,
  action: 'booking.guest-data-erased',
  target: bookingTarget(b.bookingRef),
  account: b.agentGroupId,
  before: { guestData: 'held' },
  after: { guestData: 'erased', reason: cause.reason },
});

/**
 * Erases one booking's guest data everywhere it is held (docs/personal-data.md): its
 * amendments and the channel manager's copy first, then the booking itself in one
 * conditional write. A crash in between leaves the booking unerased, so the next run does
 * it all again (each step is idempotent); a booking that says erased is erased everywhere.
 * `busy`: an amendment is in flight or the booking kept moving; a later run retries.
 */
export async function eraseBookingGuests(deps: GuestErasureDeps, address: BookingAddress, cause: ErasureCause): Promise<ErasureResult> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const booking = await deps.bookings.get(address.agentGroupId, address.bookingRef);
    if (!booking) throw new NotFoundError('Booking');
    if (isGuestDataErased(booking)) return resultOf(booking, 'already-erased');
    const now = deps.clock.now();
    if (cause.reason === 'request' && !stayHasEnded(booking, now)) throw new StayNotEndedError([booking]);
    // The index the job reads is eventually consistent; the record read here decides.
    if (cause.reason === 'retention' && !retentionHasRunOut(booking, now, deps.retentionDays)) return resultOf(booking, 'not-due');
    if (booking.amendingId) return resultOf(booking, 'busy');
    const at = now.toISOString();
    let moved = false;
    for (const amendment of await deps.amendments.list(booking.agentGroupId, booking.bookingRef)) {
      if (amendmentHoldsGuests(amendment) && !(await deps.amendments.save(amendment, erasedAmendment(amendment, at)))) moved = true;
    }
    for (const callback of await deps.deliveries.listForBooking(booking.partnerId, booking.bookingRef)) {
      const erased = erasedCallback(callback);
      if (erased && !(await deps.deliveries.eraseText(callback, erased))) moved = true;
    }
    if (moved) continue;
    const order = await deps.orders.get(booking.agentGroupId, booking.orderId);
    if (order && orderRefHeld(order.externalRef)) await deps.orders.eraseExternalRef(booking.agentGroupId, booking.orderId);
    await deps.propertySystem.forgetGuest(booking.bookingRef, ERASED_GUEST);
    const next = erasedBooking(booking, at);
    if (await deps.guestData.eraseBooking(booking, next, erasureAudit(deps.ids.uuid(), at, cause, booking))) return resultOf(next, 'erased');
  }
  const stale = await deps.bookings.get(address.agentGroupId, address.bookingRef);
  return resultOf(stale!, 'busy');
}

export interface RetentionRunResult {
  readonly looked: number;
  readonly erased: number;
  readonly skipped: number;
  readonly failed: number;
  /** The end date (India) on or before which bookings were due. */
  readonly endedOnOrBefore: string;
}

/** The job the audit trail names for erasures when retention runs out. */
export const RETENTION_JOB = 'guest-data-retention';

/**
 * The daily job: every booking whose stay ended at least the retention ago and whose guest
 * data is still held (on its group's clock, for a group on a sandbox test clock), in batches of
 * ERASURE_BATCH, at most ERASURE_MAX_BATCHES a run. One
 * booking failing is counted and left for the next run; the others go on.
 */
export async function eraseExpiredGuestData(
  deps: AtGroupClocks<GuestErasureDeps>,
  onFailure: (address: BookingAddress, error: unknown) => void = () => undefined,
): Promise<RetentionRunResult> {
  const endedOnOrBefore = erasableEndedOnOrBefore(deps.clock.now(), deps.retentionDays);
  const cause: ErasureCause = { reason: 'retention', origin: systemOrigin(RETENTION_JOB, deps.ids.uuid()) };
  let looked = 0;
  let erased = 0;
  let failed = 0;
  let batches = 0;
  const seen = new Set<string>();
  // A group on a sandbox test clock is looked at again at its own time; each booking is judged at its group's.
  for (const pass of await clockPasses(deps)) {
    const cutoff = erasableEndedOnOrBefore(pass.at.clock.now(), pass.at.retentionDays);
    for (; batches < ERASURE_MAX_BATCHES; batches++) {
      // An erased booking leaves the index; one the index still shows (eventual consistency) or one left busy is not taken twice in a run.
      const due = (await deps.guestData.listErasable(cutoff, ERASURE_BATCH, pass.agentGroupId)).filter((a) => !seen.has(`${a.agentGroupId}#${a.bookingRef}`));
      if (due.length === 0) break;
      for (const address of due) {
        seen.add(`${address.agentGroupId}#${address.bookingRef}`);
        looked += 1;
        try {
          if ((await eraseBookingGuests(await depsOfGroup(deps, address.agentGroupId), address, cause)).outcome === 'erased') erased += 1;
        } catch (err) {
          failed += 1;
          onFailure(address, err);
        }
      }
    }
  }
  return { looked, erased, skipped: looked - erased - failed, failed, endedOnOrBefore };
}

/** An operator's erasure on request: who asks, as the audit trail records them. */
export interface ErasureRequest {
  readonly operator: AuditOrigin;
}

/**
 * Finds a booking by the id partners use (the property-system bookingId) or the service's own
 * bookingRef, in one group when given, otherwise in every group.
 */
/** `guests erase --booking <id>` (any id people see: findBookingForOperator): refused (StayNotEndedError) while the stay has not ended. */
export async function eraseGuestsOfBooking(
  deps: GuestErasureDeps,
  request: ErasureRequest & { readonly bookingId: string; readonly agentGroupId?: string },
): Promise<ErasureResult> {
  const booking = await findBookingForOperator(deps, request.bookingId, request.agentGroupId);
  return eraseBookingGuests(deps, booking, { reason: 'request', origin: request.operator });
}

/** Feed pages read to find a guest's bookings in a group (an operator's request, not a hot path). */
const FEED_PAGE = 100;

/**
 * `guests erase --email <email> --group <groupId>`: every booking of the group with a guest of
 * that e-mail (primary or additional; the whole booking's guest data is erased). All or
 * nothing: while any of those stays has not ended, nothing is erased and the refusal names them.
 */
export async function eraseGuestsByEmail(
  deps: GuestErasureDeps,
  request: ErasureRequest & { readonly email: string; readonly agentGroupId: string },
): Promise<ErasureResult[]> {
  if (!request.email.includes('@')) throw new ValidationError('email', 'email must be an e-mail address.');
  const matched: Booking[] = [];
  let after: Parameters<GuestErasureDeps['bookingReads']['feedPage']>[1]['after'];
  do {
    const page = await deps.bookingReads.feedPage(request.agentGroupId, { filter: {}, after, limit: FEED_PAGE });
    matched.push(...page.bookings.filter((b) => bookingHasGuestEmail(b, request.email)));
    after = page.resumeAfter ?? undefined;
  } while (after);
  if (matched.length === 0) throw new NotFoundError('A booking with a guest of that e-mail in the group');
  const now = deps.clock.now();
  const ongoing = matched.filter((b) => !stayHasEnded(b, now));
  if (ongoing.length > 0) throw new StayNotEndedError(ongoing);
  const cause: ErasureCause = { reason: 'request', origin: request.operator };
  const results: ErasureResult[] = [];
  for (const b of matched) results.push(await eraseBookingGuests(deps, b, cause));
  return results;
}
