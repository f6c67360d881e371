import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../domain/errors.ts';
import { SANDBOX_PRICE_MOVE_PERCENT, scenarioContext, scenarioResult } from '../../domain/sandbox/order-scenarios.ts';
import type { PricedOrder, PricingContext } from '../../domain/pricing/index.ts';
import { sandboxScenarioOf } from '../../functions/orders/order-json.ts';
import { parseConfig } from '../../infra/config.ts';

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
