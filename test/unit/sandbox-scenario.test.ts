import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../domain/errors.ts';
import { SANDBOX_PRICE_MOVE_PERCENT, scenarioContext, scenarioResult } from '../../domain/sandbox/order-scenarios.ts';
import type { PricedOrder, PricingContext } from '../../domain/pricing/index.ts';
import { sandboxScenarioOf } from '../../functions/orders/order-json.ts';
import { parseConfig } from '../../infra/config.ts';
import type { Amendment } from '../../domain/bookings/amendment.ts';
import type { Booking } from '../../domain/bookings/booking.ts';
import type { AmendmentStore } from '../../domain/ports/amendment-store.ts';
import type { BookingStore } from '../../domain/ports/booking-store.ts';
import {
  AMENDMENT_FAILS,
  withAmendmentScenario,
  withBookingScenario,
  type ForcedScenario,
  type SandboxScenarioBook,
} from '../../domain/sandbox/workflow-scenarios.ts';
import { bookingOf } from '../../infra/dynamo/entities/booking.ts';
import { amendmentEntity } from '../../infra/dynamo/entities/amendment.ts';

const key32 = (): string => randomBytes(32).toString('base64');
const configFor = (stage: string) => parseConfig({ STAGE: stage, TABLE_NAME: 't', CURSOR_KEY: key32(), SECRETS_KEY: key32() });
const withHeader = (value: string | undefined) => ({ headers: value === undefined ? {} : { 'x-test-scenario': value } });

describe('Function: sandboxScenarioOf', () => {
  it.each(['price-moved', 'sold-out', 'no-such-scenario', ''])('ignores X-Test-Scenario %j entirely under a production configuration', (value) => {
    // prepare
    const production = configFor('prod');

    // act
    const scenario = sandboxScenarioOf(withHeader(value), production);

    // assess
    expect(production.isSandbox).toBe(false);
    expect(scenario).toBeUndefined();
  });

  it.each(['price-moved', 'sold-out'] as const)('passes %s through on a sandbox stage', (value) => {
    expect(sandboxScenarioOf(withHeader(value), configFor('test'))).toBe(value);
  });

  it('is undefined on a sandbox stage without the header', () => {
    expect(sandboxScenarioOf(withHeader(undefined), configFor('local'))).toBeUndefined();
  });

  it('refuses an unknown value on a sandbox stage with a 400 naming X-Test-Scenario', () => {
    // act
    const attempt = () => sandboxScenarioOf(withHeader('half-price'), configFor('test'));

    // assess
    expect(attempt).toThrow(ValidationError);
    expect(attempt).toThrow(expect.objectContaining({ param: 'X-Test-Scenario' }));
  });
});

describe('Function: scenarioContext', () => {
  const context = (rateAdjustmentPercent: number) => ({ channel: { channelId: 'c', name: 'C', rateAdjustmentPercent } }) as unknown as PricingContext;

  it(`moves the channel's rates by ${SANDBOX_PRICE_MOVE_PERCENT} % for price-moved and leaves other scenarios alone`, () => {
    expect(scenarioContext(context(-10), 'price-moved').channel.rateAdjustmentPercent).toBe(-10 + SANDBOX_PRICE_MOVE_PERCENT);
    expect(scenarioContext(context(-10), 'sold-out').channel.rateAdjustmentPercent).toBe(-10);
    expect(scenarioContext(context(-10), undefined).channel.rateAdjustmentPercent).toBe(-10);
  });

  it('moves the rates down when the channel is already at the highest adjustment', () => {
    expect(scenarioContext(context(200), 'price-moved').channel.rateAdjustmentPercent).toBe(200 - SANDBOX_PRICE_MOVE_PERCENT);
  });
});

describe('Function: scenarioResult', () => {
  it('marks every item sold out for sold-out, every night short of units, and changes no amount', () => {
    // prepare
    const item = { checkIn: '2027-01-10', checkOut: '2027-01-12', soldOut: false, itemSubtotal: 300 };
    const breakdown = { selectedProperties: [{ propertyId: 'villa', quantity: 2 }], soldOutNights: [] };
    const priced = { currency: 'INR', items: [item], summary: { grandTotal: 300 }, breakdown } as unknown as PricedOrder;

    // act
    const soldOut = scenarioResult(priced, 'sold-out');

    // assess
    expect(soldOut.items).toEqual([{ ...item, soldOut: true }]);
    expect(soldOut.breakdown.soldOutNights).toEqual(
      ['2027-01-10', '2027-01-11'].map((date) => ({ propertyId: 'villa', date, reason: 'NOT_ENOUGH_UNITS', requiredUnits: 2, availableUnits: 0 })),
    );
    expect(soldOut.summary).toBe(priced.summary);
    expect(scenarioResult(priced, 'price-moved')).toBe(priced);
  });
});

/** A book that writes down what it is asked, in order, and answers `forced` from `recorded`. */
function recorder(recorded: Record<string, ForcedScenario> = {}) {
  const calls: string[] = [];
  const book: SandboxScenarioBook = {
    force: async (key, scenario) => void calls.push(`force ${key} ${scenario}`),
    forced: async (key) => {
      calls.push(`forced ${key}`);
      return recorded[key];
    },
  };
  return { calls, book };
}

describe('Function: withBookingScenario', () => {
  it("records the scenario under the new booking's bookingRef before the booking store opens it; a refused open leaves only the expiring record", async () => {
    // prepare
    const { calls, book } = recorder();
    const bookings = {
      open: async (b: Booking) => {
        calls.push(`open ${b.bookingRef}`);
        throw new Error('credit refused');
      },
      get: async () => undefined,
    } as unknown as BookingStore;

    // act
    const wrapped = withBookingScenario({ bookings }, 'booking-late', () => book);
    const attempt = await wrapped.bookings.open({ bookingRef: 'ref-1' } as Booking, {} as never, {} as never, {} as never).catch((e: unknown) => e);

    // assess
    expect(attempt).toEqual(new Error('credit refused'));
    expect(calls).toEqual(['force ref-1 booking-late', 'open ref-1']);
    expect(await wrapped.bookings.get('g', 'ref-1')).toBeUndefined();
  });

  it('leaves the dependencies as they are without a scenario, and never builds the book', () => {
    const deps = { bookings: {} as BookingStore };
    expect(withBookingScenario(deps, undefined, () => expect.unreachable('the book was built'))).toBe(deps);
  });
});

describe('Function: withAmendmentScenario', () => {
  /** A store whose begin and adjust write down their calls; adjust answers `done`. */
  function store(calls: string[]): AmendmentStore {
    return {
      begin: async (a: Amendment) => {
        calls.push(`begin ${a.amendmentId}`);
        return 'created' as const;
      },
      adjust: async (a: Amendment) => {
        calls.push(`adjust ${a.amendmentId}`);
        return { kind: 'done' } as const;
      },
      get: async () => undefined,
    } as unknown as AmendmentStore;
  }
  const adjust = (s: AmendmentStore, amendmentId: string) => s.adjust({ amendmentId } as Amendment, {} as never, {} as never, {} as never, null);

  it.each(['amendment-refused', 'amendment-fails'] as const)("%s: records it under the amendment's id before the amendment is begun", async (scenario) => {
    // prepare
    const { calls, book } = recorder();

    // act
    const wrapped = withAmendmentScenario({ amendments: store(calls) }, scenario, () => book);
    const begun = await wrapped.amendments.begin({ amendmentId: 'am-1' } as Amendment, 1, {} as never);

    // assess
    expect(begun).toBe('created');
    expect(calls).toEqual([`force am-1 ${scenario}`, 'begin am-1']);
  });

  it('amendment-fails: the adjust of the amendment it began fails, writing nothing, without reading the book', async () => {
    // prepare
    const { calls, book } = recorder();
    const wrapped = withAmendmentScenario({ amendments: store(calls) }, 'amendment-fails', () => book);
    await wrapped.amendments.begin({ amendmentId: 'am-1' } as Amendment, 1, {} as never);

    // act
    const outcome = await adjust(wrapped.amendments, 'am-1');

    // assess
    expect(outcome).toEqual({ kind: 'failed', reason: 'Sandbox scenario amendment-fails: the step after the channel failed.' });
    expect(outcome).toBe(AMENDMENT_FAILS);
    expect(calls).toEqual(['force am-1 amendment-fails', 'begin am-1']);
  });

  it('without a scenario (the sweeper, a resend): an amendment begun elsewhere is adjusted as its recorded scenario says, others are adjusted as usual', async () => {
    // prepare
    const { calls, book } = recorder({ 'am-fails': 'amendment-fails', 'am-refused': 'amendment-refused' });
    const wrapped = withAmendmentScenario({ amendments: store(calls) }, undefined, () => book);

    // act
    const outcomes = [
      await adjust(wrapped.amendments, 'am-fails'),
      await adjust(wrapped.amendments, 'am-refused'),
      await adjust(wrapped.amendments, 'am-none'),
    ];

    // assess
    expect(outcomes.map((o) => o.kind)).toEqual(['failed', 'done', 'done']);
    expect(calls).toEqual(['forced am-fails', 'forced am-refused', 'adjust am-refused', 'forced am-none', 'adjust am-none']);
  });

  it('without a scenario, begins and adjusts its own amendment as usual and never builds the book', async () => {
    // prepare
    const calls: string[] = [];
    const wrapped = withAmendmentScenario({ amendments: store(calls) }, undefined, () => expect.unreachable('the book was built'));

    // act
    await wrapped.amendments.begin({ amendmentId: 'am-1' } as Amendment, 1, {} as never);
    const outcome = await adjust(wrapped.amendments, 'am-1');

    // assess
    expect(outcome).toEqual({ kind: 'done' });
    expect(calls).toEqual(['begin am-1', 'adjust am-1']);
    expect(await wrapped.amendments.get('g', 'ref', 'am-1')).toBeUndefined();
  });

  it('a begin that fails after recording leaves only the expiring record', async () => {
    // prepare
    const { calls, book } = recorder();
    const amendments = Object.assign(store(calls), {
      begin: async () => {
        throw new Error('process died');
      },
    });

    // act
    const wrapped = withAmendmentScenario({ amendments }, 'amendment-fails', () => book);
    const attempt = await wrapped.amendments.begin({ amendmentId: 'am-1' } as Amendment, 1, {} as never).catch((e: unknown) => e);

    // assess
    expect(attempt).toEqual(new Error('process died'));
    expect(calls).toEqual(['force am-1 amendment-fails']);
  });
});

describe('Records stored with a scenario before it moved to the simulator', () => {
  it('read without it, a booking or an amendment', () => {
    const keys = { PK: 'GROUP#g', SK: 'X', entity: 'E' };
    expect(bookingOf({ ...keys, bookingRef: 'r', scenario: 'booking-late' })).not.toHaveProperty('scenario');
    expect(amendmentEntity.fromItem({ ...keys, amendmentId: 'a', scenario: null })).toEqual({ amendmentId: 'a' });
    expect(amendmentEntity.fromItem({ ...keys, amendmentId: 'a', scenario: 'amendment-refused' })).toEqual({ amendmentId: 'a' });
    expect(amendmentEntity.fromItem({ ...keys, amendmentId: 'a', scenario: 'amendment-fails' })).toEqual({ amendmentId: 'a' });
  });
});
