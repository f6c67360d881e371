import { testOrigin } from '../support/audit-origin.ts';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptDelivery } from '../../domain/deliveries/attempt-delivery.ts';
import type { CatalogueEvent } from '../../domain/deliveries/catalogue-event.ts';
import type { DeliveryDeps } from '../../domain/deliveries/deps.ts';
import type { Metrics } from '../../domain/ports/metrics.ts';
import type { WebhookDelivery } from '../../domain/deliveries/delivery.ts';
import { publishCatalogueEvents } from '../../domain/deliveries/publish-catalogue-events.ts';
import { readChanges } from '../../domain/deliveries/read-deliveries.ts';
import { SWEEP_GRACE_SECONDS, sweepDeliveries } from '../../domain/deliveries/sweep-deliveries.ts';
import type { PartnerPrincipal } from '../../domain/principal.ts';
import type { EndpointFields } from '../../domain/webhooks/manage-endpoints.ts';
import { createEndpoint } from '../../domain/webhooks/manage-endpoints.ts';
import { decodeDeliveryMessage } from '../../events/delivery-message.ts';
import { deliveryDeps, type Services } from '../../infra/container.ts';
import { ownDeliveryQueue, overdueOnly, type OwnDeliveryQueue } from '../support/own-delivery-queue.ts';
import { uniqueId } from '../support/stack.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

/*
 * The engine against DynamoDB Local and a fauxqs queue of this file's own (the offline
 * worker polls the stack's queue; nothing here should race it), with a real HTTP receiver.
 */
let queue: OwnDeliveryQueue;
let svc: Services;
let deps: DeliveryDeps;
let receiver: Receiver;

beforeAll(async () => {
  queue = await ownDeliveryQueue('it-deliveries');
  svc = queue.svc;
  deps = deliveryDeps(svc);
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver.close();
  queue.close();
});

const drain = (max?: number) => queue.drain(max);

const partnerOn = (channelId: string): PartnerPrincipal => ({ kind: 'partner', partnerId: uniqueId('partner'), channelId, keyId: 'k', keyPrefix: 'pds_test' });

async function endpointFor(partner: PartnerPrincipal, fields: Partial<EndpointFields> & { path: string }) {
  const { path, ...rest } = fields;
  return createEndpoint(svc, partner, { url: `${receiver.url}${path}`, maxAttempts: 3, timeoutSeconds: 2, ...rest }, testOrigin());
}

const rateEvent = (channelId: string, overrides: Partial<CatalogueEvent> = {}): CatalogueEvent => ({
  eventType: 'rate.changed',
  entityType: 'rate',
  entityId: uniqueId('prop'),
  fromDate: '2026-05-01',
  toDate: '2026-05-03',
  occurredAt: new Date().toISOString(),
  channelIds: [channelId],
  ...overrides,
});

describe('Use case: publishCatalogueEvents', () => {
  it('writes a change row per channel and a delivery per subscribed ACTIVE endpoint, then one message per delivery', async () => {
    // prepare
    const channel = uniqueId('chan');
    const partner = partnerOn(channel);
    const all = await endpointFor(partner, { path: '/all' });
    const ratesOnly = await endpointFor(partner, { path: '/rates', eventTypes: ['rate.changed'] });
    const listingsOnly = await endpointFor(partner, { path: '/listings', eventTypes: ['listing.updated'] });
    await endpointFor(partner, { path: '/disabled', status: 'DISABLED' });
    const event = rateEvent(channel);

    // act
    const result = await publishCatalogueEvents(deps, [event]);

    // assess
    expect(result).toEqual({ changeRecords: 1, deliveries: 2, notQueued: 0 });
    const messages = (await drain()).map((m) => decodeDeliveryMessage(m.Body!)!);
    expect(messages).toHaveLength(2);
    expect(messages.every((m) => m.kind === 'webhook' && m.attempt === 1 && m.partnerId === partner.partnerId)).toBe(true);
    const stored = await Promise.all(messages.map((m) => svc.deliveries.get(m.partnerId, m.deliveryId)));
    expect(stored.map((d) => (d as WebhookDelivery).endpointId).sort()).toEqual([all.id, ratesOnly.id].sort());
    expect(stored.map((d) => (d as WebhookDelivery).endpointId)).not.toContain(listingsOnly.id);
    for (const d of stored) {
      expect(d).toMatchObject({ status: 'PENDING', attempts: [], kind: 'webhook', eventType: 'rate.changed', requeues: 0 });
      expect(JSON.parse(d!.payload)).toEqual({
        eventType: 'rate.changed',
        entityType: 'rate',
        entityId: event.entityId,
        fromDate: '2026-05-01',
        toDate: '2026-05-03',
        occurredAt: event.occurredAt,
        dedupKey: d!.eventId,
      });
    }
    expect(stored[0]!.payload).toBe(stored[1]!.payload);
    const feed = await readChanges(deps, partner, { size: 10 });
    expect(feed.data).toEqual([expect.objectContaining({ entityId: event.entityId, dedupKey: stored[0]!.eventId })]);
  });

  it('refuses an inventory or rate event without a date window', async () => {
    await expect(publishCatalogueEvents(deps, [rateEvent('any', { fromDate: null })])).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('Use case: attemptDelivery', () => {
  async function publishOne(path: string, fields: Partial<EndpointFields> = {}) {
    const channel = uniqueId('chan');
    const partner = partnerOn(channel);
    await endpointFor(partner, { path, ...fields });
    await publishCatalogueEvents(deps, [rateEvent(channel)]);
    const [message] = (await drain()).map((m) => decodeDeliveryMessage(m.Body!)!);
    return message!;
  }

  it('sends once when two copies of the same message are handled at the same time', async () => {
    // prepare
    const path = `/dup-${randomUUID()}`;
    receiver.respond(path, () => ({ status: 200 }));
    const command = await publishOne(path);

    // act
    const reports = await Promise.all([attemptDelivery(deps, command), attemptDelivery(deps, command), attemptDelivery(deps, command)]);
    const late = await attemptDelivery(deps, command);

    // assess
    expect(reports.filter((r) => r.action === 'sent')).toHaveLength(1);
    expect(late).toEqual({ action: 'skipped', reason: 'final' });
    expect(receiver.to(path)).toHaveLength(1);
    const stored = await svc.deliveries.get(command.partnerId, command.deliveryId);
    expect(stored).toMatchObject({ status: 'SUCCEEDED', nextAttemptAt: null, attempts: [{ attempt: 1, outcome: 'success', statusCode: 200 }] });
  });

  it('records a 5xx, queues the next attempt, and ignores a replay of the attempt already made', async () => {
    // prepare
    const path = `/retry-${randomUUID()}`;
    receiver.respond(path, () => ({ status: 503 }));
    const command = await publishOne(path);

    // act
    const first = await attemptDelivery(deps, command);
    const replay = await attemptDelivery(deps, command);

    // assess
    expect(first).toMatchObject({ action: 'sent', verdict: { status: 'PENDING' } });
    expect(replay).toEqual({ action: 'skipped', reason: 'stale' });
    expect(receiver.to(path)).toHaveLength(1);
    const next = (await drain()).map((m) => decodeDeliveryMessage(m.Body!)!);
    expect(next).toEqual([{ ...command, attempt: 2 }]);
    const stored = await svc.deliveries.get(command.partnerId, command.deliveryId);
    expect(stored).toMatchObject({ status: 'PENDING', attempts: [{ attempt: 1, outcome: 'retryable', statusCode: 503 }] });
  });

  it('puts an early message back on the queue instead of sending before the due time', async () => {
    // prepare: production time scale and no jitter, with the clock frozen at the event, so
    // attempt 2 is due exactly 30 s after it whatever the machine's speed
    const path = `/early-${randomUUID()}`;
    receiver.respond(path, () => ({ status: 500 }));
    const command = await publishOne(path);
    const eventAt = new Date((await svc.deliveries.get(command.partnerId, command.deliveryId))!.createdAt);
    const frozen: DeliveryDeps = { ...deps, timeScale: 1, random: () => 0.5, clock: { now: () => eventAt } };
    await attemptDelivery(frozen, command);
    await drain();

    // act
    const early = await attemptDelivery(frozen, { ...command, attempt: 2 });

    // assess
    expect(early).toEqual({ action: 'deferred', delaySeconds: 30 });
    expect(receiver.to(path)).toHaveLength(1);
  });

  it('ends the delivery FAILED without sending when the endpoint was disabled meanwhile', async () => {
    // prepare
    const path = `/disabled-${randomUUID()}`;
    const command = await publishOne(path);
    const stored = await svc.deliveries.get(command.partnerId, command.deliveryId);
    const endpoint = await svc.webhooks.get(command.partnerId, (stored as WebhookDelivery).endpointId);
    await svc.webhooks.replace({ ...endpoint!, status: 'DISABLED', updatedAt: new Date().toISOString() }, endpoint!.updatedAt);

    // act
    const report = await attemptDelivery(deps, command);

    // assess
    expect(report).toMatchObject({ action: 'abandoned' });
    expect(receiver.to(path)).toHaveLength(0);
    expect(await svc.deliveries.get(command.partnerId, command.deliveryId)).toMatchObject({
      status: 'FAILED',
      attempts: [],
      failureReason: expect.stringContaining('DISABLED'),
    });
  });
});

describe('Use case: sweepDeliveries', () => {
  it('re-queues a PENDING delivery whose message was lost, once, and the worker then sends it', async () => {
    // prepare: the first message never makes it onto the queue
    const channel = uniqueId('chan');
    const partner = partnerOn(channel);
    const path = `/lost-${randomUUID()}`;
    await endpointFor(partner, { path });
    const lost = await publishCatalogueEvents({ ...deps, queue: { send: async (c) => ({ failed: c.length }) } }, [rateEvent(channel)]);
    expect(lost.notQueued).toBe(1);
    const mine: DeliveryDeps = {
      ...deps,
      deliveries: overdueOnly(svc.deliveries, (d) => d.partnerId === partner.partnerId),
      clock: { now: () => new Date(Date.now() + (SWEEP_GRACE_SECONDS + 2) * 1000) },
    };

    // act
    const first = await sweepDeliveries(mine);
    const second = await sweepDeliveries(mine);
    const messages = (await drain()).map((m) => decodeDeliveryMessage(m.Body!)!);
    const report = await attemptDelivery(mine, messages[0]!);

    // assess
    expect(first).toEqual({ requeued: 1, abandoned: 0, notQueued: 0 });
    expect(second).toEqual({ requeued: 0, abandoned: 0, notQueued: 0 });
    expect(messages).toEqual([expect.objectContaining({ partnerId: partner.partnerId, attempt: 1 })]);
    expect(report).toMatchObject({ action: 'sent', verdict: { status: 'SUCCEEDED' } });
    expect(receiver.to(path)).toHaveLength(1);
  });
});

describe('Counts for operators (domain/ports/metrics.ts)', () => {
  it('counts every webhook attempt, and a permanent failure once when a 4xx ends the delivery', async () => {
    // prepare
    const counts: Record<string, number> = {};
    const metrics: Metrics = { count: (name, value = 1) => void (counts[name] = (counts[name] ?? 0) + value) };
    const channel = uniqueId('chan');
    const partner = partnerOn(channel);
    const [retried, gone] = [`/metrics-503-${randomUUID()}`, `/metrics-410-${randomUUID()}`];
    receiver.respond(retried, () => ({ status: 503 }));
    receiver.respond(gone, () => ({ status: 410 }));
    await endpointFor(partner, { path: retried });
    await endpointFor(partner, { path: gone });
    await publishCatalogueEvents(deps, [rateEvent(channel)]);
    const commands = (await drain()).map((m) => decodeDeliveryMessage(m.Body!)!);

    // act
    const reports = await Promise.all(commands.map((c) => attemptDelivery({ ...deps, metrics }, c)));

    // assess
    expect(reports.map((r) => r.action)).toEqual(['sent', 'sent']);
    expect(counts).toEqual({ WebhookAttempt: 2, WebhookPermanentFailure: 1 });
    await drain();
  });
});
