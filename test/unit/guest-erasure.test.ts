import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  ERASED,
  erasableEndedOnOrBefore,
  erasedBooking,
  erasedCallback,
  isErasedGuest,
  orderRefHeld,
  retentionHasRunOut,
  stayEndedOn,
  stayHasEnded,
} from '../../domain/guests/guest-erasure.ts';
import { BookingDetailSchema } from '../../functions/contracts/booking-reads.ts';
import { bookingDetailJson } from '../../functions/bookings/booking-json.ts';
import { bookingItem } from '../../infra/dynamo/entities/booking.ts';
import { bookingFixture } from '../support/booking-seed.ts';
import type { CallbackDelivery } from '../../domain/deliveries/delivery.ts';

const owner = { agentGroupId: 'group-erasure', partnerId: 'p', channelId: 'c' };
/** 2027-06-10 09:00 in India. */
const NOW = new Date('2027-06-10T03:30:00Z');

describe('Guest erasure: the marker', () => {
  it('replaces every guest field by the marker and keeps the party size, positions and everything else', () => {
    // prepare
    const b = bookingFixture(owner, {
      primaryGuest: {
        firstName: 'Asha',
        lastName: 'Rao',
        email: 'asha@example.com',
        phone: '+919800000001',
        dob: '1990-01-01',
        city: 'Pune',
        guestId: 'g-1',
        salutation: 'Ms',
      },
      additionalGuests: [
        { firstName: 'Ravi', position: 2 },
        { firstName: 'Meera', email: 'meera@example.com' },
      ],
    });

    // act
    const erased = erasedBooking(b, NOW.toISOString());

    // assess
    expect(erased.primaryGuest).toEqual({ firstName: ERASED, lastName: ERASED });
    expect(erased.additionalGuests).toEqual([
      { firstName: ERASED, lastName: ERASED, position: 2 },
      { firstName: ERASED, lastName: ERASED },
    ]);
    expect(erased.specialRequests).toBe(ERASED);
    expect(erased).toMatchObject({
      guestDataErasedAt: NOW.toISOString(),
      updatedAt: NOW.toISOString(),
      version: b.version + 1,
      amount: b.amount,
      bookingId: b.bookingId,
      status: b.status,
    });
    expect([erased.primaryGuest, ...erased.additionalGuests].every(isErasedGuest)).toBe(true);
    expect(isErasedGuest(b.primaryGuest)).toBe(false);
  });

  it('keeps the booking detail valid against the contract (a read answers the marker, never an error)', () => {
    // act
    const json = bookingDetailJson(erasedBooking(bookingFixture(owner), NOW.toISOString()), [], []);

    // assess
    expect(v.safeParse(BookingDetailSchema, json).success).toBe(true);
    expect(JSON.stringify(json)).not.toMatch(/Asha|Rao|asha@example\.com|9800000001|Ravi|Late arrival/);
  });

  it('leaves special requests null when there were none', () => {
    expect(erasedBooking(bookingFixture(owner, { specialRequests: null }), NOW.toISOString()).specialRequests).toBeNull();
  });

  it("replaces a cancellation's free-text reason (which may name the guest) and keeps the rest of the cancellation", () => {
    // prepare
    const cancellation = {
      cancelledAt: '2027-06-09T19:00:00Z',
      reason: 'Guest Ramesh Kumar (ramesh.k@example.com) hospitalised',
      refundPercentage: 50,
      refundAmount: 5_000,
      refundEntryId: 'r',
    };
    // act
    const erased = erasedBooking(bookingFixture(owner, { status: 'CANCELLED', cancellation }), NOW.toISOString());
    const withoutReason = erasedBooking(bookingFixture(owner, { status: 'CANCELLED', cancellation: { ...cancellation, reason: null } }), NOW.toISOString());
    // assess
    expect(erased.cancellation).toEqual({ ...cancellation, reason: ERASED });
    expect(withoutReason.cancellation?.reason).toBeNull();
  });

  it("erases a kept callback's reason and the receiver's answers, keeps its ids and totals, and leaves an erased one alone", () => {
    // prepare
    const payload = JSON.stringify({
      eventId: 'e1',
      eventType: 'booking.cancelled',
      bookingId: 'B1',
      status: 'CANCELLED',
      reason: 'Guest Ramesh Kumar hospitalised',
    });
    const callback = {
      kind: 'callback',
      deliveryId: 'e1',
      partnerId: 'p',
      eventId: 'e1',
      eventType: 'booking.cancelled',
      agentGroupId: 'g',
      bookingRef: 'r',
      callbackUrl: 'https://93.184.216.34/cb',
      payload,
      status: 'FAILED',
      attempts: [
        {
          attempt: 1,
          at: '2027-06-09T19:00:00Z',
          outcome: 'http-error',
          statusCode: 400,
          error: 'bad reason "Guest Ramesh Kumar hospitalised"',
          durationMs: 12,
        },
      ],
      nextAttemptAt: null,
      failureReason: 'HTTP 400: bad reason "Guest Ramesh Kumar hospitalised"',
      resendOf: null,
      requeues: 0,
      createdAt: '2027-06-09T19:00:00Z',
      updatedAt: '2027-06-09T19:00:00Z',
    } as unknown as CallbackDelivery;
    // act
    const erased = erasedCallback(callback)!;
    // assess
    expect(JSON.parse(erased.payload)).toEqual({ ...JSON.parse(payload), reason: ERASED });
    expect(erased.attempts).toEqual([{ ...callback.attempts[0], error: ERASED }]);
    expect(erased.failureReason).toBe(ERASED);
    expect(JSON.stringify(erased)).not.toContain('Ramesh');
    expect(erasedCallback({ ...callback, ...erased })).toBeNull();
    expect(orderRefHeld('Trip of Ramesh')).toBe(true);
    expect(orderRefHeld(ERASED) || orderRefHeld(null)).toBe(false);
  });
});

describe('Guest erasure: when a stay has ended', () => {
  it('a confirmed stay ends once its check-out date is past in India, not on the day itself', () => {
    expect(stayHasEnded(bookingFixture(owner, { checkOut: '2027-06-09' }), NOW)).toBe(true);
    expect(stayHasEnded(bookingFixture(owner, { checkOut: '2027-06-10' }), NOW)).toBe(false);
    // 2027-06-09 20:00 UTC is already 2027-06-10 in India.
    expect(stayHasEnded(bookingFixture(owner, { checkOut: '2027-06-09' }), new Date('2027-06-09T20:00:00Z'))).toBe(true);
    expect(stayHasEnded(bookingFixture(owner, { checkOut: '2027-06-09' }), new Date('2027-06-09T18:00:00Z'))).toBe(false);
  });

  it('a cancelled or failed booking has ended at once; a processing one has not', () => {
    const cancellation = { cancelledAt: '2027-06-09T19:00:00Z', reason: null, refundPercentage: 100, refundAmount: 100, refundEntryId: 'r' };
    expect(stayHasEnded(bookingFixture(owner, { status: 'CANCELLED', checkOut: '2027-08-01', cancellation }), NOW)).toBe(true);
    expect(stayHasEnded(bookingFixture(owner, { status: 'FAILED', bookingId: null, checkOut: '2027-08-01' }), NOW)).toBe(true);
    expect(stayHasEnded(bookingFixture(owner, { status: 'PROCESSING', bookingId: null, checkOut: '2027-01-01' }), NOW)).toBe(false);
    // Cancelled at 19:00 UTC on the 9th: the 10th in India.
    expect(stayEndedOn(bookingFixture(owner, { status: 'CANCELLED', cancellation }))).toBe('2027-06-10');
  });

  it('the retention runs from the end date: due on the day it runs out, not before', () => {
    const b = bookingFixture(owner, { checkOut: '2027-01-01' });
    expect(erasableEndedOnOrBefore(new Date('2027-06-30T00:00:00Z'), 180)).toBe('2027-01-01');
    expect(retentionHasRunOut(b, new Date('2027-06-30T00:00:00Z'), 180)).toBe(true);
    expect(retentionHasRunOut(b, new Date('2027-06-29T00:00:00Z'), 180)).toBe(false);
  });
});

describe('Guest erasure: the erasure index on the booking item', () => {
  it('a settled booking holding guest data carries the date its stay ended; an open or erased one does not', () => {
    const settled = bookingFixture(owner, { checkOut: '2027-03-03', nextCheckAt: null });
    expect(bookingItem(settled)).toMatchObject({
      GSI2PK: expect.stringMatching(/^GUESTS#ERASABLE#\d+$/),
      GSI2SK: `2027-03-03#${owner.agentGroupId}#${settled.bookingRef}`,
    });
    expect(bookingItem({ ...settled, nextCheckAt: '2027-03-01T00:00:00Z' }).GSI2PK).toMatch(/^BOOKINGS#OPEN#/);
    expect(bookingItem(erasedBooking(settled, NOW.toISOString())).GSI2PK).toBeUndefined();
  });
});
