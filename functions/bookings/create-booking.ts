import { auditOrigin } from '../http/audit-origin.ts';
import { placeBooking } from '../../domain/bookings/place-booking.ts';
import { bookingDeps } from '../../infra/container.ts';
import { createBookingRoute } from '../contracts/bookings.ts';
import { endpoint } from '../http/endpoint.ts';
import { bookingCommand, bookingReplyJson, bookingScenarioOf } from './booking-reply-json.ts';

export const handler = endpoint(createBookingRoute, async ({ principal, body, services, event, state }) => {
  const reply = await placeBooking(
    bookingDeps(services),
    principal,
    bookingCommand(body, bookingScenarioOf(event, services.config)),
    auditOrigin(principal, state),
  );
  return { status: reply.status === 'PROCESSING' ? 202 : 200, body: bookingReplyJson(reply) };
});
