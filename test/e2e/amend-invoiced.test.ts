import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { call, newAgentGroup, type GroupFixture } from '../support/stack.ts';

/** Where amendments meet invoicing: an invoiced booking is closed to amendment; an amended one bills to what was charged. */
const today = () => indiaToday(new Date());
const period = () => ({ from: addDays(today(), -30), to: today() });
const paise = (r: number) => Math.round(r * 100);

let world: InvoiceWorld;
beforeAll(async () => {
  world = await seedInvoiceWorld();
}, 120_000);

describe('Amendments of invoiced bookings', () => {
  let g: GroupFixture;
  let bookingId: string;
  beforeAll(async () => {
    g = await newAgentGroup({ channelId: world.channelId, paymentTermsDays: 30 });
    bookingId = await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    const run = await call('POST', '/v1/invoices', { key: g.apiKey, body: period() });
    expect(run.status).toBe(200);
    expect(run.body.invoiceIds).toHaveLength(1);
  }, 120_000);

  it('quotes amendable: false with reason INVOICED', async () => {
    const quote = await call('PATCH', `/v1/bookings/${bookingId}`, { key: g.apiKey, body: { checkOut: '2027-03-04' } });

    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({ amendable: false, reason: 'INVOICED' });
  });

  it('refuses the apply with 409 BOOKING_INVOICED and moves no money', async () => {
    const before = await call('GET', `/v1/ledger?bookingIds=${bookingId}`, { key: g.apiKey });

    const applied = await call('POST', `/v1/bookings/${bookingId}/amendments`, { key: g.apiKey, body: { checkOut: '2027-03-04' } });

    expect(applied.status).toBe(409);
    expect(applied.body.code).toBe('BOOKING_INVOICED');
    const after = await call('GET', `/v1/ledger?bookingIds=${bookingId}`, { key: g.apiKey });
    expect(after.body.data).toEqual(before.body.data);
  });
});

describe('Billing an amended booking', () => {
  it('bills the amended stay, its lines adding up to the charge plus the adjustment', async () => {
    const g = await newAgentGroup({ channelId: world.channelId, paymentTermsDays: 30 });
    const bookingId = await bookStay(g, world.registered, '2027-03-06', '2027-03-08');
    const applied = await call('POST', `/v1/bookings/${bookingId}/amendments`, { key: g.apiKey, body: { checkOut: '2027-03-09' } });
    expect(applied.status).toBe(200);
    expect(applied.body.delta).toBeGreaterThan(0);

    const run = await call('POST', '/v1/invoices', { key: g.apiKey, body: period() });

    expect(run.status).toBe(200);
    expect(run.body.unreconciledEntries).toEqual([]);
    expect(run.body.invoiceIds).toHaveLength(1);
    const detail = await call('GET', `/v1/invoices/${run.body.invoiceIds[0]}`, { key: g.apiKey });
    const stayNights = detail.body.lines.filter((l: { lineKind: string }) => l.lineKind === 'STAY').map((l: { nightDate: string }) => l.nightDate);
    expect(stayNights).toEqual(['2027-03-06', '2027-03-07', '2027-03-08']);
    expect(paise(detail.body.invoice.total)).toBe(paise(applied.body.newTotal));
  });
});
