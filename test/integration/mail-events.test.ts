import { CreateQueueCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContact, recipientsOf } from '../../domain/mail/finance-contacts.ts';
import { handler } from '../../functions/workers/mail-events.ts';
import { LOCAL_CREDENTIALS } from '../../scripts/local-stack.ts';
import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { newAgentGroup, stack, testServices, uniqueId } from '../support/stack.ts';

let sqs: SQSClient;
/** This file's own fauxqs queue, standing for the one the configuration set's SNS topic delivers to (raw message delivery). */
let queueUrl: string;

beforeAll(async () => {
  Object.assign(process.env, stack().env);
  sqs = new SQSClient({ endpoint: stack().env.SQS_ENDPOINT, region: 'ap-south-1', credentials: LOCAL_CREDENTIALS });
  queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: uniqueId('mail-events') }))).QueueUrl!;
}, 120_000);
afterAll(() => sqs.destroy());

// The documented records ("Examples of event data that Amazon SES publishes to Amazon SNS",
// https://docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-sns-examples.html).
const bounce = (email: string, bounceType: 'Permanent' | 'Transient') => ({
  eventType: 'Bounce',
  bounce: {
    bounceType,
    bounceSubType: bounceType === 'Permanent' ? 'General' : 'MailboxFull',
    bouncedRecipients: [{ emailAddress: email, action: 'failed', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
    timestamp: '2026-11-28T05:41:02.669Z',
    feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000000',
    reportingMTA: 'dsn; mta.example.com',
  },
  mail: {
    timestamp: '2026-11-28T05:40:02.012Z',
    source: 'billing@example.in',
    messageId: 'EXAMPLE7c191be45',
    destination: [email],
    headersTruncated: false,
    tags: {},
  },
});
const complaint = (email: string) => ({
  eventType: 'Complaint',
  complaint: {
    complainedRecipients: [{ emailAddress: email }],
    timestamp: '2026-11-28T05:45:00.000Z',
    feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000001',
    userAgent: 'Mozilla/5.0',
    complaintFeedbackType: 'abuse',
    arrivalDate: '2026-11-28T05:44:58.000Z',
  },
  mail: {
    timestamp: '2026-11-28T05:40:02.012Z',
    source: 'billing@example.in',
    messageId: 'EXAMPLE7c191be46',
    destination: [email],
    headersTruncated: false,
    tags: {},
  },
});

async function putAndReceive(event: unknown): Promise<Message> {
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(event) }));
  const got = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 1, WaitTimeSeconds: 2 }));
  return got.Messages![0]!;
}

const recordOf = (m: Message): SQSRecord =>
  ({
    messageId: m.MessageId!,
    receiptHandle: m.ReceiptHandle!,
    body: m.Body!,
    attributes: { ApproximateReceiveCount: '1' },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:ap-south-1:000000000000:mail-events',
    awsRegion: 'ap-south-1',
  }) as unknown as SQSRecord;
const deliver = (m: Message) => handler({ Records: [recordOf(m)] } as SQSEvent);

describe('Function: mailEvents', () => {
  it('a permanent bounce and a complaint flag the contacts at the address in every group, audited; a transient bounce and a replay change nothing', async () => {
    const svc = testServices();
    const [g1, g2] = [(await newAgentGroup()).agentGroupId, (await newAgentGroup()).agentGroupId];
    const tag = uniqueId('x');
    const gone = `gone-${tag}@finance.example.in`;
    const full = `full-${tag}@finance.example.in`;
    const angry = `angry-${tag}@finance.example.in`;
    const gone1 = await addContact(svc, g1, { email: gone }, TEST_OPERATOR);
    const gone2 = await addContact(svc, g2, { email: gone }, TEST_OPERATOR);
    const fullC = await addContact(svc, g1, { email: full }, TEST_OPERATOR);
    const angryC = await addContact(svc, g1, { email: angry }, TEST_OPERATOR);

    const permanent = await putAndReceive(bounce(gone.toUpperCase(), 'Permanent'));
    const transient = await putAndReceive(bounce(full, 'Transient'));
    const complained = await putAndReceive(complaint(angry));
    for (const m of [permanent, transient, complained]) expect(await deliver(m)).toEqual({ batchItemFailures: [] });

    const s1 = (await svc.financeContacts.get(g1))!;
    const flagged = (s: typeof s1) => Object.fromEntries(s.contacts.map((c) => [c.contactId, c.bouncedAt]));
    expect(flagged(s1)).toEqual({ [gone1.id]: '2026-11-28T05:41:02.669Z', [fullC.id]: null, [angryC.id]: '2026-11-28T05:45:00.000Z' });
    expect(flagged((await svc.financeContacts.get(g2))!)).toEqual({ [gone2.id]: '2026-11-28T05:41:02.669Z' });
    // The next reminder (and every other e-mail) goes only to the contact whose bounce was transient.
    expect(recipientsOf(s1, 'REMINDERS').map((c) => c.contactId)).toEqual([fullC.id]);
    expect(recipientsOf(s1, 'INVOICES').map((c) => c.contactId)).toEqual([fullC.id]);

    const audited = async (g: string) =>
      (await svc.auditTrail.listAccount(g, { limit: 50 })).events.filter((e) => /finance-contact-(bounced|complained)/.test(e.action));
    const g1Events = await audited(g1);
    expect(g1Events.map((e) => [e.action, e.target]).sort()).toEqual(
      [
        ['group.finance-contact-bounced', `finance-contact:${gone1.id}`],
        ['group.finance-contact-complained', `finance-contact:${angryC.id}`],
      ].sort(),
    );
    expect(g1Events.find((e) => e.action === 'group.finance-contact-bounced')!.after).toMatchObject({
      bounced: true,
      reportedAt: '2026-11-28T05:41:02.669Z',
      diagnostic: 'smtp; 550 5.1.1 user unknown',
    });
    expect(JSON.stringify(g1Events)).not.toContain(tag);

    // SES may publish an event twice: the replay writes and audits nothing.
    for (const m of [permanent, complained]) expect(await deliver(m)).toEqual({ batchItemFailures: [] });
    expect((await svc.financeContacts.get(g1))!.version).toBe(s1.version);
    expect(await audited(g1)).toHaveLength(2);
    expect(await audited(g2)).toHaveLength(1);
  });

  it('a message that is not an SES event fails, to be redelivered and then dead-lettered', async () => {
    const m = await putAndReceive({ eventType: 'Bounce', bounce: { bounceType: 'Permanent', bouncedRecipients: [] } });
    expect(await deliver(m)).toEqual({ batchItemFailures: [{ itemIdentifier: m.MessageId }] });
  });
});
