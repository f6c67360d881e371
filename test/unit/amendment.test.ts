import { describe, expect, it } from 'vitest';
import {
  amendedRequest,
  availabilityOf,
  carriedSelections,
  decideAmendment,
  isNoChange,
  NO_AMENDMENT_STEPS,
  type Amendment,
} from '../../domain/bookings/amendment.ts';
import { ValidationError } from '../../domain/errors.ts';
import type { OrderRequest, PricedOrder, SoldOutNight } from '../../domain/pricing/index.ts';

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

describe('Function: amendedRequest, moving the dates of dated meals and services', () => {
  // Booked 03-02 to 03-04: the nights 03-02 and 03-03, departure 03-04.
  const everyNight = { mealId: 'breakfast', dates: ['2027-03-02', '2027-03-03'], adults: 2 };
  const housekeeping = { vasId: 'hk', variantId: 'std', dates: ['2027-03-02', '2027-03-03'] };
  const dated = { ...booked, meals: [everyNight], vas: [housekeeping] };

  /** The ValidationError amendedRequest throws, or undefined. */
  const refusal = (current: OrderRequest, cmd: Parameters<typeof amendedRequest>[1]): ValidationError | undefined => {
    try {
      amendedRequest(current, cmd);
      return undefined;
    } catch (err) {
      if (err instanceof ValidationError) return err;
      throw err;
    }
  };

  it('carries a selection dated every night of the booked stay to every night of the new one', () => {
    // act
    const moved = amendedRequest(dated, { checkIn: '2027-03-06', checkOut: '2027-03-09' });
    // assess
    expect(moved.meals).toEqual([{ ...everyNight, dates: ['2027-03-06', '2027-03-07', '2027-03-08'] }]);
    expect(moved.vas).toEqual([{ ...housekeeping, dates: ['2027-03-06', '2027-03-07', '2027-03-08'] }]);
  });

  it('keeps a departure-day serving on the new departure day, and a shorter stay drops the nights it lost', () => {
    const withDeparture = { ...booked, meals: [{ ...everyNight, dates: ['2027-03-02', '2027-03-03', '2027-03-04'] }] };
    expect(amendedRequest(withDeparture, { checkOut: '2027-03-06' }).meals![0]!.dates).toEqual([
      '2027-03-02',
      '2027-03-03',
      '2027-03-04',
      '2027-03-05',
      '2027-03-06',
    ]);
    expect(amendedRequest(dated, { checkOut: '2027-03-03' }).meals![0]!.dates).toEqual(['2027-03-02']);
  });

  it('carries the only night of a one-night stay to every night of a longer one', () => {
    const oneNight = { ...booked, checkOut: '2027-03-03', meals: [{ mealId: 'dinner', dates: ['2027-03-02'] }] };
    expect(amendedRequest(oneNight, { checkIn: '2027-03-06', checkOut: '2027-03-08' }).meals).toEqual([
      { mealId: 'dinner', dates: ['2027-03-06', '2027-03-07'] },
    ]);
  });

  it('leaves unsureOfDates selections and selections given in the body as they are', () => {
    const unsure = { ...booked, meals: [{ mealId: 'breakfast', unsureOfDates: true }], vas: [housekeeping] };
    const given = [{ mealId: 'dinner', dates: ['2027-03-07'] }];
    // act
    const moved = amendedRequest(unsure, { checkIn: '2027-03-06', checkOut: '2027-03-08' });
    const restated = amendedRequest(
      { ...dated, meals: [{ mealId: 'lunch', dates: ['2027-03-03'] }] },
      { checkIn: '2027-03-06', checkOut: '2027-03-08', meals: given },
    );
    // assess
    expect(moved.meals).toEqual(unsure.meals);
    expect(restated.meals).toEqual(given);
    expect(restated.vas).toEqual([{ ...housekeeping, dates: ['2027-03-06', '2027-03-07'] }]);
  });

  it('keeps a selection of some nights whose dates all lie in the new stay', () => {
    const someNights = { ...booked, meals: [{ mealId: 'cake', dates: ['2027-03-03'] }] };
    expect(amendedRequest(someNights, { checkOut: '2027-03-06' }).meals).toEqual(someNights.meals);
  });

  it('refuses a selection of some nights that the new stay leaves out, naming the list to restate and how', () => {
    // act
    const meal = refusal({ ...booked, meals: [everyNight, { mealId: 'cake', dates: ['2027-03-03'] }] }, { checkIn: '2027-03-06', checkOut: '2027-03-08' });
    const service = refusal(
      { ...booked, vas: [{ vasId: 'transfer', variantId: 'suv', dates: ['2027-03-02'] }] },
      { checkIn: '2027-03-06', checkOut: '2027-03-08' },
    );
    // assess
    expect(meal?.param).toBe('meals');
    expect(meal?.message).toBe(
      'meals[1] (meal cake) is dated 2027-03-03, not every night of the booked stay, and the new stay does not include 2027-03-03, so it cannot follow the move of the stay (booked 2027-03-02 to 2027-03-04, now 2027-03-06 to 2027-03-08). ' +
        "Send meals with the new dates: the whole list, as it replaces the booking's meals ([] drops them).",
    );
    expect(service?.param).toBe('vas');
    expect(service?.message).toMatch(/^vas\[0\] \(service transfer \(variant suv\)\) is dated 2027-03-02, .* Send vas with the new dates/);
  });

  it('keeps per-date quantities on dates still charged, and refuses one the new stay does not charge', () => {
    const quantities = { ...booked, vas: [{ ...housekeeping, dateQuantities: [{ date: '2027-03-03', quantity: 2 }] }] };
    expect(amendedRequest(quantities, { checkOut: '2027-03-05' }).vas![0]!.dateQuantities).toEqual([{ date: '2027-03-03', quantity: 2 }]);
    expect(refusal(quantities, { checkIn: '2027-03-06', checkOut: '2027-03-08' })).toMatchObject({
      param: 'vas',
      message: expect.stringContaining('dateQuantities'),
    });
  });

  it('carries nothing when the dates stay put or the new stay is not a stay, so pricing names checkIn or checkOut', () => {
    const someNights = { ...booked, meals: [{ mealId: 'cake', dates: ['2027-03-03'] }] };
    expect(amendedRequest(someNights, { adults: 3, checkIn: '2027-03-02' })).toEqual({ ...someNights, adults: 3 });
    expect(amendedRequest(someNights, { checkIn: '2027-03-09', checkOut: '2027-03-07' }).meals).toEqual(someNights.meals);
  });

  it('carriedSelections: a selection covering every night always lands on exactly the new nights', () => {
    for (let nights = 1; nights <= 5; nights++) {
      const moved = { checkIn: '2027-04-01', checkOut: `2027-04-0${1 + nights}` };
      const [sel] = carriedSelections('meals', [everyNight], { checkIn: '2027-03-02', checkOut: '2027-03-04' }, moved);
      expect(sel!.dates).toHaveLength(nights);
      expect(sel!.dates![0]).toBe(moved.checkIn);
    }
  });
});

describe('Function: isNoChange', () => {
  it('sees defaults and guests: an explicit default is no change, a guest list is', () => {
    expect(isNoChange({ ...booked, children: undefined }, [], { ...booked, children: 0 }, [])).toBe(true);
    expect(isNoChange(booked, [], booked, [{ firstName: 'Ravi' }])).toBe(false);
  });
});

describe('Function: availabilityOf', () => {
  const night = (date: string, reason: SoldOutNight['reason'], extra: Partial<SoldOutNight> = {}): SoldOutNight => ({
    propertyId: 'p1',
    date,
    reason,
    requiredUnits: 1,
    availableUnits: 0,
    ...extra,
  });

  it('is AVAILABLE for the unchanged stay whatever the nights say, since the booking holds them', () => {
    expect(availabilityOf(priced('2027-03-02', '2027-03-04', [night('2027-03-02', 'STOP_SELL')]), true)).toMatchObject({
      status: 'AVAILABLE',
      nightsRequested: 2,
      unavailableNights: [],
    });
  });

  it('lists exactly the unavailable nights and the unit shortfalls: PARTIALLY_AVAILABLE when some nights fit', () => {
    // act
    const a = availabilityOf(
      priced('2027-03-02', '2027-03-06', [
        night('2027-03-05', 'NOT_ENOUGH_UNITS', { requiredUnits: 2, availableUnits: 1 }),
        night('2027-03-03', 'STOP_SELL'),
        night('2027-03-05', 'MAXIMUM_STAY', { stayLimit: 3 }),
      ]),
      false,
    );
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
    expect(short).toEqual({
      status: 'UNAVAILABLE',
      nightsRequested: 1,
      unavailableNights: [],
      shortfalls: [],
      minimumStayViolations: [{ propertyId: 'p1', minimumNights: 3, requestedNights: 1 }],
    });
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
