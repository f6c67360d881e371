import { listBookings } from '../../domain/bookings/read-bookings.ts';
import { listBookingsRoute } from '../contracts/booking-reads.ts';
import { endpoint } from '../http/endpoint.ts';
import { bookingRowJson } from './booking-json.ts';

export const handler = endpoint(listBookingsRoute, async ({ principal, query, services }) => {
  const page = await listBookings(services, principal, query);
  const paid = await services.bookingReads.paidOfBookings(principal.agentGroupId, page.bookings);
  return { status: 200, body: { data: page.bookings.map((b) => bookingRowJson(b, paid.get(b.bookingRef) ?? 0)), nextCursor: page.nextCursor } };
});
