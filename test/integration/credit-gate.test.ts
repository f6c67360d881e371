import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../domain/errors.ts';
import { CreditDeniedError, IdempotencyConflictError, LedgerTransitionError } from '../../domain/ledger/credit-errors.ts';
import { authorizedEntry } from '../../domain/ledger/ledger.ts';
import type { Minor } from '../../domain/money.ts';
import type { Authorization } from '../../domain/ports/credit-ledger.ts';
import { assertLedgerInvariant } from '../support/ledger-invariant.ts';
import { newAgentGroup, stack, testServices, uniqueId } from '../support/stack.ts';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { parseConfig } from '../../infra/config.ts';
import { createDocumentClient, dynamoCalls } from '../../infra/dynamo/client.ts';
import { authorizeTransaction } from '../../infra/dynamo/dynamo-credit-ledger.ts';

const RUPEE = 100;
const ledger = () => testServices().ledger;

/** One gate call as POST /v1/bookings will make it: a fresh entry, its claim, the request's hash. */
function authorize(agentGroupId: string, amount: Minor, opts: { externalBookingId?: string; contentHash?: string } = {}): Promise<Authorization> {
  const externalBookingId = opts.externalBookingId ?? uniqueId('ext');
  const entry = authorizedEntry(
    { agentGroupId, type: 'CHARGE', amount, externalBookingId, description: `Booking ${externalBookingId}` },
    randomUUID(),
    new Date(),
  );
  return ledger().authorize(entry, { externalBookingId, contentHash: opts.contentHash ?? 'hash-a', bookingRef: randomUUID() });
}

async function refusal(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a refusal');
}

const now = () => new Date().toISOString();

describe('Class: DynamoCreditLedger', () => {
  it('admits exactly 10 of 50 parallel 1,000 INR authorizations against a 10,000 INR limit', async () => {
    // prepare
    const { agentGroupId } = await newAgentGroup({ creditLimit: 10_000 * RUPEE });
    const transactionsBefore = dynamoCalls.byOperation.TransactWriteItemsCommand ?? 0;
    // act
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => authorize(agentGroupId, 1_000 * RUPEE)));
    // assess
    // More transactions than admissions: gates that read headroom were cancelled by the
    // counter's condition at commit, so the race reached the database, not only the pre-read.
    expect((dynamoCalls.byOperation.TransactWriteItemsCommand ?? 0) - transactionsBefore).toBeGreaterThan(10);
    const admitted = results.filter((r) => r.status === 'fulfilled');
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(admitted).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const err of refused) {
      expect(err).toBeInstanceOf(CreditDeniedError);
      expect(err).toMatchObject({ reasonCode: 'CREDIT_LIMIT_EXCEEDED', shortfall: 1_000 * RUPEE, availableCredit: 0 });
    }
    const audit = await assertLedgerInvariant(ledger(), agentGroupId);
    expect(audit.exposureCounter).toBe(10_000 * RUPEE);
    expect(audit.entries.filter((e) => e.status === 'AUTHORIZED')).toHaveLength(10);
    expect(audit.entries).toHaveLength(10);
    expect(await ledger().creditPosition(agentGroupId)).toEqual({ creditLimit: 10_000 * RUPEE, exposure: 10_000 * RUPEE, availableCredit: 0 });
  });

  it('charges once for 20 parallel identical replays of one externalBookingId', async () => {
    // prepare
    const { agentGroupId } = await newAgentGroup({ creditLimit: 10_000 * RUPEE });
    const externalBookingId = uniqueId('ext');
    // act
    const results = await Promise.all(Array.from({ length: 20 }, () => authorize(agentGroupId, 2_500 * RUPEE, { externalBookingId })));
    // assess
    expect(new Set(results.map((r) => r.entry.id)).size).toBe(1);
    expect(new Set(results.map((r) => r.bookingRef)).size).toBe(1);
    expect(results.filter((r) => !r.replay)).toHaveLength(1);
    const audit = await assertLedgerInvariant(ledger(), agentGroupId);
    expect(audit.entries.map((e) => e.id)).toEqual([results[0]!.entry.id]);
    expect(audit.exposureCounter).toBe(2_500 * RUPEE);
  });

  it('answers an identical replay from its claim even when the group is now full', async () => {
    // prepare
    const { agentGroupId } = await newAgentGroup({ creditLimit: 1_000 * RUPEE });
    const first = await authorize(agentGroupId, 1_000 * RUPEE, { externalBookingId: 'ext-full' });
    // act
    const again = await authorize(agentGroupId, 1_000 * RUPEE, { externalBookingId: 'ext-full' });
    // assess
    expect(again).toMatchObject({ replay: true, bookingRef: first.bookingRef, availableCreditAfter: 0 });
    expect(again.entry).toEqual(first.entry);
    await assertLedgerInvariant(ledger(), agentGroupId);
  });

  it('refuses a replay with a different content hash as a conflict and writes nothing', async () => {
    // prepare
    const { agentGroupId } = await newAgentGroup({ creditLimit: 10_000 * RUPEE });
    await authorize(agentGroupId, 1_000 * RUPEE, { externalBookingId: 'ext-1', contentHash: 'hash-a' });
    const before = await ledger().audit(agentGroupId);
    // act
    const err = await refusal(authorize(agentGroupId, 1_000 * RUPEE, { externalBookingId: 'ext-1', contentHash: 'hash-b' }));
    // assess
    expect(err).toBeInstanceOf(IdempotencyConflictError);
    expect(err).toMatchObject({ code: 'CONFLICT' });
    expect(await assertLedgerInvariant(ledger(), agentGroupId)).toEqual(before);
  });

  it('refuses a group on hold with ACCOUNT_ON_HOLD and writes nothing', async () => {
    // prepare
    const { agentGroupId } = await newAgentGroup({ creditLimit: 10_000 * RUPEE });
    await authorize(agentGroupId, 3_000 * RUPEE);
    await testServices().tenants.updateAgentGroup(agentGroupId, { onHold: true }, now());
    // act
    const err = await refusal(authorize(agentGroupId, 1 * RUPEE));
    // assess
    expect(err).toBeInstanceOf(CreditDeniedError);
    expect(err).toMatchObject({ code: 'CREDIT_DENIED', reasonCode: 'ACCOUNT_ON_HOLD', availableCredit: 7_000 * RUPEE, shortfall: undefined });
    const audit = await assertLedgerInvariant(ledger(), agentGroupId);
    expect(audit.entries).toHaveLength(1);
    expect(audit.exposureCounter).toBe(3_000 * RUPEE);
  });

  it('reports shortfall and available credit at the moment of decision, in paise and in rupee details', async () => {
    // prepare
    const { agentGroupId } = await newAgentGroup({ creditLimit: 10_000 * RUPEE });
    await authorize(agentGroupId, 7_250_50);
    // act
    const err = await refusal(authorize(agentGroupId, 3_000 * RUPEE));
    // assess
    expect(err).toMatchObject({ reasonCode: 'CREDIT_LIMIT_EXCEEDED', shortfall: 250_50, availableCredit: 2_749_50 });
    expect((err as CreditDeniedError).details).toEqual({ reasonCode: 'CREDIT_LIMIT_EXCEEDED', shortfall: 250.5, availableCredit: 2749.5 });
    expect((await assertLedgerInvariant(ledger(), agentGroupId)).entries).toHaveLength(1);
  });

  it('follows a lowered limit at once', async () => {
    // prepare
    const { agentGroupId } = await newAgentGroup({ creditLimit: 10_000 * RUPEE });
    await authorize(agentGroupId, 4_000 * RUPEE);
    await testServices().tenants.updateAgentGroup(agentGroupId, { creditLimit: 5_000 * RUPEE }, now());
    // act
    const err = await refusal(authorize(agentGroupId, 2_000 * RUPEE));
    // assess
    expect(err).toMatchObject({ reasonCode: 'CREDIT_LIMIT_EXCEEDED', shortfall: 1_000 * RUPEE, availableCredit: 1_000 * RUPEE });
    await assertLedgerInvariant(ledger(), agentGroupId);
  });

  it('is refused by the transaction itself when the decision was made on a stale read', async () => {
    // prepare
    const { agentGroupId } = await newAgentGroup({ creditLimit: 1_000 * RUPEE });
    await authorize(agentGroupId, 600 * RUPEE);
    const externalBookingId = uniqueId('ext');
    const stale = authorizedEntry({ agentGroupId, type: 'CHARGE', amount: 600 * RUPEE, externalBookingId, description: 'stale' }, randomUUID(), new Date());
    const db = createDocumentClient(parseConfig(stack().env));
    const table = parseConfig(stack().env).tableName;
    // act
    const err = await refusal(
      db.send(
        new TransactWriteCommand(
          authorizeTransaction(
            table,
            stale,
            { externalBookingId, contentHash: 'h', bookingRef: 'b' },
            { creditLimit: 1_000 * RUPEE, onHold: false },
            stale.occurredAt,
          ),
        ),
      ),
    );
    // assess
    expect(err).toMatchObject({ name: 'TransactionCanceledException' });
    expect((err as { CancellationReasons: { Code: string }[] }).CancellationReasons.map((r) => r.Code)).toEqual([
      'None',
      'None',
      'ConditionalCheckFailed',
      'None',
    ]);
    expect((await assertLedgerInvariant(ledger(), agentGroupId)).exposureCounter).toBe(600 * RUPEE);
  });

  it('refuses an unknown group', async () => {
    expect(await refusal(authorize(uniqueId('no-group'), 1 * RUPEE))).toBeInstanceOf(NotFoundError);
  });

  it('posts idempotently and keeps the posted amount in exposure', async () => {
    // prepare
    const { agentGroupId } = await newAgentGroup({ creditLimit: 10_000 * RUPEE });
    const { entry } = await authorize(agentGroupId, 4_000 * RUPEE);
    // act
    const posted = await Promise.all(Array.from({ length: 5 }, () => ledger().post(agentGroupId, entry.id, 'PS-1001', now())));
    // assess
    for (const p of posted) expect(p).toMatchObject({ id: entry.id, status: 'POSTED', bookingId: 'PS-1001' });
    expect(await ledger().getEntry(agentGroupId, entry.id)).toMatchObject({ status: 'POSTED', bookingId: 'PS-1001' });
    expect(await refusal(ledger().post(agentGroupId, entry.id, 'PS-9999', now()))).toBeInstanceOf(LedgerTransitionError);
    expect(await refusal(ledger().release(agentGroupId, entry.id, now()))).toBeInstanceOf(LedgerTransitionError);
    expect((await assertLedgerInvariant(ledger(), agentGroupId)).exposureCounter).toBe(4_000 * RUPEE);
  });

  it('gives credit back exactly once when 10 releases race', async () => {
    // prepare
    const { agentGroupId } = await newAgentGroup({ creditLimit: 10_000 * RUPEE });
    await authorize(agentGroupId, 1_500 * RUPEE);
    const { entry } = await authorize(agentGroupId, 4_000 * RUPEE);
    // act
    const released = await Promise.all(Array.from({ length: 10 }, () => ledger().release(agentGroupId, entry.id, now())));
    // assess
    for (const r of released) expect(r).toMatchObject({ id: entry.id, status: 'RELEASED' });
    const audit = await assertLedgerInvariant(ledger(), agentGroupId);
    expect(audit.exposureCounter).toBe(1_500 * RUPEE);
    expect(await ledger().release(agentGroupId, entry.id, now())).toMatchObject({ status: 'RELEASED' });
    expect((await assertLedgerInvariant(ledger(), agentGroupId)).exposureCounter).toBe(1_500 * RUPEE);
  });

  it('admits new authorizations into released credit', async () => {
    // prepare
    const { agentGroupId } = await newAgentGroup({ creditLimit: 2_000 * RUPEE });
    const { entry } = await authorize(agentGroupId, 2_000 * RUPEE);
    await ledger().release(agentGroupId, entry.id, now());
    // act
    const next = await authorize(agentGroupId, 2_000 * RUPEE);
    // assess
    expect(next.availableCreditAfter).toBe(0);
    expect((await assertLedgerInvariant(ledger(), agentGroupId)).exposureCounter).toBe(2_000 * RUPEE);
  });

  it('posts a released charge that lands late even past the limit', async () => {
    // prepare
    const { agentGroupId } = await newAgentGroup({ creditLimit: 1_000 * RUPEE });
    const { entry } = await authorize(agentGroupId, 1_000 * RUPEE);
    await ledger().release(agentGroupId, entry.id, now());
    await authorize(agentGroupId, 800 * RUPEE);
    // act
    const posted = await ledger().post(agentGroupId, entry.id, 'PS-LATE', now());
    // assess
    expect(posted).toMatchObject({ status: 'POSTED', bookingId: 'PS-LATE' });
    expect(await ledger().creditPosition(agentGroupId)).toEqual({ creditLimit: 1_000 * RUPEE, exposure: 1_800 * RUPEE, availableCredit: -800 * RUPEE });
    await assertLedgerInvariant(ledger(), agentGroupId);
  });

  it('lists the group’s entries newest first in pages', async () => {
    // prepare
    const { agentGroupId } = await newAgentGroup({ creditLimit: 10_000 * RUPEE });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await authorize(agentGroupId, 100 * RUPEE)).entry.id);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const other = await newAgentGroup({ creditLimit: 10_000 * RUPEE });
    await authorize(other.agentGroupId, 100 * RUPEE);
    // act
    const first = await ledger().listEntries(agentGroupId, { limit: 2 });
    const second = await ledger().listEntries(agentGroupId, { limit: 2, after: first.next! });
    const third = await ledger().listEntries(agentGroupId, { limit: 2, after: second.next! });
    // assess
    expect([...first.entries, ...second.entries, ...third.entries].map((e) => e.id)).toEqual([...ids].reverse());
    expect(third.entries).toHaveLength(1);
    expect(first.entries[0]).toMatchObject({ agentGroupId, type: 'CHARGE', status: 'AUTHORIZED', currency: 'INR', bookingId: null });
  });
});
