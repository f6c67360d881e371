import { auditOrigin } from '../http/audit-origin.ts';
import { placeBooking } from '../../domain/bookings/place-booking.ts';
import { withOrderScenario } from '../../domain/sandbox/order-scenarios.ts';
import { withBookingScenario } from '../../domain/sandbox/workflow-scenarios.ts';
import { bookingDeps } from '../../infra/compose/bookings.ts';
import { createBookingRoute } from '../contracts/bookings.ts';
import { endpoint } from '../http/endpoint.ts';
import { bookingCommand, bookingReplyJson, bookingScenarioOf } from './booking-reply-json.ts';

export const handler = endpoint(createBookingRoute, async ({ principal, body, services, event, state }) => {
  const scenario = bookingScenarioOf(event, services.config);
  const deps = withBookingScenario(withOrderScenario(bookingDeps(services), scenario.pricing), scenario.workflow, () => services.scenarioBook);
  const reply = await placeBooking(deps, principal, bookingCommand(body), auditOrigin(principal, state));
  return { status: reply.status === 'PROCESSING' ? 202 : 200, body: bookingReplyJson(reply) };
});
