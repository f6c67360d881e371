import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { cancellationQuote } from '../../domain/bookings/cancel-booking.ts';
import { formatInr } from '../../domain/money.ts';
import { consoleAppDeps, type ConsoleAppDeps } from '../../functions/console/app.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { signedInAs } from '../support/console-session.ts';
import { bookStay, seedInvoiceWorld } from '../support/invoice-world.ts';
import { newAgentGroup, principalOf, testServices, type GroupFixture } from '../support/stack.ts';

/*
 * A partner's bookings in the console: found by check-in dates and status with GET /v1/bookings's own
 * filters, and a booking's page with its cancellation quote (GET …/cancellation-quote's use case) and
 * amendments. Read-only: no form changes anything, so there is no CSRF case here.
 */

let deps: ConsoleAppDeps;
let mine: GroupFixture;
let theirs: GroupFixture;
let bookingId: string;
let theirBookingId: string;
beforeAll(async () => {
  deps = consoleAppDeps(testServices(), 'https://console.test/console', new PdfInvoiceRenderer());
  const world = await seedInvoiceWorld();
  [mine, theirs] = await Promise.all([newAgentGroup({ channelId: world.channelId }), newAgentGroup({ channelId: world.channelId })]);
  [bookingId, theirBookingId] = await Promise.all([
    bookStay(mine, world.registered, '2027-03-01', '2027-03-03'),
    bookStay(theirs, world.registered, '2027-03-06', '2027-03-08'),
  ]);
}, 180_000);

const person = (g: GroupFixture, role: 'admin' | 'finance' | 'developer' | 'viewer') =>
  signedInAs(deps, { kind: 'partner', agentGroupId: g.agentGroupId, partnerId: g.partnerId, role });

describe('console: bookings by check-in dates and status, and a booking’s cancellation quote and amendments', () => {
  it('finds the account’s bookings by check-in window and status with the API’s 400s, never another account’s', async () => {
    const viewer = await person(mine, 'viewer');
    const inWindow = await viewer.get('/console/bookings?checkInFrom=2027-03-01&checkInTo=2027-03-31&status=CONFIRMED');
    expect(inWindow.statusCode).toBe(200);
    expect(inWindow.text).toContain(`/console/bookings/${bookingId}`);
    expect(inWindow.text).not.toContain(theirBookingId);
    expect(inWindow.text).toContain('<option value="CONFIRMED" selected>');
    const outside = await viewer.get('/console/bookings?checkInFrom=2027-04-01&checkInTo=2027-04-30');
    expect(outside.text).not.toContain(bookingId);
    expect(outside.text).toContain('No booking found.');
    expect((await viewer.get('/console/bookings?checkInFrom=2027-03-01&checkInTo=2027-03-31&status=CANCELLED')).text).not.toContain(bookingId);
    // Empty fields are absent filters, as an unfilled form sends them.
    expect((await viewer.get('/console/bookings?externalBookingId=&checkInFrom=&checkInTo=&status=')).text).toContain(bookingId);

    const reversed = await viewer.get('/console/bookings?checkInFrom=2027-03-31&checkInTo=2027-03-01');
    expect(reversed.statusCode).toBe(400);
    const badStatus = await viewer.get('/console/bookings?status=LOST');
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.text).toContain('status:');
    const badDate = await viewer.get('/console/bookings?checkInFrom=2027-02-30');
    expect(badDate.statusCode).toBe(400);
    expect(badDate.text).toContain('checkInFrom:');
  });

  it('shows a booking’s cancellation quote (as GET …/cancellation-quote) and its amendments; another account’s booking is 404; operators get 404', async () => {
    const developer = await person(mine, 'developer');
    const page = await developer.get(`/console/bookings/${bookingId}`);
    expect(page.statusCode).toBe(200);
    const { quote } = await cancellationQuote(testServices(), principalOf(mine), bookingId);
    expect(quote.cancellable).toBe(true);
    expect(page.text).toContain('<h2>Cancellation quote</h2>');
    expect(page.text).toContain(`<dt>Refund if cancelled today</dt><dd>${formatInr(quote.refundAmount)}</dd>`);
    expect(page.text).toContain(`<dt>Charged</dt><dd>${formatInr(quote.chargedAmount)}</dd>`);
    expect(page.text).toContain(`<dt>Refund share</dt><dd>${quote.refundPercentage}%</dd>`);
    expect(page.text).toContain('No amendment of this booking.');

    const missing = await developer.get(`/console/bookings/${randomUUID()}`);
    const other = await developer.get(`/console/bookings/${theirBookingId}`);
    expect(other.statusCode).toBe(404);
    expect(other.text).toBe(missing.text);
    const ops = await signedInAs(deps, { kind: 'operator', role: 'finance-operator' });
    expect((await ops.get(`/console/bookings/${bookingId}`)).statusCode).toBe(404);
    expect((await ops.get('/console/bookings?checkInFrom=2027-03-01')).statusCode).toBe(404);
  });
});
