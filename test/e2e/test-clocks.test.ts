import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { SandboxPaymentGateway } from '../../infra/payments/sandbox-payment-gateway.ts';
import { book, order, stay } from '../support/booking-world.ts';
import { expectContract } from '../support/contract.ts';
import { BOOKING_TEST_TIMINGS } from '../support/global-setup.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { pollUntil } from '../support/poll.ts';
import { call, newAgentGroup, testServices, uniqueId, type GroupFixture } from '../support/stack.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

/*
 * Sandbox test clocks over HTTP on the shared stack: one group on a clock reaches every state
 * that only time produces (an order's validity and a check-in in the past; the booking window
 * and a late landing's watch; a stay started, then ended; an invoice billed when its period
 * closed, due, then overdue with a credit hold that a payment lifts), and a group beside it
 * keeps real time. Every step is an API call (the payment is the sandbox gateway's signed
 * notification); nothing is written to the table by hand.
 */
const PAYMENT_TERMS_DAYS = 7;
const CHECK_IN = '2027-03-01';
const CHECK_OUT = '2027-03-03';
/** The day after the period (anchor day 1) closes: the run after midnight India time bills it. */
const ISSUE_DATE = '2027-01-02';

let world: InvoiceWorld;
let receiver: Receiver;
let g: GroupFixture;
let other: GroupFixture;
let clockId: string;
let bookingId: string;
let otherBookingId: string;
let invoiceId: string;

const advance = (to: string, group = g, id = clockId) => call('POST', `/v1/test-clocks/${id}/advance`, { key: group.apiKey, body: { to } });
const tryBooking = async (group: GroupFixture) => book(group, await order(group, stay(world.registered, '2027-03-06', '2027-03-07')));
const clockNow = async (group = g, id = clockId) => Date.parse((await call('GET', `/v1/test-clocks/${id}`, { key: group.apiKey })).body.now);
const WINDOW_MS = Number(BOOKING_TEST_TIMINGS.BOOKING_WINDOW_SECONDS) * 1000;
const WATCH_MS = Number(BOOKING_TEST_TIMINGS.BOOKING_WATCH_SECONDS) * 1000;

beforeAll(async () => {
  [world, receiver] = await Promise.all([seedInvoiceWorld(), startReceiver()]);
  // overdueHoldDays 0: credit control holds the account the first day an invoice is overdue.
  [g, other] = await Promise.all([
    newAgentGroup({ channelId: world.channelId, paymentTermsDays: PAYMENT_TERMS_DAYS, overdueHoldDays: 0 }),
    newAgentGroup({ channelId: world.channelId, paymentTermsDays: PAYMENT_TERMS_DAYS, overdueHoldDays: 0 }),
  ]);
}, 120_000);

afterAll(async () => {
  await receiver?.close();
});

describe('Sandbox test clocks', () => {
  it("creates one clock for the caller's own group, starting at the real now; another group's id is a 404 and a second clock a 409", async () => {
    const before = Date.now();
    const created = await call('POST', '/v1/test-clocks', { key: g.apiKey, body: {} });
    expect(created.status, created.text).toBe(201);
    expectContract(created, 'createTestClock');
    clockId = created.body.id;
    expect(created.body).toMatchObject({ agentGroupId: g.agentGroupId, status: 'ready' });
    expect(Date.parse(created.body.now)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(created.body.advanceLimit) - Date.parse(created.body.createdAt)).toBeGreaterThanOrEqual(730 * 86_400_000);

    expect((await call('POST', '/v1/test-clocks', { key: g.apiKey })).status).toBe(409);
    const foreign = await call('POST', '/v1/test-clocks', { key: other.apiKey, body: { agentGroupId: g.agentGroupId } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'NOT_FOUND' });
    expect((await call('GET', `/v1/test-clocks/${clockId}`, { key: other.apiKey })).status).toBe(404);
    expect((await advance('2027-01-01T00:00:00Z', other)).status).toBe(404);
    expect((await call('DELETE', `/v1/test-clocks/${clockId}`, { key: other.apiKey })).status).toBe(404);
    expect((await call('GET', '/v1/test-clocks', { key: other.apiKey })).body).toEqual({ data: [] });
    const mine = await call('GET', '/v1/test-clocks', { key: g.apiKey });
    expectContract(mine, 'listTestClocks');
    expect(mine.body.data.map((c: { id: string }) => c.id)).toEqual([clockId]);
  });

  it("refuses a `to` before the clock's time, beyond two years of its creation, not an instant or not in the calendar (31 February once rolled over to 3 March), naming `to`, and leaves the clock where it was", async () => {
    const read = await call('GET', `/v1/test-clocks/${clockId}`, { key: g.apiKey });
    expectContract(read, 'getTestClock');
    const clock = read.body;
    for (const to of [
      new Date(Date.parse(clock.now) - 60_000).toISOString(),
      new Date(Date.parse(clock.advanceLimit) + 1000).toISOString(),
      '2027-01-01',
      'soon',
      '2027-02-31T00:00:00+05:30',
      '2027-02-29T12:00:00Z',
    ]) {
      const res = await advance(to);
      expect(res.status, to).toBe(400);
      expect(res.body, to).toMatchObject({ code: 'VALIDATION_FAILED', param: 'to' });
    }
    const after = (await call('GET', `/v1/test-clocks/${clockId}`, { key: g.apiKey })).body;
    expect(after.status).toBe('ready');
    expect(Date.parse(after.now) - Date.parse(clock.now)).toBeLessThan(60_000);
  });

  it("dates a booking and its callback at the clock's time", async () => {
    const moved = await advance('2026-12-15T10:00:00Z');
    expect(moved.status, moved.text).toBe(200);
    expectContract(moved, 'advanceTestClock');
    expect(moved.body.status).toBe('ready');
    expect(moved.body.now >= '2026-12-15T10:00:00').toBe(true);

    const path = `/cb/${uniqueId('clock')}`;
    const res = await book(g, await order(g, stay(world.registered, CHECK_IN, CHECK_OUT)), { callbackUrl: `${receiver.url}${path}` });
    expect(res.status, res.text).toBe(200);
    bookingId = res.body.bookingId;
    const [callback] = await receiver.waitFor(path, 1, 30_000);
    expect(callback!.body).toMatchObject({ eventType: 'booking.confirmed', bookingId });
    // The clock's day, not the real one (weeks earlier).
    expect((callback!.body as { occurredAt: string }).occurredAt.slice(0, 10)).toBe('2026-12-15');
    otherBookingId = await bookStay(other, world.registered, CHECK_IN, CHECK_OUT);
  }, 120_000);

  it("prices on the clock: an order is valid for the courtesy minutes from the clock's time", async () => {
    const before = await clockNow();
    const created = await call('POST', '/v1/orders', { key: g.apiKey, body: stay(world.registered, '2027-03-08', '2027-03-09') });
    expect(created.status, created.text).toBe(200);
    const validFor = Date.parse(created.body.validUntil) - before;
    expect(validFor).toBeGreaterThanOrEqual(testServices().config.orderValidityMinutes * 60_000);
    expect(validFor).toBeLessThan(testServices().config.orderValidityMinutes * 60_000 + 60_000);
  });

  // These two wait on the stack's real-time booking window (the late landing for most of its watch), so they run side by side
  // (docs/local-development.md, "Test tiers"): the window's booking is on a group and clock of its own, set to the same day,
  // and neither moves a clock.
  it.concurrent('closes the booking window on the clock (X-Test-Scenario booking-failed): FAILED, its callback dated on the clock', async ({ expect }) => {
    const own = await newAgentGroup({ channelId: world.channelId });
    const ownClock = await call('POST', '/v1/test-clocks', { key: own.apiKey, body: {} });
    expect(ownClock.status, ownClock.text).toBe(201);
    expect((await advance('2026-12-15T10:00:00Z', own, ownClock.body.id)).status).toBe(200);
    const before = await clockNow(own, ownClock.body.id);
    const path = `/cb/${uniqueId('window')}`;
    const res = await book(
      own,
      await order(own, stay(world.registered, '2027-03-08', '2027-03-09')),
      { callbackUrl: `${receiver.url}${path}` },
      { 'X-Test-Scenario': 'booking-failed' },
    );
    expect(res.status, res.text).toBe(202);
    // On real time the window (weeks later) would not have closed, so no callback would come. The bound
    // covers a look lost under load and recovered by the sweeper (a minute's grace on a one-minute schedule).
    const [callback] = await receiver.waitFor(path, 1, 180_000);
    const failed = callback!.body as { eventType: string; occurredAt: string; reasonCode: string };
    expect(failed).toMatchObject({ eventType: 'booking.failed', reasonCode: 'BOOKING_NOT_COMPLETED' });
    expect(failed.occurredAt.slice(0, 10)).toBe('2026-12-15');
    expect(Date.parse(failed.occurredAt) - before).toBeGreaterThanOrEqual(WINDOW_MS);
  }, 240_000);

  it.concurrent('measures a late landing on the clock (X-Test-Scenario booking-late): it lands half a window after the window closed, inside the watch, dated on the clock', async ({
    expect,
  }) => {
    const before = await clockNow();
    const path = `/cb/${uniqueId('late')}`;
    const res = await book(
      g,
      await order(g, stay(world.registered, '2027-03-08', '2027-03-09')),
      { callbackUrl: `${receiver.url}${path}` },
      { 'X-Test-Scenario': 'booking-late' },
    );
    expect(res.status, res.text).toBe(202);
    type Event = { eventType: string; occurredAt: string; bookingId: string };
    const events = () => receiver.requests.filter((r) => r.path === path).map((r) => r.body as Event);
    // On real time the landing (half a window after the failure, on the clock) would be weeks away.
    const confirmed = await pollUntil('the late landing', async () => events().find((e) => e.eventType === 'booking.confirmed'), { tries: 720 });
    const confirmedAt = Date.parse(confirmed.occurredAt);
    expect(confirmed.occurredAt.slice(0, 10)).toBe('2026-12-15');
    expect(confirmedAt - before).toBeGreaterThanOrEqual(1.5 * WINDOW_MS);
    // The simulator fixes the landing at the first look past the window, so the failure always comes first,
    // however late the worker looks; then the landing comes inside the watch, every instant the clock's.
    // (Deliveries are at least once: a resent callback repeats its event type, never the order.)
    expect([...new Set(events().map((e) => e.eventType))]).toEqual(['booking.failed', 'booking.confirmed']);
    const failed = events()[0]!;
    expect(Date.parse(failed.occurredAt) - before).toBeGreaterThanOrEqual(WINDOW_MS);
    expect(confirmedAt - Date.parse(failed.occurredAt)).toBeGreaterThanOrEqual(WINDOW_MS / 2);
    expect(confirmedAt - Date.parse(failed.occurredAt)).toBeLessThan(WATCH_MS);
    expect((await call('GET', `/v1/bookings/${confirmed.bookingId}`, { key: g.apiKey })).body).toMatchObject({
      status: 'CONFIRMED',
      bookingId: confirmed.bookingId,
    });
  }, 240_000);

  it('bills the period that closed when the clock passes midnight India time, through the advance alone', async () => {
    expect((await call('GET', '/v1/invoices', { key: g.apiKey })).body.data).toEqual([]);

    // The group's monthly period ends on its anchor day, the 1st: 00:30 on 2 January in India, 2 December to 1 January has closed.
    const moved = await advance(`${ISSUE_DATE}T00:30:00+05:30`);
    expect(moved.status, moved.text).toBe(200);

    const list = await call('GET', '/v1/invoices', { key: g.apiKey });
    expect(list.body.data).toHaveLength(1);
    const invoice = list.body.data[0];
    invoiceId = invoice.id;
    expect(invoice).toMatchObject({
      status: 'ISSUED',
      periodFrom: '2026-12-02',
      periodTo: '2027-01-01',
      issueDate: ISSUE_DATE,
      dueDate: addDays(ISSUE_DATE, PAYMENT_TERMS_DAYS),
      overdueSince: null,
    });
    // Dated on the clock, numbered from the clock's own series: never from the registration's, which groups on real time share.
    expect(invoice.invoiceNumber).toMatch(/^TI[0-9A-Z]{4}\/26\/000001$/);
    expect(invoice.amountDue).toBeGreaterThan(0);
    // The group beside it keeps real time: none of its periods has closed since it booked.
    expect((await call('GET', '/v1/invoices', { key: other.apiKey })).body.data).toEqual([]);
  }, 120_000);

  it('lets the invoice fall due, then go overdue (overdueSince) and put the account on hold, which refuses a booking', async () => {
    const dueDate = addDays(ISSUE_DATE, PAYMENT_TERMS_DAYS);
    expect((await advance(`${dueDate}T12:00:00+05:30`)).status).toBe(200);
    expect((await call('GET', `/v1/invoices/${invoiceId}`, { key: g.apiKey })).body.invoice).toMatchObject({ dueDate, overdueSince: null });
    expect((await tryBooking(g)).status).toBe(200);

    const moved = await advance(`${addDays(dueDate, 1)}T12:00:00+05:30`);
    expect(moved.body.status).toBe('ready');
    const inv = await call('GET', `/v1/invoices/${invoiceId}`, { key: g.apiKey });
    expect(inv.body.invoice).toMatchObject({ status: 'ISSUED', dueDate, overdueSince: addDays(dueDate, 1) });
    const held = await tryBooking(g);
    expect(held.status).toBe(402);
    expect(held.body).toMatchObject({ code: 'CREDIT_DENIED', reasonCode: 'ACCOUNT_ON_HOLD' });
    expect((await tryBooking(other)).status).toBe(200);
  }, 120_000);

  it('lifts the hold when the sandbox gateway announces the payment, dated on the clock', async () => {
    const invoice = (await call('GET', `/v1/invoices/${invoiceId}`, { key: g.apiKey })).body.invoice;
    const paidAt = new Date(await clockNow());
    const notice = new SandboxPaymentGateway(testServices().config.payments.webhookSecrets).capture(
      invoice.gatewayOrderId,
      Math.round(invoice.amountDue * 100),
      paidAt,
    );
    const announced = await call('POST', '/gateway/notifications', {
      rawBody: notice.body,
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': notice.headers['x-razorpay-signature']! },
    });
    expect(announced.status, announced.text).toBe(200);

    expect((await call('GET', `/v1/invoices/${invoiceId}`, { key: g.apiKey })).body.invoice).toMatchObject({ status: 'PAID', amountDue: 0 });
    const payments = (await call('GET', '/v1/ledger?type=PAYMENT&size=10', { key: g.apiKey })).body.data;
    expect(payments.map((e: { occurredAt: string }) => e.occurredAt.slice(0, 10))).toEqual([paidAt.toISOString().slice(0, 10)]);
    expect((await tryBooking(g)).status).toBe(200);
  }, 120_000);

  it("starts the stay (amendment and cancellation refused; a check-in before the clock's day refused), then ends it; the other group's same stay is untouched", async () => {
    expect((await advance(`${addDays(CHECK_IN, 1)}T09:00:00+05:30`)).status).toBe(200);
    // 1 March is months ahead in real time, but gone on the clock (2 March).
    const past = stay(world.registered, CHECK_IN, addDays(CHECK_IN, 1));
    const refused = await call('POST', '/v1/orders/preview', { key: g.apiKey, body: past });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(refused.body.message).toMatch(`in the past; the earliest is ${addDays(CHECK_IN, 1)}`);
    expect((await call('POST', '/v1/orders/preview', { key: other.apiKey, body: past })).status).toBe(200);
    const amend = await call('POST', `/v1/bookings/${bookingId}/amendments`, { key: g.apiKey, body: { checkOut: '2027-03-04' } });
    expect(amend.status).toBe(409);
    expect(amend.body).toMatchObject({ reasonCode: 'STAY_STARTED' });
    const cancel = await call('POST', `/v1/bookings/${bookingId}/cancel`, { key: g.apiKey, body: {} });
    expect(cancel.status).toBe(409);
    expect(cancel.body.message).toMatch(/began/);
    const quote = await call('GET', `/v1/bookings/${bookingId}/cancellation-quote`, { key: g.apiKey });
    expect(quote.body).toMatchObject({ cancellable: false });
    expect((await call('GET', `/v1/bookings/${otherBookingId}/cancellation-quote`, { key: other.apiKey })).body).toMatchObject({ cancellable: true });

    expect((await advance(`${CHECK_OUT}T11:00:00+05:30`)).status).toBe(200);
    const ended = await call('POST', `/v1/bookings/${bookingId}/amendments`, { key: g.apiKey, body: { checkOut: '2027-03-05' } });
    expect(ended.status).toBe(409);
    expect(ended.body).toMatchObject({ reasonCode: 'STAY_ENDED' });
    expect((await call('POST', `/v1/bookings/${bookingId}/cancel`, { key: g.apiKey, body: {} })).status).toBe(409);
    expect((await call('GET', `/v1/bookings/${bookingId}`, { key: g.apiKey })).body).toMatchObject({ status: 'CONFIRMED', checkOut: CHECK_OUT });
  }, 120_000);

  it('is not deleted once advanced (409 CLOCK_AHEAD): the group keeps its clock, with its stay, invoice and payment dated on it', async () => {
    const refused = await call('DELETE', `/v1/test-clocks/${clockId}`, { key: g.apiKey });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toMatchObject({ code: 'CONFLICT', reasonCode: 'CLOCK_AHEAD' });
    expectContract(refused, 'deleteTestClock');
    expect((await call('GET', `/v1/test-clocks/${clockId}`, { key: g.apiKey })).status).toBe(200);
    // Still on the clock: the stay has ended there.
    expect((await call('POST', `/v1/bookings/${bookingId}/cancel`, { key: g.apiKey, body: {} })).status).toBe(409);
  });

  it('is deleted while never advanced, after which the group is on real time again', async () => {
    const fresh = await newAgentGroup({ channelId: world.channelId });
    const created = await call('POST', '/v1/test-clocks', { key: fresh.apiKey, body: {} });
    expect(created.status).toBe(201);
    const deleted = await call('DELETE', `/v1/test-clocks/${created.body.id}`, { key: fresh.apiKey });
    expect(deleted.status).toBe(204);
    expect((await call('GET', `/v1/test-clocks/${created.body.id}`, { key: fresh.apiKey })).status).toBe(404);
    expect((await call('GET', '/v1/test-clocks', { key: fresh.apiKey })).body).toEqual({ data: [] });
  });
});
