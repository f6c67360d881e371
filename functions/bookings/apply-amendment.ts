import { auditOrigin } from '../http/audit-origin.ts';
import { applyAmendment } from '../../domain/bookings/amend-booking.ts';
import { amendingDeps } from '../../infra/compose/bookings.ts';
import { applyAmendmentRoute } from '../contracts/amendments.ts';
import { endpoint } from '../http/endpoint.ts';
import { amendmentScenarioOf, appliedJson } from './amendment-json.ts';

export const handler = endpoint(applyAmendmentRoute, async ({ principal, params, body, services, event, state }) => {
  const deps = amendingDeps(services, amendmentScenarioOf(event, services.config));
  return {
    status: 200,
    body: appliedJson(await applyAmendment(deps, principal, params.bookingId, body, auditOrigin(principal, state))),
  };
});
