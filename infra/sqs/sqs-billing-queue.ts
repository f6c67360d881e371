import type { SQSClient } from '@aws-sdk/client-sqs';
import { sqsSdk } from './client.ts';
import type { BillingJob, BillingQueue } from '../../domain/ports/billing-fan-out.ts';
import type { PayLinkRefreshes } from '../../domain/ports/pay-link-refreshes.ts';
import { encodeBillingJob, encodePayLinkJob } from '../../events/billing-job-message.ts';

const BATCH_LIMIT = 10;
/** Sends in flight at once: 2,000 groups leave in about 200 batches, a few dozen round trips. */
const SENDS_AT_ONCE = 8;

/** The billing queue on SQS, drained by functions/workers/bill-group.ts: one message per group of a run, or per group whose pay links must follow a change. */
export class SqsBillingQueue implements BillingQueue, PayLinkRefreshes {
  constructor(
    private readonly sqs: SQSClient,
    /** Undefined where the stack has no billing queue (tools that bill in-process), which fail on first use. */
    private readonly queueUrl: string | undefined,
  ) {}

  async enqueue(jobs: readonly BillingJob[]): Promise<void> {
    if (jobs.length === 0) return;
    if (!this.queueUrl) throw new Error('BILLING_QUEUE_URL is not configured; billing jobs cannot be queued');
    const { SendMessageBatchCommand } = await sqsSdk();
    const batches: BillingJob[][] = [];
    for (let i = 0; i < jobs.length; i += BATCH_LIMIT) batches.push(jobs.slice(i, i + BATCH_LIMIT));
    let next = 0;
    const failed: string[] = [];
    const lane = async () => {
      while (next < batches.length) {
        const batch = batches[next++]!;
        const out = await this.sqs.send(
          new SendMessageBatchCommand({ QueueUrl: this.queueUrl, Entries: batch.map((j, n) => ({ Id: String(n), MessageBody: encodeBillingJob(j) })) }),
        );
        for (const f of out.Failed ?? []) failed.push(`${batch[Number(f.Id)]?.agentGroupId}: ${f.Code}`);
      }
    };
    await Promise.all(Array.from({ length: Math.min(SENDS_AT_ONCE, batches.length) }, lane));
    // Whatever did not leave is sent again by a retry of the same run; those that did are billed once however often they arrive.
    if (failed.length) throw new Error(`${failed.length} of ${jobs.length} billing jobs not queued (${failed.slice(0, 3).join(', ')})`);
  }

  async ask(agentGroupId: string): Promise<void> {
    if (!this.queueUrl) throw new Error('BILLING_QUEUE_URL is not configured; pay link refreshes cannot be queued');
    const { SendMessageCommand } = await sqsSdk();
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: encodePayLinkJob(agentGroupId) }));
  }
}
