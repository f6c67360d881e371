import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { BookingCallbackOutcome } from '../../domain/deliveries/booking-callback.ts';
import type { CallbackDelivery } from '../../domain/deliveries/delivery.ts';
import { publishBookingCallback } from '../../domain/deliveries/publish-booking-callback.ts';
import { checkCallbackSignature } from '../../events/booking-callback.ts';
import { callbackDeps } from '../../infra/container.ts';
import { callbackOutcome } from '../support/callback-outcome.ts';
import { newAgentGroup, testServices, type GroupFixture } from '../support/stack.ts';
import { startReceiver, type ReceivedRequest, type Receiver } from '../support/webhook-receiver.ts';

/*
 * Booking callbacks end to end: an outcome published onto the stack's delivery queue, and
 * serverless offline's worker (serverless-offline-sqs polling fauxqs) posting it to a real
 * receiver on 127.0.0.1. TIME_SCALE=1000 turns the 4 h 15 min schedule into about 15 s.
 */
let receiver: Receiver;
let group: GroupFixture;

beforeAll(async () => {
  receiver = await startReceiver();
  group = await newAgentGroup();
});

afterAll(async () => {
  await receiver.close();
});

const outcome = (path: string, overrides: Partial<BookingCallbackOutcome> = {}) => callbackOutcome(group, `${receiver.url}${path}`, overrides);

const publish = (o: BookingCallbackOutcome) => publishBookingCallback(callbackDeps(testServices()), o);

/** The callback delivery once it is no longer PENDING. */
async function settled(o: BookingCallbackOutcome, timeoutMs = 60_000): Promise<CallbackDelivery> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const d = await testServices().deliveries.get(o.partnerId, o.eventId);
    if (d && d.status !== 'PENDING') return d as CallbackDelivery;
    if (Date.now() > deadline) throw new Error(`delivery ${o.eventId} still ${d?.status ?? 'missing'} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** What the partner's receiver does with a request: check the signature against its own clock (when the request arrived). */
const verifiedAt = (r: ReceivedRequest) =>
  checkCallbackSignature(r.rawBody, group.signingSecret, r.headers['x-service-signature'] as string | undefined, Math.floor(r.at / 1000));

const quietly = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Each test publishes its own outcome (its own event id and booking) to its own receiver path, and waits on the
// stack's SQS-delayed retries or a quiet spell: they run side by side (docs/local-development.md, "Test tiers").
describe.concurrent('Booking callback delivery', () => {
  it('retries a 500 with the same event id and body, signs each attempt afresh, and records both attempts', async ({ expect }) => {
    // prepare: the first answer is slow enough that the retry is signed in a later second
    const path = `/flaky-${randomUUID()}`;
    receiver.respond(path, (_req, nth) => (nth === 0 ? { status: 500, body: 'busy', delayMs: 1100 } : { status: 200 }));
    const o = outcome(path);

    // act
    const published = await publish(o);
    const requests = await receiver.waitFor(path, 2, 30_000);
    const delivery = await settled(o);

    // assess
    expect(published).toEqual({ created: true, queued: true });
    expect(requests.map((r) => r.headers['x-service-event-id'])).toEqual([o.eventId, o.eventId]);
    expect(requests.map((r) => r.body.eventId)).toEqual([o.eventId, o.eventId]);
    expect(requests[0]!.rawBody.equals(requests[1]!.rawBody)).toBe(true);
    expect(requests[0]!.headers['content-type']).toBe('application/json');
    const checks = requests.map(verifiedAt);
    expect(checks.every((c) => c.ok)).toBe(true);
    const [t1, t2] = checks.map((c) => (c.ok ? c.t : NaN));
    expect(t2).toBeGreaterThan(t1!);
    expect(requests[0]!.headers['x-service-signature']).not.toBe(requests[1]!.headers['x-service-signature']);
    expect(requests[0]!.body).toEqual({
      eventId: o.eventId,
      eventType: 'booking.confirmed',
      event: 'booking.confirmed',
      occurredAt: o.occurredAt,
      status: 'CONFIRMED',
      externalBookingId: o.externalBookingId,
      bookingId: o.bookingId,
      reasonCode: null,
      reason: null,
    });
    expect(delivery).toMatchObject({
      kind: 'callback',
      status: 'SUCCEEDED',
      failureReason: null,
      attempts: [
        { attempt: 1, outcome: 'retryable', statusCode: 500 },
        { attempt: 2, outcome: 'success', statusCode: 200 },
      ],
    });
    for (const a of delivery.attempts) expect(a.durationMs).toEqual(expect.any(Number));
  });

  it('does not follow a 302: the Location is never hit, and the redirect counts as a failure that is retried', async ({ expect }) => {
    // prepare
    const path = `/moved-${randomUUID()}`;
    const target = `/moved-target-${randomUUID()}`;
    receiver.respond(path, (_req, nth) => (nth === 0 ? { status: 302, headers: { Location: `${receiver.url}${target}` } } : { status: 204 }));
    const o = outcome(path);

    // act
    await publish(o);
    await receiver.waitFor(path, 2, 30_000);
    const delivery = await settled(o);

    // assess
    expect(receiver.to(target)).toHaveLength(0);
    expect(delivery).toMatchObject({
      status: 'SUCCEEDED',
      attempts: [
        { outcome: 'redirect', statusCode: 302 },
        { outcome: 'success', statusCode: 204 },
      ],
    });
  });

  it('retries a 404, unlike a catalogue webhook', async ({ expect }) => {
    // prepare
    const path = `/not-yet-${randomUUID()}`;
    receiver.respond(path, (_req, nth) => (nth === 0 ? { status: 404 } : { status: 200 }));
    const o = outcome(path, { eventType: 'booking.cancelled', status: 'CANCELLED' });

    // act
    await publish(o);
    await receiver.waitFor(path, 2, 30_000);
    const delivery = await settled(o);

    // assess
    expect(delivery).toMatchObject({
      status: 'SUCCEEDED',
      attempts: [
        { outcome: 'permanent', statusCode: 404 },
        { outcome: 'success', statusCode: 200 },
      ],
    });
  });

  it('gives up after exactly six attempts when the receiver always answers 500', async ({ expect }) => {
    // prepare
    const path = `/down-${randomUUID()}`;
    receiver.respond(path, () => ({ status: 500 }));
    const o = outcome(path, {
      eventType: 'booking.failed',
      status: 'FAILED',
      bookingId: null,
      reasonCode: 'BOOKING_NOT_COMPLETED',
      reason: 'The property did not confirm the booking in time.',
    });

    // act
    await publish(o);
    await receiver.waitFor(path, 6, 90_000);
    const delivery = await settled(o, 30_000);
    await quietly(3000);

    // assess
    expect(receiver.to(path)).toHaveLength(6);
    expect(new Set(receiver.to(path).map((r) => r.headers['x-service-event-id']))).toEqual(new Set([o.eventId]));
    expect(receiver.to(path)[0]!.body).toMatchObject({ status: 'FAILED', reasonCode: 'BOOKING_NOT_COMPLETED', bookingId: null });
    expect(delivery.status).toBe('FAILED');
    expect(delivery.nextAttemptAt).toBeNull();
    expect(delivery.attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(delivery.attempts.every((a) => a.statusCode === 500)).toBe(true);
    expect(delivery.failureReason).toContain('6 attempts');
  }, 150_000);

  it('creates one delivery and sends one request when the same outcome is published twice', async ({ expect }) => {
    // prepare
    const path = `/once-${randomUUID()}`;
    const o = outcome(path);

    // act
    const results = await Promise.all([publish(o), publish(o)]);
    const again = await publish(o);
    await receiver.waitFor(path, 1);
    const delivery = await settled(o);
    await quietly(2500);

    // assess
    expect(results.map((r) => r.created).sort()).toEqual([false, true]);
    expect(again).toEqual({ created: false, queued: false });
    expect(receiver.to(path)).toHaveLength(1);
    expect(delivery.attempts).toHaveLength(1);
    expect(await testServices().deliveries.listForBooking(o.partnerId, o.bookingRef)).toHaveLength(1);
  });
});
