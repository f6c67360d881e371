import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { formatInr } from '../../domain/money.ts';
import { seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { clockedMailGroup } from '../support/mailbox.ts';

let world: InvoiceWorld;
beforeAll(async () => {
  world = await seedInvoiceWorld();
}, 120_000);

/**
 * A test clock carries an unpaid invoice through its reminders: each advance runs the group's
 * share of the daily run exactly as POST /v1/test-clocks/{id}/advance does (dueWorkOn), and the
 * mail is read from the local SES mailbox.
 */
describe('payment reminders on a test clock', () => {
  it('bills the period, then e-mails due-soon (a third of the 15-day terms ahead), overdue on the 1st and 7th day, each once, only to the contact who chose reminders, each audited', async () => {
    // A monthly period anchored on the 1st closes on the 1st; the run after midnight India time bills it.
    const { svc, g, addresses, billDay, advance, inbox } = await clockedMailGroup(world, [
      { who: 'ap', name: 'Asha' },
      { who: 'noreminders', documents: ['RECEIPTS', 'STATEMENTS'] },
    ]);
    const [ap, optedOut] = addresses as [string, string];
    await advance(billDay);
    const [invoice] = (await svc.invoices.list(g.agentGroupId, { statuses: ['ISSUED'], limit: 10 })).invoices;
    expect(invoice).toBeDefined();
    const dueDate = invoice!.dueDate!;
    expect(dueDate).toBe(addDays(billDay, 15));

    const reminders = async () => (await inbox.forRecipient(ap)).filter((m) => /^(Reminder|Overdue):/.test(m.subject)).map((m) => m.subject);
    const due = formatInr(invoice!.total);
    const printed = dueDate.split('-').reverse().join('-');

    await advance(addDays(dueDate, -6));
    expect(await reminders()).toEqual([]);
    await advance(addDays(dueDate, -5));
    await advance(addDays(dueDate, -4));
    expect(await reminders()).toEqual([`Reminder: invoice ${invoice!.invoiceNumber}, ${due} due by ${printed}`]);
    await advance(addDays(dueDate, 1));
    await advance(addDays(dueDate, 7));
    const subjects = await reminders();
    expect(subjects).toEqual([
      `Reminder: invoice ${invoice!.invoiceNumber}, ${due} due by ${printed}`,
      `Overdue: invoice ${invoice!.invoiceNumber}, ${due} was due on ${printed}`,
      `Overdue: invoice ${invoice!.invoiceNumber}, ${due} was due on ${printed}`,
    ]);
    const last = (await inbox.forRecipient(ap)).at(-1)!;
    expect(last.text).toContain('7 days ago');
    expect(last.text).toContain(`If it is still unpaid after ${addDays(dueDate, 10).split('-').reverse().join('-')}`);
    expect(last.html).toContain(invoice!.invoiceNumber!);
    // It still receives the monthly statement it chose (statements are not reminders).
    expect((await inbox.forRecipient(optedOut)).filter((m) => /^(Reminder|Overdue):/.test(m.subject))).toEqual([]);

    const audited = (await svc.auditTrail.listTarget(`invoice:${invoice!.id}`)).filter((e) => e.action === 'mail.reminder-sent');
    expect(audited.map((e) => (e.after as { reminder: string }).reminder)).toEqual(['reminder-due-soon', 'reminder-overdue-1', 'reminder-overdue-7']);
  }, 240_000);
});
