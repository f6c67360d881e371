import { chargeLinesOf } from '../pricing/charge-lines.ts';
import type { AuditOrigin } from '../audit/audit-event.ts';
import { amendmentAudit } from './booking-audit.ts';
import type { DayData } from '../catalogue/day.ts';
import type { BookingCallbackOutcome } from '../deliveries/booking-callback.ts';
import { ConflictError, type DomainError, NotFoundError, ValidationError } from '../errors.ts';
import { CreditDeniedError } from '../ledger/credit-errors.ts';
import { postedEntry } from '../ledger/ledger.ts';
import { requestContentHash, type Sha256Hex } from '../ledger/request-hash.ts';
import { formatRupees, type Minor } from '../money.ts';
import { loadPricingContext, type PricingContextDeps } from '../orders/load-pricing-context.ts';
import { MAX_STAY_NIGHTS, priceOrder, type OrderRequest, type PricedOrder, type PricingContext } from '../pricing/index.ts';
import type { AmendmentStore } from '../ports/amendment-store.ts';
import type { BookingReads } from '../ports/booking-reads.ts';
import type { BookingStore } from '../ports/booking-store.ts';
import type { CreditLedger } from '../ports/credit-ledger.ts';
import type { IdGenerator } from '../ports/ids.ts';
import type { OrderStore } from '../ports/order-store.ts';
import { channelStayOf, type PropertySystem } from '../ports/property-system.ts';
import type { AgentGroupPrincipal } from '../principal.ts';
import { indiaToday } from '../reads/date-window.ts';
import { daysBetween } from '../catalogue/calendar.ts';
import {
  amendedRequest,
  amendmentContent,
  amendmentMoney,
  availabilityOf,
  breakdownDelta,
  breakdownOf,
  decideAmendment,
  isNoChange,
  NO_AMENDMENT_STEPS,
  stayMoves,
  type Amendment,
  type AmendmentCommand,
  type AmendmentFailure,
  type AmendmentMoney,
  type AmendmentStep,
  type Availability,
  type Breakdown,
  type NotAmendableReason,
  type StaySnapshot,
} from './amendment.ts';
import { depsOfGroup, dueAcrossClocks, type AtGroupClocks } from '../test-clocks/group-clocks.ts';
import type { Booking, Guest } from './booking.ts';

export interface AmendDeps extends PricingContextDeps {
  readonly bookings: Pick<BookingStore, 'get'>;
  readonly bookingReads: Pick<BookingReads, 'byBookingId'>;
  readonly amendments: AmendmentStore;
  readonly orders: Pick<OrderStore, 'get'>;
  readonly propertySystem: PropertySystem;
  readonly ledger: Pick<CreditLedger, 'decide'>;
  readonly ids: IdGenerator;
  readonly sha256: Sha256Hex;
  readonly derivedId: (name: string) => string;
  readonly publishCallback: (outcome: BookingCallbackOutcome) => Promise<unknown>;
  /** Test seam for crash injection: called after each amendment step is durable; a throw there is a process dying. */
  readonly afterAmendmentStep?: (step: AmendmentStep) => void | Promise<void>;
}

/** The answer of PATCH /v1/bookings/{bookingId}, money in paise. */
export interface AmendmentEvaluation {
  readonly booking: Booking;
  readonly amendable: boolean;
  readonly reason: NotAmendableReason | null;
  readonly checkIn: string;
  readonly checkOut: string;
  readonly availability: Availability;
  readonly pricing: { readonly current: Breakdown; readonly amended: Breakdown; readonly delta: Breakdown; readonly warnings: readonly string[] } | null;
  readonly chargedTotal: Minor;
  /** The booking's additional guests as they would stand (echoed). */
  readonly guests: readonly Guest[];
  readonly money: AmendmentMoney | null;
  /** What applying would write: the stay before and after. */
  readonly before: StaySnapshot;
  readonly after: StaySnapshot | null;
}

export interface AmendmentReply {
  readonly amendment: Amendment;
  readonly alreadyApplied: boolean;
}

const refusal = (code: ConstructorParameters<typeof ConflictError>[0], reasonCode: string, message: string, extra: Record<string, unknown> = {}) =>
  new ConflictError(code, message, { reasonCode, ...extra });

async function landedBooking(deps: Pick<AmendDeps, 'bookingReads'>, principal: AgentGroupPrincipal, bookingId: string): Promise<Booking> {
  const booking = await deps.bookingReads.byBookingId(principal.agentGroupId, bookingId);
  if (!booking) throw new NotFoundError('Booking');
  return booking;
}

/** 409s that no body can change: a cancelled or unconfirmed booking, a stay that has started or ended (India). */
function assertAmendableState(b: Booking, today: string): void {
  if (b.status === 'CANCELLED') throw refusal('CONFLICT', 'BOOKING_CANCELLED', 'The booking is cancelled; a cancelled booking cannot be amended.');
  if (b.status !== 'CONFIRMED') throw refusal('CONFLICT', 'BOOKING_NOT_CONFIRMED', `A ${b.status} booking cannot be amended.`);
  if (today >= b.checkOut) throw refusal('CONFLICT', 'STAY_ENDED', `The stay ended on ${b.checkOut}; it can no longer be amended.`);
  if (today >= b.checkIn)
    throw refusal('CONFLICT', 'STAY_STARTED', `The stay began on ${b.checkIn}; a started stay cannot be amended here (contact the property).`);
}

/** A stay's nights as one request covering both stays, so one catalogue load prices both. */
function spanning(a: OrderRequest, b: OrderRequest): OrderRequest | undefined {
  const checkIn = a.checkIn < b.checkIn ? a.checkIn : b.checkIn;
  const checkOut = a.checkOut > b.checkOut ? a.checkOut : b.checkOut;
  if (daysBetween(checkIn, checkOut) > MAX_STAY_NIGHTS || !b.checkIn || !b.checkOut || b.checkOut <= b.checkIn) return undefined;
  const listingLevel = !a.selectedProperties?.length || !b.selectedProperties?.length;
  const units = listingLevel ? undefined : [...new Map([...a.selectedProperties!, ...b.selectedProperties!].map((p) => [p.propertyId, p])).values()];
  return { ...a, checkIn, checkOut, ...(units ? { selectedProperties: units } : { selectedProperties: [] }) };
}

/** The booking's own units credited back to the days they hold, so its held nights count as free for its amendment. */
function creditBack(context: PricingContext, b: Booking): PricingContext {
  if (!b.steps.inventoryTaken) return context;
  const days = new Map([...context.days].map(([propertyId, byDate]) => [propertyId, new Map(byDate)]));
  for (const move of stayMoves(b, 1)) {
    const byDate = days.get(move.propertyId);
    const day = byDate?.get(move.date);
    if (!byDate || !day?.inventory) continue;
    byDate.set(move.date, { ...day, inventory: { ...day.inventory, quantity: day.inventory.quantity + move.units } } satisfies DayData);
  }
  return { ...context, days };
}

/**
 * Prices through the one pricing path. A bank offer of the original order that no longer
 * applies is dropped with a warning rather than refusing the amendment.
 */
function priceWithOffer(request: OrderRequest, context: PricingContext, warnings: string[]): PricedOrder {
  try {
    return priceOrder({ request, context });
  } catch (err) {
    if (!(err instanceof ValidationError) || err.param !== 'bankOfferCode' || request.bankOfferCode === undefined) throw err;
    const { bankOfferCode, ...rest } = request;
    warnings.push(`Bank offer ${bankOfferCode} no longer applies (${err.message}); the stay is priced without it.`);
    return priceOrder({ request: rest, context });
  }
}

/** The stay the booking holds now; the request is the booking's own copy, or its order's for bookings made before amendments. */
async function currentRequest(deps: Pick<AmendDeps, 'orders'>, b: Booking): Promise<OrderRequest> {
  if (b.request) return b.request;
  const order = await deps.orders.get(b.agentGroupId, b.orderId);
  if (!order) throw new Error(`booking ${b.bookingRef} names order ${b.orderId}, which is missing`);
  return order.request;
}

const snapshot = (
  request: OrderRequest,
  priced: Pick<PricedOrder, 'items' | 'summary'> & { selectedProperties: Booking['selectedProperties']; chargeLines: Booking['chargeLines'] },
  guests: readonly Guest[],
): StaySnapshot => ({
  checkIn: request.checkIn,
  checkOut: request.checkOut,
  request,
  selectedProperties: priced.selectedProperties,
  items: priced.items,
  summary: priced.summary,
  ...(priced.chargeLines ? { chargeLines: priced.chargeLines } : {}),
  additionalGuests: guests,
});

/** The booking's stay as it stands, for the amendment record's `before`. */
const heldSnapshot = (b: Booking, request: OrderRequest): StaySnapshot =>
  snapshot(request, { items: b.items, summary: b.summary, selectedProperties: b.selectedProperties, chargeLines: b.chargeLines }, b.additionalGuests);

/**
 * The quote, shared by PATCH and POST: availability per night with the booking's own units
 * credited back, the unchanged and the amended stay priced at today's rates through the
 * one pricing path, and whether the amendment can be made. Reads only.
 */
export async function evaluateAmendment(
  deps: AmendDeps,
  principal: AgentGroupPrincipal,
  booking: Booking,
  cmd: AmendmentCommand,
): Promise<AmendmentEvaluation> {
  const today = indiaToday(deps.clock.now());
  assertAmendableState(booking, today);
  const request = await currentRequest(deps, booking);
  // The unchanged stay is priced on the units it holds; the amended one keeps them unless the party changed on a listing-level booking (pricing chooses again).
  const pinned: OrderRequest = { ...request, selectedProperties: booking.selectedProperties };
  const partyChanged = cmd.adults !== undefined || cmd.children !== undefined;
  const asked = amendedRequest(request.selectedProperties?.length || !partyChanged ? pinned : request, cmd);
  const guests = cmd.guests ?? booking.additionalGuests;

  const span = spanning(pinned, asked);
  const [loadedCurrent, loadedAmended] = span
    ? await loadPricingContext(deps, principal, span).then((c) => [c, c] as const)
    : await Promise.all([loadPricingContext(deps, principal, pinned), loadPricingContext(deps, principal, asked)]);
  const warnings: string[] = [];
  let current: PricedOrder;
  try {
    current = priceWithOffer(pinned, loadedCurrent, warnings);
  } catch (err) {
    // The booked stay was priced once; a refusal now is the world having moved, not the caller's parameter.
    if (err instanceof ValidationError)
      throw refusal('CONFLICT', 'BOOKING_NOT_PRICEABLE', `The booked stay can no longer be priced: ${err.message}`, { param: err.param });
    throw err;
  }
  const amended = priceWithOffer(asked, creditBack(loadedAmended, booking), warnings);
  const amendedUnits = amended.breakdown.selectedProperties;
  const sameUnits = JSON.stringify(amendedUnits) === JSON.stringify(booking.selectedProperties);
  const unchangedStay = sameUnits && asked.checkIn === booking.checkIn && asked.checkOut === booking.checkOut;
  const availability = availabilityOf(amended, unchangedStay);
  const available = availability.status === 'AVAILABLE';

  const currentSide = breakdownOf(current.summary);
  const amendedSide = breakdownOf(amended.summary);
  const money = available ? amendmentMoney(booking.chargedTotal, currentSide, amendedSide) : null;
  if (money && money.rateDriftAbsorbed !== 0) {
    const direction = money.rateDriftAbsorbed > 0 ? 'risen' : 'fallen';
    warnings.push(
      `Rates for the booked stay have ${direction} by ${formatRupees(Math.abs(money.rateDriftAbsorbed))} INR since it was charged; that drift is absorbed, not passed on.`,
    );
  }

  const canModify = await deps.propertySystem.canModify(booking.listingId);
  const reason: NotAmendableReason | null =
    booking.invoicedIn.length > 0
      ? 'INVOICED'
      : !canModify
        ? 'CHANNEL_CANNOT_MODIFY'
        : !available
          ? availability.unavailableNights.length === 0 && availability.minimumStayViolations.length > 0
            ? 'MINIMUM_STAY'
            : 'UNAVAILABLE'
          : isNoChange(pinned, booking.additionalGuests, asked, guests) && sameUnits
            ? 'NO_CHANGE'
            : null;

  return {
    booking,
    amendable: reason === null,
    reason,
    checkIn: asked.checkIn,
    checkOut: asked.checkOut,
    availability,
    pricing: available ? { current: currentSide, amended: amendedSide, delta: breakdownDelta(amendedSide, currentSide), warnings } : null,
    chargedTotal: booking.chargedTotal,
    guests,
    money,
    before: heldSnapshot(booking, request),
    after: available
      ? snapshot(
          asked,
          { items: amended.items, summary: amended.summary, selectedProperties: amendedUnits, chargeLines: chargeLinesOf(amended.breakdown) },
          guests,
        )
      : null,
  };
}

/** PATCH /v1/bookings/{bookingId}: the quote; changes nothing at all. */
export async function quoteAmendment(deps: AmendDeps, principal: AgentGroupPrincipal, bookingId: string, cmd: AmendmentCommand): Promise<AmendmentEvaluation> {
  return evaluateAmendment(deps, principal, await landedBooking(deps, principal, bookingId), cmd);
}

/** A quote that is not amendable, as the POST's 409. */
function notAmendable(e: AmendmentEvaluation): DomainError {
  switch (e.reason) {
    case 'INVOICED':
      return refusal('BOOKING_INVOICED', 'INVOICED', 'The booking is on an issued invoice; it needs a credit note and a fresh booking, not an amendment.', {
        invoiceIds: e.booking.invoicedIn,
      });
    case 'CHANNEL_CANNOT_MODIFY':
      return refusal(
        'CHANNEL_CANNOT_MODIFY',
        'CHANNEL_CANNOT_MODIFY',
        "The listing's channel manager cannot modify a reservation; cancel the booking and book again.",
      );
    case 'NO_CHANGE':
      return refusal('NOT_AMENDABLE', 'NO_CHANGE', 'The amendment changes nothing the booking does not already hold.');
    default:
      return refusal(
        'NOT_AMENDABLE',
        e.reason ?? 'UNAVAILABLE',
        `The amended stay is ${e.availability.status}; quote it with PATCH to see the nights and properties short.`,
        { availability: e.availability },
      );
  }
}

const RE_QUOTE = () =>
  refusal(
    'AMENDMENT_CONFLICT',
    'AMENDMENT_CONFLICT',
    'Another amendment of this booking was made or is in progress; quote again (PATCH) and send the amendment for the booking as it now stands.',
  );

/**
 * POST /v1/bookings/{bookingId}/amendments. Answers an identical resend from the record;
 * otherwise quotes, checks credit for an increase before writing anything, takes the
 * booking's amendment lock with the PENDING record, and runs the steps (channel, rows,
 * money, callback) to a settled state: APPLIED, or REFUSED / COMPENSATED answered as 409 or 402.
 */
export async function applyAmendment(
  deps: AmendDeps,
  principal: AgentGroupPrincipal,
  bookingId: string,
  cmd: AmendmentCommand,
  origin: AuditOrigin,
): Promise<AmendmentReply> {
  const contentHash = requestContentHash(amendmentContent(cmd), deps.sha256);
  const booking = await landedBooking(deps, principal, bookingId);
  const g = booking.agentGroupId;
  if (booking.lastAmendment?.contentHash === contentHash) {
    const earlier = await deps.amendments.get(g, booking.bookingRef, booking.lastAmendment.amendmentId);
    if (earlier) return { amendment: earlier, alreadyApplied: true };
  }
  assertAmendableState(booking, indiaToday(deps.clock.now()));
  const held = await deps.amendments.lockOf(g, booking.bookingRef);
  if (held) return joinInFlight(deps, g, booking.bookingRef, held, contentHash);

  const e = await evaluateAmendment(deps, principal, booking, cmd);
  if (!e.amendable || !e.money || !e.after) throw notAmendable(e);
  if (e.money.delta > 0) {
    const decision = await deps.ledger.decide(g, e.money.delta);
    if (!decision.approved) throw new CreditDeniedError(decision);
  }

  const at = deps.clock.now().toISOString();
  const amendmentId = deps.ids.uuid();
  const amendment: Amendment = {
    amendmentId,
    agentGroupId: g,
    partnerId: booking.partnerId,
    bookingRef: booking.bookingRef,
    bookingId,
    externalBookingId: booking.externalBookingId,
    listingId: booking.listingId,
    contentHash,
    status: 'PENDING',
    before: e.before,
    after: e.after,
    money: e.money,
    warnings: e.pricing?.warnings ?? [],
    callbackUrl: booking.callbackUrl,
    adjustmentEntryId: deps.derivedId(`${booking.bookingRef}:amendment:${amendmentId}:adjustment`),
    steps: NO_AMENDMENT_STEPS,
    failure: null,
    createdAt: at,
    appliedAt: null,
    // Due at once: if this process dies mid-way, the sweeper finds the amendment overdue.
    nextCheckAt: at,
    updatedAt: at,
    version: 1,
  };
  const begun = await deps.amendments.begin(amendment, booking.version, amendmentAudit(origin, deps.ids.uuid(), amendment));
  if (begun === 'locked') {
    const holder = await deps.amendments.lockOf(g, booking.bookingRef);
    if (holder) return joinInFlight(deps, g, booking.bookingRef, holder, contentHash);
  }
  if (begun !== 'created') throw RE_QUOTE();
  await deps.afterAmendmentStep?.('begun');
  // The booking begin checked is still at this version, so the steps start from it instead of reading it again.
  return settledReply(await advanceAmendment(deps, g, booking.bookingRef, amendmentId, amendment, booking), false);
}

/** An amendment already holds the booking: an identical one (a resend racing its original) is driven and answered; another is told to re-quote. */
async function joinInFlight(
  deps: AmendDeps,
  g: string,
  bookingRef: string,
  held: { amendmentId: string; contentHash: string },
  contentHash: string,
): Promise<AmendmentReply> {
  if (held.contentHash !== contentHash) throw RE_QUOTE();
  return settledReply(await advanceAmendment(deps, g, bookingRef, held.amendmentId), true);
}

/** An amendment at rest, as the POST answers it. */
function settledReply(a: Amendment | undefined, alreadyApplied: boolean): AmendmentReply {
  if (!a) throw new Error('amendment record vanished');
  if (a.status === 'APPLIED') return { amendment: a, alreadyApplied };
  const f = a.failure;
  if (a.status === 'REFUSED' && f)
    throw refusal(f.reasonCode === 'CHANNEL_CANNOT_MODIFY' ? 'CHANNEL_CANNOT_MODIFY' : 'CHANNEL_REFUSED', f.reasonCode, `${f.reason} Nothing was changed.`, {
      amendmentId: a.amendmentId,
    });
  if (a.status === 'COMPENSATED' && f) {
    if (f.reasonCode === 'CREDIT_LIMIT_EXCEEDED')
      throw new CreditDeniedError({
        approved: false,
        reasonCode: 'CREDIT_LIMIT_EXCEEDED',
        shortfall: f.shortfall ?? 0,
        availableCredit: f.availableCredit ?? 0,
      });
    if (f.reasonCode === 'ACCOUNT_ON_HOLD')
      throw new CreditDeniedError({ approved: false, reasonCode: 'ACCOUNT_ON_HOLD', availableCredit: f.availableCredit ?? 0 });
    if (f.reasonCode === 'UNAVAILABLE' || f.reasonCode === 'BOOKING_CHANGED')
      throw refusal('AMENDMENT_CONFLICT', f.reasonCode, `${f.reason} Nothing was changed; quote again.`, { amendmentId: a.amendmentId });
    throw refusal('AMENDMENT_FAILED', f.reasonCode, `${f.reason} The original stay was restored.`, { amendmentId: a.amendmentId });
  }
  // Still in flight after the look's step budget: the sweeper finishes it; the caller resends to learn the outcome.
  throw refusal('AMENDMENT_CONFLICT', 'AMENDMENT_IN_PROGRESS', 'The amendment is still being applied; send it again to learn the outcome.', {
    amendmentId: a.amendmentId,
  });
}

/** Steps one look may take; an amendment needs at most six. */
const MAX_STEPS = 16;

/**
 * Moves an amendment as far as it can go now, one durable step at a time (docs/amendments.md).
 * Safe to run twice at once and to rerun after a crash between any two steps: each step's
 * flag is written with the step, every write is conditional on the versions read, and a
 * lost race re-reads. Returns the amendment as left.
 */
export async function advanceAmendment(
  deps: AmendDeps,
  agentGroupId: string,
  bookingRef: string,
  amendmentId: string,
  known?: Amendment,
  knownBooking?: Booking,
): Promise<Amendment | undefined> {
  let a = known ?? (await deps.amendments.get(agentGroupId, bookingRef, amendmentId));
  // The booking as this process last wrote or read it; a stale copy only costs a write refused on its version and a re-read.
  let booking = knownBooking;
  for (let i = 0; a && i < MAX_STEPS; i++) {
    const now = deps.clock.now().toISOString();
    const action = decideAmendment(a);
    if (action === 'idle') return a;
    const step = await take(deps, a, action, now, booking);
    if (step) await deps.afterAmendmentStep?.(step.name);
    booking = step?.booking;
    a = step?.next ?? (await deps.amendments.get(agentGroupId, bookingRef, amendmentId));
  }
  return a;
}

type Taken = { readonly name: AmendmentStep; readonly next: Amendment; readonly booking?: Booking } | undefined;

/** A step that did not touch the booking hands the copy it was given on to the next. */
const withBooking = (t: Taken, booking: Booking | undefined): Taken => (t && booking ? { ...t, booking } : t);

const bump = (a: Amendment, changes: Partial<Amendment>, now: string): Amendment => ({ ...a, ...changes, updatedAt: now, version: a.version + 1 });

async function save(deps: AmendDeps, a: Amendment, next: Amendment, name: AmendmentStep): Promise<Taken> {
  return (await deps.amendments.save(a, next)) ? { name, next } : undefined;
}

/** Turns a failure after the channel step into compensation: the record says why, the steps undo what was done. */
const compensate = (deps: AmendDeps, a: Amendment, failure: Omit<AmendmentFailure, 'failedAt'>, now: string): Promise<Taken> =>
  save(deps, a, bump(a, { status: 'COMPENSATING', failure: { ...failure, failedAt: now } }, now), 'compensating');

/** The stay's fields of a booking row. */
const stayFields = (s: StaySnapshot): Partial<Booking> => ({
  checkIn: s.checkIn,
  checkOut: s.checkOut,
  request: s.request,
  selectedProperties: s.selectedProperties,
  items: s.items,
  summary: s.summary,
  ...(s.chargeLines ? { chargeLines: s.chargeLines } : {}),
  additionalGuests: s.additionalGuests,
});

const sameStay = (b: Booking, s: StaySnapshot): boolean =>
  b.checkIn === s.checkIn &&
  b.checkOut === s.checkOut &&
  JSON.stringify(b.selectedProperties) === JSON.stringify(s.selectedProperties) &&
  b.summary.grandTotal === s.summary.grandTotal;

async function take(deps: AmendDeps, a: Amendment, action: ReturnType<typeof decideAmendment>, now: string, known: Booking | undefined): Promise<Taken> {
  const { agentGroupId: g, bookingRef } = a;
  switch (action) {
    case 'idle':
      return undefined;
    case 'settle':
      return save(deps, a, bump(a, { nextCheckAt: null }, now), 'settled');
    case 'modify-channel': {
      const answer = await deps.propertySystem.modify({
        bookingRef,
        listingId: a.listingId,
        key: a.amendmentId,
        kind: 'amend',
        checkIn: a.after.checkIn,
        checkOut: a.after.checkOut,
        selectedProperties: a.after.selectedProperties,
        stay: channelStayOf(a.after),
      });
      if (answer.accepted) return withBooking(await save(deps, a, bump(a, { steps: { ...a.steps, channelModified: true } }, now), 'channel-modified'), known);
      // Refused: nothing was changed anywhere, so the record settles here and the booking is free again.
      return save(
        deps,
        a,
        bump(a, { status: 'REFUSED', failure: { reasonCode: answer.reasonCode, reason: answer.reason, failedAt: now }, nextCheckAt: null }, now),
        'refused',
      );
    }
    case 'rewrite-rows': {
      const booking = known ?? (await deps.bookings.get(g, bookingRef));
      if (booking?.status !== 'CONFIRMED' || !sameStay(booking, a.before) || booking.amendingId !== null) {
        return compensate(deps, a, { reasonCode: 'BOOKING_CHANGED', reason: 'The booking changed while the amendment was being applied.' }, now);
      }
      const nextBooking: Booking = { ...booking, ...stayFields(a.after), amendingId: a.amendmentId, updatedAt: now, version: booking.version + 1 };
      const moves = booking.steps.inventoryTaken ? [...stayMoves(a.before, 1), ...stayMoves(a.after, -1)] : [];
      const next = bump(a, { steps: { ...a.steps, rowsRewritten: true } }, now);
      const outcome = await deps.amendments.rewrite(a, next, booking, nextBooking, moves, true);
      if (outcome === 'oversold') return compensate(deps, a, { reasonCode: 'UNAVAILABLE', reason: 'A night of the amended stay was sold meanwhile.' }, now);
      return outcome === 'done' ? { name: 'rows-rewritten', next, booking: nextBooking } : undefined;
    }
    case 'adjust': {
      const booking = known ?? (await deps.bookings.get(g, bookingRef));
      if (!booking) throw new Error(`amendment ${a.amendmentId} names booking ${bookingRef}, which is missing`);
      const entry =
        a.money.delta === 0
          ? null
          : postedEntry(
              {
                agentGroupId: g,
                type: 'ADJUSTMENT',
                amount: a.money.delta,
                bookingId: a.bookingId,
                externalBookingId: a.externalBookingId,
                description: `Amendment of booking ${booking.code}: ${a.before.checkIn}–${a.before.checkOut} to ${a.after.checkIn}–${a.after.checkOut}`,
              },
              a.adjustmentEntryId,
              new Date(now),
            );
      const nextBooking: Booking = {
        ...booking,
        chargedTotal: a.money.newTotal,
        amendingId: null,
        lastAmendment: { amendmentId: a.amendmentId, contentHash: a.contentHash },
        updatedAt: now,
        version: booking.version + 1,
      };
      const next = bump(a, { status: 'APPLIED', appliedAt: now, steps: { ...a.steps, adjusted: true }, nextCheckAt: a.callbackUrl ? now : null }, now);
      const outcome = await deps.amendments.adjust(a, next, booking, nextBooking, entry);
      if (outcome.kind === 'failed') return compensate(deps, a, { reasonCode: 'AMENDMENT_FAILED', reason: outcome.reason }, now);
      if (outcome.kind === 'refused') {
        const d = outcome.decision;
        const reason =
          d.reasonCode === 'ACCOUNT_ON_HOLD'
            ? 'The agent group was put on hold while the amendment was applied.'
            : 'A booking made meanwhile used the credit the increase needed.';
        return compensate(
          deps,
          a,
          { reasonCode: d.reasonCode, reason, availableCredit: d.availableCredit, ...(d.reasonCode === 'CREDIT_LIMIT_EXCEEDED' && { shortfall: d.shortfall }) },
          now,
        );
      }
      return outcome.kind === 'done' ? { name: 'adjusted', next, booking: nextBooking } : undefined;
    }
    case 'publish': {
      await deps.publishCallback({
        eventId: deps.derivedId(`${bookingRef}:booking.amended:${a.amendmentId}`),
        eventType: 'booking.amended',
        bookingRef,
        agentGroupId: g,
        partnerId: a.partnerId,
        callbackUrl: a.callbackUrl!,
        occurredAt: a.appliedAt ?? now,
        status: 'CONFIRMED',
        externalBookingId: a.externalBookingId,
        bookingId: a.bookingId,
        reasonCode: null,
        reason: null,
        amendment: {
          amendmentId: a.amendmentId,
          checkIn: a.after.checkIn,
          checkOut: a.after.checkOut,
          previousTotal: a.money.previousTotal,
          newTotal: a.money.newTotal,
        },
      });
      return save(deps, a, bump(a, { steps: { ...a.steps, callbackPublished: true }, nextCheckAt: null }, now), 'callback-published');
    }
    case 'restore-channel': {
      await deps.propertySystem.modify({
        bookingRef,
        listingId: a.listingId,
        key: `${a.amendmentId}:restore`,
        kind: 'restore',
        checkIn: a.before.checkIn,
        checkOut: a.before.checkOut,
        selectedProperties: a.before.selectedProperties,
        stay: channelStayOf(a.before),
      });
      return save(deps, a, bump(a, { steps: { ...a.steps, channelRestored: true } }, now), 'channel-restored');
    }
    case 'restore-rows': {
      const booking = await deps.bookings.get(g, bookingRef);
      if (!booking) throw new Error(`amendment ${a.amendmentId} names booking ${bookingRef}, which is missing`);
      const nextBooking: Booking = { ...booking, ...stayFields(a.before), amendingId: null, updatedAt: now, version: booking.version + 1 };
      // The units the rewrite moved go back; the original nights are the property system's again, so they are taken even from a night sold meanwhile.
      const moves = booking.steps.inventoryTaken ? [...stayMoves(a.after, 1), ...stayMoves(a.before, -1)] : [];
      const next = bump(a, { steps: { ...a.steps, rowsRestored: true } }, now);
      return (await deps.amendments.rewrite(a, next, booking, nextBooking, moves, false)) === 'done' ? { name: 'rows-restored', next } : undefined;
    }
    case 'finish-compensation':
      return save(deps, a, bump(a, { status: 'COMPENSATED', nextCheckAt: null }, now), 'compensated');
  }
}

/** How far past due an amendment must be before the sweeper believes its process died. */
export const AMENDMENT_SWEEP_GRACE_SECONDS = 60;

/** Finds amendments left part-way (a process died between steps) and finishes them here, each at its group's clock. */
export async function sweepAmendments(
  deps: AtGroupClocks<AmendDeps>,
  opts: { limit?: number; graceSeconds?: number } = {},
): Promise<{ looked: number; failed: number }> {
  const graceMs = (opts.graceSeconds ?? AMENDMENT_SWEEP_GRACE_SECONDS) * 1000;
  const due = await dueAcrossClocks(
    deps,
    ({ at, agentGroupId }) => deps.amendments.listDue(new Date(at.clock.now().getTime() - graceMs).toISOString(), opts.limit ?? 100, agentGroupId),
    (a) => `${a.agentGroupId}#${a.amendmentId}`,
  );
  const settled = await Promise.allSettled(
    due.map(async (a) => advanceAmendment(await depsOfGroup(deps, a.agentGroupId), a.agentGroupId, a.bookingRef, a.amendmentId)),
  );
  return { looked: due.length, failed: settled.filter((s) => s.status === 'rejected').length };
}
