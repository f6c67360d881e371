import { randomInt, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { GetObjectCommand, ListBucketsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eraseExpiredGuestData } from '../../domain/guests/erase-guest-data.ts';
import { ERASED } from '../../domain/guests/guest-erasure.ts';
import type { GuestDataStore } from '../../domain/ports/guest-data.ts';
import { guestErasureDeps } from '../../infra/container.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { createS3Client } from '../../infra/s3/client.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { book, order, seedBookingWorld, stay, type BookingWorld } from '../support/booking-world.ts';
import { expectContract } from '../support/contract.ts';
import { pollUntil } from '../support/poll.ts';
import { call, newAgentGroup, stack, testServices, type GroupFixture } from '../support/stack.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

/*
 * A guest's personal data through a booking's whole life, over HTTP on the shared stack:
 * booked with a callback, amended (a new additional guest), each outcome called back, then
 * cancelled; erased by the daily job (run in-process with its clock moved past the
 * retention) or by the operator's `guests erase`; then every item of the table and every
 * line the stack logged is searched for the guest's values, and the reads answer the marker.
 */
let world: BookingWorld;
let receiver: Receiver;

beforeAll(async () => {
  [world, receiver] = await Promise.all([seedBookingWorld(), startReceiver()]);
}, 120_000);

afterAll(async () => {
  await receiver?.close();
});

/** Guests whose every value occurs nowhere else in the table or the logs. */
function distinctiveGuests() {
  const tag = randomUUID().replace(/-/g, '').slice(0, 10);
  const phoneDigits = () => `9${String(randomInt(100_000_000, 999_999_999))}`;
  const primary = {
    firstName: `Zephyrine${tag}`,
    lastName: `Quillfeather${tag}`,
    email: `zq.${tag}@guests.example.org`,
    phone: `+91 ${phoneDigits()}`,
    city: `Aldora${tag}`,
    dob: '1990-02-03',
  };
  const companion = { firstName: `Oriel${tag}`, lastName: `Brackenwood${tag}`, email: `oriel.${tag}@guests.example.org`, phone: `+91 ${phoneDigits()}` };
  const amendedIn = { firstName: `Thessaly${tag}`, lastName: `Marchbanks${tag}`, email: `thessaly.${tag}@guests.example.org` };
  const specialRequests = `A cot for little Wren${tag}, please`;
  // The other free text the API accepts about a stay: the order's externalRef and the cancellation's reason, each naming the guest as the review's did.
  const externalRef = `Trip of ${primary.firstName} Voyage${tag}`;
  const cancellationReason = `Guest ${primary.firstName} ${primary.lastName} (${primary.email}, ${primary.phone}) hospitalised at Ward${tag}`;
  const values = [
    ...[primary, companion, amendedIn].flatMap((g) => [g.firstName, g.lastName, g.email]),
    primary.phone,
    primary.phone.replace(/\D/g, '').slice(2),
    companion.phone,
    companion.phone.replace(/\D/g, '').slice(2),
    primary.city,
    `Wren${tag}`,
    `Voyage${tag}`,
    `Ward${tag}`,
  ];
  return { primary, companion, amendedIn, specialRequests, externalRef, cancellationReason, values };
}

/** Every item of the test table whose attributes hold any of `values`, as text. */
async function itemsHolding(values: readonly string[]): Promise<string[]> {
  const db = createDocumentClient(testServices().config);
  const TotalSegments = 4;
  const found = await Promise.all(
    Array.from({ length: TotalSegments }, async (_, Segment) => {
      const hits: string[] = [];
      let ExclusiveStartKey: Record<string, unknown> | undefined;
      do {
        const page = await db.send(new ScanCommand({ TableName: stack().env.TABLE_NAME, Segment, TotalSegments, ExclusiveStartKey }));
        for (const item of page.Items ?? []) {
          const text = JSON.stringify(item);
          if (values.some((v) => text.includes(v))) hits.push(`${item.PK} ${item.SK}: ${text.slice(0, 300)}`);
        }
        ExclusiveStartKey = page.LastEvaluatedKey;
      } while (ExclusiveStartKey);
      return hits;
    }),
  );
  return found.flat();
}

/** The lines the stack logged that hold any of `values`. */
const logLinesHolding = (values: readonly string[]): string[] =>
  readFileSync(stack().logFile, 'utf8')
    .split('\n')
    .filter((line) => values.some((v) => line.includes(v)));

/** Every object of every bucket of the local S3 (invoices, audit digests, exports) whose bytes hold any of `values`. */
async function objectsHolding(values: readonly string[]): Promise<string[]> {
  const s3 = await createS3Client(testServices().config);
  const hits: string[] = [];
  for (const bucket of (await s3.send(new ListBucketsCommand({}))).Buckets ?? []) {
    let token: string | undefined;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket.Name, ...(token ? { ContinuationToken: token } : {}) }));
      for (const o of page.Contents ?? []) {
        const text = Buffer.from(await (await s3.send(new GetObjectCommand({ Bucket: bucket.Name, Key: o.Key }))).Body!.transformToByteArray()).toString(
          'latin1',
        );
        if (values.some((v) => text.includes(v))) hits.push(`${bucket.Name}/${o.Key}`);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
  return hits;
}

/** The erasure events of the booking's audit chain, as (actorKind, actor, reason). */
async function erasureEvents(g: GroupFixture, bookingId: string): Promise<[string, string, unknown][]> {
  const svc = testServices();
  const booking = await svc.bookingReads.byBookingId(g.agentGroupId, bookingId);
  const events = await svc.auditTrail.listTarget(`booking:${booking!.bookingRef}`);
  return events.filter((e) => e.action === 'booking.guest-data-erased').map((e) => [e.actorKind, e.actor, e.after?.reason]);
}

const detail = (g: GroupFixture, bookingId: string) => call('GET', `/v1/bookings/${bookingId}`, { key: g.apiKey });

/** A booking through its life: booked with a callback and a companion, amended (one more night, a new additional guest), cancelled; every callback delivered. */
async function livedBooking(g: GroupFixture, guests: ReturnType<typeof distinctiveGuests>): Promise<{ bookingId: string; orderId: string }> {
  const path = `/guests-${randomUUID()}`;
  const o = await order(g, { ...stay(world.instant, '2027-03-02', '2027-03-03'), externalRef: guests.externalRef });
  const booked = await book(g, o, {
    primaryGuest: guests.primary,
    additionalGuests: [guests.companion],
    specialRequests: guests.specialRequests,
    callbackUrl: `${receiver.url}${path}`,
  });
  expect(booked.status).toBe(200);
  const bookingId = booked.body.bookingId as string;
  const amended = await call('POST', `/v1/bookings/${bookingId}/amendments`, {
    key: g.apiKey,
    body: { checkOut: '2027-03-04', guests: [guests.companion, guests.amendedIn] },
  });
  expect(amended.status).toBeLessThan(300);
  await pollUntil('the amendment applied', async () => ((await detail(g, bookingId)).body.amendments?.[0]?.status === 'APPLIED' ? true : undefined));
  const cancelled = await call('POST', `/v1/bookings/${bookingId}/cancel`, { key: g.apiKey, body: { reason: guests.cancellationReason } });
  expect(cancelled.status).toBe(200);
  const calls = await receiver.waitFor(path, 3, 60_000);
  expect(calls.map((c) => c.body.eventType).sort()).toEqual(['booking.amended', 'booking.cancelled', 'booking.confirmed']);
  return { bookingId, orderId: o.orderId };
}

/** The reads a partner makes, each answering the marker (never a 404), each valid against the contract. */
async function expectReadsAnswerTheMarker(g: GroupFixture, bookingId: string, orderId: string, values: readonly string[]): Promise<void> {
  const one = await detail(g, bookingId);
  expect(one.status).toBe(200);
  expectContract(one, 'getBooking');
  expect(one.body.primaryGuest).toEqual({ firstName: ERASED, lastName: ERASED });
  expect(one.body.additionalGuests).toEqual([
    { firstName: ERASED, lastName: ERASED },
    { firstName: ERASED, lastName: ERASED },
  ]);
  expect(one.body.specialRequests).toBe(ERASED);
  expect(one.body.amendments).toHaveLength(1);
  expect(one.body.callbacks).toHaveLength(3);
  const list = await call('GET', `/v1/bookings?bookingIds=${bookingId}`, { key: g.apiKey });
  expect(list.status).toBe(200);
  expectContract(list, 'listBookings');
  expect(list.body.data.map((row: { bookingId: string }) => row.bookingId)).toEqual([bookingId]);
  const theOrder = await call('GET', `/v1/orders/${orderId}`, { key: g.apiKey });
  expect(theOrder.status).toBe(200);
  expectContract(theOrder, 'getOrder');
  for (const res of [one, list, theOrder]) for (const v of values) expect(res.text).not.toContain(v);
}

describe('Guest personal data: the daily retention job', () => {
  it('keeps the guest until the retention runs out, then erases it from every item of the table; the reads answer the marker', async () => {
    // prepare
    const g = await newAgentGroup({ channelId: world.channelId });
    const guests = distinctiveGuests();
    const { bookingId, orderId } = await livedBooking(g, guests);
    expect((await itemsHolding(guests.values)).length).toBeGreaterThan(0);
    const svc = testServices();
    const retentionDays = svc.config.guestRetentionDays;
    // Cancelled today: due once the retention has passed, counted in India's days.
    const dayBefore = new Date(Date.now() + (retentionDays - 1) * 86_400_000);
    const dueDay = new Date(Date.now() + (retentionDays + 1) * 86_400_000);
    // The job's own index read, narrowed to this test's group: the shared table holds other files' bookings, which are not this test's to erase.
    const ownGroupOnly: GuestDataStore = {
      listErasable: async (endedOnOrBefore, limit) =>
        (await svc.guestData.listErasable(endedOnOrBefore, 10_000)).filter((a) => a.agentGroupId === g.agentGroupId).slice(0, limit),
      locate: (id, groups) => svc.guestData.locate(id, groups),
      eraseBooking: (previous, next, audit) => svc.guestData.eraseBooking(previous, next, audit),
      indexErasable: (b) => svc.guestData.indexErasable(b),
    };
    const job = (now: Date) => eraseExpiredGuestData({ ...guestErasureDeps(svc), guestData: ownGroupOnly, clock: { now: () => now } });

    // act
    const early = await job(dayBefore);
    const heldTheDayBefore = (await detail(g, bookingId)).body.primaryGuest;
    const due = await job(dueDay);
    const again = await job(dueDay);

    // assess
    expect(early).toMatchObject({ erased: 0 });
    expect(heldTheDayBefore).toMatchObject({ firstName: guests.primary.firstName, email: guests.primary.email });
    expect(due).toMatchObject({ looked: 1, erased: 1, failed: 0 });
    expect(again).toMatchObject({ erased: 0, failed: 0 });
    expect(await erasureEvents(g, bookingId)).toEqual([['system', 'guest-data-retention', 'retention']]);
    expect(await itemsHolding(guests.values)).toEqual([]);
    expect(logLinesHolding(guests.values)).toEqual([]);
    await expectReadsAnswerTheMarker(g, bookingId, orderId, guests.values);
  }, 180_000);
});

describe('Guest personal data: erasure on request (npm run admin -- guests erase)', () => {
  it('refuses while the stay has not ended and changes nothing; erases once cancelled, found by its bookingId alone', async () => {
    // prepare
    const g = await newAgentGroup({ channelId: world.channelId });
    const guests = distinctiveGuests();
    const o = await order(g, stay(world.instant, '2027-03-02', '2027-03-03'));
    const booked = await book(g, o, { primaryGuest: guests.primary });
    expect(booked.status).toBe(200);
    const bookingId = booked.body.bookingId as string;

    // act
    const refused = await runAdminTool(['guests', 'erase', '--booking', bookingId, '--as', 'dpo@test']);
    const stillHeld = await detail(g, bookingId);
    await call('POST', `/v1/bookings/${bookingId}/cancel`, { key: g.apiKey, body: {} });
    const erased = await runAdminTool(['guests', 'erase', '--booking', bookingId, '--as', 'dpo@test', '--json']);
    const repeated = await runAdminTool(['guests', 'erase', '--booking', bookingId, '--group', g.agentGroupId, '--as', 'dpo@test', '--json']);

    // assess
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('has not ended');
    expect(refused.stderr).toContain('Nothing was erased');
    expect(stillHeld.body.primaryGuest).toMatchObject({ firstName: guests.primary.firstName, email: guests.primary.email });
    expect(erased.code, erased.stderr).toBe(0);
    expect(JSON.parse(erased.stdout).results).toEqual([expect.objectContaining({ bookingId, agentGroupId: g.agentGroupId, outcome: 'erased' })]);
    expect(JSON.parse(repeated.stdout).results).toEqual([expect.objectContaining({ bookingId, outcome: 'already-erased' })]);
    // One event, in the erasure's transaction: the refusal and the repeat wrote none.
    expect(await erasureEvents(g, bookingId)).toEqual([['operator', 'dpo@test', 'request']]);
    const after = await detail(g, bookingId);
    expect(after.status).toBe(200);
    expectContract(after, 'getBooking');
    expect(after.body.primaryGuest).toEqual({ firstName: ERASED, lastName: ERASED });
    expect(await itemsHolding(guests.values)).toEqual([]);
  }, 180_000);

  it('reaches every copy of every free-text field: the table, the buckets and the stack log hold none of the guest after guests erase', async () => {
    // prepare: booked, amended, cancelled with the guest named in the reason, every callback delivered and kept
    const g = await newAgentGroup({ channelId: world.channelId });
    const guests = distinctiveGuests();
    const { bookingId, orderId } = await livedBooking(g, guests);
    // The reason is held on the booking and in the booking.cancelled callback's kept body.
    expect((await itemsHolding([guests.values.at(-1)!])).length).toBeGreaterThanOrEqual(2);

    // act
    const erased = await runAdminTool(['guests', 'erase', '--booking', bookingId, '--as', 'dpo@test', '--json']);

    // assess
    expect(erased.code, erased.stderr).toBe(0);
    expect(await itemsHolding(guests.values)).toEqual([]);
    expect(await objectsHolding(guests.values)).toEqual([]);
    expect(logLinesHolding(guests.values)).toEqual([]);
    await expectReadsAnswerTheMarker(g, bookingId, orderId, guests.values);
  }, 240_000);

  it('by e-mail across a group: every booking where the guest appears, all or nothing', async () => {
    // prepare: the guest is primary on one booking and a companion on another; a third stay of theirs is still ahead
    const g = await newAgentGroup({ channelId: world.channelId });
    const guests = distinctiveGuests();
    const other = distinctiveGuests();
    const ids: string[] = [];
    for (const extra of [
      { primaryGuest: guests.primary },
      { primaryGuest: other.primary, additionalGuests: [{ ...guests.primary, email: guests.primary.email.toUpperCase() }] },
      { primaryGuest: guests.primary },
    ]) {
      const res = await book(g, await order(g, stay(world.instant, '2027-03-07', '2027-03-08')), extra);
      expect(res.status).toBe(200);
      ids.push(res.body.bookingId as string);
    }
    for (const id of ids.slice(0, 2)) expect((await call('POST', `/v1/bookings/${id}/cancel`, { key: g.apiKey, body: {} })).status).toBe(200);
    // The tool reads the group's feed; on a machine loaded by other suites that outlasts the helper's default minute.
    const erase = () => runAdminTool(['guests', 'erase', '--email', guests.primary.email, '--group', g.agentGroupId, '--as', 'dpo@test', '--json']);

    // act
    const refused = await erase();
    const afterRefusal = await Promise.all(ids.map((id) => detail(g, id)));
    expect((await call('POST', `/v1/bookings/${ids[2]}/cancel`, { key: g.apiKey, body: {} })).status).toBe(200);
    const done = await erase();

    // assess
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(ids[2]);
    expect(afterRefusal.map((r) => r.body.primaryGuest.firstName)).toEqual([guests.primary.firstName, other.primary.firstName, guests.primary.firstName]);
    expect(done.code, done.stderr).toBe(0);
    expect(
      JSON.parse(done.stdout)
        .results.map((r: { bookingId: string; outcome: string }) => [r.bookingId, r.outcome])
        .sort(),
    ).toEqual(ids.map((id) => [id, 'erased']).sort());
    expect(await itemsHolding([...guests.values, ...other.values])).toEqual([]);
  }, 420_000);
});
