import { cancellationQuote } from '../../domain/bookings/cancel-booking.ts';
import { bookingDeps } from '../../infra/compose/bookings.ts';
import { cancellationQuoteRoute } from '../contracts/bookings.ts';
import { endpoint } from '../http/endpoint.ts';
import { quoteJson } from './booking-reply-json.ts';

export const handler = endpoint(cancellationQuoteRoute, async ({ principal, params, services }) => {
  const deps = bookingDeps(services);
  const { booking, quote } = await cancellationQuote(deps, principal, params.bookingId);
  return { status: 200, body: quoteJson(booking, quote, deps.clock.now()) };
});
