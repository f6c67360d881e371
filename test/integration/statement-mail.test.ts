import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { statementCsv } from '../../domain/ledger/ledger-csv.ts';
import { getStatement } from '../../domain/ledger/read-ledger.ts';
import { addContact } from '../../domain/mail/finance-contacts.ts';
import { advanceTestClock, createTestClock } from '../../domain/test-clocks/manage-test-clocks.ts';
import { dueWorkOn } from '../../functions/test-clocks/advance-test-clock.ts';
import { formatIndianGrouping } from '../../domain/money.ts';
import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { pdfText } from '../support/pdf-scan.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { financeAddress, mailbox, noonIst } from '../support/mailbox.ts';
import { newAgentGroup, principalOf, stack, testServices } from '../support/stack.ts';

let world: InvoiceWorld;
beforeAll(async () => {
  world = await seedInvoiceWorld();
}, 120_000);

/**
 * The monthly statement on a test clock: each advance runs the group's share of the daily run
 * (dueWorkOn, as POST /v1/test-clocks/{id}/advance does); the mail is read from the local SES mailbox.
 */
describe('monthly statement e-mail on a test clock', () => {
  it("a clock jumping past the 1st is caught up on the 2nd: the previous month's statement goes once to each contact who chose statements, its PDF and CSV the same as GET /v1/statement's, audited; a later run sends nothing", async () => {
    const svc = testServices();
    const g = await newAgentGroup({ channelId: world.channelId, paymentTermsDays: 15 });
    const [ap, noStatements] = [financeAddress('ap'), financeAddress('nostatements')];
    const cdeps = { financeContacts: svc.financeContacts, clock: svc.clock, ids: svc.ids };
    // A reminder opt-out does not stop statements; leaving STATEMENTS out does.
    await addContact(cdeps, g.agentGroupId, { email: ap, name: 'Asha', documents: ['STATEMENTS'] }, TEST_OPERATOR);
    await addContact(cdeps, g.agentGroupId, { email: noStatements, documents: ['RECEIPTS', 'REMINDERS'] }, TEST_OPERATOR);

    const deps = { testClocks: svc.testClocks, realClock: svc.realClock, ids: svc.ids, dueWork: dueWorkOn(svc) };
    const clock = await createTestClock(deps, principalOf(g), undefined);
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    const start = clock.setTo.slice(0, 10);
    const billDay = `${addDays(`${start.slice(0, 7)}-01`, 32).slice(0, 8)}02`;
    const advance = (day: string) => advanceTestClock(deps, principalOf(g), clock.id, noonIst(day));
    const inbox = mailbox(stack().env.SES_ENDPOINT!);
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
    expect(mail.text).toContain('Opening balance');
    expect(mail.html).toContain('Closing balance');
    const csv = mail.attachments.find((a) => a.fileName === `statement-${from}-to-${to}.csv`);
    expect(csv).toBeDefined();

    const api = await getStatement(svc, principalOf(g), { from, to });
    expect(api.entries.length).toBeGreaterThan(0);
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
