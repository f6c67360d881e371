import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { SandboxPaymentGateway } from '../../infra/payments/sandbox-payment-gateway.ts';
import { createPartnerClient, PartnerApiError, type PartnerClient } from '../../clients/typescript/src/index.ts';
import { partnerFlow } from '../../clients/typescript/examples/partner-flow.ts';
import { seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { newAgentGroup, newPartner, stack, testServices, type GroupFixture } from '../support/stack.ts';

/**
 * The README's partner flow through the typed client only (clients/typescript, its example file):
 * search, order, book, amend, bill, pay in the sandbox, cancel. Onboarding (the catalogue, the group and its
 * key) is operator work and done with the admin functions, as an operator would.
 */
let world: InvoiceWorld;
let group: GroupFixture;
let pds: PartnerClient;
beforeAll(async () => {
  world = await seedInvoiceWorld();
  group = await newAgentGroup({ channelId: world.channelId, paymentTermsDays: 30 });
  pds = createPartnerClient({ baseUrl: stack().baseUrl, apiKey: group.apiKey });
}, 120_000);

describe('Client: the partner flow against the local stack', () => {
  it('runs the example partner flow: searches, orders, books, amends, bills, pays in the sandbox and cancels', async () => {
    const today = indiaToday(new Date());
    const gateway = new SandboxPaymentGateway(testServices().config.payments.webhookSecrets);

    const flow = await partnerFlow({
      baseUrl: stack().baseUrl,
      apiKey: group.apiKey,
      state: world.registeredState,
      checkIn: '2027-03-01',
      checkOut: '2027-03-03',
      newCheckOut: '2027-03-04',
      billFrom: addDays(today, -30),
      billTo: today,
      // The sandbox gateway announces the captured payment, signed as it signs every notification;
      // the client carries the exact bytes it signed.
      pay: async (invoice) => {
        const notice = gateway.capture(invoice.gatewayOrderId, Math.round(invoice.total * 100), new Date());
        const answer = await pds.POST('/gateway/notifications', { body: JSON.parse(notice.body), bodySerializer: () => notice.body, headers: notice.headers });
        expect([answer.invoiceId, answer.duplicate]).toEqual([invoice.id, false]);
      },
    });

    expect(flow.listing.listingId).toBe(world.registered);
    expect(flow.booked.status).toBe('CREATED');
    expect(flow.quote.amendable).toBe(true);
    expect([flow.amendment.checkOut, flow.amendment.newTotal]).toEqual(['2027-03-04', flow.quote.pricing!.amended.total]);
    expect(flow.invoice.total).toBe(flow.amendment.newTotal);
    expect(Buffer.from(flow.pdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(flow.paid).toMatchObject({ status: 'PAID', amountDue: 0 });
    expect(flow.cancelled.cancellation.refundAmount).toBe(flow.refund.refundAmount);
    expect((await pds.GET('/v1/bookings/{bookingId}', { params: { path: { bookingId: flow.booked.bookingId! } } })).status).toBe('CANCELLED');
    expect(flow.entries.map((e) => e.type)).toEqual(expect.arrayContaining(['CHARGE', 'ADJUSTMENT', 'REFUND']));
    expect(flow.advanced).toMatchObject({ id: flow.clock.id, status: 'ready' });
    expect(Date.parse(flow.advanced.now) - Date.parse(flow.clock.now)).toBeGreaterThanOrEqual(24 * 3600 * 1000);
    expect(flow.clocks.data.map((c) => c.id)).toEqual([flow.clock.id]);
    expect(flow.readBack.id).toBe(flow.clock.id);
    // An advanced clock stays (409 CLOCK_AHEAD): the group's records are dated on it.
    await expect(pds.DELETE('/v1/test-clocks/{id}', { params: { path: { id: flow.clock.id } } })).rejects.toMatchObject({ status: 409 });
    expect((await pds.GET('/v1/test-clocks')).data.map((c) => c.id)).toEqual([flow.clock.id]);
    // Some twenty calls, a billing run and a PDF among them: 28 s measured on a loaded shared machine.
  }, 180_000);

  it('throws PartnerApiError with the code and param of a 400, and a 404 for another tenant', async () => {
    const refused = await pds.GET('/v1/ledger', { params: { query: { size: '500' } } }).catch((e: unknown) => e);

    expect(refused).toBeInstanceOf(PartnerApiError);
    expect(refused).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', param: 'size', requestId: expect.any(String) });
    const missing = await pds.GET('/v1/bookings/{bookingId}', { params: { path: { bookingId: 'no-such-booking' } } }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('walks every cursor-paged list of a group a page at a time and finds what one large page holds', async () => {
    const other = await newAgentGroup({ channelId: world.channelId, paymentTermsDays: 30 });
    const client = createPartnerClient({ baseUrl: stack().baseUrl, apiKey: other.apiKey });
    for (const checkIn of ['2027-03-06', '2027-03-08']) {
      const o = await client.POST('/v1/orders', { body: { listingId: world.registered, checkIn, checkOut: addDays(checkIn, 1), adults: 2 } });
      await client.POST('/v1/bookings', {
        body: {
          orderId: o.orderId,
          externalBookingId: `page-${o.orderId.slice(0, 8)}`,
          acceptedTotal: o.summary.grandTotal,
          primaryGuest: { firstName: 'Ravi', lastName: 'Iyer', email: 'ravi.iyer@example.com' },
        },
      });
    }
    await client.POST('/v1/invoices', { body: { from: addDays(indiaToday(new Date()), -30), to: indiaToday(new Date()) } });

    const walked = async <T>(rows: AsyncIterable<T>) => {
      const all: T[] = [];
      for await (const row of rows) all.push(row);
      return all;
    };
    const ledger = await walked(client.each('/v1/ledger', { query: { size: '1' } }));
    expect(ledger).toEqual((await client.GET('/v1/ledger', { params: { query: { size: '100' } } })).data);
    expect(ledger.length).toBeGreaterThanOrEqual(2);
    const bookings = await walked(client.each('/v1/bookings', { query: { size: '1' } }));
    expect(bookings.map((b) => b.externalBookingId).sort()).toEqual(
      (await client.GET('/v1/bookings', { params: { query: { size: '100' } } })).data.map((b) => b.externalBookingId).sort(),
    );
    const invoices = await walked(client.each('/v1/invoices', { query: { size: '1' } }));
    expect(invoices).toHaveLength(1);
    expect(await walked(client.invoices.list({ size: '1' }).each())).toEqual(invoices);
    const listings = await walked(client.each('/v1/listings', { query: { size: '1' } }));
    expect(listings.map((l) => l.id).sort()).toEqual((await client.GET('/v1/listings', { params: { query: { size: '100' } } })).data.map((l) => l.id).sort());
    expect(listings.length).toBeGreaterThanOrEqual(2);

    const partner = createPartnerClient({ baseUrl: stack().baseUrl, apiKey: (await newPartner({ channelId: world.channelId })).apiKey });
    const endpoint = await partner.POST('/api/webhooks/endpoints', {
      body: { url: 'http://127.0.0.1:9/hooks', authType: 'HMAC', signingSecret: 'client-test-secret-0001' },
    });
    // /api/listings pages by offset: two at a time, the walk finds what one page of 100 holds.
    const byTwo = await walked(partner.partner.listings.list({ size: 2 }).each());
    const onePage = await partner.GET('/api/listings', { params: { query: { size: 100 } } });
    expect(byTwo.map((l) => l.id)).toEqual(onePage.data.map((l) => l.id));
    expect(byTwo).toHaveLength(onePage.total);
    expect(await walked(partner.each('/api/webhooks/endpoints/{id}/deliveries', { path: { id: endpoint.id }, query: { size: '1' } }))).toEqual([]);
    const feed = await walked(partner.pages('/api/changes', { query: { size: '100' } }));
    expect(feed.at(-1)!.data).toEqual([]);
    expect(feed.at(-1)!.nextCursor).toEqual(expect.any(String));
  }, 120_000);

  it('sends Accept-Encoding gzip and reads a gzip-compressed answer', async () => {
    const seen: { encoding: string | null; asked: string | null }[] = [];
    const partner = createPartnerClient({
      baseUrl: stack().baseUrl,
      apiKey: (await newPartner({ channelId: world.channelId })).apiKey,
      fetch: async (request) => {
        const response = await fetch(request);
        seen.push({ asked: request.headers.get('accept-encoding'), encoding: response.headers.get('content-encoding') });
        return response;
      },
    });

    const rates = await partner.GET('/api/rates', { params: { query: { listingIds: [world.registered], from: '2027-03-01', to: '2027-03-10' } } });

    expect(rates.length).toBeGreaterThan(0);
    expect(seen).toEqual([{ asked: 'gzip', encoding: 'gzip' }]);
  });
});
