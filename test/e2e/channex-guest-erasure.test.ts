import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERASED } from '../../domain/guests/guest-erasure.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { keys } from '../../infra/dynamo/keys.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { book, order, seedBookingWorld, stay, type BookingWorld } from '../support/booking-world.ts';
import { controlFakeChannex } from '../support/fake-channex.ts';
import { pollUntil } from '../support/poll.ts';
import { call, newAgentGroup, stack, testServices, type GroupFixture } from '../support/stack.ts';

/*
 * A guest's erasure on a listing connected to Channex (world file simulator.channelManager:
 * channex), over HTTP on the shared stack and its fake Channex: the copy of the pushed booking
 * we hold is rewritten with the marker, and Channex is told nothing (its copy is the property's;
 * docs/personal-data.md).
 */
let world: BookingWorld;
let g: GroupFixture;

beforeAll(async () => {
  world = await seedBookingWorld({ instant: { mode: 'CONFIRM_IMMEDIATELY', channelManager: 'channex' } });
  g = await newAgentGroup({ channelId: world.channelId });
}, 120_000);

const statusOf = async (bookingId: string) => (await call('GET', `/v1/bookings/${bookingId}`, { key: g.apiKey })).body.status as string;
/** The revisions of one reservation the fake Channex accepted. */
const revisionsOf = async (reservationId: string) =>
  (await controlFakeChannex(stack().channexUrl, { bookingsOf: world.instant })).bookings.filter((r) => r.reservation_id === reservationId);

describe('Guest erasure of a Channex-routed booking', () => {
  it('rewrites the copy we hold of what was pushed with the marker, and pushes Channex nothing', async () => {
    // prepare: booked (a new revision with the guest), then cancelled (a cancelled revision): the stay has ended
    const tag = randomUUID().replace(/-/g, '').slice(0, 10);
    const primary = { firstName: `Isolde${tag}`, lastName: `Fairweather${tag}`, email: `isolde.${tag}@guests.example.org`, phone: '+91 9811122233' };
    const values = [primary.firstName, primary.lastName, primary.email];
    const booked = await book(g, await order(g, stay(world.instant, '2027-03-09', '2027-03-10')), { primaryGuest: primary });
    expect([200, 202]).toContain(booked.status);
    const bookingId = booked.body.bookingId as string;
    await pollUntil('the booking confirmed', async () => ((await statusOf(bookingId)) === 'CONFIRMED' ? true : undefined));
    expect((await call('POST', `/v1/bookings/${bookingId}/cancel`, { key: g.apiKey })).status).toBe(200);
    const bookingRef = (await testServices().bookingReads.byBookingId(g.agentGroupId, bookingId))!.bookingRef;
    const pushed = await pollUntil('the cancelled revision', async () => {
      const all = await revisionsOf(bookingRef);
      return all.some((r) => r.status === 'cancelled') ? all : undefined;
    });
    const copy = async () =>
      (
        await createDocumentClient(testServices().config).send(
          new GetCommand({ TableName: testServices().config.tableName, Key: keys.channexBooking(bookingRef), ConsistentRead: true }),
        )
      ).Item!;
    const held = JSON.stringify(await copy());

    // act
    const erased = await runAdminTool(['guests', 'erase', '--booking', bookingId, '--as', 'dpo@test', '--json']);

    // assess
    expect(pushed[0]).toMatchObject({ status: 'new', customer: { name: primary.firstName, surname: primary.lastName, mail: primary.email } });
    for (const v of values) expect(held).toContain(v);
    expect(erased.code, erased.stderr).toBe(0);
    expect(JSON.parse(erased.stdout).results).toEqual([expect.objectContaining({ bookingId, outcome: 'erased' })]);
    const after = await copy();
    for (const v of [...values, '9811122233']) expect(JSON.stringify(after)).not.toContain(v);
    expect(after.booking.customer).toEqual({ name: ERASED, surname: ERASED });
    expect(after.booking.rooms.flatMap((r: { guests?: unknown[] }) => r.guests ?? [])).toEqual([{ name: ERASED, surname: ERASED }]);
    // Channex is not told: the erasure pushes no revision (the adapter pushes inline, so none can follow the command).
    expect(await revisionsOf(bookingRef)).toHaveLength(pushed.length);
    expect(JSON.stringify(await revisionsOf(bookingRef))).toContain(primary.email);
  }, 120_000);
});
