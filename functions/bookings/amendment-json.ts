import type * as v from 'valibot';
import type { AmendmentEvaluation, AmendmentReply } from '../../domain/bookings/amend-booking.ts';
import type { Breakdown } from '../../domain/bookings/amendment.ts';
import { toRupees } from '../../domain/money.ts';
import type { AmendmentScenario } from '../../domain/sandbox/workflow-scenarios.ts';
import type { Config } from '../../infra/config.ts';
import type { AmendmentAppliedSchema, AmendmentEvaluationSchema } from '../contracts/amendments.ts';
import { AMENDMENT_SCENARIO_VALUES } from '../contracts/amendments.ts';
import { sandboxHeader } from '../http/sandbox-header.ts';
import type { HttpEvent } from '../http/types.ts';

/** The scenario an amendment request asks for (sandbox stages only), recorded in the scenario book by the store amendingDeps wraps. */
export const amendmentScenarioOf = (event: Pick<HttpEvent, 'headers'>, config: Pick<Config, 'isSandbox'>): AmendmentScenario | undefined =>
  sandboxHeader(event, config, AMENDMENT_SCENARIO_VALUES);

const breakdownJson = (b: Breakdown) => ({
  stay: toRupees(b.stay),
  discount: toRupees(b.discount),
  meals: toRupees(b.meals),
  vas: toRupees(b.vas),
  tax: toRupees(b.tax),
  total: toRupees(b.total),
});

/** The contract's Amendment evaluation, money in rupees. */
export function evaluationJson(e: AmendmentEvaluation): v.InferOutput<typeof AmendmentEvaluationSchema> {
  return {
    bookingId: e.booking.bookingId!,
    amendable: e.amendable,
    reason: e.reason,
    checkIn: e.checkIn,
    checkOut: e.checkOut,
    availability: {
      status: e.availability.status,
      nightsRequested: e.availability.nightsRequested,
      unavailableNights: [...e.availability.unavailableNights],
      shortfalls: e.availability.shortfalls.map((s) => ({ ...s })),
      minimumStayViolations: e.availability.minimumStayViolations.map((m) => ({ ...m })),
    },
    pricing: e.pricing && {
      currency: 'INR',
      current: breakdownJson(e.pricing.current),
      amended: breakdownJson(e.pricing.amended),
      delta: breakdownJson(e.pricing.delta),
      warnings: [...e.pricing.warnings],
    },
    chargedTotal: toRupees(e.chargedTotal),
    guests: e.guests.map((g) => ({ ...g })),
  };
}

/** The contract's Amendment applied, money in rupees. */
export function appliedJson(r: AmendmentReply): v.InferOutput<typeof AmendmentAppliedSchema> {
  const a = r.amendment;
  return {
    bookingId: a.bookingId,
    amendmentId: a.amendmentId,
    checkIn: a.after.checkIn,
    checkOut: a.after.checkOut,
    previousTotal: toRupees(a.money.previousTotal),
    newTotal: toRupees(a.money.newTotal),
    delta: toRupees(a.money.delta),
    amendmentDelta: toRupees(a.money.amendmentDelta),
    rateDriftAbsorbed: toRupees(a.money.rateDriftAbsorbed),
    warnings: [...a.warnings],
    alreadyApplied: r.alreadyApplied,
  };
}
