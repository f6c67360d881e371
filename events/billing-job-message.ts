import * as v from 'valibot';
import { BILLING_TRIGGERS } from '../domain/invoicing/invoice.ts';
import type { BillingJob } from '../domain/ports/billing-fan-out.ts';
import { parseMessage } from './json-message.ts';

/** The billing queue's message body: one group of a run over every group. */
export const BillingJobMessageSchema = v.strictObject({
  v: v.literal(1),
  runId: v.pipe(v.string(), v.minLength(1)),
  agentGroupId: v.pipe(v.string(), v.minLength(1)),
  day: v.pipe(v.string(), v.isoDate()),
  trigger: v.picklist(BILLING_TRIGGERS),
  force: v.boolean(),
  openWork: v.boolean(),
});

export const encodeBillingJob = (job: BillingJob): string =>
  JSON.stringify({ v: 1, runId: job.runId, agentGroupId: job.agentGroupId, day: job.day, trigger: job.trigger, force: job.force, openWork: job.openWork });

/** The job in a message body, or undefined when the body is not one of ours. */
export function decodeBillingJob(body: string): BillingJob | undefined {
  const m = parseMessage(BillingJobMessageSchema, body);
  return m && { runId: m.runId, agentGroupId: m.agentGroupId, day: m.day, trigger: m.trigger, force: m.force, openWork: m.openWork };
}
