import { quoteAmendment } from '../../domain/bookings/amend-booking.ts';
import { bookingDeps } from '../../infra/compose/bookings.ts';
import { quoteAmendmentRoute } from '../contracts/amendments.ts';
import { endpoint } from '../http/endpoint.ts';
import { evaluationJson } from './amendment-json.ts';

export const handler = endpoint(quoteAmendmentRoute, async ({ principal, params, body, services }) => ({
  status: 200,
  body: evaluationJson(await quoteAmendment(bookingDeps(services), principal, params.bookingId, body)),
}));
