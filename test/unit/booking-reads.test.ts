import { describe, expect, it } from 'vitest';
import { bookingAmounts } from '../../domain/bookings/booking-amounts.ts';
import { matchesBookingFilter } from '../../domain/bookings/read-bookings.ts';
import { bookingDetailJson, bookingRowJson } from '../../functions/bookings/booking-json.ts';
import { bookingFixture } from '../support/booking-seed.ts';

const owner = { agentGroupId: 'group-1', partnerId: 'partner-1', channelId: 'channel-1' };
const cancellation = { cancelledAt: '2027-02-20T10:00:00.000Z', reason: null, refundPercentage: 50, refundAmount: 5_000_25, refundEntryId: 'refund-1' };

describe('Function: bookingAmounts', () => {
  it.each([
    ['CONFIRMED', null, 10_000_50],
    ['CANCELLED', cancellation, 10_000_50 - 5_000_25],
    ['PROCESSING', null, 0],
    ['FAILED', null, 0],
  ] as const)('owes the right amount for a %s booking, in paise', (status, cancelled, outstanding) => {
    const amounts = bookingAmounts({ status, amount: 10_000_50, chargedTotal: 10_000_50, cancellation: cancelled });

    expect(amounts).toEqual({ total: 10_000_50, paid: 0, outstanding });
  });

  it('totals an amended booking at what the group has been charged, charge plus adjustments', () => {
    const amounts = bookingAmounts({ status: 'CONFIRMED', amount: 10_000_50, chargedTotal: 15_250_50, cancellation: null });

    expect(amounts).toEqual({ total: 15_250_50, paid: 0, outstanding: 15_250_50 });
  });

  it('owes nothing more on a booking cancelled with a full refund', () => {
    const amounts = bookingAmounts({
      status: 'CANCELLED',
      amount: 8_000_00,
      chargedTotal: 8_000_00,
      cancellation: { ...cancellation, refundPercentage: 100, refundAmount: 8_000_00 },
    });

    expect(amounts.outstanding).toBe(0);
  });
});

describe('Function: bookingRowJson', () => {
  it('gives money in rupees and bookingId null until the booking lands', () => {
    const row = bookingRowJson(bookingFixture(owner, { status: 'PROCESSING', bookingId: null, amount: 12_345_67 }));

    expect(row).toMatchObject({ bookingId: null, status: 'PROCESSING', totalAmount: 12345.67, outstandingAmount: 0, paidAmount: 0 });
  });
});

describe('Function: bookingDetailJson', () => {
  it('shows a failure and a cancellation as the contract names them, and nothing internal', () => {
    const booking = bookingFixture(owner, {
      status: 'CANCELLED',
      failure: { reasonCode: 'BOOKING_NOT_COMPLETED', reason: 'late', failedAt: '2027-02-01T00:00:00.000Z' },
      cancellation,
    });

    const detail = bookingDetailJson(booking, [], []);

    expect(detail.failure).toEqual({ reasonCode: 'BOOKING_NOT_COMPLETED', reason: 'late', failedAt: '2027-02-01T00:00:00.000Z' });
    expect(detail.cancellation).toEqual({ cancelledAt: cancellation.cancelledAt, reason: null, refundPercentage: 50, refundAmount: 5000.25 });
    for (const internal of ['callbackUrl', 'bookingRef', 'ledgerEntryId', 'steps', 'scenario', 'nextCheckAt', 'agentGroupId', 'refundEntryId']) {
      expect(JSON.stringify(detail)).not.toContain(`"${internal}"`);
    }
  });
});

describe('Function: matchesBookingFilter', () => {
  const b = bookingFixture(owner, { status: 'CONFIRMED', checkIn: '2027-03-10', updatedAt: '2027-01-01T00:00:00.000Z' });

  it.each([
    [{}, true],
    [{ statuses: ['CONFIRMED', 'FAILED'] as const }, true],
    [{ statuses: ['CANCELLED'] as const }, false],
    [{ checkInFrom: '2027-03-10', checkInTo: '2027-03-10' }, true],
    [{ checkInFrom: '2027-03-11' }, false],
    [{ checkInTo: '2027-03-09' }, false],
    [{ updatedSince: '2027-01-01T00:00:00.000Z' }, true],
    [{ updatedSince: '2027-01-01T00:00:00.001Z' }, false],
  ])('matches %j: %s', (filter, expected) => {
    expect(matchesBookingFilter(b, filter)).toBe(expected);
  });
});
