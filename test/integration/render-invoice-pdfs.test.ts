import { testOrigin } from '../support/audit-origin.ts';
import { CreateQueueCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { cutoffOf } from '../../domain/invoicing/billing-period.ts';
import { documentOf } from '../../domain/invoicing/credit-note-document.ts';
import { storeQueuedPdf } from '../../domain/invoicing/invoice-pdf.ts';
import { pdfKeyOf, runBilling } from '../../domain/invoicing/run-billing.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { decodePdfJob } from '../../events/pdf-job-message.ts';
import { handler } from '../../functions/workers/render-invoice-pdfs.ts';
import { parseConfig } from '../../infra/config.ts';
import { billingDeps, buildServices, pdfDeps, type Services } from '../../infra/container.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { LOCAL_CREDENTIALS } from '../../scripts/local-stack.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { newAgentGroup, stack, testServices, uniqueId } from '../support/stack.ts';

const renderer = new PdfInvoiceRenderer();
let world: InvoiceWorld;
let sqs: SQSClient;
/** Real adapters whose PDF queue is this file's own fauxqs queue: the offline worker polls the stack's, and must not race these cases. */
let svc: Services;
let queueUrl: string;

beforeAll(async () => {
  Object.assign(process.env, stack().env);
  sqs = new SQSClient({ endpoint: stack().env.SQS_ENDPOINT, region: 'ap-south-1', credentials: LOCAL_CREDENTIALS });
  queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: uniqueId('pdf-worker') }))).QueueUrl!;
  svc = buildServices(parseConfig({ ...stack().env, PDF_QUEUE_URL: queueUrl }));
  world = await seedInvoiceWorld();
}, 120_000);
afterAll(() => sqs.destroy());

async function drain(): Promise<Message[]> {
  const out: Message[] = [];
  for (;;) {
    const got = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, AttributeNames: ['All'] }));
    if (!got.Messages?.length) return out;
    out.push(...got.Messages);
  }
}

const recordOf = (m: Message, receiveCount: number): SQSRecord =>
  ({
    messageId: m.MessageId!,
    receiptHandle: m.ReceiptHandle!,
    body: m.Body!,
    attributes: { ApproximateReceiveCount: String(receiveCount) },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:ap-south-1:000000000000:pdfs',
    awsRegion: 'ap-south-1',
  }) as unknown as SQSRecord;
const deliver = (records: SQSRecord[]) => handler({ Records: records } as SQSEvent);

describe('Function: renderInvoicePdfs', () => {
  it('a run queues its issued invoice; the worker stores its PDF once however often the message arrives, racing itself included', async () => {
    // prepare: a run on the request path's deps (no renderer), whose PDF request lands on this file's queue
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    const group = (await svc.tenants.getAgentGroup(g.agentGroupId))!;
    const today = indiaToday(new Date());
    const run = await runBilling(
      billingDeps(svc),
      group,
      { period: { from: addDays(today, -30), to: today }, cutoff: cutoffOf(today), trigger: 'API' },
      testOrigin(),
    );
    const [id] = run.invoiceIds;
    const issued = (await svc.invoices.get(g.agentGroupId, id!))!;
    expect(issued).toMatchObject({ status: 'ISSUED', pdfKey: null });
    const messages = await drain();
    expect(messages.map((m) => decodePdfJob(m.Body!))).toEqual([{ agentGroupId: g.agentGroupId, invoiceId: id }]);

    // act: the same message delivered twice at once, then once more
    const [a, b] = await Promise.all([deliver([recordOf(messages[0]!, 1)]), deliver([recordOf(messages[0]!, 2)])]);
    const again = await deliver([recordOf(messages[0]!, 3)]);

    // assess: no failures, one document, the renderer's bytes for the stored figures, the invoice closed
    expect([a.batchItemFailures, b.batchItemFailures, again.batchItemFailures]).toEqual([[], [], []]);
    const after = (await svc.invoices.get(g.agentGroupId, id!))!;
    expect(after.pdfKey).toBe(pdfKeyOf(issued));
    const expected = await renderer.render(documentOf(issued, await svc.invoices.lines(g.agentGroupId, id!)));
    expect(Buffer.from((await svc.documents.get(after.pdfKey!))!).equals(Buffer.from(expected))).toBe(true);
    expect(await storeQueuedPdf(pdfDeps(svc, renderer), { agentGroupId: g.agentGroupId, invoiceId: id! })).toBe('ALREADY_STORED');
    expect((await svc.invoices.openInvoices(g.agentGroupId)).map((i) => i.id)).not.toContain(id);
  }, 120_000);

  it('reports a message that is not a PDF job, and one naming no invoice is done with', async () => {
    const stranger = recordOf({ MessageId: 'm-1', ReceiptHandle: 'r', Body: '{"v":1,"bookingRef":"x"}' }, 1);
    const unknown = recordOf(
      { MessageId: 'm-2', ReceiptHandle: 'r', Body: JSON.stringify({ v: 1, agentGroupId: 'no-such-group', invoiceId: 'no-such-invoice' }) },
      1,
    );
    expect((await deliver([stranger, unknown])).batchItemFailures).toEqual([{ itemIdentifier: 'm-1' }]);
    expect(await storeQueuedPdf(pdfDeps(testServices(), renderer), { agentGroupId: 'no-such-group', invoiceId: 'no-such-invoice' })).toBe('UNKNOWN_INVOICE');
  });
});
