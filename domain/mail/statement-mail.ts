import type { AuditOrigin } from '../audit/audit-event.ts';
import { addDays } from '../catalogue/calendar.ts';
import { printedDate } from '../invoicing/invoice-document.ts';
import { CSV_MEDIA_TYPE, statementCsv } from '../ledger/ledger-csv.ts';
import { PDF_MEDIA_TYPE, statementFileName, statementPdf } from '../ledger/statement-file.ts';
import { getStatement, type StatementView } from '../ledger/read-ledger.ts';
import { formatInr, parseRupees } from '../money.ts';
import type { BalanceStore } from '../ports/balance-store.ts';
import type { CreditLedger } from '../ports/credit-ledger.ts';
import type { MailMessage } from '../ports/mailer.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { StatementRenderer } from '../ports/statement-renderer.ts';
import { indiaToday } from '../reads/date-window.ts';
import type { AgentGroup } from '../tenants.ts';
import { escapeHtml, rows, sendOnce, type DocumentMailDeps } from './document-mail.ts';
import { recipientsOf, type FinanceContact } from './finance-contacts.ts';

/** The calendar month (India) before the one `today` is in: its first and last days. */
export function previousMonth(today: string): { readonly month: string; readonly from: string; readonly to: string } {
  const to = addDays(`${today.slice(0, 7)}-01`, -1);
  return { month: to.slice(0, 7), from: `${to.slice(0, 7)}-01`, to };
}

const rupees = (r: number): string => formatInr(parseRupees(r)!);

/**
 * The monthly statement's message: the period (DD-MM-YYYY), opening and closing balances and
 * how many entries, in rupees with Indian grouping; the statement itself attached as the PDF
 * and the CSV `GET /v1/statement` answers with `Accept: application/pdf` and `text/csv` (same
 * renderers, same figures). The entries carry booking references only, never a guest.
 */
export function statementMail(
  s: StatementView,
  period: { from: string; to: string },
  contact: Pick<FinanceContact, 'email' | 'name'>,
  pdf: Uint8Array,
): MailMessage {
  const greeting = contact.name ? `Dear ${contact.name},` : 'Hello,';
  const span = `${printedDate(period.from)} to ${printedDate(period.to)}`;
  const intro = `Your account statement for ${span} is attached as a PDF and as a CSV file (one row per entry, amounts in rupees).`;
  const figures = rows([
    ['Period', span],
    ['Opening balance', rupees(s.openingBalance)],
    ['Entries', String(s.entries.length)],
    ['Closing balance', rupees(s.closingBalance)],
  ]);
  const closing = 'The same statement is GET /v1/statement for this period. This is an automated message; for questions reply to your account manager.';
  return {
    to: [contact.email],
    subject: `Statement ${span}: closing balance ${rupees(s.closingBalance)}`,
    text: [greeting, '', intro, '', figures.text, '', closing, ''].join('\n'),
    html: [`<p>${escapeHtml(greeting)}</p>`, `<p>${escapeHtml(intro)}</p>`, figures.html, `<p style="color:#555">${escapeHtml(closing)}</p>`].join('\n'),
    attachments: [
      { fileName: statementFileName(s, 'pdf'), contentType: PDF_MEDIA_TYPE, content: pdf },
      { fileName: statementFileName(s, 'csv'), contentType: `${CSV_MEDIA_TYPE}; charset=utf-8`, content: new TextEncoder().encode(statementCsv(s)) },
    ],
    tags: { kind: 'statement', month: period.from.slice(0, 7) },
  };
}

export type StatementMailDeps = Pick<DocumentMailDeps, 'financeContacts' | 'mailLog' | 'mailer' | 'clock' | 'ids'> & {
  readonly ledger: Pick<CreditLedger, 'queryEntries' | 'creditPosition'>;
  readonly balances: BalanceStore;
  readonly metrics: Metrics;
  /**
   * Prints the attached PDF (infra/pdf/pdf-statement-renderer.ts, loaded at the first statement).
   * A composition of the daily run without it is a defect: a statement due is then counted as
   * mail not sent (its alarm), never sent without its PDF.
   */
  readonly statementRenderer?: StatementRenderer;
};

/**
 * The previous calendar month's statement, e-mailed once per contact who chose `STATEMENTS`
 * (`MAIL#statement:<yyyy-mm>#<contactId>`, audited `mail.statement-sent`). Every daily run of
 * the month tries, so a first day whose run failed is caught up by the next; the claims make
 * the later runs send nothing, and read no ledger once every recipient's send is claimed. A refusal never fails the billing run: it is counted and the
 * next day's run sends what is missing.
 */
export async function mailMonthlyStatement(
  deps: StatementMailDeps,
  group: Pick<AgentGroup, 'agentGroupId' | 'legalName' | 'gstin'>,
  origin: AuditOrigin,
): Promise<{ sent: number; alreadySent: number; failed: number }> {
  const recipients = recipientsOf(await deps.financeContacts.get(group.agentGroupId), 'STATEMENTS');
  if (recipients.length === 0) return { sent: 0, alreadySent: 0, failed: 0 };
  const period = previousMonth(indiaToday(deps.clock.now()));
  const what = `statement:${period.month}`;
  try {
    // Every day of the month comes here: once each recipient's send is claimed the ledger is not read at all.
    const due: FinanceContact[] = [];
    for (const c of recipients) if (!(await deps.mailLog.claimed({ agentGroupId: group.agentGroupId, what, contactId: c.contactId }))) due.push(c);
    if (due.length === 0) return { sent: 0, alreadySent: recipients.length, failed: 0 };
    if (!deps.statementRenderer) {
      deps.metrics.count('MailNotSent');
      return { sent: 0, alreadySent: recipients.length - due.length, failed: due.length };
    }
    const statement = await getStatement(deps, group, period);
    // Rendered once for the contacts still due.
    const pdf = await statementPdf(deps.statementRenderer, group, statement);
    const r = await sendOnce(deps, {
      agentGroupId: group.agentGroupId,
      what,
      recipients: due,
      message: (contact) => statementMail(statement, period, contact, pdf),
      origin,
      action: 'mail.statement-sent',
      target: `statement:${period.month}`,
      figures: { from: period.from, to: period.to, openingBalance: statement.openingBalance, closingBalance: statement.closingBalance },
    });
    return { ...r, alreadySent: r.alreadySent + recipients.length - due.length, failed: 0 };
  } catch {
    deps.metrics.count('MailNotSent');
    return { sent: 0, alreadySent: 0, failed: 1 };
  }
}
