import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_STEPS_DONE, type Booking, type Guest } from '../../domain/bookings/booking.ts';
import { quoteCancellation } from '../../domain/bookings/cancel-booking.ts';
import { mergeGuests, sameGuest } from '../../domain/bookings/guests.ts';
import { decide, processingPollMs, watchPollMs, type Decision, type WorkflowTimings } from '../../domain/bookings/workflow.ts';
import type { BookingCallbackEventType } from '../../domain/deliveries/booking-callback.ts';
import type { ReservationState } from '../../domain/ports/property-system.ts';
import { bookingFixture } from '../support/booking-seed.ts';

/* The booking workflow's rules, pure: no store, no clock, no property system. */

/** A one-minute window and a four-minute watch: polls every 2 s while PROCESSING, every 10 s while watching. */
const T: WorkflowTimings = { windowSeconds: 60, watchSeconds: 240 };
const CREATED = '2027-01-10T10:00:00.000Z';
const at = (ms: number): string => new Date(Date.parse(CREATED) + ms).toISOString();
const DEADLINE = at(60_000);
const WATCH_UNTIL = at(300_000);
const owner = { agentGroupId: 'group-1', partnerId: 'partner-1', channelId: 'channel-1' };

/** A booking just through the credit gate, as placeBooking writes it. */
const processing = (overrides: Partial<Booking> = {}): Booking =>
  bookingFixture(owner, {
    status: 'PROCESSING',
    bookingId: null,
    confirmedAt: null,
    callbackUrl: 'https://agent.example/cb',
    deadline: DEADLINE,
    watchUntil: WATCH_UNTIL,
    nextCheckAt: CREATED,
    createdAt: CREATED,
    updatedAt: CREATED,
    version: 1,
    ...overrides,
  });

const failure = { reasonCode: 'BOOKING_NOT_COMPLETED' as const, reason: 'not in time', failedAt: DEADLINE };
const landed = (overrides: Partial<Booking> = {}): Booking =>
  processing({ status: 'CONFIRMED', bookingId: 'SIM-1', confirmedAt: at(1_000), nextCheckAt: at(1_000), ...overrides });
const failed = (overrides: Partial<Booking> = {}): Booking => processing({ status: 'FAILED', failure, nextCheckAt: DEADLINE, ...overrides });
const cancelled = (overrides: Partial<Booking> = {}): Booking =>
  landed({
    status: 'CANCELLED',
    cancellation: { cancelledAt: at(5_000), reason: null, refundPercentage: 100, refundAmount: 10_500_00, refundEntryId: 'refund-1' },
    nextCheckAt: at(5_000),
    ...overrides,
  });
const steps = (s: Partial<Booking['steps']>): Booking['steps'] => ({ ...NO_STEPS_DONE, ...s });

const confirmedAt = (bookingId: string): ReservationState => ({ state: 'CONFIRMED', bookingId });
const pending = (checkAgainAt: string | null = null): ReservationState => ({ state: 'PENDING', checkAgainAt });

type Write = Extract<Decision, { kind: 'write' }>;
function asWrite(d: Decision): Write {
  expect(d.kind).toBe('write');
  return d as Write;
}

describe('decide: a PROCESSING booking', () => {
  it('lands when the property system confirms: CONFIRMED with its id, the charge posts, inventory is next', () => {
    // prepare
    const b = processing();
    const now = at(1_500);

    // act
    const d = asWrite(decide(b, now, T, confirmedAt('SIM-42')));

    // assess
    expect(d.step).toBe('landed');
    expect(d.effect).toEqual({ kind: 'land', bookingId: 'SIM-42' });
    expect(d.next).toMatchObject({ status: 'CONFIRMED', bookingId: 'SIM-42', confirmedAt: now, updatedAt: now, version: 2, nextCheckAt: now });
  });

  it('lands even when the confirmation is seen after the deadline: the booking exists', () => {
    const d = asWrite(decide(processing(), at(61_000), T, confirmedAt('SIM-42')));
    expect(d.step).toBe('landed');
    expect(d.next.status).toBe('CONFIRMED');
  });

  it('fails at the deadline while still pending: the authorization is released and booking.failed is owed at once', () => {
    // prepare
    const b = processing({ nextCheckAt: at(59_000) });

    // act
    const d = asWrite(decide(b, DEADLINE, T, pending()));

    // assess
    expect(d.step).toBe('failed');
    expect(d.effect).toEqual({ kind: 'release' });
    expect(d.next).toMatchObject({
      status: 'FAILED',
      bookingId: null,
      failure: { reasonCode: 'BOOKING_NOT_COMPLETED', failedAt: DEADLINE },
      nextCheckAt: DEADLINE,
      version: 2,
    });
  });

  it('fails without a callbackUrl straight into the watch: next look one watch poll later', () => {
    const d = asWrite(decide(processing({ callbackUrl: null }), DEADLINE, T, pending()));
    expect(d.next.status).toBe('FAILED');
    expect(d.next.nextCheckAt).toBe(at(60_000 + watchPollMs(T)));
  });

  it('fails at once, before its deadline, when the channel manager refuses: CHANNEL_REFUSED, the authorization released', () => {
    // act
    const d = asWrite(decide(processing(), at(1_000), T, { state: 'REFUSED', reason: '422 Validation Error' }));

    // assess
    expect(d.step).toBe('failed');
    expect(d.effect).toEqual({ kind: 'release' });
    expect(d.next).toMatchObject({
      status: 'FAILED',
      bookingId: null,
      failure: { reasonCode: 'CHANNEL_REFUSED', failedAt: at(1_000) },
      nextCheckAt: at(1_000),
    });
    // The channel manager's own words are for operators, not the partner.
    expect(d.next.failure!.reason).not.toContain('422');
  });

  it('without a hint, looks again one poll interval later; the write moves only the due time', () => {
    // prepare
    const b = processing();
    const now = at(1_000);

    // act
    const d = asWrite(decide(b, now, T, pending()));

    // assess
    expect(processingPollMs(T)).toBe(2_000);
    expect(d.step).toBe('rescheduled');
    expect(d.effect).toBeUndefined();
    expect(d.next).toEqual({ ...b, nextCheckAt: at(3_000), version: 2 });
  });

  it.each([
    ['a hint sooner than the poll is followed', at(1_500), at(1_500)],
    ['a hint later than the poll is followed', at(20_000), at(20_000)],
    ['a hint already past falls back to the poll', at(500), at(3_000)],
    ['a hint past the deadline is capped at the deadline', at(90_000), DEADLINE],
  ])('%s', (_, hint, due) => {
    const d = asWrite(decide(processing(), at(1_000), T, pending(hint)));
    expect(d.next.nextCheckAt).toBe(due);
  });

  it('caps the poll at the deadline', () => {
    const d = asWrite(decide(processing(), at(59_000), T, pending()));
    expect(d.next.nextCheckAt).toBe(DEADLINE);
  });

  it('does nothing while its next look is still ahead (a message that came early writes nothing)', () => {
    expect(decide(processing({ nextCheckAt: at(3_000) }), at(1_000), T, pending())).toEqual({ kind: 'idle' });
  });
});

describe('decide: after the outcome', () => {
  it('a CONFIRMED booking takes its inventory first, then publishes booking.confirmed', () => {
    // prepare
    const b = landed();

    // act
    const take = asWrite(decide(b, at(1_000), T, undefined));
    const publish = decide(take.next, at(1_000), T, undefined);

    // assess
    expect(take.step).toBe('inventory-taken');
    expect(take.effect).toEqual({ kind: 'inventory', direction: 'take' });
    expect(take.next.steps).toEqual(steps({ inventoryTaken: true }));
    expect(take.next.nextCheckAt).toBe(at(1_000));
    expect(publish).toEqual({ kind: 'publish', eventType: 'booking.confirmed' });
  });

  it('a CONFIRMED booking without a callbackUrl is settled by taking its inventory', () => {
    const take = asWrite(decide(landed({ callbackUrl: null }), at(1_000), T, undefined));
    expect(take.next.nextCheckAt).toBeNull();
    expect(decide(take.next, at(1_000), T, undefined)).toEqual({ kind: 'idle' });
  });

  it('a settled booking leaves the open-work index once, then is idle', () => {
    // prepare
    const b = landed({ steps: steps({ inventoryTaken: true, callbacksPublished: ['booking.confirmed'] }) });

    // act
    const leave = asWrite(decide(b, at(2_000), T, undefined));

    // assess
    expect(leave.step).toBe('rescheduled');
    expect(leave.next.nextCheckAt).toBeNull();
    expect(decide(leave.next, at(2_000), T, undefined)).toEqual({ kind: 'idle' });
  });

  it('a CANCELLED booking whose units were taken returns them, once', () => {
    // prepare
    const b = cancelled({ steps: steps({ inventoryTaken: true, callbacksPublished: ['booking.confirmed'] }) });

    // act
    const give = asWrite(decide(b, at(5_000), T, undefined));
    const next = decide(give.next, at(5_000), T, undefined);

    // assess
    expect(give.step).toBe('inventory-returned');
    expect(give.effect).toEqual({ kind: 'inventory', direction: 'return' });
    expect(give.next.steps).toEqual(steps({ inventoryTaken: true, inventoryReturned: true, callbacksPublished: ['booking.confirmed'] }));
    expect(next).toEqual({ kind: 'publish', eventType: 'booking.cancelled' });
  });

  it('a CANCELLED booking whose units were never taken returns nothing and takes nothing', () => {
    const d = decide(cancelled({ steps: steps({ callbacksPublished: ['booking.confirmed'] }) }), at(5_000), T, undefined);
    expect(d).toEqual({ kind: 'publish', eventType: 'booking.cancelled' });
  });

  it('owes callbacks in the order failed → confirmed → cancelled, each once', () => {
    // prepare
    let b = cancelled({ failure, steps: steps({ inventoryTaken: true, inventoryReturned: true }) });
    const published: BookingCallbackEventType[] = [];

    // act
    for (let d = decide(b, at(6_000), T, undefined); d.kind === 'publish'; d = decide(b, at(6_000), T, undefined)) {
      published.push(d.eventType);
      b = { ...b, steps: { ...b.steps, callbacksPublished: [...b.steps.callbacksPublished, d.eventType] } };
    }

    // assess
    expect(published).toEqual(['booking.failed', 'booking.confirmed', 'booking.cancelled']);
  });

  it.each([
    ['CONFIRMED', landed({ callbackUrl: null, steps: steps({ inventoryTaken: true }) })],
    ['FAILED', failed({ callbackUrl: null })],
    ['CANCELLED', cancelled({ callbackUrl: null, failure, steps: steps({ inventoryTaken: true, inventoryReturned: true }) })],
  ])('publishes nothing for a %s booking without a callbackUrl', (_, b) => {
    expect(decide(b, at(70_000), T, pending()).kind).not.toBe('publish');
  });
});

describe('decide: a FAILED booking', () => {
  it('publishes booking.failed before watching, even when the reservation has landed meanwhile', () => {
    expect(decide(failed(), at(61_000), T, confirmedAt('SIM-7'))).toEqual({ kind: 'publish', eventType: 'booking.failed' });
  });

  it('lands late while watching: CONFIRMED, the charge posts again, inventory is owed', () => {
    // prepare
    const b = failed({ steps: steps({ callbacksPublished: ['booking.failed'] }), nextCheckAt: at(70_000) });

    // act
    const d = asWrite(decide(b, at(80_000), T, confirmedAt('SIM-7')));

    // assess
    expect(d.step).toBe('landed');
    expect(d.effect).toEqual({ kind: 'land', bookingId: 'SIM-7' });
    expect(d.next).toMatchObject({ status: 'CONFIRMED', bookingId: 'SIM-7', failure, nextCheckAt: at(80_000) });
  });

  it.each([
    ['without a hint: one watch poll later', null, at(70_000 + 10_000)],
    ['with a hint: at the hint', at(75_000), at(75_000)],
    ['with a hint past the watch: at the end of the watch', at(400_000), WATCH_UNTIL],
  ])('watches %s', (_, hint, due) => {
    const b = failed({ steps: steps({ callbacksPublished: ['booking.failed'] }), nextCheckAt: at(65_000) });
    const d = asWrite(decide(b, at(70_000), T, pending(hint)));
    expect(d.step).toBe('rescheduled');
    expect(d.next.nextCheckAt).toBe(due);
  });

  it('stops watching a refused reservation: it cannot land later', () => {
    const b = failed({
      failure: { ...failure, reasonCode: 'CHANNEL_REFUSED' },
      steps: steps({ callbacksPublished: ['booking.failed'] }),
      nextCheckAt: at(65_000),
    });
    const d = asWrite(decide(b, at(70_000), T, { state: 'REFUSED', reason: '422' }));
    expect(d.next).toMatchObject({ status: 'FAILED', nextCheckAt: null });
  });

  it('caps the watch poll at watchUntil', () => {
    const b = failed({ steps: steps({ callbacksPublished: ['booking.failed'] }), nextCheckAt: at(295_000) });
    expect(asWrite(decide(b, at(295_000), T, pending())).next.nextCheckAt).toBe(WATCH_UNTIL);
  });

  it('is idle while the next watch is ahead', () => {
    const b = failed({ steps: steps({ callbacksPublished: ['booking.failed'] }), nextCheckAt: at(90_000) });
    expect(decide(b, at(70_000), T, pending())).toEqual({ kind: 'idle' });
  });

  it('after watchUntil stops watching, and no longer lands', () => {
    // prepare
    const b = failed({ steps: steps({ callbacksPublished: ['booking.failed'] }), nextCheckAt: WATCH_UNTIL });

    // act
    const d = asWrite(decide(b, WATCH_UNTIL, T, confirmedAt('SIM-7')));

    // assess
    expect(d.step).toBe('rescheduled');
    expect(d.next).toMatchObject({ status: 'FAILED', bookingId: null, nextCheckAt: null });
    expect(decide(d.next, WATCH_UNTIL, T, confirmedAt('SIM-7'))).toEqual({ kind: 'idle' });
  });
});

describe('decide: driven to rest from any state after an outcome', () => {
  const state = fc.record({
    status: fc.constantFrom('CONFIRMED' as const, 'CANCELLED' as const, 'FAILED' as const),
    failedFirst: fc.boolean(),
    callbackUrl: fc.boolean(),
    inventoryTaken: fc.boolean(),
    inventoryReturned: fc.boolean(),
    published: fc.subarray(['booking.failed', 'booking.confirmed', 'booking.cancelled'] as BookingCallbackEventType[]),
  });

  it('moves inventory at most once each way, publishes each owed event not yet published once and in order, and ends with nextCheckAt null', () => {
    fc.assert(
      fc.property(state, (s) => {
        // prepare: past the watch, so nothing waits on the property system
        const base = s.status === 'FAILED' ? failed() : s.status === 'CANCELLED' ? cancelled() : landed();
        let b: Booking = {
          ...base,
          failure: s.status === 'FAILED' || s.failedFirst ? failure : null,
          callbackUrl: s.callbackUrl ? base.callbackUrl : null,
          steps: { inventoryTaken: s.inventoryTaken, inventoryReturned: s.inventoryTaken && s.inventoryReturned, callbacksPublished: s.published },
          nextCheckAt: at(1_000),
        };
        const now = at(400_000);
        const moves: string[] = [];
        const published: BookingCallbackEventType[] = [];

        // act: the driver's loop, with every write succeeding
        for (let i = 0; i < 12; i++) {
          const d = decide(b, now, T, undefined);
          if (d.kind === 'idle') break;
          if (d.kind === 'publish') {
            published.push(d.eventType);
            b = { ...b, steps: { ...b.steps, callbacksPublished: [...b.steps.callbacksPublished, d.eventType] } };
            continue;
          }
          if (d.effect?.kind === 'inventory') moves.push(d.effect.direction);
          b = d.next;
        }

        // assess
        expect(decide(b, now, T, undefined)).toEqual({ kind: 'idle' });
        expect(b.nextCheckAt).toBeNull();
        const owed: BookingCallbackEventType[] = [
          ...(b.failure ? (['booking.failed'] as const) : []),
          ...(s.status !== 'FAILED' ? (['booking.confirmed'] as const) : []),
          ...(s.status === 'CANCELLED' ? (['booking.cancelled'] as const) : []),
        ];
        expect(published).toEqual(s.callbackUrl ? owed.filter((e) => !s.published.includes(e)) : []);
        expect(moves.filter((m) => m === 'take').length).toBe(s.status === 'CONFIRMED' && !s.inventoryTaken ? 1 : 0);
        expect(moves.filter((m) => m === 'return').length).toBe(s.status === 'CANCELLED' && s.inventoryTaken && !s.inventoryReturned ? 1 : 0);
      }),
    );
  });
});

describe('quoteCancellation', () => {
  /** Check-in 1 March 2027: full refund until 15 Feb, half until 25 Feb, nothing from the 26th (policy given out of order). */
  const booking = (overrides: Partial<Booking> = {}) =>
    bookingFixture(owner, {
      amount: 12_345_67,
      checkIn: '2027-03-01',
      checkOut: '2027-03-03',
      ...overrides,
      items: bookingFixture(owner).items.map((i) => ({
        ...i,
        cancellationPolicy: [
          { cancelBy: '2027-03-01', refundPercentage: 0, label: 'No refund for cancellations after 2027-02-25' },
          { cancelBy: '2027-02-25', refundPercentage: 50, label: 'Half' },
          { cancelBy: '2027-02-15', refundPercentage: 100, label: 'Full' },
        ],
      })),
    });

  it.each([
    ['2027-01-01', 100, 12_345_67, '2027-02-15'],
    ['2027-02-15', 100, 12_345_67, '2027-02-15'],
    ['2027-02-16', 50, 6_172_84, '2027-02-25'],
    ['2027-02-25', 50, 6_172_84, '2027-02-25'],
    ['2027-02-26', 0, 0, '2027-03-01'],
    ['2027-03-01', 0, 0, '2027-03-01'],
  ])('on %s refunds %i percent (%i paise), the step until %s', (today, refundPercentage, refundAmount, appliesUntil) => {
    expect(quoteCancellation(booking(), today)).toMatchObject({
      cancellable: true,
      reason: null,
      refundPercentage,
      refundAmount,
      chargedAmount: 12_345_67,
      appliesUntil,
    });
  });

  it('rounds half a paisa up: 50 % of 12,345.67 is 6,172.84 (6,172.835 exactly)', () => {
    expect(quoteCancellation(booking(), '2027-02-20').refundAmount).toBe(6_172_84);
  });

  it('rounds a percentage to whole paise: 33 % of 1 paisa less than 100 rupees', () => {
    const b = booking({ amount: 99_99 });
    const withThird = { ...b, items: b.items.map((i) => ({ ...i, cancellationPolicy: [{ cancelBy: '2027-02-28', refundPercentage: 33, label: 'A third' }] })) };
    expect(quoteCancellation(withThird, '2027-02-01').refundAmount).toBe(33_00);
  });

  it('refuses a stay that has begun', () => {
    expect(quoteCancellation(booking(), '2027-03-02')).toEqual({
      cancellable: false,
      reason: expect.stringContaining('2027-03-01'),
      refundPercentage: 0,
      refundAmount: 0,
      chargedAmount: 12_345_67,
      appliesUntil: null,
      label: null,
    });
  });

  it.each(['PROCESSING', 'FAILED', 'CANCELLED'] as const)('refuses a %s booking', (status) => {
    expect(quoteCancellation(booking({ status }), '2027-01-01')).toMatchObject({ cancellable: false, refundAmount: 0 });
  });

  it('refunds nothing on a policy with no steps', () => {
    const b = booking();
    expect(quoteCancellation({ ...b, items: b.items.map((i) => ({ ...i, cancellationPolicy: [] })) }, '2027-01-01')).toMatchObject({
      cancellable: true,
      refundPercentage: 0,
      refundAmount: 0,
      appliesUntil: null,
    });
  });
});

describe('sameGuest and mergeGuests', () => {
  const asha: Guest = { firstName: 'Asha', lastName: 'Rao', email: 'asha.rao@example.com', phone: '+91 98200 12345' };

  it.each([
    ['email, ignoring case and spaces', { firstName: 'Ashwini', email: '  ASHA.Rao@Example.com ' }, true],
    ['phone written with the country code', { firstName: 'A', phone: '+919820012345' }, true],
    ['phone without the country code, countryCode given', { firstName: 'A', phone: '98200-12345', countryCode: '+91' }, true],
    ['phone without any country code', { firstName: 'A', phone: '9820012345' }, false],
    ['another email and another phone', { firstName: 'Asha', lastName: 'Rao', email: 'asha@elsewhere.example', phone: '+91 90000 00000' }, false],
    ['the same name with nothing to match on', { firstName: 'Asha', lastName: 'Rao' }, false],
  ])('matches on %s: %s', (_, other, same) => {
    expect(sameGuest(asha, other)).toBe(same);
    expect(sameGuest(other, asha)).toBe(same);
  });

  it('matches a national number that happens to begin with its country code to the same number written in full', () => {
    const kiran: Guest = { firstName: 'Kiran', phone: '+91 91234 56789' };
    expect(sameGuest(kiran, { firstName: 'Kiran', phone: '91234 56789', countryCode: '91' })).toBe(true);
    expect(sameGuest(kiran, { firstName: 'Kiran', phone: '919123456789', countryCode: '91' })).toBe(true);
    expect(sameGuest(kiran, { firstName: 'Kiran', phone: '91234 56780', countryCode: '91' })).toBe(false);
  });

  it('matches name-only guests by name, ignoring case and spaces', () => {
    expect(sameGuest({ firstName: 'Ravi' }, { firstName: ' ravi ', lastName: '' })).toBe(true);
    expect(sameGuest({ firstName: 'Ravi', lastName: 'K' }, { firstName: 'Ravi' })).toBe(false);
  });

  it('adds only new guests, after the existing ones, and never edits a stored guest', () => {
    // prepare
    const stored = { primaryGuest: asha, additionalGuests: [{ firstName: 'Ravi' }, { firstName: 'Meera', email: 'meera@example.com' }] };

    // act
    const merged = mergeGuests(stored, [
      { ...asha, firstName: 'Ashwini' },
      { firstName: 'RAVI' },
      { firstName: 'Meera', lastName: 'Iyer', email: 'MEERA@example.com', city: 'Pune' },
      { firstName: 'Kiran', phone: '+91 91234 56789' },
      { firstName: 'Kiran K', phone: '9123456789', countryCode: '91' },
    ]);

    // assess
    expect(merged.added).toBe(1);
    expect(merged.additionalGuests).toEqual([...stored.additionalGuests, { firstName: 'Kiran', phone: '+91 91234 56789' }]);
    expect(stored.additionalGuests).toHaveLength(2);
  });

  const guestArb: fc.Arbitrary<Guest> = fc.record(
    {
      firstName: fc.constantFrom('Asha', 'Ravi', 'Meera', 'asha'),
      lastName: fc.constantFrom('Rao', 'Iyer'),
      email: fc.constantFrom('a@example.com', 'A@EXAMPLE.COM', 'm@example.com'),
      phone: fc.constantFrom('+91 98200 12345', '9820012345', '+44 7700 900123'),
      countryCode: fc.constantFrom('91', '+91', '44'),
    },
    { requiredKeys: ['firstName'] },
  );

  it('is idempotent: merging the same guests again adds nothing', () => {
    fc.assert(
      fc.property(guestArb, fc.array(guestArb, { maxLength: 4 }), fc.array(guestArb, { maxLength: 6 }), (primaryGuest, additionalGuests, incoming) => {
        const once = mergeGuests({ primaryGuest, additionalGuests }, incoming);
        const twice = mergeGuests({ primaryGuest, additionalGuests: once.additionalGuests }, incoming);
        expect(twice).toEqual({ additionalGuests: once.additionalGuests, added: 0 });
        expect(once.additionalGuests.slice(0, additionalGuests.length)).toEqual(additionalGuests);
        expect(once.additionalGuests.length).toBe(additionalGuests.length + once.added);
      }),
    );
  });
});
