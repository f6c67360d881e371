import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { testOrigin } from '../support/audit-origin.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Booking } from '../../domain/bookings/booking.ts';
import { cancelBooking } from '../../domain/bookings/cancel-booking.ts';
import { placeBooking } from '../../domain/bookings/place-booking.ts';
import { advanceBooking } from '../../domain/bookings/workflow.ts';
import { createOrder } from '../../domain/orders/manage-orders.ts';
import type { AgentGroupPrincipal } from '../../domain/principal.ts';
import { parseConfig } from '../../infra/config.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { keys } from '../../infra/dynamo/keys.ts';
import { bookingDeps, buildServices, orderDeps, type BookingDeps, type Services } from '../../infra/container.ts';
import { guest, seedBookingWorld, stay, type BookingWorld } from '../support/booking-world.ts';
import { BOOKINGS_PATH, startFakeChannex, type FakeChannex } from '../support/fake-channex.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { call, newAgentGroup, newPartner, stack, testServices, uniqueId } from '../support/stack.ts';

/*
 * The Channex property-system adapter against the fake Channex over HTTP, driven by the
 * booking workflow in-process (its checks recorded here, so the shared offline worker, which
 * runs the simulator, never sees these bookings).
 */
const OUTBOUND_KEY = 'open_channel_api_key_for_tests';
const READ_KEY = 'channex_user_api_key_for_tests';
let channex: FakeChannex;
let world: BookingWorld;
let svc: Services;
let principal: AgentGroupPrincipal;
let groupId: string;

beforeAll(async () => {
  // The instant listing is connected to Channex in the world file, so the stack's Open Channel
  // endpoints take the changes Channex sends for it (a listing not connected answers as an unknown hotel).
  world = await seedBookingWorld({ instant: { mode: 'CONFIRM_IMMEDIATELY', channelManager: 'channex' } });
  channex = await startFakeChannex({
    outboundKey: OUTBOUND_KEY,
    providerCode: 'OpenChannel',
    serviceEndpoint: `${stack().baseUrl}/channel-manager/channex`,
    inboundKey: stack().env.CHANNEX_INBOUND_API_KEY!,
    userApiKey: READ_KEY,
  });
  svc = channexServices(READ_KEY);
  const group = await newAgentGroup({ channelId: world.channelId });
  groupId = group.agentGroupId;
  principal = {
    kind: 'agent-group',
    agentGroupId: group.agentGroupId,
    partnerId: group.partnerId,
    channelId: world.channelId,
    keyId: group.keyId,
    keyPrefix: group.apiKey.slice(0, 12),
  };
}, 120_000);
afterAll(() => channex?.close());

/** The stack's services with every listing on the fake Channex; `readKey` is Channex's user-api-key for its Bookings List. */
const channexServices = (readKey: string | undefined): Services =>
  buildServices(
    parseConfig({
      ...stack().env,
      PROPERTY_SYSTEM: 'channex',
      CHANNEX_BASE_URL: channex.url,
      CHANNEX_API_KEY: OUTBOUND_KEY,
      CHANNEX_PROVIDER_CODE: 'OpenChannel',
      CHANNEX_USER_API_KEY: readKey,
    }),
  );

const deps = (s: Services = svc): BookingDeps => ({ ...bookingDeps(s), queue: { send: async () => undefined }, syncWaitMs: 0 });

async function book(checkIn: string, checkOut: string, s: Services = svc): Promise<Booking> {
  const order = await createOrder(orderDeps(s), principal, { request: stay(world.instant, checkIn, checkOut) });
  const externalBookingId = uniqueId('ext');
  await placeBooking(
    deps(s),
    principal,
    { orderId: order.orderId, externalBookingId, acceptedTotal: order.pricing.summary.grandTotal, primaryGuest: guest, additionalGuests: [] },
    testOrigin(),
  );
  const claim = await s.bookings.findClaim(groupId, externalBookingId);
  // One look of the workflow, as the queued check would give it.
  await advanceBooking(deps(s), groupId, claim!.bookingRef);
  return (await s.bookings.get(groupId, claim!.bookingRef))!;
}
const reads = () => channex.requests.filter((r) => r.path.startsWith(`${BOOKINGS_PATH}?`));
const heldFor = (bookingRef: string) => channex.held.filter((h) => h.revision.reservation_id === bookingRef);
const reload = async (b: Booking) => (await testServices().bookings.get(b.agentGroupId, b.bookingRef))!;

describe('Channex property system', () => {
  it("pushes a new booking revision with our booking id, the stay's nights and prices and the primary guest, and confirms", async () => {
    const before = channex.bookings.length;
    const b = await book('2027-03-02', '2027-03-04');
    const [pushed] = (await channex.waitForBookings(before + 1)).slice(before);
    const body = pushed!.body.booking;
    expect(body).toMatchObject({
      status: 'new',
      provider_code: 'OpenChannel',
      hotel_code: world.instant,
      reservation_id: b.bookingRef,
      arrival_date: '2027-03-02',
      departure_date: '2027-03-04',
      currency: 'INR',
      payment_collect: 'ota',
      customer: { name: 'Asha', surname: 'Rao', mail: 'asha.rao@example.com' },
    });
    expect(body.guarantee).toBeUndefined();
    const p1 = world.propertyOf(world.instant);
    expect(body.rooms).toEqual([
      {
        index: 0,
        room_type_code: p1,
        occupancy: { adults: 2, children: 0, infants: 0 },
        guests: [{ name: 'Asha', surname: 'Rao' }],
        days: [
          { date: '2027-03-02', price: '5000.00', rate_plan_code: `${p1}:EP` },
          { date: '2027-03-03', price: '5000.00', rate_plan_code: `${p1}:EP` },
        ],
      },
    ]);
    expect((await reload(b)).status).toBe('CONFIRMED');
  });

  it('keeps a booking PROCESSING while Channex is down and lands it when Channex is back', async () => {
    channex.setDown(true);
    const before = channex.bookings.length;
    const b = await book('2027-03-06', '2027-03-07');
    expect((await reload(b)).status).toBe('PROCESSING');
    channex.setDown(false);
    await advanceBooking(deps(), b.agentGroupId, b.bookingRef);
    expect((await reload(b)).status).toBe('CONFIRMED');
    expect(channex.bookings.slice(before).map((r) => [r.body.booking.status, r.body.booking.reservation_id])).toEqual([['new', b.bookingRef]]);
  });

  it('treats a connection closed without an answer as Channex unavailable: PROCESSING, then CONFIRMED once it answers', async () => {
    channex.setOutage(world.instant, 'dropped');
    const before = channex.bookings.length;
    let b: Booking;
    try {
      b = await book('2027-03-03', '2027-03-04');
      expect((await reload(b)).status).toBe('PROCESSING');
      expect(channex.bookings.length).toBe(before);
    } finally {
      channex.setOutage(world.instant, null);
    }
    const readsBefore = reads().length;
    await advanceBooking(deps(), b.agentGroupId, b.bookingRef);
    expect((await reload(b)).status).toBe('CONFIRMED');
    expect(channex.bookings.slice(before).map((r) => [r.body.booking.status, r.body.booking.reservation_id])).toEqual([['new', b.bookingRef]]);
    // Unanswered, so Channex was asked first (it did not have it) before the booking was pushed again.
    expect(reads().length).toBeGreaterThan(readsBefore);
    expect(heldFor(b.bookingRef)).toHaveLength(1);
  });

  it("finds a booking whose answer was lost in Channex's bookings list and does not push it again (a second `new` would be a second booking)", async () => {
    const before = channex.bookings.length;
    const readsBefore = reads().length;
    channex.setOutage(world.instant, 'answer-lost-once');
    // The reservation's push is kept by Channex and its answer lost; the workflow's next look asks Channex.
    const b = await book('2027-03-07', '2027-03-08').finally(() => channex.setOutage(world.instant, null));
    expect((await reload(b)).status).toBe('CONFIRMED');
    expect(channex.bookings.slice(before).map((r) => [r.body.booking.status, r.body.booking.reservation_id])).toEqual([['new', b.bookingRef]]);
    const [read] = reads().slice(readsBefore);
    expect(read!.headers['user-api-key']).toBe(READ_KEY);
    expect(new URL(read!.path, channex.url).searchParams.get('filter[arrival_date][gte]')).toBe('2027-03-07');
    expect(heldFor(b.bookingRef)).toHaveLength(1);
  });

  it('pushes nothing again after a lost answer while Channex cannot be asked (no read key, or the read refused)', async () => {
    const unread = channexServices(undefined);
    channex.setOutage(world.instant, 'answer-lost-once');
    const b = await book('2027-03-01', '2027-03-02', unread).finally(() => channex.setOutage(world.instant, null));
    await advanceBooking(deps(unread), b.agentGroupId, b.bookingRef);
    const wrongKey = channexServices('not_the_read_key');
    await advanceBooking(deps(wrongKey), b.agentGroupId, b.bookingRef);
    expect((await reload(b)).status).toBe('PROCESSING');
    expect(channex.bookings.filter((r) => r.body.booking.reservation_id === b.bookingRef)).toHaveLength(1);
    // Once Channex can be asked, it answers that it has the booking.
    await advanceBooking(deps(), b.agentGroupId, b.bookingRef);
    expect((await reload(b)).status).toBe('CONFIRMED');
    expect(heldFor(b.bookingRef)).toHaveLength(1);
  });

  it('pushes a modified revision for an amendment, the original stay back for a compensation, and a cancelled revision', async () => {
    const b = await book('2027-03-08', '2027-03-09');
    const p1 = world.propertyOf(world.instant);
    const before = channex.bookings.length;
    const amend = await svc.propertySystem.modify({
      bookingRef: b.bookingRef,
      listingId: b.listingId,
      key: 'amd-1',
      kind: 'amend',
      checkIn: '2027-03-08',
      checkOut: '2027-03-10',
      selectedProperties: [{ propertyId: p1, quantity: 1 }],
      stay: { mealPlan: 'CP', adults: 2, children: 0, infants: 0, roomsAmount: 11_200_00, mealsAmount: 1_800_50, servicesAmount: 500_00 },
    });
    expect(amend).toEqual({ accepted: true });
    const again = await svc.propertySystem.modify({
      bookingRef: b.bookingRef,
      listingId: b.listingId,
      key: 'amd-1',
      kind: 'amend',
      checkIn: '2027-03-08',
      checkOut: '2027-03-10',
      selectedProperties: [{ propertyId: p1, quantity: 1 }],
    });
    expect(again).toEqual({ accepted: true });
    await svc.propertySystem.modify({
      bookingRef: b.bookingRef,
      listingId: b.listingId,
      key: 'amd-1:restore',
      kind: 'restore',
      checkIn: '2027-03-08',
      checkOut: '2027-03-09',
      selectedProperties: [{ propertyId: p1, quantity: 1 }],
    });
    await cancelBooking(deps(), principal, (await reload(b)).bookingId!, 'guest changed plans', testOrigin());

    const revisions = channex.bookings.slice(before).map((r) => r.body.booking);
    expect(revisions.map((r) => [r.status, r.reservation_id, r.arrival_date, r.departure_date])).toEqual([
      ['modified', b.bookingRef, '2027-03-08', '2027-03-10'],
      ['modified', b.bookingRef, '2027-03-08', '2027-03-09'],
      ['cancelled', b.bookingRef, '2027-03-08', '2027-03-09'],
    ]);
    expect(revisions[0].rooms[0].days).toEqual([
      { date: '2027-03-08', price: '5600.00', rate_plan_code: `${p1}:CP` },
      { date: '2027-03-09', price: '5600.00', rate_plan_code: `${p1}:CP` },
    ]);
    // Meals and services are sold on top of the rooms' prices: `excluded`, so Channex adds them to the booking's total ("Booking Services (Extras)").
    expect(revisions[0].services).toEqual([
      { excluded: true, type: 'Meal', total_price: '1800.50', price_per_unit: '1800.50', price_mode: 'Per stay', persons: 2, nights: 2, name: 'Meals' },
      {
        excluded: true,
        type: 'Extra',
        total_price: '500.00',
        price_per_unit: '500.00',
        price_mode: 'Per stay',
        persons: 2,
        nights: 2,
        name: 'Value-added services',
      },
    ]);
    expect(revisions.every((r) => r.customer?.surname === 'Rao')).toBe(true);
    expect((await reload(b)).status).toBe('CANCELLED');
  });

  it("answers CHANNEL_REFUSED when Channex refuses a change, keeping Channex's message for operators only", async () => {
    const b = await book('2027-03-09', '2027-03-10');
    channex.refuseHotel(world.instant, 'Room is not available');
    const answer = await svc.propertySystem.modify({
      bookingRef: b.bookingRef,
      listingId: b.listingId,
      key: 'amd-refused',
      kind: 'amend',
      checkIn: '2027-03-09',
      checkOut: '2027-03-10',
      selectedProperties: [{ propertyId: world.propertyOf(world.instant), quantity: 2 }],
    });
    channex.refuseHotel(world.instant, null);
    expect(answer).toMatchObject({ accepted: false, reasonCode: 'CHANNEL_REFUSED' });
    expect(answer.accepted === false && answer.reason).not.toContain('Room is not available');
    const record = await createDocumentClient(svc.config).send(
      new GetCommand({ TableName: svc.config.tableName, Key: keys.channexRevision(b.bookingRef, 'amd-refused'), ConsistentRead: true }),
    );
    expect(record.Item).toMatchObject({ refusal: expect.stringContaining('Room is not available') });
  });

  it("asks Channex for a full sync from the admin tool; the stream of the property's state it sends is applied like any change", async () => {
    const p2 = `${world.instant}-p2`;
    // Channex's property, mapped from our mapping_details: 7 rooms of each type, its own rates.
    await channex.connect(world.instant, {
      window: { from: '2027-03-03', to: '2027-03-04' },
      countOfRooms: 7,
      rate: (_room, _plan, occupancy) => `${4000 + 500 * occupancy}.25`,
    });
    const before = channex.requests.length;
    const run = await runAdminTool(['channex', 'full-sync', world.instant, '--json'], {
      CHANNEX_BASE_URL: channex.url,
      CHANNEX_API_KEY: OUTBOUND_KEY,
      CHANNEX_PROVIDER_CODE: 'OpenChannel',
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ listingId: world.instant, status: 200 });
    expect(channex.requests.slice(before).map((r) => [r.path, r.body])).toEqual([
      ['/api/v1/channel_webhooks/open_channel/request_full_sync', { provider_code: 'OpenChannel', hotel_code: world.instant }],
    ]);
    // Applied means the whole apply step ran (catalogue, then its search projection): the inbox record says so
    // once it has, where the inventory alone would show the new figure before the projection's upkeep is done.
    const requestId = channex.fullSyncRequestIds.at(-1)!;
    const deadline = Date.now() + 90_000;
    while ((await svc.channexInbox.get(requestId))?.status !== 'APPLIED') {
      if (Date.now() > deadline) throw new Error(`full sync not applied: ${JSON.stringify(await svc.channexInbox.get(requestId))}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const partnerKey = (await newPartner({ channelId: world.channelId })).apiKey;
    const res = await call('GET', `/api/inventories?propertyIds=${p2}&from=2027-03-03&to=2027-03-03`, { key: partnerKey });
    expect(res.body?.[0]?.quantity, res.text).toBe(7);
    // Every plan's rates came with the stream, to the paisa.
    const [month] = await svc.catalogue.getMonths([{ propertyId: p2, month: '2027-03' }]);
    expect(month!.days['04']!.rates.EP).toMatchObject({ '1': 450_025, '2': 500_025 });
    // The stream went through the sync's projection upkeep: a rebuild finds nothing to repair.
    const rebuild = await runAdminTool(['search', 'rebuild', world.channelId, '--json']);
    expect(rebuild.code, rebuild.stderr).toBe(0);
    expect(JSON.parse(rebuild.stdout)).toMatchObject({ drift: false });
  }, 360_000);
});
