import type { SQSClient } from '@aws-sdk/client-sqs';
import { sqsSdk } from './client.ts';
import type { Invoice } from '../../domain/invoicing/invoice.ts';
import type { PdfQueue } from '../../domain/ports/pdf-queue.ts';
import { encodePdfJob } from '../../events/pdf-job-message.ts';

/** The invoice PDF queue on SQS, drained by functions/workers/render-invoice-pdfs.ts. */
export class SqsPdfQueue implements PdfQueue {
  constructor(
    private readonly sqs: SQSClient,
    /** Undefined where the stack has no queue configured; a request then fails and the run records it (lastError 'pdf: …'). */
    private readonly queueUrl: string | undefined,
  ) {}

  async request(invoice: Invoice): Promise<Invoice> {
    if (!this.queueUrl) throw new Error('PDF_QUEUE_URL is not configured; invoice PDFs cannot be queued');
    const { SendMessageCommand } = await sqsSdk();
    await this.sqs.send(
      new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: encodePdfJob({ agentGroupId: invoice.agentGroupId, invoiceId: invoice.id }) }),
    );
    return invoice;
  }
}
