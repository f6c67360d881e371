import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { changeProblems, checkNotification, mappingDetails, planChanges, type ChangesNotification } from '../../domain/channel-manager/channex.ts';
import { RateRangeSchema } from '../../domain/world/world-schema.ts';
import { changesApiExample, multiOccupancyExample } from '../support/open-channel-examples.ts';
import { addDays } from '../../domain/catalogue/calendar.ts';
import {
  inventoryContent,
  parseRatePlans,
  ratePlansContent,
  ratePlansView,
  type DayData,
  type DayInventory,
  type PropertyMonth,
} from '../../domain/catalogue/day.ts';
import type { Property } from '../../domain/catalogue/property.ts';
import type { Stored } from '../../domain/catalogue/versioned.ts';
import { ValidationError } from '../../domain/errors.ts';
import { departureRestrictions, nightRestrictions, priceStay, staySellable } from '../../domain/pricing/index.ts';
import type { ListingView } from '../../domain/ports/catalogue-reader.ts';
import { openUnits } from '../../domain/search/listing-offer.ts';
import { daysOfMonth, monthStrings } from '../../domain/search/projection.ts';
import { ChannexChangesSchema, parseChannexChanges } from '../../functions/contracts/channel-manager.ts';
import { keyMatches } from '../../functions/http/middleware/channex-key.ts';

const TODAY = '2027-01-10';
const at = { createdAt: '2027-01-01T00:00:00.000Z', updatedAt: '2027-01-01T00:00:00.000Z' };
const property = {
  id: 'villa-a',
  listingId: 'hotel-1',
  name: 'Villa A',
  title: 'Villa A',
  applicableAdult: 4,
  maxAdults: 4,
  quantity: 2,
} as unknown as Stored<Property>;
const view = { listing: { id: 'hotel-1' }, properties: [property] } as unknown as ListingView;
const notification = (changes: unknown[]): ChangesNotification =>
  ({ type: 'changes_notification', attributes: { request_id: 'r-1', hotel_code: 'hotel-1', changes } }) as ChangesNotification;
const stored: PropertyMonth[] = [
  {
    propertyId: 'villa-a',
    month: '2027-02',
    days: { '01': { inventory: { quantity: 2, minimumStay: 2, maximumStay: 14, stopSell: false }, rates: {}, ...at } },
  },
];

describe('Channex mapping', () => {
  it('offers each property as a room type with its four meal plans, per person up to applicableAdult', () => {
    const details = mappingDetails(view);
    expect(details.data.attributes.room_types[0]!.rate_plans.map((p) => [p.id, p.sell_mode, p.max_persons, p.currency])).toEqual([
      ['villa-a:EP', 'per_person', 4, 'INR'],
      ['villa-a:CP', 'per_person', 4, 'INR'],
      ['villa-a:MAP', 'per_person', 4, 'INR'],
      ['villa-a:AP', 'per_person', 4, 'INR'],
    ]);
  });

  it('refuses only what cannot apply at all: an unknown (or unconnected) hotel and an impossible range, naming the path', () => {
    const refusal = (changes: unknown[]) => {
      try {
        checkNotification(notification(changes), view, 'data[0]');
        return undefined;
      } catch (err) {
        return (err as ValidationError).param;
      }
    };
    expect(
      refusal([{ type: 'availability_changes', attributes: { room_type_id: 'villa-a', date_from: '2027-02-03', date_to: '2027-02-01', availability: 1 } }]),
    ).toBe('data[0].attributes.changes[0].attributes.date_to');
    expect(
      refusal([{ type: 'availability_changes', attributes: { room_type_id: 'villa-a', date_from: '2027-02-30', date_to: '2027-03-01', availability: 1 } }]),
    ).toBe('data[0].attributes.changes[0].attributes.date_from');
    // An unknown room type or rate plan is reported, not refused (changeProblems).
    expect(
      refusal([{ type: 'availability_changes', attributes: { room_type_id: 'villa-b', date_from: '2027-02-01', date_to: '2027-02-01', availability: 1 } }]),
    ).toBeUndefined();
    expect(() => checkNotification(notification([]), undefined, 'data[0]')).toThrow(/Unknown hotel_code 'hotel-1'/);
  });

  it('applies the changes it knows and reports an unknown room type or rate plan, in the answer and on the record alike', () => {
    const n = notification([
      { type: 'availability_changes', attributes: { room_type_id: 'villa-gone', date_from: '2027-02-01', date_to: '2027-02-01', availability: 1 } },
      {
        type: 'restriction_changes',
        attributes: { room_type_id: 'villa-a', rate_plan_id: 'villa-a:XX', date_from: '2027-02-01', date_to: '2027-02-01', stop_sell: true },
      },
      { type: 'availability_changes', attributes: { room_type_id: 'villa-a', date_from: '2027-02-01', date_to: '2027-02-01', availability: 1 } },
    ]);
    const answer = changeProblems(n, view, 'data[0]', TODAY);
    expect(answer).toEqual([
      { path: 'data[0].attributes.changes[0].attributes.room_type_id', reason: expect.stringContaining("Unknown room_type_id 'villa-gone'") },
      { path: 'data[0].attributes.changes[1].attributes.rate_plan_id', reason: expect.stringContaining("Unknown rate_plan_id 'villa-a:XX'") },
    ]);
    const plan = planChanges(n, view, stored, 'data[0]', TODAY);
    expect(plan.notApplied).toEqual(answer);
    expect(plan.document.catalogue.inventory).toEqual([
      { propertyId: 'villa-a', from: '2027-02-01', to: '2027-02-01', quantity: 1, minimumStay: 2, maximumStay: 14, stopSell: false },
    ]);
  });

  it("replays the Open Channel page's Changes API example: availability 10 and a GBP rate are reported, the restrictions apply", () => {
    const n = notification(changesApiExample('villa-a', 'villa-a:EP', '2027-02-01', '2027-02-03'));
    const answer = changeProblems(n, view, 'data[0]', TODAY);
    expect(answer.map((w) => w.path)).toEqual([
      'data[0].attributes.changes[0].attributes.availability',
      'data[0].attributes.changes[1].attributes.rates[0].currency',
    ]);
    expect(answer[0]!.reason).toContain('availability 10 exceeds the 2 unit(s)');
    const plan = planChanges(n, view, stored, 'data[0]', TODAY);
    expect(plan.notApplied).toEqual(answer);
    expect(plan.document.catalogue.rates).toEqual([]);
    // The restrictions are the rate plan's: the room's own stay limits stay as stored.
    expect(plan.document.catalogue.inventory[0]).toMatchObject({
      from: '2027-02-01',
      stopSell: false,
      minimumStay: 2,
      maximumStay: 14,
      ratePlans: { EP: { stopSell: true, minimumStay: 1, minimumStayArrival: 1, maximumStay: 365, closedToArrival: false } },
    });
  });
});

describe('Channex changes → catalogue sync document', () => {
  it("merges a restriction-only change into the rate plan's restrictions on the stored day, keeping its units, and gives a day without inventory 0 units", () => {
    const plan = planChanges(
      notification([
        {
          type: 'restriction_changes',
          attributes: {
            room_type_id: 'villa-a',
            rate_plan_id: 'villa-a:EP',
            date_from: '2027-02-01',
            date_to: '2027-02-02',
            closed_to_arrival: true,
            max_stay: 0,
          },
        },
      ]),
      view,
      stored,
      'data[0]',
      TODAY,
    );
    expect(plan.document.catalogue.inventory).toEqual([
      {
        propertyId: 'villa-a',
        from: '2027-02-01',
        to: '2027-02-01',
        quantity: 2,
        minimumStay: 2,
        maximumStay: 14,
        stopSell: false,
        ratePlans: { EP: { closedToArrival: true, maximumStay: 365 } },
      },
      {
        propertyId: 'villa-a',
        from: '2027-02-02',
        to: '2027-02-02',
        quantity: 0,
        minimumStay: 1,
        maximumStay: 30,
        stopSell: false,
        ratePlans: { EP: { closedToArrival: true, maximumStay: 365 } },
      },
    ]);
    expect(plan.nights).toBe(2);
  });

  it('reads `min_stay` (sent when a channel supports one kind of minimum stay) as the minimum stay through, and min_stay_through over it', () => {
    const minStay = (extra: Record<string, unknown>) =>
      planChanges(
        notification([
          {
            type: 'restriction_changes',
            attributes: { room_type_id: 'villa-a', rate_plan_id: 'villa-a:EP', date_from: '2027-02-01', date_to: '2027-02-01', ...extra },
          },
        ]),
        view,
        stored,
        'data[0]',
        TODAY,
      ).document.catalogue.inventory[0]!.ratePlans;
    expect(minStay({ min_stay: 3 })).toEqual({ EP: { minimumStay: 3 } });
    expect(minStay({ min_stay: 3, min_stay_through: 4 })).toEqual({ EP: { minimumStay: 4 } });
  });

  it('turns per-occupancy rates into whole-rupee adult counts, one range per run of equal prices, later changes winning', () => {
    const rates = (from: string, to: string, two: string) => ({
      type: 'restriction_changes',
      attributes: {
        room_type_id: 'villa-a',
        rate_plan_id: 'villa-a:CP',
        date_from: from,
        date_to: to,
        rates: [
          { rate: two, currency: 'INR', fraction_size: 2, occupancy: 2 },
          { rate: '150.00', occupancy: 1 },
        ],
      },
    });
    const plan = planChanges(notification([rates('2027-03-01', '2027-03-10', '200.00'), rates('2027-03-05', '2027-03-05', '250')]), view, [], 'data[0]', TODAY);
    expect(plan.document.catalogue.rates).toEqual([
      { propertyId: 'villa-a', from: '2027-03-01', to: '2027-03-04', mealPlan: 'CP', adults: { '1': 150, '2': 200 } },
      { propertyId: 'villa-a', from: '2027-03-05', to: '2027-03-05', mealPlan: 'CP', adults: { '1': 150, '2': 250 } },
      { propertyId: 'villa-a', from: '2027-03-06', to: '2027-03-10', mealPlan: 'CP', adults: { '1': 150, '2': 200 } },
    ]);
    expect(plan.notApplied).toEqual([]);
  });

  it('keeps a rate with paise to the paisa: "150.50" goes into the sync document as 150.5 rupees (15050 paise once parsed)', () => {
    const sent = notification([
      {
        type: 'restriction_changes',
        attributes: {
          room_type_id: 'villa-a',
          rate_plan_id: 'villa-a:CP',
          date_from: '2027-02-01',
          date_to: '2027-02-01',
          rates: [
            { rate: '150.50', currency: 'INR', fraction_size: 2, occupancy: 1 },
            { rate: '0.07', occupancy: 2 },
            { rate: '99.990', occupancy: 3 },
          ],
        },
      },
    ]);
    const plan = planChanges(sent, view, stored, 'data[0]', TODAY);
    expect(plan.notApplied).toEqual([]);
    expect(plan.document.catalogue.rates).toEqual([
      { propertyId: 'villa-a', from: '2027-02-01', to: '2027-02-01', mealPlan: 'CP', adults: { '1': 150.5, '2': 0.07, '3': 99.99 } },
    ]);
    const parsed = v.parse(RateRangeSchema, plan.document.catalogue.rates[0]);
    expect(parsed.adults).toEqual({ '1': 15_050, '2': 7, '3': 9_999 });
  });

  it('reports what the catalogue cannot hold and applies the rest, never clamping', () => {
    const sent = notification([
      { type: 'availability_changes', attributes: { room_type_id: 'villa-a', date_from: '2027-02-01', date_to: '2027-02-01', availability: 3 } },
      {
        type: 'restriction_changes',
        attributes: {
          room_type_id: 'villa-a',
          rate_plan_id: 'villa-a:EP',
          date_from: '2027-02-01',
          date_to: '2027-02-01',
          rates: [
            { rate: '99.505', occupancy: 1 },
            { rate: '100.00', currency: 'GBP', occupancy: 2 },
            { rate: '100.00', occupancy: 5 },
            { rate: '120.00', occupancy: 3 },
          ],
        },
      },
      { type: 'availability_changes', attributes: { room_type_id: 'villa-a', date_from: '2027-01-01', date_to: '2027-01-11', availability: 1 } },
    ]);
    const plan = planChanges(sent, view, stored, 'data[0]', TODAY);
    expect(plan.notApplied.map((n) => n.path)).toEqual([
      'data[0].attributes.changes[2]',
      'data[0].attributes.changes[0].attributes.availability',
      'data[0].attributes.changes[1].attributes.rates[0].rate',
      'data[0].attributes.changes[1].attributes.rates[1].currency',
      'data[0].attributes.changes[1].attributes.rates[2].occupancy',
    ]);
    expect(plan.document.catalogue.rates).toEqual([{ propertyId: 'villa-a', from: '2027-02-01', to: '2027-02-01', mealPlan: 'EP', adults: { '3': 120 } }]);
    // The answer's warnings say the same at once, before anything is applied.
    expect(changeProblems(sent, view, 'data[0]', TODAY)).toEqual(plan.notApplied);
    // Only today and tomorrow of the past-straddling range are applied.
    expect(plan.document.catalogue.inventory).toEqual([
      { propertyId: 'villa-a', from: '2027-01-10', to: '2027-01-11', quantity: 1, minimumStay: 1, maximumStay: 30, stopSell: false },
    ]);
  });
});

describe('closed to arrival / departure and the arrival minimum stay in pricing', () => {
  const day = (extra: Partial<NonNullable<DayData['inventory']>>): DayData => ({
    inventory: { quantity: 1, minimumStay: 1, maximumStay: 30, stopSell: false, ...extra },
    rates: { EP: { '1': 100 } },
  });
  const days = new Map([
    [
      'villa-a',
      new Map([
        ['2027-02-01', day({ closedToArrival: true, minimumStayArrival: 3 })],
        ['2027-02-02', day({})],
        ['2027-02-03', day({ closedToDeparture: true })],
      ]),
    ],
  ]);

  it('refuses an arrival on a closed night and a short stay arriving then, but not a stay passing through it', () => {
    expect(nightRestrictions('villa-a', '2027-02-01', 1, 2, days.get('villa-a')!.get('2027-02-01'), 'EP', true).map((r) => [r.reason, r.stayLimit])).toEqual([
      ['CLOSED_TO_ARRIVAL', undefined],
      ['MINIMUM_STAY', 3],
    ]);
    expect(nightRestrictions('villa-a', '2027-02-01', 1, 2, days.get('villa-a')!.get('2027-02-01'), 'EP', false)).toEqual([]);
  });

  it('refuses a stay checking out on a date closed to departure, and sells one leaving a day earlier', () => {
    expect(departureRestrictions('villa-a', ['2027-02-02'], 1, days, 'EP').map((r) => [r.reason, r.date])).toEqual([['CLOSED_TO_DEPARTURE', '2027-02-03']]);
    const args = {
      occupancy: [{ propertyId: 'villa-a', unit: 1, adults: 1, children: 0 }],
      selected: [{ propertyId: 'villa-a', quantity: 1 }],
      properties: new Map([['villa-a', property]]),
      days,
      mealPlan: 'EP' as const,
    };
    expect(staySellable({ ...args, nights: ['2027-02-02'] })).toBe(false);
    expect(staySellable({ ...args, nights: ['2027-02-01'] })).toBe(false);
    expect(staySellable({ ...args, nights: ['2027-02-02', '2027-02-03'] })).toBe(true);
  });
});

describe("Channex's inbound key", () => {
  it('accepts any key of the ring and nothing else', () => {
    expect(keyMatches('new-key-0000000000000000000000', ['new-key-0000000000000000000000', 'old-key-0000000000000000000000'])).toBe(true);
    expect(keyMatches('old-key-0000000000000000000000', ['new-key-0000000000000000000000', 'old-key-0000000000000000000000'])).toBe(true);
    expect(keyMatches('new-key-000000000000000000000', ['new-key-0000000000000000000000'])).toBe(false);
    expect(keyMatches(undefined, ['new-key-0000000000000000000000'])).toBe(false);
    expect(keyMatches('anything', [])).toBe(false);
  });
});

describe('the changes body: plain changes checked without the generic walk', () => {
  const body = (changes: unknown[]) => ({ data: [{ type: 'changes_notification', attributes: { request_id: 'r-1', hotel_code: 'hotel-1', changes } }] });
  const availability = {
    type: 'availability_changes',
    attributes: { room_type_id: 'villa-a', rate_plan_id: null, date_from: '2027-02-01', date_to: '2027-02-03', availability: 1 },
  };
  // Keys in another order than the schema's, every optional field present: the output must still be the schema's.
  const restriction = {
    attributes: {
      max_stay: 0,
      rates: [{ occupancy: 2, rate: '5200.00', fraction_size: 2, currency: 'INR' }, { rate: '4000' }],
      date_to: '2027-02-03',
      stop_sell: false,
      closed_to_arrival: true,
      closed_to_departure: false,
      min_stay_arrival: 2,
      min_stay_through: 1,
      min_stay: 1,
      date_from: '2027-02-01',
      rate_plan_id: 'villa-a:EP',
      room_type_id: 'villa-a',
    },
    type: 'restriction_changes',
  };
  const valibotOf = (input: unknown) => v.safeParse(ChannexChangesSchema, input, { abortPipeEarly: true });

  it('gives what the schema gives for plain changes: the parsed body itself, not a copy', () => {
    const input = body([
      availability,
      restriction,
      { type: 'restriction_changes', attributes: { room_type_id: 'villa-a', rate_plan_id: 'villa-a:CP', date_from: '2027-02-01', date_to: '2027-02-01' } },
    ]);
    const out = parseChannexChanges(input);
    expect(out).toEqual(valibotOf(input).output);
    expect(out).toBe(input);
  });

  it('accepts keys it does not read at every level, as sent (the schema is loose): the parsed body itself', () => {
    const input = {
      data: [
        {
          type: 'changes_notification',
          id: 'n-1',
          attributes: {
            request_id: 'r-1',
            hotel_code: 'villa',
            extra: 1,
            changes: [
              { ...availability, meta: {}, attributes: { ...availability.attributes, colour: 'red' } },
              { ...restriction, attributes: { ...restriction.attributes, rates: [{ rate: '5200.00', tax: '0.00' }] } },
            ],
          },
        },
      ],
      meta: { batch: 1 },
    };
    const out = parseChannexChanges(input);
    expect(out).toEqual(valibotOf(input).output);
    expect(out).toBe(input);
  });

  it.each([
    ['a missing date_from', { ...availability, attributes: { ...availability.attributes, date_from: undefined } }, 'date_from'],
    ['a date_from that is a number', { ...availability, attributes: { ...availability.attributes, date_from: 20270201 } }, 'date_from'],
    [
      'a rate that is a number, beside a key not read',
      { ...restriction, attributes: { ...restriction.attributes, rates: [{ rate: 5200, tax: '0' }] } },
      'rates[0].rate',
    ],
  ])('still refuses %s beside keys it does not read, naming the field', (_, change, field) => {
    const input = body([{ ...(change as object), meta: { source: 'channex' } }]);
    expect(() => parseChannexChanges(input)).toThrow(
      expect.objectContaining({ name: 'ValidationError', param: `data[0].attributes.changes[0].attributes.${field}` }),
    );
  });

  it.each([
    ['an extra key', { ...availability, attributes: { ...availability.attributes, colour: 'red' } }],
    ['a fractional availability', { ...availability, attributes: { ...availability.attributes, availability: 1.5 } }],
    ['a rate that is a number', { ...restriction, attributes: { ...restriction.attributes, rates: [{ rate: 5200 }] } }],
    ['an array as a change', [availability]],
    ['an unknown type', { ...availability, type: 'price_changes' }],
  ])('leaves %s to the schema: the same output or the same 400', (_, change) => {
    const input = body([availability, change]);
    const expected = valibotOf(input);
    if (expected.success) {
      expect(parseChannexChanges(input)).toEqual(expected.output);
      return;
    }
    let thrown: unknown;
    try {
      parseChannexChanges(input);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).param).toMatch(/^data\[0\]\.attributes\.changes\[1\]/);
  });
});

describe('restrictions per room type × rate plan', () => {
  const days = (inventory: Record<string, unknown>[]): Map<string, Map<string, DayData>> => {
    const out = new Map<string, DayData>();
    for (const r of inventory) {
      const { propertyId: _p, from, to, ...inv } = r as unknown as { propertyId: string; from: string; to: string } & DayInventory;
      for (let d = from; d <= to; d = addDays(d, 1)) out.set(d, { inventory: inv as DayInventory, rates: { EP: { '1': 100 }, CP: { '1': 120 } } });
    }
    return new Map([['villa-a', out]]);
  };
  const stopCp = notification([
    { type: 'availability_changes', attributes: { room_type_id: 'villa-a', date_from: '2027-02-01', date_to: '2027-02-03', availability: 2 } },
    {
      type: 'restriction_changes',
      attributes: { room_type_id: 'villa-a', rate_plan_id: 'villa-a:CP', date_from: '2027-02-01', date_to: '2027-02-03', stop_sell: true },
    },
    {
      type: 'restriction_changes',
      attributes: { room_type_id: 'villa-a', rate_plan_id: 'villa-a:EP', date_from: '2027-02-02', date_to: '2027-02-02', min_stay_through: 1, max_stay: 0 },
    },
  ]);

  it("a plan's stop-sell closes that plan only: pricing, search's open units and the sellable check all see it", () => {
    const plan = planChanges(stopCp, view, [], 'data[0]', TODAY);
    expect(plan.notApplied).toEqual([]);
    const d = days(plan.document.catalogue.inventory);
    const cp = nightRestrictions('villa-a', '2027-02-02', 1, 1, d.get('villa-a')!.get('2027-02-02'), 'CP', true);
    expect(cp.map((r) => r.reason)).toEqual(['STOP_SELL']);
    expect(nightRestrictions('villa-a', '2027-02-02', 1, 1, d.get('villa-a')!.get('2027-02-02'), 'EP', true)).toEqual([]);
    const args = {
      occupancy: [{ propertyId: 'villa-a', unit: 1, adults: 1, children: 0 }],
      selected: [{ propertyId: 'villa-a', quantity: 1 }],
      properties: new Map([['villa-a', property]]),
      days: d,
      nights: ['2027-02-02'],
    };
    expect(staySellable({ ...args, mealPlan: 'EP' })).toBe(true);
    expect(staySellable({ ...args, mealPlan: 'CP' })).toBe(false);
    expect(openUnits(property, ['2027-02-02'], d, 'EP')).toBe(2);
    expect(openUnits(property, ['2027-02-02'], d, 'CP')).toBe(0);
  });

  it('keeps each plan its own values when plans differ (no last-plan-wins), and a later change of a plan merges into it', () => {
    const first = planChanges(stopCp, view, [], 'data[0]', TODAY).document.catalogue.inventory;
    expect(first.find((r) => r.from === '2027-02-02')).toMatchObject({
      quantity: 2,
      stopSell: false,
      ratePlans: { CP: { stopSell: true }, EP: { minimumStay: 1, maximumStay: 365 } },
    });
    const month: PropertyMonth = {
      propertyId: 'villa-a',
      month: '2027-02',
      days: Object.fromEntries([...days(first).get('villa-a')!].map(([date, day]) => [date.slice(8), { ...day, ...at }])),
    };
    const later = planChanges(
      notification([
        {
          type: 'restriction_changes',
          attributes: { room_type_id: 'villa-a', rate_plan_id: 'villa-a:CP', date_from: '2027-02-02', date_to: '2027-02-02', min_stay_arrival: 2 },
        },
      ]),
      view,
      [month],
      'data[0]',
      TODAY,
    );
    expect(later.document.catalogue.inventory).toEqual([
      {
        propertyId: 'villa-a',
        from: '2027-02-02',
        to: '2027-02-02',
        quantity: 2,
        minimumStay: 1,
        maximumStay: 30,
        stopSell: false,
        ratePlans: { EP: { minimumStay: 1, maximumStay: 365 }, CP: { stopSell: true, minimumStayArrival: 2 } },
      },
    ]);
  });

  it("refuses a plan's minimum stay above its maximum as sold (the room's limit where the plan sets none), reporting it", () => {
    const plan = planChanges(
      notification([
        {
          type: 'restriction_changes',
          attributes: { room_type_id: 'villa-a', rate_plan_id: 'villa-a:MAP', date_from: '2027-02-01', date_to: '2027-02-01', min_stay_through: 20 },
        },
      ]),
      view,
      stored,
      'data[0]',
      TODAY,
    );
    expect(plan.notApplied.map((n) => n.reason)).toEqual([
      expect.stringContaining('villa-a:MAP on 2027-02-01: the minimum stay (20) would exceed the maximum stay (14)'),
    ]);
    expect(plan.document.catalogue.inventory).toEqual([
      { propertyId: 'villa-a', from: '2027-02-01', to: '2027-02-01', quantity: 2, minimumStay: 2, maximumStay: 14, stopSell: false },
    ]);
  });

  it('shows partner reads each plan with restrictions of its own as sold (the room fills what the plan leaves out), and nothing for the others', () => {
    const inv: DayInventory = {
      quantity: 2,
      minimumStay: 2,
      maximumStay: 14,
      stopSell: false,
      closedToArrival: true,
      ratePlans: { CP: { stopSell: true }, AP: {} },
    };
    expect(ratePlansView(inv)).toEqual({ CP: { stopSell: true, minimumStay: 2, maximumStay: 14, closedToArrival: true, closedToDeparture: false } });
    expect(ratePlansView({ ...inv, ratePlans: undefined })).toBeUndefined();
  });

  it('carries rate-plan restrictions through the stored form and the search projection unchanged', () => {
    const rp = { CP: { stopSell: true, minimumStayArrival: 2 }, AP: { closedToDeparture: false, maximumStay: 7 } } as const;
    expect(parseRatePlans(ratePlansContent(rp))).toEqual(rp);
    expect(ratePlansContent({ EP: {} })).toBe('');
    const day: DayData = { inventory: { quantity: 1, minimumStay: 1, maximumStay: 30, stopSell: false, ratePlans: rp }, rates: { EP: { '1': 100 } } };
    const { units, rest } = monthStrings({ propertyId: 'villa-a', month: '2027-02', days: { '05': { ...day, ...at } } });
    expect(daysOfMonth('2027-02', units, rest).get('2027-02-05')).toEqual(day);
    expect(inventoryContent(day.inventory)).not.toBe(inventoryContent({ ...day.inventory!, ratePlans: undefined }));
  });
});

describe('max_persons: the most adults a unit takes, every occupancy priced', () => {
  const cottage = {
    id: 'cottage',
    listingId: 'hotel-1',
    name: 'Cottage',
    title: 'Cottage',
    applicableAdult: 2,
    maxAdults: 4,
    applicableChild: 0,
    extraAdultRate: 1_000,
    extraChildRate: 0,
    quantity: 1,
  } as unknown as Stored<Property>;
  const cottageView = { listing: { id: 'hotel-1' }, properties: [cottage] } as unknown as ListingView;

  it('offers max_persons = maxAdults and takes a rate for each occupancy up to it, reporting one above', () => {
    expect(mappingDetails(cottageView).data.attributes.room_types[0]!.rate_plans[0]!.max_persons).toBe(4);
    const n = notification([
      {
        type: 'restriction_changes',
        attributes: {
          room_type_id: 'cottage',
          rate_plan_id: 'cottage:EP',
          date_from: '2027-02-01',
          date_to: '2027-02-01',
          rates: [
            { rate: '3000.00', occupancy: 2 },
            { rate: '3600.00', occupancy: 3 },
            { rate: '4000.00', occupancy: 4 },
            { rate: '4500.00', occupancy: 5 },
          ],
        },
      },
    ]);
    const plan = planChanges(n, cottageView, [], 'data[0]', TODAY);
    expect(plan.notApplied.map((w) => w.path)).toEqual(['data[0].attributes.changes[0].attributes.rates[3].occupancy']);
    expect(plan.document.catalogue.rates).toEqual([
      { propertyId: 'cottage', from: '2027-02-01', to: '2027-02-01', mealPlan: 'EP', adults: { '2': 3000, '3': 3600, '4': 4000 } },
    ]);
  });

  it("replays the Open Channel page's Multi Occupancy example: each occupancy's rate held (in INR), the plan's stop-sell on that plan; in GBP every rate reported", () => {
    const inr = planChanges(notification(multiOccupancyExample('cottage', 'cottage:CP', '2027-02-01', '2027-02-03', 'INR')), cottageView, [], 'data[0]', TODAY);
    expect(inr.notApplied).toEqual([]);
    expect(inr.document.catalogue.rates).toEqual([
      { propertyId: 'cottage', from: '2027-02-01', to: '2027-02-03', mealPlan: 'CP', adults: { '1': 150, '2': 200, '3': 250 } },
    ]);
    expect(inr.document.catalogue.inventory).toEqual([
      {
        propertyId: 'cottage',
        from: '2027-02-01',
        to: '2027-02-03',
        quantity: 0,
        minimumStay: 1,
        maximumStay: 30,
        stopSell: false,
        ratePlans: { CP: { stopSell: true, closedToArrival: false, closedToDeparture: false, minimumStayArrival: 1, minimumStay: 1, maximumStay: 365 } },
      },
    ]);
    const gbp = planChanges(notification(multiOccupancyExample('cottage', 'cottage:CP', '2027-02-01', '2027-02-03')), cottageView, [], 'data[0]', TODAY);
    expect(gbp.notApplied.map((w) => w.path)).toEqual([0, 1, 2].map((j) => `data[0].attributes.changes[0].attributes.rates[${j}].currency`));
    expect(gbp.document.catalogue.rates).toEqual([]);
  });

  it("prices an occupancy above applicableAdult at its own rate when listed, else applicableAdult's rate plus extraAdultRate", () => {
    const day: DayData = { inventory: { quantity: 1, minimumStay: 1, maximumStay: 30, stopSell: false }, rates: { EP: { '2': 300_000, '4': 400_000 } } };
    const stay = (adults: number) =>
      priceStay({
        occupancy: [{ propertyId: 'cottage', unit: 1, adults, children: 0 }],
        selected: [{ propertyId: 'cottage', quantity: 1 }],
        properties: new Map([['cottage', cottage]]),
        nights: ['2027-02-01'],
        days: new Map([['cottage', new Map([['2027-02-01', day]])]]),
        mealPlan: 'EP',
        rateAdjustmentPercent: 0,
      }).unitNights[0]!;
    expect(stay(4)).toMatchObject({ occupancyRate: 400_000, extraAdults: 0, base: 400_000 });
    expect(stay(3)).toMatchObject({ occupancyRate: 300_000, extraAdults: 1, base: 300_000 + 1_000 });
    expect(stay(2)).toMatchObject({ occupancyRate: 300_000, extraAdults: 0, base: 300_000 });
  });
});
