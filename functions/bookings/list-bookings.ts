import { listBookings } from '../../domain/bookings/read-bookings.ts';
import { listBookingsRoute } from '../contracts/booking-reads.ts';
import { endpoint } from '../http/endpoint.ts';
import { bookingRowJson } from './booking-json.ts';

export const handler = endpoint(listBookingsRoute, async ({ principal, query, services }) => {
  const page = await listBookings(services, principal, query);
  return { status: 200, body: { data: page.bookings.map(bookingRowJson), nextCursor: page.nextCursor } };
});
