import { TEST_OPERATOR, testOrigin } from '../support/audit-origin.ts';
import { withBillingScenario } from '../../domain/sandbox/billing-scenarios.ts';
import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { backfillBillingIndex, checkBillingIndex, noDrift } from '../../domain/invoicing/billing-index.ts';
import { openFiguresOf } from '../../domain/invoicing/invoice.ts';
import { abandonDraft } from '../../domain/invoicing/manage-invoices.ts';
import { runBilling, selectCharges } from '../../domain/invoicing/run-billing.ts';
import { dynamoCalls, resetDynamoCalls } from '../../infra/dynamo/client.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { newAgentGroup, testServices } from '../support/stack.ts';
import { db, deps, groupOf, request, table } from '../support/billing-run-kit.ts';

/** The group's items whose sort key starts so. */
async function itemsOf(agentGroupId: string, prefix: string): Promise<Record<string, unknown>[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
      ExpressionAttributeValues: { ':pk': `GROUP#${agentGroupId}`, ':p': prefix },
      ConsistentRead: true,
    }),
  );
  return out.Items ?? [];
}

/** Puts the group back as the release before the indexes left it: no unbilled index, no kept figures, no invoice counted. */
async function forgetIndexes(agentGroupId: string): Promise<void> {
  for (const prefix of ['UNBILLED', 'BOOKENTRIES#', 'DUE']) {
    for (const i of await itemsOf(agentGroupId, prefix)) await db().send(new DeleteCommand({ TableName: table(), Key: { PK: i.PK, SK: i.SK } }));
  }
  for (const i of await itemsOf(agentGroupId, 'INVOICE#')) {
    await db().send(new UpdateCommand({ TableName: table(), Key: { PK: i.PK, SK: i.SK }, UpdateExpression: 'REMOVE dueTracked' }));
  }
}

let world: InvoiceWorld;
beforeAll(async () => {
  world = await seedInvoiceWorld();
}, 120_000);

describe('The unbilled index and the kept open figures', () => {
  it('backfills a group billed before them (idempotently), after which runs and the list read them and nothing drifts', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    const group = await groupOf(g);
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    await bookStay(g, world.registered, '2027-03-06', '2027-03-07');
    expect((await runBilling(deps(), group, request(), testOrigin())).linesWritten).toBe(3);
    const unbilled = [await bookStay(g, world.registered, '2027-03-02', '2027-03-04'), await bookStay(g, world.second, '2027-03-06', '2027-03-08')];
    await forgetIndexes(g.agentGroupId);

    const before = await checkBillingIndex(deps(), g.agentGroupId);
    expect(before).toMatchObject({ indexComplete: false, keptFigures: null, owing: 2, bookings: 4 });
    // Not backfilled: the list still answers from every invoice, and does not mark uncounted figures complete.
    const figures = openFiguresOf(await testServices().owing.receivables(g.agentGroupId));
    expect(figures.openCount).toBe(1);
    expect(await testServices().owing.openFigures(g.agentGroupId)).toEqual(figures);
    expect(await testServices().owing.keptOpenFigures(g.agentGroupId)).toBeUndefined();

    expect(await backfillBillingIndex(deps(), g.agentGroupId)).toEqual({ bookings: 4, pending: 2, invoicesCounted: 1 });
    expect(await backfillBillingIndex(deps(), g.agentGroupId), 'a second backfill changes nothing').toEqual({ bookings: 4, pending: 2, invoicesCounted: 0 });
    const after = await checkBillingIndex(deps(), g.agentGroupId);
    expect(noDrift(after), JSON.stringify(after)).toBe(true);
    expect(after).toMatchObject({ indexComplete: true, missing: [], extra: 0, keptFigures: figures });
    expect(new Set((await deps().unbilled.pending(g.agentGroupId)).bookings.map((p) => p.bookingId))).toEqual(new Set(unbilled));

    const run = await runBilling(deps(), group, request(), testOrigin());
    expect(run.linesWritten).toBe(4);
    expect((await deps().unbilled.pending(g.agentGroupId)).bookings, 'a booking billed whole leaves the index').toEqual([]);
    const billed = await checkBillingIndex(deps(), g.agentGroupId);
    expect(noDrift(billed), JSON.stringify(billed)).toBe(true);
    expect(billed.keptFigures!.openCount).toBe(figures.openCount + run.invoiceIds.length);
  }, 180_000);

  it('costs a re-run with nothing new two DynamoDB reads to select, whatever the history', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    const group = await groupOf(g);
    for (const [from, to] of [
      ['2027-03-01', '2027-03-02'],
      ['2027-03-02', '2027-03-03'],
      ['2027-03-06', '2027-03-08'],
    ] as const)
      await bookStay(g, world.registered, from, to);
    await runBilling(deps(), group, request(), testOrigin());
    resetDynamoCalls();
    const selection = await selectCharges(deps(), g.agentGroupId, request());
    expect(selection.charges).toEqual([]);
    // The index's completeness (GetItem) and its pending bookings (Query, empty), at once.
    expect(dynamoCalls.byOperation).toEqual({ GetItemCommand: 1, QueryCommand: 1 });
  }, 120_000);

  it('enters the bookings of an abandoned draft again, so the next run bills them', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    const group = await groupOf(g);
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    await runBilling(deps(), group, request(), testOrigin());
    const second = await bookStay(g, world.registered, '2027-03-06', '2027-03-07');
    // The sandbox scenario makes the run's new invoice fail to issue: it stays a DRAFT holding the line.
    const drafted = await runBilling(withBillingScenario(deps(), 'invoice-issue-fails'), group, request(), testOrigin());
    expect(drafted.linesWritten).toBe(1);
    expect((await deps().unbilled.pending(g.agentGroupId)).bookings, 'the line bills it: it leaves the index').toEqual([]);
    await abandonDraft(deps(), g.agentGroupId, drafted.invoiceIds[0]!, TEST_OPERATOR);
    expect((await deps().unbilled.pending(g.agentGroupId)).bookings.map((p) => p.bookingId)).toEqual([second]);
    expect((await runBilling(deps(), group, request(), testOrigin())).linesWritten).toBe(1);
  }, 120_000);
});
