import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentGroup } from '../../domain/admin.ts';
import { attemptDelivery } from '../../domain/deliveries/attempt-delivery.ts';
import type { BookingCallbackOutcome } from '../../domain/deliveries/booking-callback.ts';
import type { DeliveryDeps } from '../../domain/deliveries/deps.ts';
import type { Metrics } from '../../domain/ports/metrics.ts';
import { publishBookingCallback } from '../../domain/deliveries/publish-booking-callback.ts';
import { SWEEP_GRACE_SECONDS, sweepDeliveries } from '../../domain/deliveries/sweep-deliveries.ts';
import { verifyCallbackSignature } from '../../events/booking-callback.ts';
import { decodeDeliveryMessage } from '../../events/delivery-message.ts';
import { adminDeps, deliveryDeps, type Services } from '../../infra/container.ts';
import { callbackOutcome } from '../support/callback-outcome.ts';
import { ownDeliveryQueue, overdueOnly, type OwnDeliveryQueue } from '../support/own-delivery-queue.ts';
import { newAgentGroup, uniqueId, type GroupFixture } from '../support/stack.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

/* The callback side of the engine in-process, against DynamoDB Local and a queue of this file's own. */
let queue: OwnDeliveryQueue;
let svc: Services;
let deps: DeliveryDeps;
let receiver: Receiver;
let group: GroupFixture;

beforeAll(async () => {
  queue = await ownDeliveryQueue('it-callbacks');
  svc = queue.svc;
  deps = deliveryDeps(svc);
  receiver = await startReceiver();
  group = await newAgentGroup();
});

afterAll(async () => {
  await receiver.close();
  queue.close();
});

const drain = () => queue.drain();

const outcome = (callbackUrl: string, overrides: Partial<BookingCallbackOutcome> = {}) => callbackOutcome(group, callbackUrl, overrides);

/** Publishes and takes the first-attempt message off this file's queue. */
async function publishAndTake(o: BookingCallbackOutcome) {
  await publishBookingCallback(deps, o);
  const [message] = (await drain()).map((m) => decodeDeliveryMessage(m.Body!)!);
  return message!;
}

describe('Use case: publishBookingCallback', () => {
  it('writes one PENDING callback delivery keyed by the event id and queues its first attempt', async () => {
    // prepare
    const o = outcome(`${receiver.url}/cb`);

    // act
    const result = await publishBookingCallback(deps, o);
    const messages = (await drain()).map((m) => decodeDeliveryMessage(m.Body!));
    const stored = await svc.deliveries.get(o.partnerId, o.eventId);

    // assess
    expect(result).toEqual({ created: true, queued: true });
    expect(messages).toEqual([{ kind: 'callback', partnerId: o.partnerId, deliveryId: o.eventId, attempt: 1 }]);
    expect(stored).toMatchObject({
      kind: 'callback',
      deliveryId: o.eventId,
      eventId: o.eventId,
      eventType: 'booking.confirmed',
      agentGroupId: o.agentGroupId,
      bookingRef: o.bookingRef,
      callbackUrl: o.callbackUrl,
      status: 'PENDING',
      attempts: [],
      requeues: 0,
    });
    expect(JSON.parse(stored!.payload)).toMatchObject({ eventId: o.eventId, event: 'booking.confirmed' });
  });

  it('refuses an outcome whose status contradicts its event type', async () => {
    await expect(publishBookingCallback(deps, outcome(`${receiver.url}/cb`, { status: 'FAILED' }))).rejects.toThrow(/does not match/);
  });

  it("lists a booking's callbacks, and only for the partner that owns them", async () => {
    // prepare
    const bookingRef = uniqueId('bk');
    const confirmed = outcome(`${receiver.url}/cb`, { bookingRef });
    const cancelled = outcome(`${receiver.url}/cb`, { bookingRef, eventType: 'booking.cancelled', status: 'CANCELLED' });
    await publishBookingCallback(deps, confirmed);
    await publishBookingCallback(deps, cancelled);
    await publishBookingCallback(deps, outcome(`${receiver.url}/cb`));
    await drain();

    // act
    const mine = await svc.deliveries.listForBooking(group.partnerId, bookingRef);
    const foreign = await svc.deliveries.listForBooking('partner-somebody-else', bookingRef);

    // assess
    expect(mine.map((d) => d.eventId).sort()).toEqual([confirmed.eventId, cancelled.eventId].sort());
    expect(foreign).toEqual([]);
  });
});

describe('Use case: attemptDelivery (booking callbacks)', () => {
  it('signs with the secret the group holds at the time of the attempt', async () => {
    // prepare
    const path = `/signed-${randomUUID()}`;
    const command = await publishAndTake(outcome(`${receiver.url}${path}`));

    // act
    const report = await attemptDelivery(deps, command);
    const [req] = await receiver.waitFor(path, 1);

    // assess
    expect(report).toMatchObject({ action: 'sent', verdict: { status: 'SUCCEEDED' } });
    expect(verifyCallbackSignature(req!.rawBody, group.signingSecret, req!.headers['x-service-signature'] as string, Math.floor(Date.now() / 1000))).toBe(true);
  });

  it('ends the delivery FAILED at once, with the guard reason, when the URL is refused at send time', async () => {
    // prepare: a private address (the test stage lets only loopback through)
    const command = await publishAndTake(outcome('http://10.0.0.7/callbacks'));

    // act
    const report = await attemptDelivery(deps, command);
    const stored = await svc.deliveries.get(command.partnerId, command.deliveryId);

    // assess
    expect(report).toMatchObject({ action: 'sent', attempt: { attempt: 1, outcome: 'blocked' } });
    expect(stored).toMatchObject({ status: 'FAILED', nextAttemptAt: null, attempts: [{ outcome: 'blocked' }] });
    expect(stored!.failureReason).toMatch(/^Not retried: URL refused by the outbound guard/);
    expect(await drain()).toEqual([]);
  });

  it('ends the delivery FAILED without sending when the group has no signing secret', async () => {
    // prepare: a group no key (and so no secret) was ever issued to
    const bare = await createAgentGroup(adminDeps(svc, TEST_OPERATOR), {
      agentGroupId: uniqueId('group'),
      partnerId: group.partnerId,
      name: 'Keyless Agents',
      channelId: 'test-channel',
      creditLimit: 1000_00,
      onHold: false,
      distributionEnabled: true,
      billingCycle: 'MONTHLY',
      billingAnchorDay: 1,
      gstin: '27AAPFU0939F1ZV',
      legalName: 'Keyless Agents Pvt Ltd',
      address: { line1: '1 Test Road', city: 'Mumbai', state: 'Maharashtra', postalCode: '400001', country: 'IN' },
    });
    const path = `/keyless-${randomUUID()}`;
    const command = await publishAndTake(outcome(`${receiver.url}${path}`, { agentGroupId: bare.agentGroupId }));

    // act
    const report = await attemptDelivery(deps, command);

    // assess
    expect(report).toMatchObject({ action: 'abandoned' });
    expect(await svc.deliveries.get(command.partnerId, command.deliveryId)).toMatchObject({ status: 'FAILED', attempts: [] });
    expect(receiver.to(path)).toHaveLength(0);
  });
});

describe('Use case: sweepDeliveries (booking callbacks)', () => {
  it('re-queues a callback whose first message was lost, as a callback', async () => {
    // prepare: the first message never makes it onto the queue
    const o = outcome(`${receiver.url}/lost-${randomUUID()}`);
    const lost = await publishBookingCallback({ ...deps, queue: { send: async (c) => ({ failed: c.length }) } }, o);
    const mine: DeliveryDeps = {
      ...deps,
      deliveries: overdueOnly(svc.deliveries, (d) => d.deliveryId === o.eventId),
      clock: { now: () => new Date(Date.now() + (SWEEP_GRACE_SECONDS + 2) * 1000) },
    };

    // act
    const swept = await sweepDeliveries(mine);
    const messages = (await drain()).map((m) => decodeDeliveryMessage(m.Body!));

    // assess
    expect(lost).toEqual({ created: true, queued: false });
    expect(swept).toEqual({ requeued: 1, abandoned: 0, notQueued: 0 });
    expect(messages).toEqual([{ kind: 'callback', partnerId: o.partnerId, deliveryId: o.eventId, attempt: 1 }]);
  });
});

describe('Counts for operators (domain/ports/metrics.ts)', () => {
  it('counts callback attempts, and a permanent failure when the URL is refused at send time', async () => {
    // prepare
    const counts: Record<string, number> = {};
    const metrics: Metrics = { count: (name, value = 1) => void (counts[name] = (counts[name] ?? 0) + value) };
    const path = `/counted-${randomUUID()}`;
    const delivered = await publishAndTake(outcome(`${receiver.url}${path}`));
    const refused = await publishAndTake(outcome('http://10.0.0.7/callbacks'));

    // act
    const reports = [await attemptDelivery({ ...deps, metrics }, delivered), await attemptDelivery({ ...deps, metrics }, refused)];

    // assess
    expect(reports.map((r) => r.action)).toEqual(['sent', 'sent']);
    expect(counts).toEqual({ CallbackAttempt: 2, CallbackPermanentFailure: 1 });
  });
});
