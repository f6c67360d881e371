/**
 * The partner flow of the service's README through the typed client: search, order, book,
 * amend, bill, pay in the sandbox, cancel, then a sandbox test clock. CI runs this file against the local stack
 * (test/e2e/typescript-client.test.ts), so every call here is known to work as written.
 */
import { createPartnerClient, PartnerApiError } from '../src/index.ts';

export interface FlowInput {
  /** `http://localhost:3000` under `npm start`. */
  readonly baseUrl: string;
  /** An agent-group key (`pds_demo_group_tripkart_agents_01` in the demo world). */
  readonly apiKey: string;
  readonly state: string;
  readonly checkIn: string;
  readonly checkOut: string;
  /** The night added by the amendment. */
  readonly newCheckOut: string;
  /** The billing period: any range holding today (India time). */
  readonly billFrom: string;
  readonly billTo: string;
  /**
   * Plays the partner paying the invoice's gateway order. In the sandbox that is the sandbox
   * gateway (`npm run admin -- gateway pay <invoiceId>`); in production, the partner's checkout.
   */
  readonly pay: (invoice: { readonly id: string; readonly gatewayOrderId: string; readonly total: number }) => Promise<void>;
}

export async function partnerFlow(input: FlowInput) {
  const pds = createPartnerClient({ baseUrl: input.baseUrl, apiKey: input.apiKey });

  // 1. Search: listings of the state free for the stay, with their prices.
  const found = await pds.POST('/v1/listings/search', {
    body: {
      rawParams: [
        { filterName: 'checkIn', filterValues: [input.checkIn] },
        { filterName: 'checkOut', filterValues: [input.checkOut] },
        { filterName: 'adults', filterValues: ['2'] },
        { filterName: 'state', filterValues: [input.state] },
      ],
    },
  });
  const listing = found.singleListings[0];
  if (!listing) throw new Error(`nothing free in ${input.state}`);

  // 2. Order: a priced quote kept for booking (the same body to /v1/orders/preview stores nothing).
  const order = await pds.POST('/v1/orders', { body: { listingId: listing.listingId, checkIn: input.checkIn, checkOut: input.checkOut, adults: 2 } });

  // 3. Book on credit at the order's grand total. A price that moved meanwhile is a 409 PRICE_MOVED
  //    carrying the new total: accept it (or not) and book again with the same externalBookingId.
  const booking = {
    orderId: order.orderId,
    externalBookingId: `EX-${order.orderId.slice(0, 8)}`,
    primaryGuest: { firstName: 'Asha', lastName: 'Rao', email: 'asha@example.com' },
  };
  const booked = await pds.POST('/v1/bookings', { body: { ...booking, acceptedTotal: order.summary.grandTotal } }).catch(async (error: unknown) => {
    if (!(error instanceof PartnerApiError) || error.code !== 'PRICE_MOVED') throw error;
    return pds.POST('/v1/bookings', { body: { ...booking, acceptedTotal: Number(error.body?.expectedTotal) } });
  });
  if (booked.status === 'PROCESSING' || !booked.bookingId)
    throw new Error(`booking ${booked.status}: poll GET /v1/bookings?externalBookingIds=${booking.externalBookingId}`);
  const bookingId = booked.bookingId;

  // 4. Amend: quote one more night (changes nothing), then apply the same body.
  const quote = await pds.PATCH('/v1/bookings/{bookingId}', { params: { path: { bookingId } }, body: { checkOut: input.newCheckOut } });
  if (!quote.amendable) throw new Error(`not amendable: ${quote.reason}`);
  const amendment = await pds.POST('/v1/bookings/{bookingId}/amendments', { params: { path: { bookingId } }, body: { checkOut: input.newCheckOut } });

  // 5. Bill: a GST tax invoice for the period, then the invoice and its PDF.
  const run = await pds.POST('/v1/invoices', { body: { from: input.billFrom, to: input.billTo } });
  const invoiceId = run.invoiceIds[0];
  if (!invoiceId) throw new Error('the billing run issued no invoice');
  const { invoice } = await pds.GET('/v1/invoices/{id}', { params: { path: { id: invoiceId } } });
  const pdf = await pds.GET('/v1/invoices/{id}/pdf', { params: { path: { id: invoiceId } }, parseAs: 'arrayBuffer' });

  // 6. Pay the invoice's gateway order; the gateway tells the service, and the invoice is PAID.
  await input.pay({ id: invoice.id, gatewayOrderId: invoice.gatewayOrderId!, total: invoice.total });
  const paid = (await pds.GET('/v1/invoices/{id}', { params: { path: { id: invoiceId } } })).invoice;

  // 7. Cancel: what cancelling would refund, then cancel.
  const refund = await pds.GET('/v1/bookings/{bookingId}/cancellation-quote', { params: { path: { bookingId } } });
  const cancelled = await pds.POST('/v1/bookings/{bookingId}/cancel', { params: { path: { bookingId } }, body: { reason: 'Guest changed plans' } });

  // Reconcile: every ledger entry of the booking, across pages (the helpers follow nextCursor).
  const entries = [];
  for await (const entry of pds.each('/v1/ledger', { query: { bookingIds: [bookingId], size: '50' } })) entries.push(entry);

  // 8. Sandbox stages only: put the group on a test clock and move it a day on (the billing and credit
  //    control due by then run in the advance), then read it back. An advanced clock stays: the group's
  //    records are dated on it, so it never returns to real time (use a group of its own for clocks).
  const clock = await pds.POST('/v1/test-clocks', { body: {} });
  const advanced = await pds.POST('/v1/test-clocks/{id}/advance', {
    params: { path: { id: clock.id } },
    body: { to: new Date(Date.parse(clock.now) + 24 * 3600 * 1000).toISOString() },
  });
  const clocks = await pds.GET('/v1/test-clocks');
  const readBack = await pds.GET('/v1/test-clocks/{id}', { params: { path: { id: clock.id } } });

  return { listing, order, booked, quote, amendment, invoice, pdf, paid, refund, cancelled, entries, clock, advanced, clocks, readBack };
}
