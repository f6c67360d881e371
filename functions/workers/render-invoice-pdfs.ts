import type { SQSRecord } from 'aws-lambda';
import { concurrentRecords } from './sqs-batch.ts';
import { storeQueuedPdf, type InvoicePdfDeps } from '../../domain/invoicing/invoice-pdf.ts';
import { decodePdfJob } from '../../events/pdf-job-message.ts';
import { pdfDeps, services } from '../../infra/container.ts';
import { onFirstCall } from '../../infra/lazy.ts';
import { logger } from '../../infra/logger.ts';

/** pdf-lib, fontkit and the renderer load at the first render, and the fonts with it, not at the cold start (docs/performance.md). */
const pdfRenderer = onFirstCall(async () => new (await import('../../infra/pdf/pdf-invoice-renderer.ts')).PdfInvoiceRenderer());

/**
 * SQS consumer of the invoice PDF queue: each message is one issued invoice or credit note
 * whose PDF it renders and stores. A record that throws is redelivered (then dead-lettered);
 * one already stored is left alone.
 */
async function handleRecord(deps: InvoicePdfDeps, record: SQSRecord): Promise<void> {
  const job = decodePdfJob(record.body);
  if (!job) throw new Error('not an invoice PDF message');
  const outcome = await storeQueuedPdf(deps, job);
  logger.info('invoice PDF handled', { agentGroupId: job.agentGroupId, invoiceId: job.invoiceId, outcome });
}

export const handler = concurrentRecords('invoice PDF', () => pdfDeps(services(), pdfRenderer), handleRecord);
