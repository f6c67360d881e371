import { describe, expect, it } from 'vitest';
import type { Invoice } from '../../domain/invoicing/invoice.ts';
import { addContact, setMailPaused } from '../../domain/mail/finance-contacts.ts';
import { dueSoonDays, mailPaymentReminders, reminderMail, reminderStage, type ReminderMailDeps } from '../../domain/mail/reminder-mail.ts';
import type { MetricName } from '../../domain/ports/metrics.ts';
import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { InMemoryFinanceContactStore } from '../support/memory/in-memory-finance-contacts.ts';
import { InMemoryMailLog, RecordingMailer } from '../support/memory/in-memory-mail-log.ts';

const G = 'grp-remind';
const group = { agentGroupId: G, onHold: false, paymentTermsDays: 15, overdueHoldDays: 10 };

const invoice = (over: Partial<Invoice> = {}): Invoice =>
  ({
    id: 'inv-1',
    agentGroupId: G,
    status: 'ISSUED',
    invoiceNumber: 'I30/26-27/000042',
    issueDate: '2026-12-01',
    dueDate: '2026-12-16',
    total: 12_345_678,
    amountPaid: 0,
    creditedAmount: 0,
    payTo: { virtualAccountId: 'va_1', accountNumber: '2223330012345678', ifsc: 'RATN0VAAPIS', bankName: 'RBL Bank', beneficiaryName: 'Goa Villas Pvt Ltd' },
    ...over,
  }) as Invoice;

/** One invoice in a group whose India day is `today` (the clock at 10:00 IST). */
function world(inv: Invoice, today: string, mailer = new RecordingMailer()) {
  let n = 0;
  let now = new Date(`${today}T04:30:00Z`);
  const counted: MetricName[] = [];
  const deps: ReminderMailDeps & { mailLog: InMemoryMailLog; mailer: RecordingMailer; financeContacts: InMemoryFinanceContactStore } = {
    invoices: { get: async (g, id) => (g === inv.agentGroupId && id === inv.id ? inv : undefined) },
    receivables: {
      openDues: async () => [{ invoiceId: inv.id, dueDate: inv.dueDate!, amountDue: inv.total - (inv.amountPaid ?? 0) - (inv.creditedAmount ?? 0) }],
    },
    financeContacts: new InMemoryFinanceContactStore(),
    mailLog: new InMemoryMailLog(),
    mailer,
    metrics: { count: (m) => void counted.push(m) },
    clock: { now: () => now },
    ids: { uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` },
  };
  return { deps, counted, setDay: (day: string) => (now = new Date(`${day}T04:30:00Z`)) };
}

const contacts = async (deps: ReminderMailDeps) => {
  const cdeps = { financeContacts: deps.financeContacts as InMemoryFinanceContactStore, clock: deps.clock, ids: deps.ids };
  await addContact(cdeps, G, { email: 'ap@acme.example.in', name: 'Asha' }, TEST_OPERATOR);
  await addContact(cdeps, G, { email: 'cfo@acme.example.in', documents: ['RECEIPTS', 'STATEMENTS'] }, TEST_OPERATOR);
  return cdeps;
};

describe('the reminder schedule', () => {
  it('warns a third of the terms ahead (1 to 7 days), then on the 1st, 7th, 14th and 30th day overdue, always the latest stage reached', () => {
    expect([0, 2, 3, 7, 15, 30, 45].map(dueSoonDays)).toEqual([undefined, undefined, 1, 2, 5, 7, 7]);
    expect(reminderStage('2026-12-16', '2026-12-10', 15)).toBeUndefined();
    expect(reminderStage('2026-12-16', '2026-12-11', 15)).toEqual({ kind: 'DUE_SOON', daysLeft: 5 });
    expect(reminderStage('2026-12-16', '2026-12-16', 15)).toEqual({ kind: 'DUE_SOON', daysLeft: 0 });
    expect(reminderStage('2026-12-16', '2026-12-17', 15)).toEqual({ kind: 'OVERDUE', step: 1, daysOverdue: 1 });
    expect(reminderStage('2026-12-16', '2026-12-22', 15)).toEqual({ kind: 'OVERDUE', step: 1, daysOverdue: 6 });
    expect(reminderStage('2026-12-16', '2026-12-23', 15)).toEqual({ kind: 'OVERDUE', step: 7, daysOverdue: 7 });
    expect(reminderStage('2026-12-16', '2027-03-01', 15)).toEqual({ kind: 'OVERDUE', step: 30, daysOverdue: 75 });
    // Two-day terms: no due-soon window, only overdue.
    expect(reminderStage('2026-12-03', '2026-12-02', 2)).toBeUndefined();
  });
});

describe('the reminder e-mail', () => {
  it('says the number, amount due in rupees with Indian grouping, the India-format due date, when the hold comes and how to pay, in both parts', () => {
    const m = reminderMail(invoice({ amountPaid: 345_678 }), { kind: 'DUE_SOON', daysLeft: 5 }, group, { email: 'ap@acme.example.in', name: 'Asha' });
    expect(m.subject).toBe('Reminder: invoice I30/26-27/000042, ₹1,20,000.00 due by 16-12-2026');
    for (const part of [m.text, m.html])
      for (const shown of ['Asha', 'in 5 days, on 16-12-2026', '₹1,20,000.00', '01-12-2026', '26-12-2026', '2223330012345678', 'RATN0VAAPIS'])
        expect(part).toContain(shown);
    expect(m.tags).toEqual({ kind: 'reminder-due-soon', invoice: 'inv-1' });

    const late = reminderMail(invoice(), { kind: 'OVERDUE', step: 14, daysOverdue: 15 }, group, { email: 'a@b.in', name: null });
    expect(late.subject).toBe('Overdue: invoice I30/26-27/000042, ₹1,23,456.78 was due on 16-12-2026');
    expect(late.text).toContain('15 days ago');
    expect(late.text).toContain('your account is on hold');
    expect(
      reminderMail(invoice(), { kind: 'OVERDUE', step: 1, daysOverdue: 1 }, { overdueHoldDays: null }, { email: 'a@b.in', name: null }).text,
    ).not.toContain('hold');
  });
});

describe('sending the day’s reminders', () => {
  it('carries an unpaid invoice through due-soon and each overdue step, once each, only to contacts who chose reminders, audited', async () => {
    const w = world(invoice(), '2026-12-10');
    await contacts(w.deps);
    const sentOn: Record<string, string[]> = {};
    for (const day of [
      '2026-12-10',
      '2026-12-11',
      '2026-12-12',
      '2026-12-16',
      '2026-12-17',
      '2026-12-18',
      '2026-12-23',
      '2026-12-30',
      '2027-01-15',
      '2027-02-20',
    ]) {
      w.setDay(day);
      // The run may come twice a day (a redelivered message): nothing goes twice.
      await mailPaymentReminders(w.deps, group, TEST_OPERATOR);
      await mailPaymentReminders(w.deps, group, TEST_OPERATOR);
      sentOn[day] = w.deps.mailer.sent.splice(0).map((m) => `${m.to[0]} ${m.tags!.kind}`);
    }
    expect(sentOn).toEqual({
      '2026-12-10': [],
      '2026-12-11': ['ap@acme.example.in reminder-due-soon'],
      '2026-12-12': [],
      '2026-12-16': [],
      '2026-12-17': ['ap@acme.example.in reminder-overdue-1'],
      '2026-12-18': [],
      '2026-12-23': ['ap@acme.example.in reminder-overdue-7'],
      '2026-12-30': ['ap@acme.example.in reminder-overdue-14'],
      '2027-01-15': ['ap@acme.example.in reminder-overdue-30'],
      '2027-02-20': [],
    });
    expect(w.deps.mailLog.events.map((e) => [e.action, e.target, e.after!.reminder])).toEqual([
      ['mail.reminder-sent', 'invoice:inv-1', 'reminder-due-soon'],
      ['mail.reminder-sent', 'invoice:inv-1', 'reminder-overdue-1'],
      ['mail.reminder-sent', 'invoice:inv-1', 'reminder-overdue-7'],
      ['mail.reminder-sent', 'invoice:inv-1', 'reminder-overdue-14'],
      ['mail.reminder-sent', 'invoice:inv-1', 'reminder-overdue-30'],
    ]);
  });

  it('sends nothing for a paid invoice, a group on hold, or paused mail; a refusal is counted and sent by the next run', async () => {
    const paid = world(invoice({ amountPaid: 12_345_678 }), '2026-12-17');
    await contacts(paid.deps);
    expect(await mailPaymentReminders(paid.deps, group, TEST_OPERATOR)).toEqual({ sent: 0, alreadySent: 0, failed: 0 });

    const held = world(invoice(), '2026-12-17');
    await contacts(held.deps);
    expect((await mailPaymentReminders(held.deps, { ...group, onHold: true }, TEST_OPERATOR)).sent).toBe(0);

    const paused = world(invoice(), '2026-12-17');
    await setMailPaused(await contacts(paused.deps), G, true, TEST_OPERATOR);
    expect((await mailPaymentReminders(paused.deps, group, TEST_OPERATOR)).sent).toBe(0);
    expect(paused.deps.mailer.sent).toEqual([]);

    let refuse = true;
    const refused = world(invoice(), '2026-12-17', new RecordingMailer(() => refuse));
    await contacts(refused.deps);
    expect(await mailPaymentReminders(refused.deps, group, TEST_OPERATOR)).toEqual({ sent: 0, alreadySent: 0, failed: 1 });
    expect(refused.counted).toEqual(['MailNotSent']);
    refuse = false;
    refused.setDay('2026-12-18');
    expect(await mailPaymentReminders(refused.deps, group, TEST_OPERATOR)).toEqual({ sent: 1, alreadySent: 0, failed: 0 });
  });
});
