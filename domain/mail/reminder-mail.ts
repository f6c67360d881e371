import type { AuditOrigin } from '../audit/audit-event.ts';
import { addDays, daysBetween } from '../catalogue/calendar.ts';
import { amountDueOf, type Invoice } from '../invoicing/invoice.ts';
import { printedDate } from '../invoicing/invoice-document.ts';
import { formatInr } from '../money.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { ReceivablesStore } from '../ports/receivables-store.ts';
import type { MailMessage } from '../ports/mailer.ts';
import { indiaToday } from '../reads/date-window.ts';
import { paymentTermsOf, type AgentGroup } from '../tenants.ts';
import { bankRows, escapeHtml, rows, sendOnce, type DocumentMailDeps } from './document-mail.ts';
import { recipientsOf, type FinanceContact } from './finance-contacts.ts';

/**
 * Payment reminders (docs/e-mail.md "Reminders"): one "due soon" before the due date and
 * "overdue" ones after it, on a schedule that follows the group's payment terms.
 */
export type ReminderStage =
  | { readonly kind: 'DUE_SOON'; readonly daysLeft: number }
  | { readonly kind: 'OVERDUE'; readonly step: number; readonly daysOverdue: number };

/** Days after the due date on which an overdue reminder goes; after the last, collections are an operator's. */
export const OVERDUE_STEPS = [1, 7, 14, 30] as const;

/**
 * How many days before its due date an invoice is "due soon": a third of the terms, at least
 * one day and at most seven (15-day terms: 5 days; 30: 7; 7: 2). Terms shorter than 3 days
 * leave no room: the invoice e-mail itself is the notice.
 */
export function dueSoonDays(terms: number): number | undefined {
  return terms < 3 ? undefined : Math.min(7, Math.max(1, Math.floor(terms / 3)));
}

/**
 * The reminder an invoice due on `dueDate` is at on `today`: the latest stage reached, so a
 * day the daily run missed (or a test clock's jump) sends that one stage, never the ones it
 * passed. undefined before the due-soon window.
 */
export function reminderStage(dueDate: string, today: string, terms: number): ReminderStage | undefined {
  const overdue = daysBetween(dueDate, today);
  if (overdue >= 1) {
    const step = [...OVERDUE_STEPS].reverse().find((s) => s <= overdue)!;
    return { kind: 'OVERDUE', step, daysOverdue: overdue };
  }
  const window = dueSoonDays(terms);
  const daysLeft = daysBetween(today, dueDate);
  return window !== undefined && daysLeft <= window ? { kind: 'DUE_SOON', daysLeft } : undefined;
}

const stageKey = (s: ReminderStage): string => (s.kind === 'DUE_SOON' ? 'reminder-due-soon' : `reminder-overdue-${s.step}`);

/**
 * The reminder's message: the invoice's number, amount due (₹, Indian grouping), due date
 * (DD-MM-YYYY as printed), how late it is, and how to pay (its bank-transfer details). No
 * bookings or guests. Where the group's terms put an account on hold for overdue invoices, the
 * day that happens (or that it has) is said.
 */
export function reminderMail(
  invoice: Invoice,
  stage: ReminderStage,
  group: Pick<AgentGroup, 'overdueHoldDays'>,
  contact: Pick<FinanceContact, 'email' | 'name'>,
): MailMessage {
  const number = invoice.invoiceNumber!;
  const due = formatInr(amountDueOf(invoice));
  const dueDate = printedDate(invoice.dueDate!);
  const greeting = contact.name ? `Dear ${contact.name},` : 'Hello,';
  const when =
    stage.kind === 'DUE_SOON'
      ? stage.daysLeft === 0
        ? 'today'
        : `in ${stage.daysLeft} day${stage.daysLeft === 1 ? '' : 's'}, on ${dueDate}`
      : `${stage.daysOverdue} day${stage.daysOverdue === 1 ? '' : 's'} ago, on ${dueDate}`;
  const intro =
    stage.kind === 'DUE_SOON'
      ? `A reminder that ${due} on invoice ${number} falls due ${when}.`
      : `Invoice ${number} is overdue: ${due} fell due ${when} and has not been received.`;
  const holdDays = group.overdueHoldDays;
  const hold =
    holdDays === undefined || holdDays === null
      ? undefined
      : stage.kind === 'OVERDUE' && stage.daysOverdue > holdDays
        ? 'While it is overdue your account is on hold: new bookings on credit are refused until it is paid.'
        : `If it is still unpaid after ${printedDate(addDays(invoice.dueDate!, holdDays))}, your account goes on hold and new bookings on credit are refused until it is paid.`;
  const figures = rows([
    ['Invoice', number],
    ['Invoice date', printedDate(invoice.issueDate!)],
    ['Amount due', due],
    ['Due date', dueDate],
  ]);
  const bank = bankRows(invoice);
  const bankIntro = 'Pay by bank transfer (NEFT, RTGS or IMPS) to your own account with us:';
  const closing =
    'If you have paid already, thank you: please ignore this message. This is an automated message; the invoice is in the e-mail it was sent with and in the API.';
  const paragraphs = [intro, ...(hold ? [hold] : [])];
  return {
    to: [contact.email],
    subject: stage.kind === 'DUE_SOON' ? `Reminder: invoice ${number}, ${due} due by ${dueDate}` : `Overdue: invoice ${number}, ${due} was due on ${dueDate}`,
    text: [greeting, '', ...paragraphs.flatMap((p) => [p, '']), figures.text, ...(bank ? ['', bankIntro, '', bank.text] : []), '', closing, ''].join('\n'),
    html: [
      `<p>${escapeHtml(greeting)}</p>`,
      ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
      figures.html,
      ...(bank ? [`<p>${escapeHtml(bankIntro)}</p>`, bank.html] : []),
      `<p style="color:#555">${escapeHtml(closing)}</p>`,
    ].join('\n'),
    tags: { kind: stageKey(stage), invoice: invoice.id },
  };
}

export type ReminderMailDeps = Omit<DocumentMailDeps, 'documents'> & {
  readonly receivables: Pick<ReceivablesStore, 'openDues'>;
  readonly metrics: Metrics;
};

export interface RemindersSent {
  readonly sent: number;
  readonly alreadySent: number;
  /** Invoices whose reminder SES refused for some contact (or could not be reached for): those claims were given back, so the next daily run sends them. */
  readonly failed: number;
}

/**
 * The day's reminders of one group, run by its share of the daily billing run (and so by a test
 * clock's advance) after credit control: each invoice still owing that has reached a stage
 * gets that stage's message once per contact who chose reminders. Nothing for a group on an
 * operator's hold (its account is being handled by hand) or whose mail is paused; a paid
 * invoice owes nothing and is not open, so its reminders stop. A refusal never fails the
 * billing run: it is counted (MailNotSent) and the next day's run sends what is missing.
 */
export async function mailPaymentReminders(
  deps: ReminderMailDeps,
  group: Pick<AgentGroup, 'agentGroupId' | 'onHold' | 'paymentTermsDays' | 'overdueHoldDays'>,
  origin: AuditOrigin,
): Promise<RemindersSent> {
  const none = { sent: 0, alreadySent: 0, failed: 0 };
  if (group.onHold) return none;
  const recipients = recipientsOf(await deps.financeContacts.get(group.agentGroupId), 'REMINDERS');
  if (recipients.length === 0) return none;
  const today = indiaToday(deps.clock.now());
  const terms = paymentTermsOf(group);
  const total = { ...none };
  for (const d of await deps.receivables.openDues(group.agentGroupId)) {
    if (d.amountDue <= 0 || !reminderStage(d.dueDate, today, terms)) continue;
    const invoice = await deps.invoices.get(group.agentGroupId, d.invoiceId);
    if (!invoice?.invoiceNumber || !invoice.dueDate || invoice.creditNoteFor || amountDueOf(invoice) <= 0) continue;
    const stage = reminderStage(invoice.dueDate, today, terms)!;
    try {
      const r = await sendOnce(deps, {
        agentGroupId: group.agentGroupId,
        what: `${stageKey(stage)}:${invoice.id}`,
        recipients,
        message: (contact) => reminderMail(invoice, stage, group, contact),
        origin,
        action: 'mail.reminder-sent',
        target: `invoice:${invoice.id}`,
        figures: { invoiceNumber: invoice.invoiceNumber, reminder: stageKey(stage), amountDue: amountDueOf(invoice) },
      });
      total.sent += r.sent;
      total.alreadySent += r.alreadySent;
    } catch {
      deps.metrics.count('MailNotSent');
      total.failed++;
    }
  }
  return total;
}
