import * as v from 'valibot';
import { BILLING_TRIGGERS } from '../domain/invoicing/invoice.ts';
import type { BillingJob } from '../domain/ports/billing-fan-out.ts';
import { parseMessage } from './json-message.ts';

/** The billing queue's message body: one group of a run over every group, or the continuation of a handed-off POST /v1/invoices. */
export const BillingJobMessageSchema = v.strictObject({
  v: v.literal(1),
  runId: v.pipe(v.string(), v.minLength(1)),
  agentGroupId: v.pipe(v.string(), v.minLength(1)),
  day: v.pipe(v.string(), v.isoDate()),
  trigger: v.picklist(BILLING_TRIGGERS),
  force: v.boolean(),
  openWork: v.boolean(),
  handOff: v.optional(
    v.strictObject({
      period: v.strictObject({ from: v.pipe(v.string(), v.isoDate()), to: v.pipe(v.string(), v.isoDate()) }),
      cutoff: v.pipe(v.string(), v.isoTimestamp()),
      bookingIds: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
      invoiceIds: v.array(v.pipe(v.string(), v.uuid())),
    }),
  ),
});

export const encodeBillingJob = (job: BillingJob): string =>
  JSON.stringify({
    v: 1,
    runId: job.runId,
    agentGroupId: job.agentGroupId,
    day: job.day,
    trigger: job.trigger,
    force: job.force,
    openWork: job.openWork,
    ...(job.handOff ? { handOff: job.handOff } : {}),
  });

/** The job in a message body, or undefined when the body is not one of ours. */
export function decodeBillingJob(body: string): BillingJob | undefined {
  const m = parseMessage(BillingJobMessageSchema, body);
  return (
    m && {
      runId: m.runId,
      agentGroupId: m.agentGroupId,
      day: m.day,
      trigger: m.trigger,
      force: m.force,
      openWork: m.openWork,
      ...(m.handOff ? { handOff: m.handOff } : {}),
    }
  );
}

/** The billing queue's other message: bring the group's pay links in line with what its invoices owe now (pay-links.ts). */
export const PayLinkJobMessageSchema = v.strictObject({
  v: v.literal(1),
  kind: v.literal('payLinks'),
  agentGroupId: v.pipe(v.string(), v.minLength(1)),
});

export const encodePayLinkJob = (agentGroupId: string): string => JSON.stringify({ v: 1, kind: 'payLinks', agentGroupId });

/** The group whose pay links a message asks to refresh, or undefined when the body is not such a message. */
export const decodePayLinkJob = (body: string): string | undefined => parseMessage(PayLinkJobMessageSchema, body)?.agentGroupId;
