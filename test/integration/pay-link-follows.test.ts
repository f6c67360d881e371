import { randomBytes, randomUUID } from 'node:crypto';
import { SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { amountDueOf } from '../../domain/invoicing/invoice.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { recordBankTransfer } from '../../domain/receivables/record-payment.ts';
import { handleBillingRecord } from '../../functions/workers/bill-group.ts';
import { concurrentRecords } from '../../functions/workers/sqs-batch.ts';
import { parseConfig } from '../../infra/config.ts';
import { billingDeps, buildServices, paymentDeps, type Services } from '../../infra/container.ts';
import { LOCAL_CREDENTIALS, provisionQueues } from '../../scripts/local-stack.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { startEventSourceMapping, type EventSourceMapping } from '../support/event-source-mapping.ts';
import { FakeRazorpay } from '../support/fake-razorpay.ts';
import { cancelStay } from '../support/booking-world.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { pollUntil } from '../support/poll.ts';
import { newAgentGroup, stack, type GroupFixture } from '../support/stack.ts';

/**
 * A change of what an invoice owes moves its pay link at once, not at the hourly reconciliation: the use case that makes the
 * change asks through the billing queue (a queue of this test's own on fauxqs), whoever calls it (here the domain directly, the
 * admin tool, a billing run), and the billing worker's handler (two of them at once, as Lambda runs them) cancels the old link and
 * makes one for the new amount through the official SDK against the fake Razorpay over HTTP, over DynamoDB Local.
 */
let world: InvoiceWorld;
let fake: FakeRazorpay;
let env: Record<string, string>;
let svc: Services;
let workers: EventSourceMapping;
beforeAll(async () => {
  const webhookSecret = randomBytes(24).toString('base64url');
  const name = `paylinks-${randomUUID().slice(0, 8)}`;
  let urls: Record<string, string>;
  [world, fake, urls] = await Promise.all([
    seedInvoiceWorld(),
    new FakeRazorpay(webhookSecret).start(),
    provisionQueues(stack().env.SQS_ENDPOINT!, [name], { visibilityTimeoutSeconds: 2, maxReceiveCount: 5 }),
  ]);
  env = { ...stack().env, ...fake.serviceEnv(), BILLING_QUEUE_URL: urls[name]! };
  svc = buildServices(parseConfig(env));
  const sqs = new SQSClient({ endpoint: env.SQS_ENDPOINT, region: 'ap-south-1', credentials: LOCAL_CREDENTIALS });
  workers = startEventSourceMapping({
    sqs,
    queueUrl: urls[name]!,
    concurrency: 2,
    batchSize: 1,
    visibilitySeconds: 2,
    handler: concurrentRecords('billing', () => billingDeps(svc), handleBillingRecord),
  });
}, 120_000);
afterAll(async () => {
  await workers?.stop();
  await fake?.stop();
});

/** A group with one issued invoice and its first pay link (for the total), billed by the admin tool with the SDK against the fake. */
async function issuedInvoice(checkIn: string, checkOut: string): Promise<{ g: GroupFixture; id: string; total: number; firstLink: string; bookingId: string }> {
  const g = await newAgentGroup({ channelId: world.channelId });
  const bookingId = await bookStay(g, world.registered, checkIn, checkOut);
  const today = indiaToday(new Date());
  const run = await runAdminTool(['billing', 'run', '--group', g.agentGroupId, '--from', addDays(today, -7), '--to', today, '--json'], env);
  expect(run.code, run.stderr).toBe(0);
  const [id] = JSON.parse(run.stdout).invoiceIds as string[];
  const invoice = (await svc.invoices.get(g.agentGroupId, id!))!;
  expect(invoice.payLink).toMatchObject({ amount: invoice.total, seq: 1 });
  return { g, id: id!, total: invoice.total, firstLink: invoice.payLink!.linkId, bookingId };
}

const utr = () => `UTR${randomBytes(6).toString('hex').toUpperCase()}`;

/** A bank transfer typed in (the console's and the admin tool's use case), which asks for the links to follow itself. */
async function transfer(g: GroupFixture, amount: number): Promise<void> {
  const outcome = await recordBankTransfer(paymentDeps(svc), { agentGroupId: g.agentGroupId, reference: utr(), amount }, TEST_OPERATOR);
  expect(outcome.recorded).toBe(true);
}

/** The invoice once its stored link is for exactly what it owes (none when settled). */
const followed = (g: GroupFixture, id: string) =>
  pollUntil('the pay link to follow the amount due', async () => {
    const invoice = (await svc.invoices.get(g.agentGroupId, id))!;
    const due = invoice.status === 'ISSUED' ? amountDueOf(invoice) : 0;
    return (invoice.payLink?.amount ?? 0) === due ? invoice : undefined;
  });

/** The fake's links of one invoice (their reference names it), by status. */
const linksOf = (id: string) => fake.paymentLinks.filter((l) => l.reference_id.startsWith(`${id}/`));

describe('pay links follow the amount due through the billing worker', () => {
  it('a payment of part replaces the link for the total with one for the rest; paying the rest cancels it and leaves none', async () => {
    const { g, id, total, firstLink } = await issuedInvoice('2027-03-01', '2027-03-04');
    await transfer(g, 1_000_00);
    const part = await followed(g, id);
    expect(part.payLink).toMatchObject({ amount: total - 1_000_00, seq: 2 });
    expect(fake.paymentLinks.find((l) => l.id === firstLink)?.status).toBe('cancelled');

    await transfer(g, total - 1_000_00);
    const settled = await followed(g, id);
    expect(settled.status).toBe('PAID');
    expect(settled.payLink ?? null).toBeNull();
    expect(linksOf(id).map((l) => l.status)).toEqual(['cancelled', 'cancelled']);
  }, 240_000);

  it('two changes at once, each asking, with two workers: one payable link is left, the stored one, for the amount due after both', async () => {
    const { g, id, total } = await issuedInvoice('2027-03-01', '2027-03-04');
    await Promise.all([transfer(g, 700_00), transfer(g, 1_100_00)]);
    const after = await followed(g, id);
    expect(after.payLink?.amount).toBe(total - 1_800_00);
    // Each ask's refresh may have made and cancelled links of its own; once both are handled exactly one stays payable.
    await pollUntil('one payable link', async () => {
      const payable = linksOf(id).filter((l) => l.status === 'created');
      return payable.length === 1 ? payable : undefined;
    });
    const stored = (await svc.invoices.get(g.agentGroupId, id))!.payLink!;
    expect(
      linksOf(id)
        .filter((l) => l.status === 'created')
        .map((l) => [l.id, l.amount]),
    ).toEqual([[stored.linkId, total - 1_800_00]]);
  }, 240_000);

  it('the admin tool recording a transfer moves the link: the use case asks, not its caller', async () => {
    const { g, id, total } = await issuedInvoice('2027-03-01', '2027-03-03');
    const run = await runAdminTool(['payments', 'record', '--group', g.agentGroupId, '--amount', '500', '--reference', utr()], env);
    expect(run.code, run.stderr).toBe(0);
    expect((await followed(g, id)).payLink).toMatchObject({ amount: total - 500_00, seq: 2 });
  }, 240_000);

  it("a billing run's credit note (a booking cancelled after it was invoiced) moves the link to what the invoice owes after it", async () => {
    const { g, id, bookingId } = await issuedInvoice('2027-03-08', '2027-03-11');
    await cancelStay(g, bookingId, svc);
    const today = indiaToday(new Date());
    const run = await runAdminTool(['billing', 'run', '--group', g.agentGroupId, '--from', addDays(today, -7), '--to', today, '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    const invoice = (await svc.invoices.get(g.agentGroupId, id))!;
    expect(invoice.creditedAmount ?? 0).toBeGreaterThan(0);
    const after = await followed(g, id);
    expect(after.payLink?.amount ?? 0).toBe(after.status === 'ISSUED' ? amountDueOf(after) : 0);
    expect(after.payLink?.seq ?? 2).toBeGreaterThan(1);
  }, 240_000);
});
