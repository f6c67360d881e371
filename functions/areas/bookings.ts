import { handler as applyAmendment } from '../bookings/apply-amendment.ts';
import { handler as cancelBooking } from '../bookings/cancel-booking.ts';
import { handler as cancellationQuote } from '../bookings/cancellation-quote.ts';
import { handler as createBooking } from '../bookings/create-booking.ts';
import { handler as getBooking } from '../bookings/get-booking.ts';
import { handler as listBookings } from '../bookings/list-bookings.ts';
import { handler as quoteAmendment } from '../bookings/quote-amendment.ts';
import { areaRouter } from '../http/area-router.ts';
import { handler as createOrder } from '../orders/create-order.ts';
import { handler as getOrder } from '../orders/get-order.ts';
import { handler as previewOrder } from '../orders/preview-order.ts';
import { handler as repriceOrder } from '../orders/reprice-order.ts';
import { handler as fallback } from '../system/fallback.ts';
import { bookingAdapters } from '../../infra/compose/adapters/bookings.ts';
import { wire } from '../../infra/compose/core.ts';

// The adapters this function uses beyond the core's (infra/compose/core.ts, wire; `npm run check:wiring` holds it to what its code reads).
wire(bookingAdapters);

/** Orders, bookings, cancellations and amendments: everything that prices a stay or changes a booking. */
export const handler = areaRouter(
  [
    previewOrder,
    createOrder,
    getOrder,
    repriceOrder,
    listBookings,
    getBooking,
    createBooking,
    cancelBooking,
    cancellationQuote,
    quoteAmendment,
    applyAmendment,
  ],
  fallback,
);
