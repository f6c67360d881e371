import type { ChargeLine } from '../pricing/charge-lines.ts';
import { addDays, daysBetween, isCalendarDate } from '../catalogue/calendar.ts';
import { ValidationError } from '../errors.ts';
import type { Minor } from '../money.ts';
import type { MealSelection, OrderRequest, PricedItem, PricedOrder, PricedSummary, SelectedProperty, SoldOutNight, VasSelection } from '../pricing/index.ts';
import type { UnitMove } from '../ports/amendment-store.ts';
import type { Guest } from './booking.ts';

/** What PATCH /v1/bookings/{id} and POST …/amendments receive after shape checks: omitted = unchanged. */
export interface AmendmentCommand {
  readonly checkIn?: string;
  readonly checkOut?: string;
  readonly adults?: number;
  readonly children?: number;
  readonly infants?: number;
  /** [] clears, a non-empty list replaces wholesale. */
  readonly meals?: readonly MealSelection[];
  readonly vas?: readonly VasSelection[];
  /** The booking's additional guests: [] clears, a non-empty list replaces. The primary guest never changes here. */
  readonly guests?: readonly Guest[];
}

/** The contract's money breakdown of one side of a quote: stay − discount + meals + vas + tax = total. */
export interface Breakdown {
  readonly stay: Minor;
  readonly discount: Minor;
  readonly meals: Minor;
  readonly vas: Minor;
  readonly tax: Minor;
  readonly total: Minor;
}

export const breakdownOf = (s: PricedSummary): Breakdown => ({
  stay: s.baseSubtotal,
  discount: s.offersDiscount,
  meals: s.mealsSubtotal,
  vas: s.vasSubtotal,
  tax: s.gst,
  total: s.grandTotal,
});

export const breakdownDelta = (a: Breakdown, b: Breakdown): Breakdown => ({
  stay: a.stay - b.stay,
  discount: a.discount - b.discount,
  meals: a.meals - b.meals,
  vas: a.vas - b.vas,
  tax: a.tax - b.tax,
  total: a.total - b.total,
});

export type AvailabilityStatus = 'AVAILABLE' | 'PARTIALLY_AVAILABLE' | 'UNAVAILABLE';

export interface Availability {
  readonly status: AvailabilityStatus;
  readonly nightsRequested: number;
  readonly unavailableNights: readonly string[];
  readonly shortfalls: readonly { date: string; propertyId: string; requiredUnits: number; availableUnits: number }[];
  readonly minimumStayViolations: readonly { propertyId: string; minimumNights: number; requestedNights: number }[];
}

/** Why an answered quote is not amendable (machine-readable). */
export type NotAmendableReason = 'UNAVAILABLE' | 'MINIMUM_STAY' | 'NO_CHANGE' | 'CHANNEL_CANNOT_MODIFY' | 'INVOICED';

/** A stay as an amendment sees it: the priced request and what pricing made of it. */
export interface StaySnapshot {
  readonly checkIn: string;
  readonly checkOut: string;
  readonly request: OrderRequest;
  readonly selectedProperties: readonly SelectedProperty[];
  readonly items: readonly PricedItem[];
  readonly summary: PricedSummary;
  /** The stay's priced breakdown as invoice rows, carried to the booking so billing never re-prices (absent on bookings stored without it). */
  readonly chargeLines?: readonly ChargeLine[];
  readonly additionalGuests: readonly Guest[];
}

/** The money of an amendment (docs/amendments.md): the change at today's rates is charged; drift since booking is absorbed. */
export interface AmendmentMoney {
  /** chargedTotal before. */
  readonly previousTotal: Minor;
  /** pricing.delta.total: the amended stay less the unchanged stay, both at today's rates. */
  readonly amendmentDelta: Minor;
  /** pricing.current.total − previousTotal: rates that moved since booking, not passed on. */
  readonly rateDriftAbsorbed: Minor;
  readonly newTotal: Minor;
  /** newTotal − previousTotal: the ADJUSTMENT (none when 0). */
  readonly delta: Minor;
}

export function amendmentMoney(previousTotal: Minor, current: Breakdown, amended: Breakdown): AmendmentMoney {
  const amendmentDelta = amended.total - current.total;
  const newTotal = previousTotal + amendmentDelta;
  return { previousTotal, amendmentDelta, rateDriftAbsorbed: current.total - previousTotal, newTotal, delta: newTotal - previousTotal };
}

/**
 * The request an amendment asks for: the booking's request with the given fields replaced.
 * When the stay moves and the body leaves meals or services out, the booking's dated
 * selections follow the stay (carriedSelections); one that cannot is a 400 naming the list
 * the caller must send.
 */
export function amendedRequest(current: OrderRequest, cmd: AmendmentCommand): OrderRequest {
  const asked: OrderRequest = {
    ...current,
    ...(cmd.checkIn !== undefined && { checkIn: cmd.checkIn }),
    ...(cmd.checkOut !== undefined && { checkOut: cmd.checkOut }),
    ...(cmd.adults !== undefined && { adults: cmd.adults }),
    ...(cmd.children !== undefined && { children: cmd.children }),
    ...(cmd.infants !== undefined && { infants: cmd.infants }),
    ...(cmd.meals !== undefined && { meals: cmd.meals }),
    ...(cmd.vas !== undefined && { vas: cmd.vas }),
  };
  // A stay pricing will refuse is left to pricing, so the 400 names checkIn or checkOut, not a selection.
  const moved =
    (asked.checkIn !== current.checkIn || asked.checkOut !== current.checkOut) &&
    isCalendarDate(asked.checkIn) &&
    isCalendarDate(asked.checkOut) &&
    asked.checkOut > asked.checkIn;
  if (!moved) return asked;
  return {
    ...asked,
    ...(cmd.meals === undefined && current.meals?.length && { meals: carriedSelections('meals', current.meals, current, asked) }),
    ...(cmd.vas === undefined && current.vas?.length && { vas: carriedSelections('vas', current.vas, current, asked) }),
  };
}

type Stay = { readonly checkIn: string; readonly checkOut: string };
type DatedSelection = MealSelection | VasSelection;

const selectionName = (s: DatedSelection): string => ('mealId' in s ? `meal ${s.mealId}` : `service ${s.vasId} (variant ${s.variantId})`);

/**
 * The booking's meals or services on a moved stay (docs/amendments.md "Moving the dates"):
 * - unsureOfDates: unchanged; pricing already charges every night of whatever stay it gets;
 * - dated on every night of the booked stay: every night of the new stay (and its
 *   departure day too when the booked selection had the departure day);
 * - dated on some nights only: unchanged while every date still lies in the new stay,
 *   otherwise nobody can say which nights were meant, so a 400 names the list to restate;
 * - per-date quantities (dateQuantities) stay on their dates, so each must be a date the
 *   selection is still charged on, or the list must be restated.
 */
export function carriedSelections<S extends DatedSelection>(field: 'meals' | 'vas', selections: readonly S[], booked: Stay, moved: Stay): S[] {
  const bookedNights = nightsOf(booked.checkIn, booked.checkOut);
  const newNights = nightsOf(moved.checkIn, moved.checkOut);
  const inStay = (d: string) => d >= moved.checkIn && d <= moved.checkOut;
  const restate = (i: number, sel: S, why: string) =>
    new ValidationError(
      field,
      `${field}[${i}] (${selectionName(sel)}) ${why}, so it cannot follow the move of the stay (booked ${booked.checkIn} to ${booked.checkOut}, now ${moved.checkIn} to ${moved.checkOut}). ` +
        `Send ${field} with the new dates: the whole list, as it replaces the booking's ${field} ([] drops them).`,
    );
  return selections.map((sel, i) => {
    let next: S = sel;
    if (!sel.unsureOfDates) {
      const dates = sel.dates ?? [];
      if (bookedNights.every((n) => dates.includes(n))) {
        next = { ...sel, dates: dates.includes(booked.checkOut) ? [...newNights, moved.checkOut] : newNights };
      } else if (!dates.every(inStay)) {
        throw restate(
          i,
          sel,
          `is dated ${dates.join(', ')}, not every night of the booked stay, and the new stay does not include ${dates.filter((d) => !inStay(d)).join(', ')}`,
        );
      }
    }
    const charged = next.unsureOfDates ? newNights : (next.dates ?? []);
    const stray = ('dateQuantities' in next ? (next.dateQuantities ?? []) : []).map((q) => q.date).filter((d) => !charged.includes(d));
    if (stray.length > 0) throw restate(i, sel, `sets quantities per date (dateQuantities) on ${stray.join(', ')}, which the new stay does not charge it on`);
    return next;
  });
}

/** A canonical form of what an amendment compares: the priced request's fields (defaults applied) and the guests. */
function stayKey(r: OrderRequest, guests: readonly Guest[]): string {
  return JSON.stringify([r.checkIn, r.checkOut, r.adults ?? 1, r.children ?? 0, r.infants ?? 0, r.meals ?? [], r.vas ?? [], guests]);
}

/** Nothing the amendment asks for differs from what the booking holds. */
export const isNoChange = (current: OrderRequest, currentGuests: readonly Guest[], amended: OrderRequest, amendedGuests: readonly Guest[]): boolean =>
  stayKey(current, currentGuests) === stayKey(amended, amendedGuests);

/** What the amendment's content hash covers: the fields given, as given (a sandbox header is not content). */
export const amendmentContent = (cmd: AmendmentCommand) => ({
  checkIn: cmd.checkIn ?? null,
  checkOut: cmd.checkOut ?? null,
  adults: cmd.adults ?? null,
  children: cmd.children ?? null,
  infants: cmd.infants ?? null,
  meals: cmd.meals ?? null,
  vas: cmd.vas ?? null,
  guests: cmd.guests ?? null,
});

const UNIT_SHORT = new Set<SoldOutNight['reason']>(['NO_INVENTORY', 'NOT_ENOUGH_UNITS']);

/**
 * Availability of a priced stay, per night: every sold-out reason but the minimum stay
 * makes its night unavailable (stop-sell, maximum stay and a missing rate included); unit
 * shortfalls are listed per date and property; a minimum stay is a violation of the stay,
 * not of a night. `unchanged` (the booking's own stay and units): always AVAILABLE,
 * because the booking holds it.
 */
export function availabilityOf(priced: PricedOrder, unchanged: boolean): Availability {
  const item = priced.items[0]!;
  const nightsRequested = daysBetween(item.checkIn, item.checkOut);
  if (unchanged) return { status: 'AVAILABLE', nightsRequested, unavailableNights: [], shortfalls: [], minimumStayViolations: [] };
  const soldOut = priced.breakdown.soldOutNights;
  const unavailable = [...new Set(soldOut.filter((n) => n.reason !== 'MINIMUM_STAY').map((n) => n.date))].sort();
  const shortfalls = soldOut
    .filter((n) => UNIT_SHORT.has(n.reason))
    .map((n) => ({ date: n.date, propertyId: n.propertyId, requiredUnits: n.requiredUnits, availableUnits: n.availableUnits }));
  const minimum = new Map<string, number>();
  for (const n of soldOut) if (n.reason === 'MINIMUM_STAY') minimum.set(n.propertyId, Math.max(minimum.get(n.propertyId) ?? 0, n.stayLimit ?? 0));
  const minimumStayViolations = [...minimum].map(([propertyId, minimumNights]) => ({ propertyId, minimumNights, requestedNights: nightsRequested }));
  const status: AvailabilityStatus =
    unavailable.length === 0 && minimumStayViolations.length === 0
      ? 'AVAILABLE'
      : unavailable.length > 0 && unavailable.length < nightsRequested
        ? 'PARTIALLY_AVAILABLE'
        : 'UNAVAILABLE';
  return { status, nightsRequested, unavailableNights: unavailable, shortfalls, minimumStayViolations };
}

/** The units a stay holds, one move per property and night: sign −1 takes them, +1 gives them back. */
export function stayMoves(
  stay: { readonly checkIn: string; readonly checkOut: string; readonly selectedProperties: readonly SelectedProperty[] },
  sign: 1 | -1,
): UnitMove[] {
  const nights = nightsOf(stay.checkIn, stay.checkOut);
  return stay.selectedProperties.flatMap((p) => nights.map((date) => ({ propertyId: p.propertyId, date, units: sign * p.quantity })));
}

/** The nights of a stay. */
export const nightsOf = (checkIn: string, checkOut: string): string[] =>
  Array.from({ length: Math.max(0, daysBetween(checkIn, checkOut)) }, (_, i) => addDays(checkIn, i));

export const AMENDMENT_STATUSES = ['PENDING', 'APPLIED', 'REFUSED', 'COMPENSATING', 'COMPENSATED'] as const;
/**
 * PENDING: steps under way. APPLIED: the channel, the rows and the money all moved.
 * REFUSED: the channel manager said no; nothing changed. COMPENSATING → COMPENSATED: a step
 * after the channel failed; the original stay was pushed back and the rows restored.
 */
export type AmendmentStatus = (typeof AMENDMENT_STATUSES)[number];

/** Each step done at most once: its flag is set in the same write as the step. */
export interface AmendmentSteps {
  readonly channelModified: boolean;
  readonly rowsRewritten: boolean;
  readonly adjusted: boolean;
  readonly callbackPublished: boolean;
  readonly channelRestored: boolean;
  readonly rowsRestored: boolean;
}

export const NO_AMENDMENT_STEPS: AmendmentSteps = {
  channelModified: false,
  rowsRewritten: false,
  adjusted: false,
  callbackPublished: false,
  channelRestored: false,
  rowsRestored: false,
};

/** Why an amendment did not apply, as the booking detail shows it. */
export interface AmendmentFailure {
  readonly reasonCode:
    | 'CHANNEL_REFUSED'
    | 'CHANNEL_CANNOT_MODIFY'
    | 'CREDIT_LIMIT_EXCEEDED'
    | 'ACCOUNT_ON_HOLD'
    | 'UNAVAILABLE'
    | 'BOOKING_CHANGED'
    | 'AMENDMENT_FAILED';
  readonly reason: string;
  readonly failedAt: string;
  /** For a credit refusal: the figures at the moment of decision (paise). */
  readonly shortfall?: Minor;
  readonly availableCredit?: Minor;
}

/** The durable record of one amendment of one booking, apart from the booking row. */
export interface Amendment {
  readonly amendmentId: string;
  readonly agentGroupId: string;
  readonly partnerId: string;
  readonly bookingRef: string;
  /** The property-system id the booking is addressed by (and the adjustment carries). */
  readonly bookingId: string;
  readonly externalBookingId: string;
  readonly listingId: string;
  readonly contentHash: string;
  readonly status: AmendmentStatus;
  readonly before: StaySnapshot;
  readonly after: StaySnapshot;
  readonly money: AmendmentMoney;
  readonly warnings: readonly string[];
  readonly callbackUrl: string | null;
  /** The ADJUSTMENT's id, fixed up front so posting it twice is impossible. */
  readonly adjustmentEntryId: string;
  readonly steps: AmendmentSteps;
  readonly failure: AmendmentFailure | null;
  readonly createdAt: string;
  readonly appliedAt: string | null;
  /** When someone must look at the amendment again; null once settled. */
  readonly nextCheckAt: string | null;
  readonly updatedAt: string;
  readonly version: number;
}

export type AmendmentStep =
  | 'begun'
  | 'channel-modified'
  | 'refused'
  | 'rows-rewritten'
  | 'adjusted'
  | 'callback-published'
  | 'compensating'
  | 'channel-restored'
  | 'rows-restored'
  | 'compensated'
  | 'settled';

/** The next thing to do for an amendment; pure, so a rerun after a crash picks up where the record says. */
export type AmendmentAction =
  | 'modify-channel'
  | 'rewrite-rows'
  | 'adjust'
  | 'publish'
  | 'restore-channel'
  | 'restore-rows'
  | 'finish-compensation'
  | 'settle'
  | 'idle';

export function decideAmendment(a: Amendment): AmendmentAction {
  switch (a.status) {
    case 'PENDING':
      if (!a.steps.channelModified) return 'modify-channel';
      if (!a.steps.rowsRewritten) return 'rewrite-rows';
      return 'adjust';
    case 'COMPENSATING':
      if (a.steps.channelModified && !a.steps.channelRestored) return 'restore-channel';
      if (a.steps.rowsRewritten && !a.steps.rowsRestored) return 'restore-rows';
      return 'finish-compensation';
    case 'APPLIED':
      if (a.callbackUrl && !a.steps.callbackPublished) return 'publish';
      return a.nextCheckAt === null ? 'idle' : 'settle';
    case 'REFUSED':
    case 'COMPENSATED':
      return a.nextCheckAt === null ? 'idle' : 'settle';
  }
}

export const isSettledStatus = (s: AmendmentStatus): boolean => s === 'APPLIED' || s === 'REFUSED' || s === 'COMPENSATED';
