import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { billAllGroups } from '../../domain/invoicing/scheduled-billing.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { billingDeps } from '../../infra/container.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { keys } from '../../infra/dynamo/keys.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { book, order, stay } from '../support/booking-world.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { call, newAgentGroup, stack, testServices, type GroupFixture } from '../support/stack.ts';

const today = () => indiaToday(new Date());

/**
 * The service's clock cannot be moved under offline, so an invoice's due date is moved
 * instead: written back in the table as if the days had passed.
 */
async function dueDaysAgo(g: GroupFixture, invoiceId: string, days: number): Promise<string> {
  const dueDate = addDays(today(), -days);
  await createDocumentClient(testServices().config).send(
    new UpdateCommand({
      TableName: testServices().config.tableName,
      Key: keys.invoice(g.agentGroupId, invoiceId),
      UpdateExpression: 'SET dueDate = :d',
      ExpressionAttributeValues: { ':d': dueDate },
    }),
  );
  return dueDate;
}

const extendByANight = (g: GroupFixture, bookingId: string) =>
  call('POST', `/v1/bookings/${bookingId}/amendments`, { key: g.apiKey, body: { checkOut: '2027-03-08' } });
const tryBooking = async (g: GroupFixture, world: InvoiceWorld) => book(g, await order(g, stay(world.registered, '2027-03-06', '2027-03-07')));

let world: InvoiceWorld;
beforeAll(async () => {
  world = await seedInvoiceWorld();
}, 120_000);

describe('Credit control: overdue invoices put the account on hold', () => {
  it('holds a group whose invoice is overdue past its terms (set with the admin tool) on the next payment, refuses bookings 402 ACCOUNT_ON_HOLD, and lifts it when the overdue invoice is paid', async () => {
    const g = await newAgentGroup({ channelId: world.channelId, paymentTermsDays: 30 });
    const set = await runAdminTool(['groups', 'update', g.agentGroupId, '--overdue-hold', '3', '--json']);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ overdueHoldDays: 3 });
    await bookStay(g, world.registered, '2027-03-01', '2027-03-02');
    const run = await call('POST', '/v1/invoices', { key: g.apiKey, body: { from: addDays(today(), -30), to: today() } });
    const invoiceId = run.body.invoiceIds[0] as string;

    // Overdue by 3 days: within the terms, no hold.
    await dueDaysAgo(g, invoiceId, 3);
    await runAdminTool(['payments', 'record', '--group', g.agentGroupId, '--amount', '50', '--reference', `UTR-A-${g.agentGroupId}`]);
    const before = await tryBooking(g, world);
    expect(before.status).toBe(200);
    const bookingId = before.body.bookingId as string;

    // Overdue by 4: the next evaluation (this payment) holds the account.
    const dueDate = await dueDaysAgo(g, invoiceId, 4);
    await runAdminTool(['payments', 'record', '--group', g.agentGroupId, '--amount', '50', '--reference', `UTR-B-${g.agentGroupId}`]);
    const held = await tryBooking(g, world);
    expect(held.status).toBe(402);
    expect(held.body).toMatchObject({ code: 'CREDIT_DENIED', reasonCode: 'ACCOUNT_ON_HOLD' });
    const inv = (await call('GET', `/v1/invoices/${invoiceId}`, { key: g.apiKey })).body.invoice;
    expect(inv).toMatchObject({ status: 'ISSUED', amountPaid: 100, amountDue: 5_150, dueDate, overdueSince: addDays(dueDate, 1) });
    // An amendment increase of the booking made before the hold is refused the same way, and changes nothing.
    const exposureHeld = (await call('GET', '/v1/ledger?size=1', { key: g.apiKey })).body.exposure;
    const increase = await extendByANight(g, bookingId);
    expect(increase.status).toBe(402);
    expect(increase.body).toMatchObject({ code: 'CREDIT_DENIED', reasonCode: 'ACCOUNT_ON_HOLD' });
    expect((await call('GET', `/v1/bookings/${bookingId}`, { key: g.apiKey })).body).toMatchObject({ checkOut: '2027-03-07', totalAmount: 5_250 });
    expect((await call('GET', '/v1/ledger?size=1', { key: g.apiKey })).body.exposure).toBe(exposureHeld);

    // Paying it through the gateway lifts the hold at once.
    const paid = await runAdminTool(['gateway', 'pay', invoiceId, '--group', g.agentGroupId, '--url', stack().baseUrl, '--json']);
    expect(paid.code, paid.stderr).toBe(0);
    expect((await call('GET', `/v1/invoices/${invoiceId}`, { key: g.apiKey })).body.invoice).toMatchObject({
      status: 'PAID',
      amountDue: 0,
      overdueSince: null,
    });
    expect((await tryBooking(g, world)).status).toBe(200);
    const lifted = await extendByANight(g, bookingId);
    expect(lifted.status, lifted.text).toBe(200);
    expect((await call('GET', `/v1/bookings/${bookingId}`, { key: g.apiKey })).body).toMatchObject({ checkOut: '2027-03-08', totalAmount: 10_500 });
  }, 240_000);

  it('is evaluated by the daily run for every group, and a group without the setting is never held', async () => {
    const strict = await newAgentGroup({ channelId: world.channelId, paymentTermsDays: 30 });
    const lax = await newAgentGroup({ channelId: world.channelId, paymentTermsDays: 30 });
    await runAdminTool(['groups', 'update', strict.agentGroupId, '--overdue-hold', '0']);
    const invoices: string[] = [];
    for (const g of [strict, lax]) {
      await bookStay(g, world.registered, '2027-03-01', '2027-03-02');
      invoices.push((await call('POST', '/v1/invoices', { key: g.apiKey, body: { from: addDays(today(), -30), to: today() } })).body.invoiceIds[0]);
    }
    await dueDaysAgo(strict, invoices[0]!, 1);
    await dueDaysAgo(lax, invoices[1]!, 200);

    // The daily run, limited to these two groups (others' tests share the table).
    const groups = await Promise.all([strict, lax].map(async (g) => (await testServices().tenants.getAgentGroup(g.agentGroupId))!));
    const outcomes = await billAllGroups(
      { ...billingDeps(testServices(), new PdfInvoiceRenderer()), tenants: { listAgentGroups: async () => groups } },
      { trigger: 'SCHEDULE' },
    );
    expect(outcomes.map((o) => o.outcome)).not.toContain('FAILED');

    expect((await tryBooking(strict, world)).body).toMatchObject({ reasonCode: 'ACCOUNT_ON_HOLD' });
    expect((await tryBooking(lax, world)).status).toBe(200);

    // Turning the setting off with the admin tool releases the group at the next evaluation.
    const off = await runAdminTool(['groups', 'update', strict.agentGroupId, '--overdue-hold', 'none', '--json']);
    expect(JSON.parse(off.stdout)).toMatchObject({ overdueHoldDays: null });
    const refreshed = (await testServices().tenants.getAgentGroup(strict.agentGroupId))!;
    await billAllGroups(
      { ...billingDeps(testServices(), new PdfInvoiceRenderer()), tenants: { listAgentGroups: async () => [refreshed] } },
      { trigger: 'SCHEDULE' },
    );
    expect((await tryBooking(strict, world)).status).toBe(200);
  }, 240_000);

  it('refuses a negative or fractional --overdue-hold naming the option', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    const bad = await runAdminTool(['groups', 'update', g.agentGroupId, '--overdue-hold', '-1']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/overdue-hold/);
  }, 60_000);
});
