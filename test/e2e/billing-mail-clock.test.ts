import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { formatInr } from '../../domain/money.ts';
import { book, order, stay } from '../support/booking-world.ts';
import { seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { financeAddress, mailbox, noonIst } from '../support/mailbox.ts';
import { call, newAgentGroup, stack, type GroupFixture } from '../support/stack.ts';

/*
 * The monthly statement and the payment reminders as a partner meets them, every step over HTTP on the shared stack: a
 * finance contact who chose statements (POST /v1/finance-contacts), a booking (POST /v1/orders,
 * POST /v1/bookings), a sandbox test clock moved past the 1st (POST /v1/test-clocks/{id}/advance,
 * which runs the group's share of the daily run), the e-mail read from the local mailbox, and its
 * figures and CSV compared with what GET /v1/statement answers for the same month.
 */
let world: InvoiceWorld;
let g: GroupFixture;
beforeAll(async () => {
  world = await seedInvoiceWorld();
  g = await newAgentGroup({ channelId: world.channelId, paymentTermsDays: 15, overdueHoldDays: 10 });
}, 120_000);

const printed = (d: string) => d.split('-').reverse().join('-');
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('billing e-mails on a test clock, over HTTP', () => {
  it('carries the figures and the CSV GET /v1/statement answers for the month the test clock moved past', async () => {
    const contact = financeAddress('statements');
    const added = await call('POST', '/v1/finance-contacts', { key: g.apiKey, body: { email: contact, documents: ['STATEMENTS'] } });
    expect(added.status, added.text).toBe(201);
    const clock = await call('POST', '/v1/test-clocks', { key: g.apiKey, body: {} });
    expect(clock.status, clock.text).toBe(201);
    const booked = await book(g, await order(g, stay(world.registered, '2027-03-01', '2027-03-03')));
    expect([200, 202], booked.text).toContain(booked.status);

    // The booking's charge is in the clock's first month; the clock moves to the 2nd of the next, whose run sends the month.
    const start = (clock.body.now as string).slice(0, 10);
    const from = `${start.slice(0, 7)}-01`;
    const billDay = `${addDays(from, 32).slice(0, 8)}02`;
    const to = addDays(`${billDay.slice(0, 7)}-01`, -1);
    const moved = await call('POST', `/v1/test-clocks/${clock.body.id}/advance`, { key: g.apiKey, body: { to: noonIst(billDay).toISOString() } });
    expect(moved.status, moved.text).toBe(200);

    const mail = await mailbox(stack().env.SES_ENDPOINT!).waitFor(contact, new RegExp(`^Statement ${escapeRegExp(printed(from))} to `));
    const api = await call('GET', `/v1/statement?from=${from}&to=${to}`, { key: g.apiKey });
    expect(api.status, api.text).toBe(200);
    const { openingBalance, closingBalance, entries } = api.body as { openingBalance: number; closingBalance: number; entries: unknown[] };
    expect(entries.length).toBeGreaterThan(0);
    const rupees = (r: number) => formatInr(Math.round(r * 100));
    expect(mail.subject).toBe(`Statement ${printed(from)} to ${printed(to)}: closing balance ${rupees(closingBalance)}`);
    for (const part of [mail.text, mail.html.replace(/<[^>]+>/g, ' ')]) {
      expect(part).toMatch(new RegExp(`Opening balance\\W+${escapeRegExp(rupees(openingBalance))}`));
      expect(part).toMatch(new RegExp(`Entries\\W+${entries.length}\\b`));
      expect(part).toMatch(new RegExp(`Closing balance\\W+${escapeRegExp(rupees(closingBalance))}`));
    }
    // The attached CSV is byte for byte what the API answers for the month as CSV.
    const csv = await call('GET', `/v1/statement?from=${from}&to=${to}`, { key: g.apiKey, headers: { accept: 'text/csv' } });
    expect(csv.status, csv.text).toBe(200);
    expect(mail.attachments.find((a) => a.fileName === `statement-${from}-to-${to}.csv`)?.content.toString('utf8')).toBe(csv.text);
  }, 240_000);

  it('carries an unpaid invoice through its reminders to overdue on the test clock, to the contact who chose them; GET /v1/invoices then says since when', async () => {
    const h = await newAgentGroup({ channelId: world.channelId, paymentTermsDays: 15, overdueHoldDays: 10 });
    const contact = financeAddress('reminders');
    expect((await call('POST', '/v1/finance-contacts', { key: h.apiKey, body: { email: contact, documents: ['REMINDERS'] } })).status).toBe(201);
    const clock = await call('POST', '/v1/test-clocks', { key: h.apiKey, body: {} });
    expect(clock.status, clock.text).toBe(201);
    const booked = await book(h, await order(h, stay(world.registered, '2027-03-01', '2027-03-03')));
    expect([200, 202], booked.text).toContain(booked.status);
    const advance = async (day: string) => {
      const moved = await call('POST', `/v1/test-clocks/${clock.body.id}/advance`, { key: h.apiKey, body: { to: noonIst(day).toISOString() } });
      expect(moved.status, moved.text).toBe(200);
    };
    const billDay = `${addDays(`${(clock.body.now as string).slice(0, 7)}-01`, 32).slice(0, 8)}02`;
    await advance(billDay);
    const listed = await call('GET', '/v1/invoices', { key: h.apiKey });
    expect(listed.status, listed.text).toBe(200);
    const [invoice] = listed.body.data as { invoiceNumber: string; dueDate: string; amountDue: number }[];
    expect(invoice).toBeDefined();
    const inbox = mailbox(stack().env.SES_ENDPOINT!);
    const printedDue = printed(invoice!.dueDate);
    // Due soon a third of the 15-day terms ahead, then overdue on the 1st day after the due date.
    await advance(addDays(invoice!.dueDate, -5));
    await inbox.waitFor(contact, `Reminder: invoice ${invoice!.invoiceNumber}, ${formatInr(Math.round(invoice!.amountDue * 100))} due by ${printedDue}`);
    await advance(addDays(invoice!.dueDate, 1));
    const overdue = await inbox.waitFor(
      contact,
      new RegExp(`^Overdue: invoice ${escapeRegExp(invoice!.invoiceNumber)}, .* was due on ${escapeRegExp(printedDue)}$`),
    );
    expect(overdue.text).toContain('1 day ago');
    const after = await call('GET', '/v1/invoices', { key: h.apiKey });
    expect(after.body.data[0]).toMatchObject({ invoiceNumber: invoice!.invoiceNumber, overdueSince: addDays(invoice!.dueDate, 1) });
  }, 240_000);
});
