import { noMetrics } from '../../domain/ports/metrics.ts';
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { sweepBookings } from '../../domain/bookings/sweep-bookings.ts';
import type { WorkflowDeps } from '../../domain/bookings/workflow.ts';
import { bookingItem } from '../../infra/dynamo/entities/booking.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { DynamoBookingStore } from '../../infra/dynamo/dynamo-booking-store.ts';
import { DynamoCreditLedger } from '../../infra/dynamo/dynamo-credit-ledger.ts';
import { DynamoAuditTrail } from '../../infra/dynamo/dynamo-audit-trail.ts';
import { sha256Hex } from '../../infra/crypto/api-keys.ts';
import { keys, WORK_QUEUE_SHARDS, workQueueShardOf } from '../../infra/dynamo/keys.ts';
import { provisionTable } from '../../scripts/local-stack.ts';
import { bookingFixture } from '../support/booking-seed.ts';
import { stack, testServices, uniqueId } from '../support/stack.ts';

/*
 * The open-bookings work queue is sharded on GSI2 (BOOKINGS#OPEN#<0..31>); the sweeper
 * reads every shard and takes the oldest due work across them. On a table of this file's
 * own in DynamoDB Local, so the stack's scheduled sweeper never touches these bookings.
 */
const table = `pds-shards-${randomUUID().slice(0, 8)}`;
const db = () => createDocumentClient(testServices().config);
let store: DynamoBookingStore;

/** 48 open bookings of 48 groups, due one second apart from 2001-01-01T00:00:00Z. */
const bookings = Array.from({ length: 48 }, (_, i) => {
  const owner = { agentGroupId: uniqueId('group'), partnerId: 'p', channelId: 'c' };
  const due = new Date(Date.UTC(2001, 0, 1, 0, 0, i)).toISOString();
  return bookingFixture(owner, { status: 'PROCESSING', bookingId: null, nextCheckAt: due, updatedAt: due });
});

beforeAll(async () => {
  await provisionTable(stack().env.DYNAMODB_ENDPOINT!, table);
  store = new DynamoBookingStore(db(), table, new DynamoCreditLedger(db(), table), new DynamoAuditTrail(db(), table, 'test', sha256Hex));
  for (let i = 0; i < bookings.length; i += 25) {
    await db().send(new BatchWriteCommand({ RequestItems: { [table]: bookings.slice(i, i + 25).map((b) => ({ PutRequest: { Item: bookingItem(b) } })) } }));
  }
}, 60_000);

describe('Sharded work queues', () => {
  it('puts a pending delivery on a shard fixed by its id, and every shard is swept', () => {
    const ids = Array.from({ length: 64 }, () => randomUUID());
    const shards = ids.map((id) => keys.pendingDeliveryIndex('2001-01-01T00:00:00.000Z', id).GSI2PK);

    expect(new Set(shards).size).toBeGreaterThanOrEqual(16);
    expect(ids.map((id) => keys.pendingDeliveryIndex('2030-01-01T00:00:00.000Z', id).GSI2PK)).toEqual(shards);
    expect(new Set([...shards, ...keys.pendingDeliveryShards()]).size).toBe(WORK_QUEUE_SHARDS);
  });
});

describe('Sharded open-bookings queue', () => {
  it('spreads open bookings over the shards by their ref, each booking always on the same one', () => {
    const shards = new Set(bookings.map((b) => workQueueShardOf(b.bookingRef)));

    expect(shards.size).toBeGreaterThanOrEqual(16);
    expect([...shards].every((s) => s >= 0 && s < WORK_QUEUE_SHARDS)).toBe(true);
    expect(bookings.map((b) => bookingItem(b).GSI2PK)).toEqual(bookings.map((b) => bookingItem({ ...b, nextCheckAt: '2030-01-01T00:00:00.000Z' }).GSI2PK));
  });

  it('lists the due work of every shard, oldest first, and leaves out what is not yet due', async () => {
    const cutoff = bookings[39]!.nextCheckAt!;

    const due = await store.listDue(cutoff, 100);

    expect(due.map((b) => b.bookingRef)).toEqual(bookings.slice(0, 40).map((b) => b.bookingRef));
  });

  it('takes the oldest `limit` across shards, not the first shards’ work', async () => {
    const due = await store.listDue('2001-01-02T00:00:00.000Z', 5);

    expect(due.map((b) => b.bookingRef)).toEqual(bookings.slice(0, 5).map((b) => b.bookingRef));
  });

  it('sweeps every shard: the sweeper looks at each overdue booking once per run', async () => {
    // The real store's listDue; a look reads the booking and, finding none here, stops: all this test counts.
    const looked: string[] = [];
    const bookingsSeen = {
      listDue: (dueBefore: string, limit: number) => store.listDue(dueBefore, limit),
      get: async (_group: string, ref: string) => void looked.push(ref),
    };
    const deps = { clock: { now: () => new Date('2001-01-01T00:10:00.000Z') }, bookings: bookingsSeen, metrics: noMetrics } as unknown as WorkflowDeps;

    const result = await sweepBookings(deps, { graceSeconds: 60 });

    expect(result.looked).toBe(48);
    expect([...looked].sort()).toEqual(bookings.map((b) => b.bookingRef).sort());
  });
});
