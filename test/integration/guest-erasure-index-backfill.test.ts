import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { erasedBooking } from '../../domain/guests/guest-erasure.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { keys } from '../../infra/dynamo/keys.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { bookingFixture, seedBooking } from '../support/booking-seed.ts';
import { newAgentGroup, testServices } from '../support/stack.ts';

/*
 * `guests backfill-index` against DynamoDB Local: bookings settled before the erasure index
 * existed (their item has no index key) are invisible to the daily job until the backfill
 * indexes them; a second run changes nothing; erased and still-open bookings stay out.
 */
const FAR_FUTURE = '2099-12-31';

/** The group's bookings the erasure job would find, by ref. */
async function erasableRefs(agentGroupId: string): Promise<string[]> {
  return (await testServices().guestData.listErasable(FAR_FUTURE, 100_000))
    .filter((a) => a.agentGroupId === agentGroupId)
    .map((a) => a.bookingRef)
    .sort();
}

describe('Admin: guests backfill-index', () => {
  it('indexes the settled bookings written before the index, once; leaves erased and open ones out; records the run', async () => {
    // prepare
    const svc = testServices();
    const db = createDocumentClient(svc.config);
    const g = await newAgentGroup();
    const past = { checkIn: '2026-01-01', checkOut: '2026-01-03' };
    const old = await seedBooking(bookingFixture(g, past));
    const current = await seedBooking(bookingFixture(g, past));
    const erased = await seedBooking(erasedBooking(bookingFixture(g, past), new Date().toISOString()));
    const open = await seedBooking(bookingFixture(g, { ...past, status: 'PROCESSING', nextCheckAt: new Date().toISOString() }));
    // As a booking settled before the index existed was stored: no erasure index key.
    await db.send(
      new UpdateCommand({ TableName: svc.config.tableName, Key: keys.booking(g.agentGroupId, old.bookingRef), UpdateExpression: 'REMOVE GSI2PK, GSI2SK' }),
    );
    const before = await erasableRefs(g.agentGroupId);

    // act
    const first = await runAdminTool(['guests', 'backfill-index', '--group', g.agentGroupId, '--as', 'ops@test', '--json']);
    const afterFirst = await erasableRefs(g.agentGroupId);
    const second = await runAdminTool(['guests', 'backfill-index', '--group', g.agentGroupId, '--as', 'ops@test', '--json']);
    const unknown = await runAdminTool(['guests', 'backfill-index', '--group', 'no-such-group', '--as', 'ops@test']);

    // assess
    expect(before).toEqual([current.bookingRef]);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ groups: [{ agentGroupId: g.agentGroupId, looked: 4, erasable: 2, indexed: 1 }], indexed: 1 });
    expect(afterFirst).toEqual([old.bookingRef, current.bookingRef].sort());
    expect(JSON.parse(second.stdout).indexed).toBe(0);
    expect(await erasableRefs(g.agentGroupId)).not.toContain(erased.bookingRef);
    expect(await erasableRefs(g.agentGroupId)).not.toContain(open.bookingRef);
    expect(unknown.code).toBe(1);
    const events = await svc.auditTrail.listTarget(`guests:${g.agentGroupId}`);
    expect(events.map((e) => [e.action, e.actor, e.after?.status])).toEqual([
      ['admin.guests.backfill-index', 'ops@test', 'started'],
      ['admin.guests.backfill-index', 'ops@test', 'completed'],
      ['admin.guests.backfill-index', 'ops@test', 'started'],
      ['admin.guests.backfill-index', 'ops@test', 'completed'],
    ]);
  }, 120_000);
});
