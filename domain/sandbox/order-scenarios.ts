import { MAX_RATE_ADJUSTMENT_PERCENT } from '../catalogue/channel.ts';
import { addDays, eachDate } from '../catalogue/calendar.ts';
import type { Pricer } from '../orders/load-pricing-context.ts';
import { priceOrder, type PricedOrder, type PricingContext, type SoldOutNight } from '../pricing/index.ts';

/**
 * Sandbox scenarios a partner can ask for on non-production stages (docs/sandbox.md), so
 * an integration can rehearse the answers it will rarely meet in production. They are a
 * pricer the edge puts in the order's dependencies (withOrderScenario); the order and booking
 * use cases price through whatever pricer they are given and never read a scenario.
 */
export const SANDBOX_SCENARIOS = ['price-moved', 'sold-out'] as const;
export type SandboxScenario = (typeof SANDBOX_SCENARIOS)[number];

/**
 * How far `price-moved` moves the channel's rates, in whole percent. Moving the rates, not
 * the total, keeps every summary identity true: the order is priced exactly as if the
 * catalogue had changed between two quotes.
 */
export const SANDBOX_PRICE_MOVE_PERCENT = 1;

/**
 * The context a scenario prices against: `price-moved` raises every base rate by
 * SANDBOX_PRICE_MOVE_PERCENT (lowers it when the channel is already at the highest
 * adjustment), so grandTotal differs from a real pricing whenever the stay has a rate.
 * This is the one place the move is applied.
 */
export function scenarioContext(context: PricingContext, scenario: SandboxScenario | undefined): PricingContext {
  if (scenario !== 'price-moved') return context;
  const current = context.channel.rateAdjustmentPercent;
  const moved =
    current + SANDBOX_PRICE_MOVE_PERCENT <= MAX_RATE_ADJUSTMENT_PERCENT ? current + SANDBOX_PRICE_MOVE_PERCENT : current - SANDBOX_PRICE_MOVE_PERCENT;
  return { ...context, channel: { ...context.channel, rateAdjustmentPercent: moved } };
}

/**
 * `sold-out` marks every item sold out, with every night of every chosen property short of
 * units (NOT_ENOUGH_UNITS, none available), so soldOut and the reasons agree as in a real
 * answer; the amounts stay those of a real pricing.
 */
export function scenarioResult(priced: PricedOrder, scenario: SandboxScenario | undefined): PricedOrder {
  if (scenario !== 'sold-out') return priced;
  const soldOutNights: SoldOutNight[] = priced.items.flatMap((item) =>
    [...eachDate(item.checkIn, addDays(item.checkOut, -1))].flatMap((date) =>
      priced.breakdown.selectedProperties.map(({ propertyId, quantity }) => ({
        propertyId,
        date,
        reason: 'NOT_ENOUGH_UNITS' as const,
        requiredUnits: quantity,
        availableUnits: 0,
      })),
    ),
  );
  return { ...priced, items: priced.items.map((item) => ({ ...item, soldOut: true })), breakdown: { ...priced.breakdown, soldOutNights } };
}

/** The pricing a scenario stands for: the real one, on a moved context or with a sold-out answer. */
export function scenarioPricer(scenario: SandboxScenario): Pricer {
  return ({ request, context }) => scenarioResult(priceOrder({ request, context: scenarioContext(context, scenario) }), scenario);
}

/** The dependencies as a request asking for `scenario` sees them (unchanged without one). */
export function withOrderScenario<D extends { readonly pricer?: Pricer }>(deps: D, scenario: SandboxScenario | undefined): D {
  return scenario ? { ...deps, pricer: scenarioPricer(scenario) } : deps;
}
