import type { AuditOrigin } from '../audit/audit-event.ts';
import { amountDueOf, payableLinkOf, type Invoice } from '../invoicing/invoice.ts';
import { indiaToday } from '../reads/date-window.ts';
import { printedDate } from '../invoicing/invoice-document.ts';
import { pdfFileName } from '../invoicing/invoice-pdf.ts';
import { formatInr } from '../money.ts';
import type { Clock } from '../ports/clock.ts';
import type { DocumentStore } from '../ports/document-store.ts';
import type { FinanceContactStore } from '../ports/finance-contacts.ts';
import type { IdGenerator } from '../ports/ids.ts';
import type { InvoiceStore } from '../ports/invoice-store.ts';
import type { MailLog } from '../ports/mail-log.ts';
import type { MailMessage, Mailer } from '../ports/mailer.ts';
import { recipientsOf, type FinanceContact } from './finance-contacts.ts';

export interface DocumentMailDeps {
  readonly invoices: Pick<InvoiceStore, 'get'>;
  readonly documents: Pick<DocumentStore, 'get'>;
  readonly financeContacts: Pick<FinanceContactStore, 'get'>;
  readonly mailLog: MailLog;
  readonly mailer: Mailer;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Label and value rows, as the text part (aligned lines) and the HTML part (a table). */
export const rows = (pairs: readonly (readonly [string, string])[]) => ({
  text: pairs.map(([k, v]) => `${`${k}:`.padEnd(22)}${v}`).join('\n'),
  html: `<table cellpadding="4" style="border-collapse:collapse">${pairs.map(([k, v]) => `<tr><td style="color:#555">${escapeHtml(k)}</td><td><strong>${escapeHtml(v)}</strong></td></tr>`).join('')}</table>`,
});

/** The bank-transfer details of the group's own virtual account, where the invoice has one. */
export const bankRows = (invoice: Pick<Invoice, 'payTo'>) =>
  invoice.payTo
    ? rows([
        ['Beneficiary', invoice.payTo.beneficiaryName],
        ['Account number', invoice.payTo.accountNumber],
        ['IFSC', invoice.payTo.ifsc],
        ['Bank', invoice.payTo.bankName],
      ])
    : undefined;

/**
 * The e-mail of an issued invoice or credit note, its PDF attached: the figures a finance team
 * files and pays by (number, dates, amounts in rupees with Indian grouping, dates DD-MM-YYYY as
 * on the document) and, for an invoice, how to pay by bank transfer. Nothing about the bookings
 * or their guests: the lines are in the PDF, which the group already receives.
 */
export function issuedDocumentMail(invoice: Invoice, contact: Pick<FinanceContact, 'email' | 'name'>, pdf: Uint8Array): MailMessage {
  const number = invoice.invoiceNumber!;
  const isCreditNote = invoice.creditNoteFor !== undefined;
  const greeting = contact.name ? `Dear ${contact.name},` : 'Hello,';
  const figures = isCreditNote
    ? rows([
        ['Credit note', number],
        ['Date', printedDate(invoice.issueDate!)],
        ['Against invoice', invoice.creditNoteForNumber ?? '-'],
        ['Amount credited', formatInr(invoice.total)],
      ])
    : rows([
        ['Invoice', number],
        ['Invoice date', printedDate(invoice.issueDate!)],
        ['Billing period', `${printedDate(invoice.periodFrom)} to ${printedDate(invoice.periodTo)}`],
        ['Invoice total', formatInr(invoice.total)],
        ['Amount due', formatInr(amountDueOf(invoice))],
        ['Due date', invoice.dueDate ? printedDate(invoice.dueDate) : '-'],
      ]);
  const bank = isCreditNote ? undefined : bankRows(invoice);
  const link = isCreditNote ? null : payableLinkOf(invoice, new Date(invoice.issuedAt ?? invoice.updatedAt));
  const linkIntro = link
    ? `Pay ${formatInr(link.amount)} online by card, UPI or netbanking at ${link.url} (the link takes payments until ${printedDate(indiaToday(new Date(link.expiresAt)))}).`
    : undefined;
  const intro = isCreditNote
    ? `Credit note ${number} has been issued to your account. It reduces what you owe on invoice ${invoice.creditNoteForNumber ?? ''}.`.replace(/ \.$/, '.')
    : `Invoice ${number} has been issued to your account. Please pay ${formatInr(amountDueOf(invoice))}${invoice.dueDate ? ` by ${printedDate(invoice.dueDate)}` : ''}.`;
  const bankIntro = 'Pay by bank transfer (NEFT, RTGS or IMPS) to this account, which is yours alone: a transfer to it is matched to your account.';
  const closing = 'The document is attached as a PDF. This is an automated message; for questions reply to your account manager.';
  const text = [
    greeting,
    '',
    intro,
    '',
    figures.text,
    ...(linkIntro ? ['', linkIntro] : []),
    ...(bank ? ['', bankIntro, '', bank.text] : []),
    '',
    closing,
    '',
  ].join('\n');
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    figures.html,
    ...(link
      ? [
          `<p>Pay <strong>${escapeHtml(formatInr(link.amount))}</strong> online by card, UPI or netbanking: <a href="${escapeHtml(link.url)}">${escapeHtml(link.url)}</a> (until ${escapeHtml(printedDate(indiaToday(new Date(link.expiresAt))))}).</p>`,
        ]
      : []),
    ...(bank ? [`<p>${escapeHtml(bankIntro)}</p>`, bank.html] : []),
    `<p style="color:#555">${escapeHtml(closing)}</p>`,
  ].join('\n');
  return {
    to: [contact.email],
    subject: isCreditNote
      ? `Credit note ${number}: ${formatInr(invoice.total)}`
      : `Invoice ${number}: ${formatInr(amountDueOf(invoice))} due${invoice.dueDate ? ` by ${printedDate(invoice.dueDate)}` : ''}`,
    text,
    html,
    attachments: [{ fileName: pdfFileName(invoice), contentType: 'application/pdf', content: pdf }],
    tags: { kind: isCreditNote ? 'credit-note-issued' : 'invoice-issued', invoice: invoice.id },
  };
}

export type DocumentMailOutcome = { readonly sent: number; readonly alreadySent: number } | 'NOT_ISSUED' | 'NO_PDF';

/**
 * E-mails an issued invoice or credit note to each finance contact who receives it, once per
 * contact (sendOnce); a refusal is thrown after every contact was tried, so the queue redelivers
 * the message and its redelivery sends what is missing.
 */
export async function mailIssuedDocument(deps: DocumentMailDeps, agentGroupId: string, invoiceId: string, origin: AuditOrigin): Promise<DocumentMailOutcome> {
  const invoice = await deps.invoices.get(agentGroupId, invoiceId);
  if (!invoice || (invoice.status !== 'ISSUED' && invoice.status !== 'PAID') || !invoice.invoiceNumber) return 'NOT_ISSUED';
  const pdf = invoice.pdfKey ? await deps.documents.get(invoice.pdfKey) : undefined;
  if (!pdf) return 'NO_PDF';
  const isCreditNote = invoice.creditNoteFor !== undefined;
  const recipients = recipientsOf(await deps.financeContacts.get(agentGroupId), isCreditNote ? 'CREDIT_NOTES' : 'INVOICES');
  return sendOnce(deps, {
    agentGroupId,
    what: `${isCreditNote ? 'credit-note-issued' : 'invoice-issued'}:${invoice.id}`,
    recipients,
    message: (contact) => issuedDocumentMail(invoice, contact, pdf),
    origin,
    action: isCreditNote ? 'mail.credit-note-sent' : 'mail.invoice-sent',
    target: `invoice:${invoice.id}`,
    figures: { invoiceNumber: invoice.invoiceNumber },
  });
}

/** One message to each of `recipients`, at most once each: what a sender of any kind of mail does. */
export interface OnceEach {
  readonly agentGroupId: string;
  /** The message and the record it is about: `<kind>:<id>`. */
  readonly what: string;
  readonly recipients: readonly FinanceContact[];
  readonly message: (contact: FinanceContact) => MailMessage;
  readonly origin: AuditOrigin;
  readonly action: string;
  readonly target: string;
  readonly figures: Readonly<Record<string, string | number | null>>;
}

/**
 * Sends each recipient its message once: each send is claimed before the Mailer is called (a
 * retried worker finds its claims and sends nothing twice), marked sent with the provider's
 * message id in the same transaction as its audit event, and given back when the Mailer refused
 * it so a retry sends it. The first refusal is thrown after every recipient was tried.
 */
export async function sendOnce(
  deps: Pick<DocumentMailDeps, 'mailLog' | 'mailer' | 'clock' | 'ids'>,
  o: OnceEach,
): Promise<{ sent: number; alreadySent: number }> {
  let sent = 0;
  let alreadySent = 0;
  let failure: unknown;
  for (const contact of o.recipients) {
    const key = { agentGroupId: o.agentGroupId, what: o.what, contactId: contact.contactId };
    if (!(await deps.mailLog.claim(key, deps.clock.now().toISOString()))) {
      alreadySent++;
      continue;
    }
    let messageId: string;
    try {
      ({ messageId } = await deps.mailer.send(o.message(contact)));
    } catch (err) {
      await deps.mailLog.release(key);
      failure ??= err;
      continue;
    }
    const at = deps.clock.now().toISOString();
    await deps.mailLog.sent(key, messageId, at, {
      id: deps.ids.uuid(),
      at,
      origin: o.origin,
      action: o.action,
      target: o.target,
      account: o.agentGroupId,
      before: null,
      after: { contactId: contact.contactId, ...o.figures, messageId },
    });
    sent++;
  }
  if (failure) throw failure;
  return { sent, alreadySent };
}
