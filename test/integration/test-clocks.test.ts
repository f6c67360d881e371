import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { httpEvent, lambdaContext } from '../../bench/harness.ts';
import { placeBooking } from '../../domain/bookings/place-booking.ts';
import { sweepBookings } from '../../domain/bookings/sweep-bookings.ts';
import { sweepingOnly } from '../support/own-sweeps.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { eraseExpiredGuestData } from '../../domain/guests/erase-guest-data.ts';
import { createOrder } from '../../domain/orders/manage-orders.ts';
import type { BookingCheck } from '../../domain/ports/booking-store.ts';
import type { GuestDataStore } from '../../domain/ports/guest-data.ts';
import { advanceTestClock, createTestClock, deleteTestClock } from '../../domain/test-clocks/manage-test-clocks.ts';
import { bookingDeps, groupClocks, groupServices, guestErasureDeps, orderDeps, type Services } from '../../infra/container.ts';
import { testOrigin } from '../support/audit-origin.ts';
import { guest, seedBookingWorld, stay } from '../support/booking-world.ts';
import { newAgentGroup, principalOf, testServices, uniqueId, type GroupFixture } from '../support/stack.ts';

describe('Test clock advances racing on DynamoDB Local', () => {
  it("orders concurrent advances by the clock's version: the latest `to` wins, an earlier one judged after it is refused naming `to`, and the due work ran for each accepted jump", async () => {
    const svc = testServices();
    const g = await newAgentGroup();
    const deps = { testClocks: svc.testClocks, realClock: svc.realClock, ids: svc.ids };
    const clock = await createTestClock(deps, principalOf(g), undefined);
    const ran: string[] = [];
    const dueWork = async (_g: string, c: { now(): Date }) => {
      ran.push(c.now().toISOString());
    };
    const targets = Array.from({ length: 8 }, (_, i) => new Date(Date.UTC(2027, 0, 1 + i)));
    const shuffled = [...targets].sort(() => Math.random() - 0.5);

    const outcomes = await Promise.allSettled(shuffled.map((to) => advanceTestClock({ ...deps, dueWork }, principalOf(g), clock.id, to)));

    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(ValidationError);
    const accepted = outcomes.filter((o) => o.status === 'fulfilled').length;
    expect(accepted).toBeGreaterThanOrEqual(1);
    expect(ran).toHaveLength(accepted);
    const final = (await svc.testClocks.get(g.agentGroupId))!;
    expect(final).toMatchObject({ id: clock.id, setTo: targets.at(-1)!.toISOString(), status: 'ready' });
    // Each accepted jump moved the version once (advancing), and once more (ready) unless a later jump had moved it meanwhile.
    expect(final.version).toBeGreaterThanOrEqual(2 + accepted);
    expect(final.version).toBeLessThanOrEqual(1 + 2 * accepted);
  }, 60_000);

  it('races a delete against the first advance: either the delete wins (the advance finds no clock) or the advance does (the delete is refused CLOCK_AHEAD), never a group back on real time after an advance', async () => {
    const svc = testServices();
    const deps = { testClocks: svc.testClocks, realClock: svc.realClock, ids: svc.ids };
    const seen = new Set<string>();
    for (let round = 0; round < 6; round++) {
      const g = await newAgentGroup();
      const clock = await createTestClock(deps, principalOf(g), undefined);
      let worked = 0;
      const dueWork = async () => {
        worked++;
      };
      const [advance, remove] = await Promise.allSettled([
        advanceTestClock({ ...deps, dueWork }, principalOf(g), clock.id, new Date(Date.parse(clock.setTo) + 86_400_000)),
        deleteTestClock(deps, principalOf(g), clock.id),
      ]);
      const left = await svc.testClocks.get(g.agentGroupId);
      if (remove.status === 'fulfilled') {
        // The delete removed the clock before the advance moved it: the advance found none.
        expect(advance.status === 'rejected' && advance.reason).toBeInstanceOf(NotFoundError);
        expect(left).toBeUndefined();
        seen.add('deleted');
      } else {
        expect(remove.reason).toBeInstanceOf(ConflictError);
        expect(advance.status).toBe('fulfilled');
        expect(left).toMatchObject({ id: clock.id });
        expect(worked).toBe(1);
        seen.add('advanced');
      }
    }
    expect(seen.size).toBeGreaterThanOrEqual(1);
  }, 60_000);
});

/**
 * The scheduled jobs that judge a group's bookings by time, on a group's test clock. The booking
 * sweeper finds a booking of a clocked group when it is overdue on the group's clock, and
 * advances it at that clock's time; the workflow's checks are recorded here, so the offline
 * worker never sees this booking: only the sweeper can finish it. The guest-data retention job
 * then erases its guests once the retention has run out on the clock.
 */
describe("Scheduled jobs on a group's test clock", () => {
  it("leaves a booking overdue only on its group's clock to a sweep at real time, finishes it at the clock's time in a sweep over clocked groups, and erases its guests when the retention runs out on the clock", async () => {
    const svc = testServices();
    const world = await seedBookingWorld();
    const g = await newAgentGroup({ channelId: world.channelId });
    const principal = principalOf(g);
    const deps = { testClocks: svc.testClocks, realClock: svc.realClock, ids: svc.ids };
    const clock = await createTestClock(deps, principal, undefined);
    const to = new Date(svc.realClock.now().getTime() + 20 * 86_400_000);
    await advanceTestClock({ ...deps, dueWork: async () => undefined }, principal, clock.id, to);
    const queued: BookingCheck[] = [];
    const recorded = (s: Services) => ({
      ...bookingDeps(s),
      bookings: sweepingOnly(s.bookings, () => [g.agentGroupId]),
      queue: { send: async (check: BookingCheck) => void queued.push(check) },
      syncWaitMs: 0,
    });
    const onClock = recorded(await groupServices(svc, g.agentGroupId));

    // The worker dies once the reservation has landed: the booking is due again at once, on the clock (20 days ahead of real time).
    const order = await createOrder(orderDeps(await groupServices(svc, g.agentGroupId)), principal, {
      request: stay(world.instant, '2027-03-02', '2027-03-03'),
    });
    const externalBookingId = uniqueId('ext');
    const died = await placeBooking(
      {
        ...onClock,
        afterStep: (step) => {
          if (step === 'landed') throw new Error('worker died');
        },
      },
      principal,
      { orderId: order.orderId, externalBookingId, acceptedTotal: order.pricing.summary.grandTotal, primaryGuest: guest, additionalGuests: [] },
      testOrigin(),
    ).catch((err: unknown) => err);
    expect(died).toBeInstanceOf(Error);
    const { bookingRef } = (await svc.bookings.findClaim(g.agentGroupId, externalBookingId))!;
    const left = (await svc.bookings.get(g.agentGroupId, bookingRef))!;
    expect(left).toMatchObject({ status: 'CONFIRMED', steps: { inventoryTaken: false } });
    expect(left.nextCheckAt!.slice(0, 10)).toBe(to.toISOString().slice(0, 10));

    // At real time it is not due yet.
    await sweepBookings(recorded(svc), { graceSeconds: 0 });
    expect((await svc.bookings.get(g.agentGroupId, bookingRef))!.steps.inventoryTaken).toBe(false);

    await sweepBookings({ ...recorded(svc), groups: groupClocks(svc, recorded) }, { graceSeconds: 0 });
    const swept = (await svc.bookings.get(g.agentGroupId, bookingRef))!;
    expect(swept.steps.inventoryTaken).toBe(true);
    expect(swept.nextCheckAt).toBeNull();
    // Dated at the clock's time, not the real one.
    expect(swept.updatedAt.slice(0, 10)).toBe(to.toISOString().slice(0, 10));
    expect(await svc.testClocks.list()).toContainEqual(expect.objectContaining({ agentGroupId: g.agentGroupId, id: clock.id }));

    // The job's own index read, narrowed to this group: the shared table's other bookings are not this test's to erase.
    const ownGroupOnly: GuestDataStore = {
      listErasable: async (endedOnOrBefore, limit, agentGroupId) =>
        (await svc.guestData.listErasable(endedOnOrBefore, 10_000, agentGroupId)).filter((a) => a.agentGroupId === g.agentGroupId).slice(0, limit),
      locate: (id, groups) => svc.guestData.locate(id, groups),
      eraseBooking: (previous, next, cause) => svc.guestData.eraseBooking(previous, next, cause),
      indexErasable: (b) => svc.guestData.indexErasable(b),
    };
    const erasure = (s: Services) => ({ ...guestErasureDeps(s), guestData: ownGroupOnly });
    // The stay ends on 3 March 2027; the day after the retention has run out there, on the clock.
    const erasedOn = new Date(Date.parse('2027-03-03T12:00:00+05:30') + (svc.config.guestRetentionDays + 1) * 86_400_000);
    await advanceTestClock({ ...deps, dueWork: async () => undefined }, principal, clock.id, erasedOn);
    expect((await eraseExpiredGuestData(erasure(svc))).erased).toBe(0);
    expect((await eraseExpiredGuestData({ ...erasure(svc), groups: groupClocks(svc, erasure) })).erased).toBe(1);
    const erased = (await svc.bookings.get(g.agentGroupId, bookingRef))!;
    expect(erased.guestDataErasedAt!.slice(0, 10)).toBe(erasedOn.toISOString().slice(0, 10));
    expect(erased.primaryGuest).not.toEqual(guest);
  }, 60_000);
});

/**
 * Off sandbox stages the routes exist in the deployment (one serverless.yml for every stage)
 * but answer as an unknown path does. The handlers run in-process with a production-like
 * configuration against the shared DynamoDB Local, so the caller's key is really checked.
 */
describe('Test clock routes off sandbox stages', () => {
  let g: GroupFixture;
  beforeAll(async () => {
    g = await newAgentGroup();
    const {
      OUTBOUND_ALLOW_HOSTS: _h,
      OUTBOUND_ALLOW_HTTP: _a,
      RAZORPAY_API_URL: _r,
      TIME_SCALE: _t,
      IRP_CREDENTIALS: _i,
      AUDIT_SIGNING_KEY: _k,
      CONSOLE_URL: _c,
      ...env
    } = inject('stack').env;
    for (const [name, value] of Object.entries({ ...env, STAGE: 'prod', METRICS: 'off' })) vi.stubEnv(name, value);
    // IRP_CREDENTIALS: the shared stack's fake portal is plain http, which a production stage refuses.
    // AUDIT_SIGNING_KEY: a production stage signs audit digests with KMS and refuses a key in its environment.
    // CONSOLE_URL: the shared stack's console is plain http, which a production stage refuses.
    for (const name of ['OUTBOUND_ALLOW_HOSTS', 'OUTBOUND_ALLOW_HTTP', 'RAZORPAY_API_URL', 'TIME_SCALE', 'IRP_CREDENTIALS', 'AUDIT_SIGNING_KEY', 'CONSOLE_URL'])
      vi.stubEnv(name, undefined);
    // Fresh modules, so config() and services() are read from the production-like environment.
    vi.resetModules();
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('answers 404 ROUTE_NOT_FOUND after the key check, exactly as an unknown path, and a wrong method on their path is a 404 too, not a 405', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const routes = [
      ['list-test-clocks', 'GET', '/v1/test-clocks', undefined],
      ['create-test-clock', 'POST', '/v1/test-clocks', '{}'],
      ['get-test-clock', 'GET', `/v1/test-clocks/${id}`, undefined],
      ['advance-test-clock', 'POST', `/v1/test-clocks/${id}/advance`, '{"to":"2027-01-01T00:00:00Z"}'],
      ['delete-test-clock', 'DELETE', `/v1/test-clocks/${id}`, undefined],
    ] as const;
    const { handler: fallback } = await import('../../functions/system/fallback.ts');
    const unknown = await fallback(httpEvent('GET', '/v1/no-such-operation', { key: g.apiKey }) as never, lambdaContext);
    expect(unknown.statusCode).toBe(404);
    const unknownBody = JSON.parse(unknown.body as string);
    expect(unknownBody.code).toBe('ROUTE_NOT_FOUND');

    for (const [file, method, path, body] of routes) {
      const { handler } = await import(`../../functions/test-clocks/${file}.ts`);
      const res = await handler(httpEvent(method, path, { key: g.apiKey, ...(body ? { body } : {}) }), lambdaContext);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      const answer = JSON.parse(res.body as string);
      expect({ ...answer, path: undefined, timestamp: undefined }).toEqual({ ...unknownBody, path: undefined, timestamp: undefined });
      // The key is checked first, as for an unknown path.
      expect((await handler(httpEvent(method, path, { key: 'pk_wrong', ...(body ? { body } : {}) }), lambdaContext)).statusCode).toBe(401);
    }
    const wrongMethod = await fallback(httpEvent('PUT', '/v1/test-clocks', { key: g.apiKey }) as never, lambdaContext);
    expect(wrongMethod.statusCode).toBe(404);
    expect(await testServices().testClocks.get(g.agentGroupId)).toBeUndefined();
  }, 60_000);
});
