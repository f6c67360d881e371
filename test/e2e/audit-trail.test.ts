import { DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyChain } from '../../domain/audit/audit-event.ts';
import { cancelBooking } from '../../domain/bookings/cancel-booking.ts';
import { placeBooking } from '../../domain/bookings/place-booking.ts';
import { createOrder } from '../../domain/orders/manage-orders.ts';
import type { AgentGroupPrincipal } from '../../domain/principal.ts';
import { bookingDeps, orderDeps, type Services } from '../../infra/container.ts';
import { sha256Hex } from '../../infra/crypto/api-keys.ts';
import { createDocumentClient, dynamoCalls } from '../../infra/dynamo/client.ts';
import { DynamoAuditTrail } from '../../infra/dynamo/dynamo-audit-trail.ts';
import { keys } from '../../infra/dynamo/keys.ts';
import { testOrigin } from '../support/audit-origin.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { guest, seedBookingWorld, stay, type BookingWorld } from '../support/booking-world.ts';
import { newAgentGroup, testServices } from '../support/stack.ts';

/*
 * The audit trail against DynamoDB Local: a partner's booking and cancellation each write
 * one event in the change's own transaction, the events carry no guest data, and an edit
 * or a deletion made directly in the table is named by the chain check.
 */
let world: BookingWorld;
let svc: Services;

beforeAll(async () => {
  world = await seedBookingWorld();
  svc = testServices();
}, 120_000);

async function tenant(): Promise<AgentGroupPrincipal> {
  const group = await newAgentGroup({ channelId: world.channelId });
  return {
    kind: 'agent-group',
    agentGroupId: group.agentGroupId,
    partnerId: group.partnerId,
    channelId: world.channelId,
    keyId: group.keyId,
    keyPrefix: group.apiKey.slice(0, 12),
  };
}

/** Books one night through the use case, with `ids` overriding the container's when given. */
async function book(principal: AgentGroupPrincipal, ids?: Services['ids']) {
  const order = await createOrder(orderDeps(svc), principal, { request: stay(world.instant) });
  const deps = { ...bookingDeps(svc), queue: { send: async () => undefined }, syncWaitMs: 3_000, ...(ids ? { ids } : {}) };
  const cmd = {
    orderId: order.orderId,
    externalBookingId: randomUUID(),
    acceptedTotal: order.pricing.summary.grandTotal,
    primaryGuest: guest,
    additionalGuests: [{ firstName: 'Ravi', email: 'ravi.k@example.com' }],
  };
  return { deps, reply: await placeBooking(deps, principal, cmd, testOrigin(principal.keyId)) };
}

describe('Class: DynamoAuditTrail', () => {
  it('records a booking and its cancellation in one chain, actor and request id included, no guest data', async () => {
    // prepare
    const principal = await tenant();
    const { deps, reply } = await book(principal);
    const origin = testOrigin(principal.keyId);
    // act
    await cancelBooking(deps, principal, reply.booking.bookingId!, 'Asha Rao cannot travel', origin);
    // assess
    const chain = await svc.auditTrail.readChain(`booking:${reply.booking.bookingRef}`);
    // The landing (charge posted) is the workflow's own event, when it landed within the synchronous wait.
    const landed = reply.booking.status === 'CONFIRMED' ? ['booking.confirmed'] : [];
    expect(chain.events.map((e) => e.action)).toEqual(['booking.created', ...landed, 'booking.cancelled']);
    expect(chain.events.at(-1)).toMatchObject({
      actor: principal.keyId,
      actorKind: 'partner-key',
      requestId: origin.requestId,
      account: principal.agentGroupId,
      stage: 'test',
      after: { status: 'CANCELLED' },
    });
    expect(chain.events[0]!.after).toMatchObject({ status: 'PROCESSING', chargedTotal: reply.booking.chargedTotal, checkIn: '2027-03-02' });
    expect(verifyChain(`booking:${reply.booking.bookingRef}`, chain.events, chain.head, sha256Hex)).toBeNull();
    const text = JSON.stringify(chain);
    for (const value of [guest.firstName, guest.lastName, guest.email, guest.phone, 'Ravi', 'ravi.k@example.com', 'cannot travel'])
      expect(text).not.toContain(value);
    const page = await svc.auditTrail.listAccount(principal.agentGroupId, { limit: 10 });
    // The group's creation and its key's issue (the fixture's operator changes) are on the account too.
    expect(page.events.map((e) => e.action).sort()).toEqual(['booking.cancelled', ...landed, 'booking.created', 'group.created', 'key.issued'].sort());
  }, 60_000);

  it('makes no change when its event cannot be written: a taken chain position refuses the booking', async () => {
    // prepare: the booking's chain already has a head, as if another writer took position 1
    const principal = await tenant();
    const bookingRef = randomUUID();
    await svc.auditTrail.transact([], {
      id: randomUUID(),
      at: new Date().toISOString(),
      origin: testOrigin(),
      action: 'test.squat',
      target: `booking:${bookingRef}`,
      account: null,
      before: null,
      after: { x: 1 },
    });
    let first = true;
    const ids = { uuid: () => (first ? ((first = false), bookingRef) : randomUUID()) };
    // act
    const outcome = await book(principal, ids).catch((err: unknown) => err);
    // assess
    expect(outcome).toMatchObject({ name: 'TransactionCanceledException' });
    expect(await svc.bookings.get(principal.agentGroupId, bookingRef)).toBeUndefined();
    expect((await svc.ledger.creditPosition(principal.agentGroupId))?.exposure).toBe(0);
  }, 60_000);

  it('audit verify names the first break after an item is edited in the table, and after one is deleted', async () => {
    // prepare
    const principal = await tenant();
    const { deps, reply } = await book(principal);
    await cancelBooking(deps, principal, reply.booking.bookingId!, undefined, testOrigin(principal.keyId));
    const target = `booking:${reply.booking.bookingRef}`;
    const db = createDocumentClient(svc.config);
    const table = svc.config.tableName;
    // Walking every chain of the shared table would cost the suite minutes: the test walks its own chain, after finding it among all.
    expect(await svc.auditTrail.chainTargets()).toContain(target);
    const before = await runAdminTool(['audit', 'verify', '--target', target]);
    expect(before.stderr).toBe('');
    expect(before.stdout).toContain('Intact');
    // act: raise the recorded refund directly in DynamoDB
    await db.send(
      new UpdateCommand({
        TableName: table,
        Key: keys.auditEvent(target, 2),
        UpdateExpression: 'SET #after.refundAmount = :v',
        ExpressionAttributeNames: { '#after': 'after' },
        ExpressionAttributeValues: { ':v': 99_999_99 },
      }),
    );
    const edited = await runAdminTool(['audit', 'verify', '--target', target]);
    // assess
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain(`chain ${target} at event 2`);
    expect(edited.stderr).toContain('edited');
    // act: delete the first event
    await db.send(new DeleteCommand({ TableName: table, Key: keys.auditEvent(target, 1) }));
    const deleted = await runAdminTool(['audit', 'verify', '--target', target]);
    // assess
    expect(deleted.stderr).toContain(`chain ${target} at event 1`);
    expect(deleted.stderr).toContain('missing');
    // leave the shared table's trail intact for other files
    await db.send(new DeleteCommand({ TableName: table, Key: keys.auditEvent(target, 2) }));
    await db.send(new DeleteCommand({ TableName: table, Key: keys.auditHead(target) }));
  }, 120_000);
});

describe("Known heads: a booking's landing extends the chain its creation started without reading it", () => {
  const draft = (target: string, action: string) => ({
    id: randomUUID(),
    at: new Date().toISOString(),
    origin: testOrigin(),
    action,
    target,
    account: null,
    before: null,
    after: { action },
  });
  const headReads = () => dynamoCalls.byOperation.GetItemCommand ?? 0;

  it('writes the second event after the head the first left, with no GetItem, and the chain verifies', async () => {
    // prepare
    const db = createDocumentClient(svc.config);
    const trail = new DynamoAuditTrail(db, svc.config.tableName, 'test', sha256Hex);
    const target = `booking:${randomUUID()}`;
    await db.send(new TransactWriteCommand({ TransactItems: trail.firstItems(draft(target, 'booking.created')) }));
    const reads = headReads();
    // act
    const items = await trail.itemsAfterKnown(draft(target, 'booking.confirmed'));
    await db.send(new TransactWriteCommand({ TransactItems: items }));
    // assess
    expect(headReads() - reads).toBe(0);
    const chain = await svc.auditTrail.readChain(target);
    expect(chain.events.map((e) => e.action)).toEqual(['booking.created', 'booking.confirmed']);
    expect(verifyChain(target, chain.events, chain.head, sha256Hex)).toBeNull();
  }, 60_000);

  it('refuses the guess when another writer moved the head first, and the retry reads it', async () => {
    // prepare: this process started the chain; another process appended to it since
    const db = createDocumentClient(svc.config);
    const trail = new DynamoAuditTrail(db, svc.config.tableName, 'test', sha256Hex);
    const other = new DynamoAuditTrail(createDocumentClient(svc.config), svc.config.tableName, 'test', sha256Hex);
    const target = `booking:${randomUUID()}`;
    await db.send(new TransactWriteCommand({ TransactItems: trail.firstItems(draft(target, 'booking.created')) }));
    await other.transact([], draft(target, 'booking.cancelled'));
    // act
    const stale = await trail.itemsAfterKnown(draft(target, 'booking.confirmed'));
    const refused = await db.send(new TransactWriteCommand({ TransactItems: stale })).catch((err: unknown) => err);
    const reads = headReads();
    const fresh = await trail.itemsAfterKnown(draft(target, 'booking.confirmed'));
    await db.send(new TransactWriteCommand({ TransactItems: fresh }));
    // assess
    expect(refused).toMatchObject({ name: 'TransactionCanceledException' });
    expect(headReads() - reads).toBe(1);
    const chain = await svc.auditTrail.readChain(target);
    expect(chain.events.map((e) => [e.seq, e.action])).toEqual([
      [1, 'booking.created'],
      [2, 'booking.cancelled'],
      [3, 'booking.confirmed'],
    ]);
    expect(verifyChain(target, chain.events, chain.head, sha256Hex)).toBeNull();
  }, 60_000);
});

describe('Admin tool: operator identity and the audit commands', () => {
  it('refuses a change without an operator, records the operator on a change, lists and exports it', async () => {
    // prepare
    const principal = await tenant();
    const g = principal.agentGroupId;
    // act
    const refused = await runAdminTool(['groups', 'update', g, '--credit-limit', '1234'], { ADMIN_OPERATOR: '' });
    // assess
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--as <your name> or set ADMIN_OPERATOR');
    expect((await svc.tenants.getAgentGroup(g))?.creditLimit).not.toBe(1234_00);
    // act
    const done = await runAdminTool(['groups', 'update', g, '--credit-limit', '1234', '--as', 'alice']);
    // assess
    expect(done.code).toBe(0);
    const listed = JSON.parse((await runAdminTool(['audit', 'list', '--target', `group:${g}`, '--json'])).stdout) as {
      events: { actor: string; actorKind: string; action: string; before: Record<string, unknown>; after: Record<string, unknown> }[];
    };
    const update = listed.events.find((e) => e.action === 'group.updated')!;
    expect(update).toMatchObject({ actor: 'alice', actorKind: 'operator', after: { creditLimit: 1234_00 } });
    expect(Object.keys(update.after)).toEqual(['creditLimit']);
    const month = new Date().toISOString().slice(0, 7);
    const exported = JSON.parse((await runAdminTool(['audit', 'export', '--month', month, '--json'])).stdout) as { key: string; events: number };
    const body = new TextDecoder().decode(await svc.documents.get(exported.key));
    expect(
      body
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).action),
    ).toContain('group.updated');
  }, 120_000);

  it('records a many-write command write-ahead: started before its change, then completed or failed, on one chain under one run id', async () => {
    // prepare
    const g = (await tenant()).agentGroupId;
    const target = `billing:${g}`;
    // act
    const done = await runAdminTool(['billing', 'backfill-unbilled', '--group', g, '--as', 'carol']);
    const missingGroup = `missing-${randomUUID()}`;
    const failed = await runAdminTool(['billing', 'backfill-unbilled', '--group', missingGroup, '--as', 'carol']);
    // assess
    expect(done.code, done.stderr).toBe(0);
    expect(failed.code).toBe(1);
    const events = await svc.auditTrail.listTarget(target);
    expect(events.map((e) => [e.action, e.actor, e.before, e.after])).toEqual([
      ['admin.billing.backfill-unbilled', 'carol', null, { command: 'billing backfill-unbilled', options: [`--group=${g}`], status: 'started' }],
      ['admin.billing.backfill-unbilled', 'carol', { status: 'started' }, { status: 'completed' }],
    ]);
    expect(events[0]!.requestId).toBe(events[1]!.requestId);
    expect((await svc.auditTrail.listTarget(`billing:${missingGroup}`)).map((e) => e.after)).toEqual([
      expect.objectContaining({ status: 'started' }),
      { status: 'failed', error: 'NotFoundError' },
    ]);
  }, 120_000);

  it('refuses a many-write command whose started event cannot be written, and makes no change', async () => {
    // prepare: the chain's first position is taken by an item the trail did not write, so no event can join the chain
    const g = (await tenant()).agentGroupId;
    await createDocumentClient(svc.config).send(
      new PutCommand({ TableName: svc.config.tableName, Item: { ...keys.auditEvent(`billing:${g}`, 1), entity: 'AuditEvent', id: 'squatter' } }),
    );
    // act
    const refused = await runAdminTool(['billing', 'backfill-unbilled', '--group', g, '--as', 'carol']);
    // assess
    expect(refused.code).not.toBe(0);
    expect(await svc.unbilled.isComplete(g)).toBe(false);
  }, 120_000);
});
