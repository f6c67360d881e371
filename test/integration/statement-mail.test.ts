import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { statementCsv } from '../../domain/ledger/ledger-csv.ts';
import { getStatement } from '../../domain/ledger/read-ledger.ts';
import { formatIndianGrouping, formatInr } from '../../domain/money.ts';
import { pdfText } from '../support/pdf-scan.ts';
import { seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { clockedMailGroup } from '../support/mailbox.ts';
import { principalOf } from '../support/stack.ts';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let world: InvoiceWorld;
beforeAll(async () => {
  world = await seedInvoiceWorld();
}, 120_000);

/**
 * The monthly statement on a test clock: each advance runs the group's share of the daily run
 * (dueWorkOn in infra/compose/sandbox.ts, as POST /v1/test-clocks/{id}/advance does); the mail is read from the local SES mailbox.
 */
describe('monthly statement e-mail on a test clock', () => {
  it("a clock jumping past the 1st is caught up on the 2nd: the previous month's statement goes once to each contact who chose statements, its PDF and CSV the same as GET /v1/statement's, audited; a later run sends nothing", async () => {
    // A reminder opt-out does not stop statements; leaving STATEMENTS out does.
    const { svc, g, addresses, start, billDay, advance, inbox } = await clockedMailGroup(world, [
      { who: 'ap', name: 'Asha', documents: ['STATEMENTS'] },
      { who: 'nostatements', documents: ['RECEIPTS', 'REMINDERS'] },
    ]);
    const [ap, noStatements] = addresses as [string, string];
    const statements = async (who: string) => (await inbox.forRecipient(who)).filter((m) => m.subject.startsWith('Statement '));
    // The booking's charge is in the clock's first month; the clock jumps past the 1st of the next
    // month to its 2nd, and that day's run sends the month missed.
    const month = start.slice(0, 7);
    const from = `${month}-01`;
    const to = addDays(`${billDay.slice(0, 7)}-01`, -1);
    const printed = (d: string) => d.split('-').reverse().join('-');
    const before = (await statements(ap)).filter((m) => m.subject.includes(printed(from))).length;
    expect(before).toBe(0);
    await advance(billDay);
    const [invoice] = (await svc.invoices.list(g.agentGroupId, { statuses: ['ISSUED'], limit: 10 })).invoices;
    expect(invoice).toBeDefined();

    const mine = (await statements(ap)).filter((m) => m.subject.includes(printed(from)));
    expect(mine).toHaveLength(1);
    const mail = mine[0]!;
    expect(mail.subject).toContain(`Statement ${printed(from)} to ${printed(to)}`);
    const csv = mail.attachments.find((a) => a.fileName === `statement-${from}-to-${to}.csv`);
    expect(csv).toBeDefined();

    const api = await getStatement(svc, principalOf(g), { from, to });
    expect(api.entries.length).toBeGreaterThan(0);
    // The message's figures are the API's: opening, the number of entries, closing (in rupees, Indian grouping).
    const rupees = (r: number) => formatInr(Math.round(r * 100));
    expect(mail.subject).toBe(`Statement ${printed(from)} to ${printed(to)}: closing balance ${rupees(api.closingBalance)}`);
    // The HTML part's table read as its text.
    for (const part of [mail.text, mail.html.replace(/<[^>]+>/g, ' ')]) {
      expect(part).toMatch(new RegExp(`Opening balance\\W+${escapeRegExp(rupees(api.openingBalance))}`));
      expect(part).toMatch(new RegExp(`Entries\\W+${api.entries.length}\\b`));
      expect(part).toMatch(new RegExp(`Closing balance\\W+${escapeRegExp(rupees(api.closingBalance))}`));
    }
    expect(csv!.content.toString('utf8')).toBe(statementCsv(api));
    const closingRow = csv!.content.toString('utf8').trim().split('\n').at(-1)!;
    expect(closingRow).toContain('CLOSING_BALANCE');
    expect(Number(closingRow.trim().split(',').at(-1)!.replace(/"/g, ''))).toBe(api.closingBalance);
    // The PDF beside it: the same statement printed, its closing balance in Indian grouping on the closing row.
    const pdf = mail.attachments.find((a) => a.fileName === `statement-${from}-to-${to}.pdf`);
    expect(pdf?.contentType).toBe('application/pdf');
    expect(pdf!.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const printedPdf = pdfText(pdf!.content);
    expect(printedPdf).toContain(`${printed(from)} to ${printed(to)}`);
    expect(printedPdf).toContain(`Closing balance ${formatIndianGrouping(Math.round(api.closingBalance * 100))}`);
    for (const e of api.entries) if (e.externalBookingId) expect(printedPdf).toContain(e.externalBookingId);
    const posted = api.entries.filter((e) => e.status === 'POSTED').reduce((t, e) => t + Math.round(e.amount * 100), 0);
    expect(Math.round(api.openingBalance * 100) + posted).toBe(Math.round(api.closingBalance * 100));
    expect(mail.text).not.toMatch(/guest/i);
    expect(await statements(noStatements)).toEqual([]);

    // A later run of the same month sends nothing again.
    await advance(addDays(billDay, 1));
    expect((await statements(ap)).filter((m) => m.subject.includes(printed(from)))).toHaveLength(1);
    const audited = (await svc.auditTrail.listTarget(`statement:${month}`)).filter((e) => e.action === 'mail.statement-sent' && e.account === g.agentGroupId);
    expect(audited).toHaveLength(1);
    expect(audited[0]!.after).toMatchObject({ from, to, closingBalance: api.closingBalance });
  }, 240_000);
});
