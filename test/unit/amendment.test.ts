import { describe, expect, it } from 'vitest';
import { amendedRequest, availabilityOf, decideAmendment, isNoChange, NO_AMENDMENT_STEPS, type Amendment } from '../../domain/bookings/amendment.ts';
import type { PricedOrder, SoldOutNight } from '../../domain/pricing/index.ts';

const booked = { listingId: 'l', checkIn: '2027-03-02', checkOut: '2027-03-04', adults: 2, meals: [{ mealId: 'm1' }], vas: [{ vasId: 'v1', variantId: 'x' }] };

/** Just what availabilityOf reads of a priced order: the stay and its sold-out nights. */
const priced = (checkIn: string, checkOut: string, soldOutNights: SoldOutNight[]): PricedOrder =>
  ({ items: [{ checkIn, checkOut }], breakdown: { soldOutNights } }) as unknown as PricedOrder;

describe('Function: amendedRequest', () => {
  it('keeps what is omitted, replaces a list given wholesale and clears one given empty', () => {
    // act
    const moved = amendedRequest(booked, { checkOut: '2027-03-05' });
    const replaced = amendedRequest(booked, { meals: [{ mealId: 'm2' }], vas: [] });
    // assess
    expect(moved).toEqual({ ...booked, checkOut: '2027-03-05' });
    expect(replaced).toEqual({ ...booked, meals: [{ mealId: 'm2' }], vas: [] });
  });
});

describe('Function: isNoChange', () => {
  it('sees defaults and guests: an explicit default is no change, a guest list is', () => {
    expect(isNoChange({ ...booked, children: undefined }, [], { ...booked, children: 0 }, [])).toBe(true);
    expect(isNoChange(booked, [], booked, [{ firstName: 'Ravi' }])).toBe(false);
  });
});

describe('Function: availabilityOf', () => {
  const night = (date: string, reason: SoldOutNight['reason'], extra: Partial<SoldOutNight> = {}): SoldOutNight => ({ propertyId: 'p1', date, reason, requiredUnits: 1, availableUnits: 0, ...extra });

  it('is AVAILABLE for the unchanged stay whatever the nights say, since the booking holds them', () => {
    expect(availabilityOf(priced('2027-03-02', '2027-03-04', [night('2027-03-02', 'STOP_SELL')]), true)).toMatchObject({ status: 'AVAILABLE', nightsRequested: 2, unavailableNights: [] });
  });

  it('lists exactly the unavailable nights and the unit shortfalls: PARTIALLY_AVAILABLE when some nights fit', () => {
    // act
    const a = availabilityOf(priced('2027-03-02', '2027-03-06', [night('2027-03-05', 'NOT_ENOUGH_UNITS', { requiredUnits: 2, availableUnits: 1 }), night('2027-03-03', 'STOP_SELL'), night('2027-03-05', 'MAXIMUM_STAY', { stayLimit: 3 })]), false);
    // assess
    expect(a).toEqual({
      status: 'PARTIALLY_AVAILABLE',
      nightsRequested: 4,
      unavailableNights: ['2027-03-03', '2027-03-05'],
      shortfalls: [{ date: '2027-03-05', propertyId: 'p1', requiredUnits: 2, availableUnits: 1 }],
      minimumStayViolations: [],
    });
  });

  it('is UNAVAILABLE when no night fits, and names a minimum stay per property with the nights requested', () => {
    const none = availabilityOf(priced('2027-03-02', '2027-03-03', [night('2027-03-02', 'NO_INVENTORY')]), false);
    const short = availabilityOf(priced('2027-03-02', '2027-03-03', [night('2027-03-02', 'MINIMUM_STAY', { stayLimit: 3, availableUnits: 5 })]), false);
    expect(none).toMatchObject({ status: 'UNAVAILABLE', unavailableNights: ['2027-03-02'] });
    expect(short).toEqual({ status: 'UNAVAILABLE', nightsRequested: 1, unavailableNights: [], shortfalls: [], minimumStayViolations: [{ propertyId: 'p1', minimumNights: 3, requestedNights: 1 }] });
  });
});

describe('Function: decideAmendment', () => {
  const base = { status: 'PENDING', steps: NO_AMENDMENT_STEPS, callbackUrl: 'https://x', nextCheckAt: '2027-01-01T00:00:00.000Z' } as unknown as Amendment;
  const at = (changes: Partial<Amendment>, steps: Partial<Amendment['steps']> = {}): Amendment => ({ ...base, ...changes, steps: { ...base.steps, ...steps } });

  it.each([
    ['a new amendment tells the channel', at({}), 'modify-channel'],
    ['after the channel, the rows', at({}, { channelModified: true }), 'rewrite-rows'],
    ['after the rows, the money', at({}, { channelModified: true, rowsRewritten: true }), 'adjust'],
    ['an applied one with a callbackUrl publishes', at({ status: 'APPLIED' }, { channelModified: true, rowsRewritten: true, adjusted: true }), 'publish'],
    ['then settles', at({ status: 'APPLIED' }, { adjusted: true, callbackPublished: true }), 'settle'],
    ['and is then idle', at({ status: 'APPLIED', nextCheckAt: null }, { adjusted: true, callbackPublished: true }), 'idle'],
    ['compensation pushes the stay back first', at({ status: 'COMPENSATING' }, { channelModified: true, rowsRewritten: true }), 'restore-channel'],
    ['then restores the rows', at({ status: 'COMPENSATING' }, { channelModified: true, rowsRewritten: true, channelRestored: true }), 'restore-rows'],
    ['skips rows never written', at({ status: 'COMPENSATING' }, { channelModified: true, channelRestored: true }), 'finish-compensation'],
    ['a refused one has nothing left', at({ status: 'REFUSED', nextCheckAt: null }), 'idle'],
  ] as const)('%s', (_, amendment, action) => {
    expect(decideAmendment(amendment)).toBe(action);
  });
});
