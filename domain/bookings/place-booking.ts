import type { AuditOrigin } from '../audit/audit-event.ts';
import { NotFoundError } from '../errors.ts';
import { bookingAudit } from './booking-audit.ts';
import { CreditDeniedError, IdempotencyConflictError } from '../ledger/credit-errors.ts';
import { authorizedEntry } from '../ledger/ledger.ts';
import { requestContentHash, type Sha256Hex } from '../ledger/request-hash.ts';
import type { Minor } from '../money.ts';
import { chargeLinesOf } from '../pricing/charge-lines.ts';
import { explainSoldOutNights } from '../pricing/unavailable-nights.ts';
import { repriceStored } from '../orders/manage-orders.ts';
import type { PricingContextDeps } from '../orders/load-pricing-context.ts';
import type { CreditLedger } from '../ports/credit-ledger.ts';
import type { IdGenerator } from '../ports/ids.ts';
import type { OrderStore } from '../ports/order-store.ts';
import type { UrlGuard } from '../ports/url-guard.ts';
import type { AgentGroupPrincipal } from '../principal.ts';
import { NO_STEPS_DONE, type Booking, type Guest } from './booking.ts';
import { PriceMovedError, SoldOutError } from './booking-errors.ts';
import { mergeGuests } from './guests.ts';
import { advanceBooking, type WorkflowDeps } from './workflow.ts';

export interface PlaceBookingDeps extends WorkflowDeps, PricingContextDeps {
  readonly orders: OrderStore;
  readonly ids: IdGenerator;
  readonly urlGuard: UrlGuard;
  readonly sha256: Sha256Hex;
  readonly ledger: Pick<CreditLedger, 'creditPosition'>;
  /** How long the call waits for the outcome before answering PROCESSING. */
  readonly syncWaitMs: number;
  readonly sleep: (ms: number) => Promise<void>;
}

/** What POST /v1/bookings receives after shape checks; money in paise. */
export interface BookingCommand {
  readonly orderId: string;
  readonly externalBookingId: string;
  readonly acceptedTotal: Minor;
  readonly primaryGuest: Guest;
  readonly additionalGuests: readonly Guest[];
  readonly specialRequests?: string;
  readonly callbackUrl?: string;
}

export type BookingReplyStatus = 'CREATED' | 'ALREADY_EXISTS' | 'PROCESSING';

export interface BookingReply {
  readonly status: BookingReplyStatus;
  readonly booking: Booking;
  /** Live when answering a replay; the gate's figure for a new booking. */
  readonly availableCreditAfter: Minor;
}

/**
 * The request's identity for idempotency: what the booking is (order, price, requests,
 * where to call back). Guests are not part of it: a replay may add guests and never edits
 * the ones already on the booking (docs/bookings.md), so guest changes alone are no conflict.
 */
export const bookingContent = (c: BookingCommand) => ({
  orderId: c.orderId,
  externalBookingId: c.externalBookingId,
  acceptedTotal: c.acceptedTotal,
  specialRequests: c.specialRequests ?? null,
  callbackUrl: c.callbackUrl ?? null,
});

const POLL_MS = 100;

/** A display code from the booking's own id: shown on rows before the property system assigns its id. */
export const bookingCode = (bookingRef: string): string => `PB-${bookingRef.replace(/-/g, '').slice(0, 12).toUpperCase()}`;

/**
 * POST /v1/bookings (docs/bookings.md). A stored claim answers first, so a replay is served
 * as it was even when the price or the group's credit has moved since. A new request is
 * re-priced, must still total acceptedTotal, then passes the credit gate, which writes the
 * PROCESSING booking, its AUTHORIZED charge, the claim and the exposure in one transaction.
 * The workflow then runs here for up to syncWaitMs; unresolved by then, the worker carries on.
 */
export async function placeBooking(deps: PlaceBookingDeps, principal: AgentGroupPrincipal, cmd: BookingCommand, origin: AuditOrigin): Promise<BookingReply> {
  if (cmd.callbackUrl !== undefined) await deps.urlGuard.assertAllowed('callbackUrl', cmd.callbackUrl);
  const g = principal.agentGroupId;
  const contentHash = requestContentHash(bookingContent(cmd), deps.sha256);
  const claim = await deps.bookings.findClaim(g, cmd.externalBookingId);
  if (claim) {
    if (claim.contentHash !== contentHash) throw new IdempotencyConflictError(cmd.externalBookingId);
    return replay(deps, g, claim.bookingRef, cmd);
  }

  const order = await deps.orders.get(g, cmd.orderId);
  if (!order) throw new NotFoundError('Order');
  const priced = await repriceStored(deps, principal, order);
  if (priced.summary.grandTotal !== cmd.acceptedTotal) throw new PriceMovedError(cmd.acceptedTotal, priced.summary);
  const item = priced.items[0]!;
  if (priced.items.some((i) => i.soldOut)) throw new SoldOutError(item.listingId, explainSoldOutNights(priced.breakdown.soldOutNights, item.nights));

  const now = deps.clock.now();
  const at = now.toISOString();
  const bookingRef = deps.ids.uuid();
  const code = bookingCode(bookingRef);
  const entry = authorizedEntry(
    {
      agentGroupId: g,
      type: 'CHARGE',
      amount: priced.summary.grandTotal,
      externalBookingId: cmd.externalBookingId,
      description: `Booking ${code}: ${item.listingId}, ${item.checkIn} to ${item.checkOut}`,
    },
    deps.ids.uuid(),
    now,
  );
  const windowEnd = new Date(now.getTime() + deps.timings.windowSeconds * 1000);
  const booking: Booking = {
    bookingRef,
    agentGroupId: g,
    partnerId: principal.partnerId,
    channelId: principal.channelId,
    externalBookingId: cmd.externalBookingId,
    orderId: order.orderId,
    code,
    status: 'PROCESSING',
    bookingId: null,
    listingId: item.listingId,
    checkIn: item.checkIn,
    checkOut: item.checkOut,
    selectedProperties: priced.breakdown.selectedProperties,
    currency: 'INR',
    items: priced.items,
    summary: priced.summary,
    chargeLines: chargeLinesOf(priced.breakdown),
    amount: priced.summary.grandTotal,
    chargedTotal: priced.summary.grandTotal,
    request: order.request,
    invoicedIn: [],
    lastAmendment: null,
    amendingId: null,
    ledgerEntryId: entry.id,
    primaryGuest: cmd.primaryGuest,
    // Duplicates within one request collapse the same way a replay's would.
    additionalGuests: mergeGuests({ primaryGuest: cmd.primaryGuest, additionalGuests: [] }, cmd.additionalGuests).additionalGuests,
    specialRequests: cmd.specialRequests ?? null,
    callbackUrl: cmd.callbackUrl ?? null,
    deadline: windowEnd.toISOString(),
    watchUntil: new Date(windowEnd.getTime() + deps.timings.watchSeconds * 1000).toISOString(),
    steps: NO_STEPS_DONE,
    failure: null,
    cancellation: null,
    confirmedAt: null,
    // Due at once: if this process dies before its first look, the sweeper finds the booking overdue.
    nextCheckAt: at,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  const auth = await deps.bookings
    .open(
      booking,
      entry,
      { externalBookingId: cmd.externalBookingId, contentHash, bookingRef },
      bookingAudit(origin, deps.ids.uuid(), at, 'booking.created', null, booking),
    )
    .catch((err: unknown) => {
      if (err instanceof CreditDeniedError) deps.metrics.count('CreditRefused');
      throw err;
    });
  if (auth.replay) return replay(deps, g, auth.bookingRef, cmd);

  const settled = await waitForOutcome(deps, booking, now.getTime() + deps.syncWaitMs);
  return settled.status === 'PROCESSING'
    ? { status: 'PROCESSING', booking: settled, availableCreditAfter: auth.availableCreditAfter }
    : { status: 'CREATED', booking: settled, availableCreditAfter: auth.availableCreditAfter };
}

/** Runs the workflow until the booking leaves PROCESSING or the wait is over. */
async function waitForOutcome(deps: PlaceBookingDeps, booking: Booking, until: number): Promise<Booking> {
  let current = booking;
  for (let look = 0; ; look++) {
    // The first look starts from the booking the gate just wrote, not a re-read of it.
    current = (await advanceBooking(deps, booking.agentGroupId, booking.bookingRef, look === 0 ? booking : undefined)) ?? current;
    if (current.status !== 'PROCESSING') return current;
    const left = until - deps.clock.now().getTime();
    if (left <= 0) return current;
    await deps.sleep(Math.min(POLL_MS, left));
  }
}

/**
 * An identical request whose externalBookingId is already claimed (other contents are a 409
 * before this): the booking as it stands, with new guests added (rule 6) — PROCESSING
 * while unresolved, ALREADY_EXISTS once resolved.
 */
async function replay(deps: PlaceBookingDeps, agentGroupId: string, bookingRef: string, cmd: BookingCommand): Promise<BookingReply> {
  const booking = await addGuests(deps, agentGroupId, bookingRef, [cmd.primaryGuest, ...cmd.additionalGuests]);
  const position = await deps.ledger.creditPosition(agentGroupId);
  return { status: booking.status === 'PROCESSING' ? 'PROCESSING' : 'ALREADY_EXISTS', booking, availableCreditAfter: position?.availableCredit ?? 0 };
}

async function addGuests(deps: PlaceBookingDeps, agentGroupId: string, bookingRef: string, guests: readonly Guest[]): Promise<Booking> {
  for (;;) {
    const booking = await deps.bookings.get(agentGroupId, bookingRef);
    if (!booking) throw new Error(`claim names booking ${bookingRef}, which is missing`);
    const merged = mergeGuests(booking, guests);
    if (merged.added === 0) return booking;
    const now = deps.clock.now().toISOString();
    const next: Booking = { ...booking, additionalGuests: merged.additionalGuests, updatedAt: now, version: booking.version + 1 };
    if (await deps.bookings.update(booking, next)) return next;
  }
}
