import type { AuditOrigin } from '../audit/audit-event.ts';
import { amountDueOf } from '../invoicing/invoice.ts';
import { printedDate } from '../invoicing/invoice-document.ts';
import { formatInr } from '../money.ts';
import { indiaToday } from '../reads/date-window.ts';
import type { Payment } from '../receivables/payment.ts';
import type { MailMessage } from '../ports/mailer.ts';
import { escapeHtml, rows, sendOnce, type DocumentMailDeps } from './document-mail.ts';
import { recipientsOf, type FinanceContact } from './finance-contacts.ts';

export type ReceiptMailDeps = Omit<DocumentMailDeps, 'documents'>;

/** The receipt of a payment: amount, reference, date received (India), and what it paid with what is still due on it. No booking or guest data. */
export function receiptMail(
  payment: Pick<Payment, 'amount' | 'reference' | 'receivedAt' | 'source' | 'bankReference'>,
  invoice: { readonly invoiceNumber: string; readonly amountDue: number } | undefined,
  contact: Pick<FinanceContact, 'email' | 'name'>,
): MailMessage {
  const greeting = contact.name ? `Dear ${contact.name},` : 'Hello,';
  const intro = `We have received your payment of ${formatInr(payment.amount)}. Thank you.`;
  const figures = rows([
    ['Amount received', formatInr(payment.amount)],
    ['Received on', printedDate(indiaToday(new Date(payment.receivedAt)))],
    ['Reference', payment.source === 'BANK_TRANSFER' || !payment.bankReference ? payment.reference : payment.bankReference],
    ...(invoice
      ? ([
          ['Invoice', invoice.invoiceNumber],
          ['Still due on it', formatInr(invoice.amountDue)],
        ] as [string, string][])
      : []),
  ]);
  const closing = 'This is an automated message; your statement shows how the payment was allocated.';
  return {
    to: [contact.email],
    subject: `Payment received: ${formatInr(payment.amount)}${invoice ? ` for invoice ${invoice.invoiceNumber}` : ''}`,
    text: [greeting, '', intro, '', figures.text, '', closing, ''].join('\n'),
    html: [`<p>${escapeHtml(greeting)}</p>`, `<p>${escapeHtml(intro)}</p>`, figures.html, `<p style="color:#555">${escapeHtml(closing)}</p>`].join('\n'),
    tags: { kind: 'payment-receipt' },
  };
}

/**
 * E-mails the receipt of a recorded payment to the contacts who chose receipts, once per contact
 * and payment (sendOnce): a redelivered notification of the same payment sends nothing again.
 */
export async function mailReceipt(deps: ReceiptMailDeps, payment: Payment, origin: AuditOrigin): Promise<{ sent: number; alreadySent: number }> {
  const recipients = recipientsOf(await deps.financeContacts.get(payment.agentGroupId), 'RECEIPTS');
  if (recipients.length === 0) return { sent: 0, alreadySent: 0 };
  const inv = payment.invoiceId ? await deps.invoices.get(payment.agentGroupId, payment.invoiceId) : undefined;
  const invoice = inv?.invoiceNumber ? { invoiceNumber: inv.invoiceNumber, amountDue: amountDueOf(inv) } : undefined;
  return sendOnce(deps, {
    agentGroupId: payment.agentGroupId,
    what: `receipt:${payment.source}:${payment.reference}`,
    recipients,
    message: (contact) => receiptMail(payment, invoice, contact),
    origin,
    action: 'mail.receipt-sent',
    target: `payment:${payment.ledgerEntryId}`,
    figures: { amount: payment.amount },
  });
}
