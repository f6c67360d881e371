import * as v from 'valibot';
import type { PdfJob } from '../domain/ports/pdf-queue.ts';
import { parseMessage } from './json-message.ts';

/** The PDF queue's message body: which issued document to print. The figures stay in the table. */
export const PdfJobMessageSchema = v.strictObject({
  v: v.literal(1),
  agentGroupId: v.pipe(v.string(), v.minLength(1)),
  invoiceId: v.pipe(v.string(), v.minLength(1)),
});

export const encodePdfJob = (job: PdfJob): string => JSON.stringify({ v: 1, agentGroupId: job.agentGroupId, invoiceId: job.invoiceId });

/** The job in a message body, or undefined when the body is not one of ours. */
export function decodePdfJob(body: string): PdfJob | undefined {
  const message = parseMessage(PdfJobMessageSchema, body);
  return message && { agentGroupId: message.agentGroupId, invoiceId: message.invoiceId };
}
