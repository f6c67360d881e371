import { getBookingDetail } from '../../domain/bookings/read-bookings.ts';
import { getBookingRoute } from '../contracts/booking-reads.ts';
import { endpoint } from '../http/endpoint.ts';
import { bookingDetailJson } from './booking-json.ts';

export const handler = endpoint(getBookingRoute, async ({ principal, params, services }) => {
  const { booking, callbacks, amendments } = await getBookingDetail(services, principal, params.bookingId);
  const paid = await services.bookingReads.paidOfBookings(principal.agentGroupId, [booking]);
  return { status: 200, body: bookingDetailJson(booking, callbacks, amendments, paid.get(booking.bookingRef) ?? 0) };
});
