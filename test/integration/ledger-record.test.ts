import { randomUUID } from 'node:crypto';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { authorizedEntry, postedEntry, type LedgerEntry, type NewPostedEntry } from '../../domain/ledger/ledger.ts';
import { parseConfig } from '../../infra/config.ts';
import { createDocumentClient, dynamoCalls, resetDynamoCalls } from '../../infra/dynamo/client.ts';
import { getStatement, listLedger } from '../../domain/ledger/read-ledger.ts';
import { recordPostedItems } from '../../infra/dynamo/dynamo-credit-ledger.ts';
import { keys } from '../../infra/dynamo/keys.ts';
import { assertLedgerInvariant } from '../support/ledger-invariant.ts';
import { newAgentGroup, seededGroups, stack, testServices, uniqueId } from '../support/stack.ts';

const RUPEE = 100;
const ledger = () => testServices().ledger;

const refund = (agentGroupId: string, amount: number, over: Partial<NewPostedEntry> = {}): LedgerEntry =>
  postedEntry(
    { agentGroupId, type: 'REFUND', amount, bookingId: 'PS-1', externalBookingId: 'ext-1', description: 'Cancellation refund', ...over },
    randomUUID(),
    new Date(),
  );

async function chargeOf(agentGroupId: string, amount: number): Promise<LedgerEntry> {
  const externalBookingId = uniqueId('ext');
  const entry = authorizedEntry({ agentGroupId, type: 'CHARGE', amount, externalBookingId, description: 'Booking' }, randomUUID(), new Date());
  await ledger().authorize(entry, { externalBookingId, contentHash: 'h', bookingRef: randomUUID() });
  return ledger().post(agentGroupId, entry.id, uniqueId('PS'), new Date().toISOString());
}

describe('Class: DynamoCreditLedger › recordPosted', () => {
  it('moves exposure exactly once under 10 racing identical calls and answers each with the stored entry', async () => {
    // prepare
    const { agentGroupId } = await newAgentGroup({ creditLimit: 10_000 * RUPEE });
    await chargeOf(agentGroupId, 4_000 * RUPEE);
    const entry = refund(agentGroupId, -1_500 * RUPEE);
    // act
    const results = await Promise.all(Array.from({ length: 10 }, () => ledger().recordPosted(entry)));
    // assess
    for (const r of results) expect(r).toEqual(entry);
    const audit = await assertLedgerInvariant(ledger(), agentGroupId);
    expect(audit.entries.filter((e) => e.id === entry.id)).toHaveLength(1);
    expect(audit.exposureCounter).toBe(2_500 * RUPEE);
    expect(await ledger().creditPosition(agentGroupId)).toEqual({ creditLimit: 10_000 * RUPEE, exposure: 2_500 * RUPEE, availableCredit: 7_500 * RUPEE });
  });
});

describe('Function: recordPostedItems', () => {
  it("commits in another adapter's transaction beside its own items, all or nothing", async () => {
    // prepare
    const { agentGroupId } = await newAgentGroup();
    // The booking item here is a stand-in for another adapter's write, not a real booking.
    seededGroups.add(agentGroupId);
    const cfg = parseConfig(stack().env);
    const db = createDocumentClient(cfg);
    const table = cfg.tableName;
    const bookingRef = randomUUID();
    const entry = refund(agentGroupId, -700 * RUPEE);
    const bookingUpdate = { Put: { TableName: table, Item: { ...keys.booking(agentGroupId, bookingRef), entity: 'Booking', status: 'CANCELLED' } } };
    // act
    await db.send(new TransactWriteCommand({ TransactItems: [bookingUpdate, ...recordPostedItems(table, entry, entry.occurredAt)] }));
    const replay = db.send(new TransactWriteCommand({ TransactItems: [bookingUpdate, ...recordPostedItems(table, entry, entry.occurredAt)] }));
    // assess
    await expect(replay).rejects.toMatchObject({ name: 'TransactionCanceledException' });
    expect(await ledger().getEntry(agentGroupId, entry.id)).toEqual(entry);
    expect((await assertLedgerInvariant(ledger(), agentGroupId)).exposureCounter).toBe(-700 * RUPEE);
  });
});

describe('Class: DynamoCreditLedger › queryEntries', () => {
  it('reads an occurred-at window inclusively, an exclusive before bound, and ANDs the filters', async () => {
    // prepare
    const { agentGroupId } = await newAgentGroup();
    const at = (h: number) => new Date(Date.UTC(2027, 0, 1, h));
    const make = (h: number, over: Partial<NewPostedEntry>) =>
      postedEntry(
        { agentGroupId, type: 'PAYMENT', amount: -h * RUPEE, bookingId: null, externalBookingId: null, description: `h${h}`, ...over },
        randomUUID(),
        at(h),
      );
    const entries = [
      make(1, {}),
      make(2, { type: 'REFUND', bookingId: 'PS-1', externalBookingId: 'ext-1' }),
      make(3, { type: 'REFUND', bookingId: 'PS-1', externalBookingId: 'ext-2' }),
      make(4, {}),
    ];
    for (const e of entries) await ledger().recordPosted(e);
    const iso = (h: number) => at(h).toISOString();
    const descriptions = async (q: Parameters<ReturnType<typeof ledger>['queryEntries']>[1]) =>
      (await ledger().queryEntries(agentGroupId, q)).entries.map((e) => e.description);
    // act + assess
    expect(await descriptions({ from: iso(2), to: iso(3), order: 'oldest-first' })).toEqual(['h2', 'h3']);
    expect(await descriptions({ before: iso(3), order: 'oldest-first' })).toEqual(['h1', 'h2']);
    expect(await descriptions({ from: iso(2), order: 'newest-first' })).toEqual(['h4', 'h3', 'h2']);
    expect(await descriptions({ types: ['REFUND'], externalBookingIds: ['ext-2'], order: 'newest-first' })).toEqual(['h3']);
    expect(await descriptions({ bookingIds: ['PS-1'], externalBookingIds: ['ext-9'], order: 'newest-first' })).toEqual([]);
    const page = await ledger().queryEntries(agentGroupId, { types: ['PAYMENT', 'REFUND'], order: 'newest-first', limit: 3 });
    expect(page.entries.map((e) => e.description)).toEqual(['h4', 'h3', 'h2']);
    const rest = await ledger().queryEntries(agentGroupId, { types: ['PAYMENT', 'REFUND'], order: 'newest-first', limit: 3, after: page.next! });
    expect(rest).toEqual({ entries: [entries[0]], next: null });
  });
});

describe('Function: listLedger and getStatement (round trips)', () => {
  it('reads an unfiltered page with one Query and one BatchGet, and a statement with three Queries (checkpoint, entries since it, the period) and one BatchGet', async () => {
    // prepare
    const { agentGroupId, keyId } = await newAgentGroup();
    for (let h = 1; h <= 5; h++) {
      await ledger().recordPosted(
        postedEntry(
          { agentGroupId, type: 'PAYMENT', amount: -h * RUPEE, bookingId: null, externalBookingId: null, description: `h${h}` },
          randomUUID(),
          new Date(Date.UTC(2027, 0, 1, h)),
        ),
      );
    }
    const principal = { kind: 'agent-group' as const, agentGroupId, partnerId: 'ledger-partner', channelId: 'test-channel', keyId, keyPrefix: 'pds_' };
    // act
    resetDynamoCalls();
    const page = await listLedger(testServices(), principal, { size: 2 });
    const pageCalls = { ...dynamoCalls.byOperation };
    resetDynamoCalls();
    const statement = await getStatement(testServices(), principal, { from: '2027-01-01T03:00:00Z', to: '2027-01-01T04:00:00Z' });
    const statementCalls = { ...dynamoCalls.byOperation };
    // assess
    expect(page.data.map((e) => e.description)).toEqual(['h5', 'h4']);
    expect(pageCalls).toEqual({ QueryCommand: 1, BatchGetItemCommand: 1 });
    expect(statement).toMatchObject({ openingBalance: -3, closingBalance: -10 });
    expect(statementCalls).toEqual({ QueryCommand: 3, BatchGetItemCommand: 1 });
  });
});
