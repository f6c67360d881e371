import { auditOrigin } from '../http/audit-origin.ts';
import { applyAmendment } from '../../domain/bookings/amend-booking.ts';
import { bookingDeps } from '../../infra/container.ts';
import { applyAmendmentRoute } from '../contracts/amendments.ts';
import { endpoint } from '../http/endpoint.ts';
import { amendmentCommand, amendmentScenarioOf, appliedJson } from './amendment-json.ts';

export const handler = endpoint(applyAmendmentRoute, async ({ principal, params, body, services, event, state }) => ({
  status: 200,
  body: appliedJson(
    await applyAmendment(
      bookingDeps(services),
      principal,
      params.bookingId,
      amendmentCommand(body, amendmentScenarioOf(event, services.config)),
      auditOrigin(principal, state),
    ),
  ),
}));
