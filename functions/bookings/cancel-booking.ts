import { auditOrigin } from '../http/audit-origin.ts';
import { cancelBooking } from '../../domain/bookings/cancel-booking.ts';
import { bookingDeps } from '../../infra/compose/bookings.ts';
import { cancelBookingRoute } from '../contracts/bookings.ts';
import { endpoint } from '../http/endpoint.ts';
import { cancelReplyJson } from './booking-reply-json.ts';

export const handler = endpoint(cancelBookingRoute, async ({ principal, params, body, services, state }) => ({
  status: 200,
  body: cancelReplyJson(await cancelBooking(bookingDeps(services), principal, params.bookingId, body?.reason, auditOrigin(principal, state))),
}));
