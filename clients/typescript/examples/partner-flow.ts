/**
 * The partner flow of the service's README through the typed client's resource methods: search,
 * order, book, amend, bill, pay in the sandbox, cancel, then a sandbox test clock. CI runs it against
 * the local stack twice: from this repository (test/e2e/typescript-client.test.ts, which pays through the
 * sandbox gateway) and from the packed package installed in an empty folder
 * (`pds-partner-flow`, examples/run-partner-flow.ts; scripts/check-readme-and-client.sh).
 */
import { createPartnerClient, PriceMovedError } from '../src/index.ts';

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
  const found = await pds.listings.search({
    rawParams: [
      { filterName: 'checkIn', filterValues: [input.checkIn] },
      { filterName: 'checkOut', filterValues: [input.checkOut] },
      { filterName: 'adults', filterValues: ['2'] },
      { filterName: 'state', filterValues: [input.state] },
    ],
  });
  const listing = found.singleListings[0];
  if (!listing) throw new Error(`nothing free in ${input.state}`);

  // 2. Order: a priced quote kept for booking (the same body to /v1/orders/preview stores nothing).
  const order = await pds.orders.create({ listingId: listing.listingId, checkIn: input.checkIn, checkOut: input.checkOut, adults: 2 });

  // 3. Book on credit at the order's grand total. A price that moved meanwhile is a 409 PRICE_MOVED
  //    carrying the new total: accept it (or not) and book again with the same externalBookingId.
  const booking = {
    orderId: order.orderId,
    externalBookingId: `EX-${order.orderId.slice(0, 8)}`,
    primaryGuest: { firstName: 'Asha', lastName: 'Rao', email: 'asha@example.com' },
  };
  const booked = await pds.bookings.create({ ...booking, acceptedTotal: order.summary.grandTotal }).catch(async (error: unknown) => {
    if (!(error instanceof PriceMovedError) || error.expectedTotal === undefined) throw error;
    return pds.bookings.create({ ...booking, acceptedTotal: error.expectedTotal });
  });
  if (booked.status === 'PROCESSING' || !booked.bookingId)
    throw new Error(`booking ${booked.status}: poll GET /v1/bookings?externalBookingIds=${booking.externalBookingId}`);
  const bookingId = booked.bookingId;

  // 4. Amend: quote one more night (changes nothing), then apply the same body.
  const quote = await pds.bookings.quoteAmendment(bookingId, { checkOut: input.newCheckOut });
  if (!quote.amendable) throw new Error(`not amendable: ${quote.reason}`);
  const amendment = await pds.bookings.amend(bookingId, { checkOut: input.newCheckOut });

  // 5. Bill: a GST tax invoice for the period, then the invoice and its PDF.
  const run = await pds.invoices.create({ from: input.billFrom, to: input.billTo });
  const invoiceId = run.invoiceIds[0];
  if (!invoiceId) throw new Error('the billing run issued no invoice');
  const { invoice } = await pds.invoices.get(invoiceId);
  const pdf = await pds.invoices.pdf(invoiceId);

  // 6. Pay the invoice's gateway order; the gateway tells the service, and the invoice is PAID.
  await input.pay({ id: invoice.id, gatewayOrderId: invoice.gatewayOrderId!, total: invoice.total });
  const paid = (await pds.invoices.get(invoiceId)).invoice;

  // 7. Cancel: what cancelling would refund, then cancel.
  const refund = await pds.bookings.cancellationQuote(bookingId);
  const cancelled = await pds.bookings.cancel(bookingId, { reason: 'Guest changed plans' });

  // Reconcile: every ledger entry of the booking, across pages (each() follows nextCursor).
  const entries = [];
  for await (const entry of pds.ledger.list({ bookingIds: [bookingId], size: '50' }).each()) entries.push(entry);

  // 8. Sandbox stages only: put the group on a test clock and move it a day on (the billing and credit
  //    control due by then run in the advance), then read it back. An advanced clock stays: the group's
  //    records are dated on it, so it never returns to real time (use a group of its own for clocks).
  const clock = await pds.testClocks.create();
  const advanced = await pds.testClocks.advance(clock.id, { to: new Date(Date.parse(clock.now) + 24 * 3600 * 1000).toISOString() });
  const clocks = await pds.testClocks.list();
  const readBack = await pds.testClocks.get(clock.id);

  return { listing, order, booked, quote, amendment, invoice, pdf, paid, refund, cancelled, entries, clock, advanced, clocks, readBack };
}
