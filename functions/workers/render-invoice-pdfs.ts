import type { SQSRecord } from 'aws-lambda';
import { concurrentRecords } from './sqs-batch.ts';
import { storeQueuedPdf, type InvoicePdfDeps } from '../../domain/invoicing/invoice-pdf.ts';
import { systemOrigin } from '../../domain/audit/audit-event.ts';
import { mailIssuedDocument, type DocumentMailDeps } from '../../domain/mail/document-mail.ts';
import { decodePdfJob } from '../../events/pdf-job-message.ts';
import { pdfDeps } from '../../infra/compose/invoice-pdf.ts';
import { services, type Services, wire } from '../../infra/compose/core.ts';
import { onFirstCall } from '../../infra/lazy.ts';
import { logger } from '../../infra/logger.ts';
import { billingAdapters } from '../../infra/compose/adapters/billing.ts';
import { mailAdapters } from '../../infra/compose/adapters/mail.ts';

// The adapters this function uses beyond the core's (infra/compose/core.ts, wire; `npm run check:wiring` holds it to what its code reads).
wire(billingAdapters, mailAdapters);

/** pdf-lib, fontkit and the renderer load at the first render, and the fonts with it, not at the cold start (docs/performance.md). */
const pdfRenderer = onFirstCall(async () => new (await import('../../infra/pdf/pdf-invoice-renderer.ts')).PdfInvoiceRenderer());

/**
 * SQS consumer of the invoice PDF queue: each message is one issued invoice or credit note
 * whose PDF it renders and stores, then e-mails to the group's finance contacts. A record that throws is redelivered (then dead-lettered);
 * one already stored is left alone.
 */
async function handleRecord(deps: InvoicePdfDeps & DocumentMailDeps, record: SQSRecord): Promise<void> {
  const job = decodePdfJob(record.body);
  if (!job) throw new Error('not an invoice PDF message');
  const outcome = await storeQueuedPdf(deps, job);
  logger.info('invoice PDF handled', { agentGroupId: job.agentGroupId, invoiceId: job.invoiceId, outcome });
  if (outcome !== 'STORED' && outcome !== 'ALREADY_STORED') return;
  // Once the PDF is stored, the document goes to the group's finance contacts; a redelivered
  // message (the PDF then ALREADY_STORED) sends only what was not sent (docs/e-mail.md).
  const mailed = await mailIssuedDocument(deps, job.agentGroupId, job.invoiceId, systemOrigin('renderInvoicePdfs', record.messageId));
  logger.info('invoice e-mail handled', { agentGroupId: job.agentGroupId, invoiceId: job.invoiceId, mailed });
}

const workerDeps = (svc: Services): InvoicePdfDeps & DocumentMailDeps => ({
  ...pdfDeps(svc, pdfRenderer),
  financeContacts: svc.financeContacts,
  mailLog: svc.mailLog,
  mailer: svc.mailer,
  ids: svc.ids,
});

export const handler = concurrentRecords('invoice PDF', () => workerDeps(services()), handleRecord);
