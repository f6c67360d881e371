import { auditOrigin } from '../http/audit-origin.ts';
import { applyAmendment } from '../../domain/bookings/amend-booking.ts';
import { withAmendmentScenario } from '../../domain/sandbox/workflow-scenarios.ts';
import { bookingDeps } from '../../infra/compose/bookings.ts';
import { applyAmendmentRoute } from '../contracts/amendments.ts';
import { endpoint } from '../http/endpoint.ts';
import { amendmentCommand, amendmentScenarioOf, appliedJson } from './amendment-json.ts';

export const handler = endpoint(applyAmendmentRoute, async ({ principal, params, body, services, event, state }) => {
  const scenario = amendmentScenarioOf(event, services.config);
  const deps = withAmendmentScenario(bookingDeps(services), scenario, () => services.scenarioBook);
  return {
    status: 200,
    body: appliedJson(await applyAmendment(deps, principal, params.bookingId, amendmentCommand(body, scenario), auditOrigin(principal, state))),
  };
});
