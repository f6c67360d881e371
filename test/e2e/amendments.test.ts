import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCallbackSignature } from '../../events/booking-callback.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { book, BOOKING_ADD_ONS, order, seedBookingWorld, stay, type BookingWorld } from '../support/booking-world.ts';
import { groupItems } from '../support/booking-invariant.ts';
import { seedNewBooking } from '../support/booking-seed.ts';
import { expectContract } from '../support/contract.ts';
import { call, newAgentGroup, testServices, uniqueId, type GroupFixture } from '../support/stack.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

/*
 * PATCH /v1/bookings/{bookingId} (quote) and POST /v1/bookings/{bookingId}/amendments over
 * HTTP against serverless offline, DynamoDB Local and a real callback receiver. The booking
 * world sells 100 units a night at 5,000 + 5 % GST (2027-03-01 to 03-10) with a stop-sell
 * on 03-05; its "slow" listing's channel manager refuses changes and its "never" listing's
 * cannot modify a reservation (both confirm at once here).
 */
let world: BookingWorld;
let receiver: Receiver;
const NIGHT = 5_250;

beforeAll(async () => {
  [world, receiver] = await Promise.all([
    seedBookingWorld({ slow: { mode: 'CONFIRM_IMMEDIATELY', refusesChanges: true }, never: { mode: 'CONFIRM_IMMEDIATELY', cannotModify: true } }),
    startReceiver(),
  ]);
}, 120_000);

afterAll(async () => {
  await receiver?.close();
});

const group = (overrides: Parameters<typeof newAgentGroup>[0] = {}) => newAgentGroup({ channelId: world.channelId, ...overrides });

/** A CONFIRMED booking over HTTP; its bookingId. */
async function confirmed(
  g: GroupFixture,
  listingId = world.instant,
  checkIn = '2027-03-02',
  checkOut = '2027-03-03',
  extra: Record<string, unknown> = {},
): Promise<string> {
  const o = await order(g, stay(listingId, checkIn, checkOut));
  const res = await book(g, o, extra);
  expect(res.status).toBe(200);
  return res.body.bookingId;
}

const quote = (g: GroupFixture, bookingId: string, body: unknown) => call('PATCH', `/v1/bookings/${bookingId}`, { key: g.apiKey, body });
const apply = (g: GroupFixture, bookingId: string, body: unknown, headers: Record<string, string> = {}) =>
  call('POST', `/v1/bookings/${bookingId}/amendments`, { key: g.apiKey, body, headers });
const detail = (g: GroupFixture, bookingId: string) => call('GET', `/v1/bookings/${bookingId}`, { key: g.apiKey });
const ledger = async (g: GroupFixture) => (await testServices().ledger.audit(g.agentGroupId)).entries;

describe('PATCH /v1/bookings/{bookingId}: the quote', () => {
  it('prices an extra night: current, amended and delta each adding up, and changes nothing', async () => {
    // prepare
    const g = await group();
    const bookingId = await confirmed(g);
    const before = await groupItems(g.agentGroupId);
    // act
    const res = await quote(g, bookingId, { checkOut: '2027-03-04' });
    // assess
    expect(res.status).toBe(200);
    expectContract(res, 'quoteAmendment');
    expect(res.body).toMatchObject({
      bookingId,
      amendable: true,
      reason: null,
      checkIn: '2027-03-02',
      checkOut: '2027-03-04',
      availability: { status: 'AVAILABLE', nightsRequested: 2, unavailableNights: [], shortfalls: [], minimumStayViolations: [] },
      pricing: {
        currency: 'INR',
        current: { stay: 5_000, discount: 0, meals: 0, vas: 0, tax: 250, total: NIGHT },
        amended: { stay: 10_000, discount: 0, meals: 0, vas: 0, tax: 500, total: 2 * NIGHT },
        delta: { stay: 5_000, discount: 0, meals: 0, vas: 0, tax: 250, total: NIGHT },
        warnings: [],
      },
      chargedTotal: NIGHT,
    });
    for (const side of ['current', 'amended', 'delta'] as const) {
      const b = res.body.pricing[side];
      expect(Math.round((b.stay - b.discount + b.meals + b.vas + b.tax) * 100)).toBe(Math.round(b.total * 100));
    }
    expect(await groupItems(g.agentGroupId)).toEqual(before);
  });

  it('reports the exact unavailable night and the shortfall when the new stay crosses a stop-sell, with pricing null', async () => {
    // prepare
    const g = await group();
    const bookingId = await confirmed(g);
    // act
    const res = await quote(g, bookingId, { checkIn: '2027-03-03', checkOut: '2027-03-07' });
    // assess
    expect(res.status).toBe(200);
    expectContract(res, 'quoteAmendment');
    expect(res.body).toMatchObject({
      amendable: false,
      reason: 'UNAVAILABLE',
      availability: {
        status: 'PARTIALLY_AVAILABLE',
        nightsRequested: 4,
        unavailableNights: ['2027-03-05'],
        shortfalls: [{ date: '2027-03-05', propertyId: world.propertyOf(world.instant), requiredUnits: 1, availableUnits: 0 }],
      },
      pricing: null,
    });
  });

  it("says NO_CHANGE for an empty body, echoes guests, and counts the booking's own units as free", async () => {
    // prepare
    const g = await group();
    const bookingId = await confirmed(g);
    // act
    const same = await quote(g, bookingId, {});
    const guests = await quote(g, bookingId, { guests: [{ firstName: 'Ravi' }] });
    // assess
    expect(same.body).toMatchObject({ amendable: false, reason: 'NO_CHANGE', availability: { status: 'AVAILABLE' } });
    expect(guests.body).toMatchObject({ amendable: true, reason: null, guests: [{ firstName: 'Ravi' }], pricing: { delta: { total: 0 } } });
  });

  it.each([
    [{ checkOut: null }, 'checkOut'],
    [{ adults: null }, 'adults'],
    [{ adults: 0 }, 'adults'],
    [{ nights: 3 }, 'nights'],
    [{ meals: 'none' }, 'meals'],
    [{ guests: [{ lastName: 'Rao' }] }, 'guests[0].firstName'],
    [{ checkIn: '2027-02-30' }, 'checkIn'],
  ])('refuses %j with 400 naming %s', async (body, param) => {
    const g = await group();
    const bookingId = await confirmed(g);
    const res = await quote(g, bookingId, body);
    expect(res.status).toBe(400);
    expect(res.body.param).toBe(param);
  });

  it("answers another group's booking with the 404 of a missing one", async () => {
    // prepare
    const [owner, other] = await Promise.all([group(), group()]);
    const bookingId = await confirmed(owner);
    // act
    const theirs = await quote(other, bookingId, { checkOut: '2027-03-04' });
    const missing = await quote(other, 'SIM-000000000000', { checkOut: '2027-03-04' });
    const post = await apply(other, bookingId, { checkOut: '2027-03-04' });
    // assess
    expect(theirs.status).toBe(404);
    const strip = (b: any) => ({ ...b, path: undefined, timestamp: undefined });
    expect(strip(theirs.body)).toEqual(strip(missing.body));
    expect(post.status).toBe(404);
    expect(await call('PATCH', `/v1/bookings/${bookingId}`, { body: {} })).toMatchObject({ status: 401 });
  });

  it('is 409 for a cancelled booking, a stay that has started and one that has ended', async () => {
    // prepare
    const g = await group();
    const cancelledId = await confirmed(g);
    expect((await call('POST', `/v1/bookings/${cancelledId}/cancel`, { key: g.apiKey })).status).toBe(200);
    const seeded = await group();
    const today = indiaToday(new Date());
    const started = await seedNewBooking(seeded, { checkIn: today, checkOut: addDays(today, 2) });
    const ended = await seedNewBooking(seeded, { checkIn: addDays(today, -3), checkOut: addDays(today, -1) });
    // act
    const [c, s, e] = await Promise.all([
      quote(g, cancelledId, { adults: 1 }),
      quote(seeded, started.bookingId!, { adults: 1 }),
      apply(seeded, ended.bookingId!, { adults: 1 }),
    ]);
    // assess
    expect([c.status, s.status, e.status]).toEqual([409, 409, 409]);
    expect([c.body.reasonCode, s.body.reasonCode, e.body.reasonCode]).toEqual(['BOOKING_CANCELLED', 'STAY_STARTED', 'STAY_ENDED']);
    expectContract(s, 'quoteAmendment');
  });
});

describe('POST /v1/bookings/{bookingId}/amendments', () => {
  it('applies an extra night: ADJUSTMENT posted, booking.amended signed and sent, detail and feed moved', async () => {
    // prepare
    const g = await group();
    const path = `/cb/${uniqueId('amended')}`;
    const bookingId = await confirmed(g, world.instant, '2027-03-02', '2027-03-03', { callbackUrl: `${receiver.url}${path}` });
    await receiver.waitFor(path, 1, 20_000);
    const rowBefore = (await call('GET', `/v1/bookings?bookingIds=${bookingId}`, { key: g.apiKey })).body.data[0];
    // act
    const res = await apply(g, bookingId, { checkOut: '2027-03-04' });
    // assess
    expect(res.status).toBe(200);
    expectContract(res, 'applyAmendment');
    expect(res.body).toMatchObject({
      bookingId,
      checkIn: '2027-03-02',
      checkOut: '2027-03-04',
      previousTotal: NIGHT,
      newTotal: 2 * NIGHT,
      delta: NIGHT,
      amendmentDelta: NIGHT,
      rateDriftAbsorbed: 0,
      warnings: [],
      alreadyApplied: false,
    });
    const adjustment = (await ledger(g)).find((e) => e.type === 'ADJUSTMENT');
    expect(adjustment).toMatchObject({ status: 'POSTED', amount: NIGHT * 100, bookingId });
    const [, amended] = await receiver.waitFor(path, 2, 20_000);
    expect(amended!.body).toMatchObject({
      eventType: 'booking.amended',
      event: 'booking.amended',
      status: 'CONFIRMED',
      bookingId,
      amendmentId: res.body.amendmentId,
      checkIn: '2027-03-02',
      checkOut: '2027-03-04',
      previousTotal: NIGHT,
      newTotal: 2 * NIGHT,
      reasonCode: null,
    });
    expect(
      checkCallbackSignature(amended!.rawBody, g.signingSecret, String(amended!.headers['x-service-signature']), Math.floor(Date.now() / 1000)),
    ).toMatchObject({ ok: true });
    const d = await detail(g, bookingId);
    expectContract(d, 'getBooking');
    expect(d.body).toMatchObject({ status: 'CONFIRMED', checkOut: '2027-03-04', totalAmount: 2 * NIGHT, summary: { grandTotal: 2 * NIGHT } });
    expect(d.body.amendments).toEqual([
      expect.objectContaining({
        amendmentId: res.body.amendmentId,
        status: 'APPLIED',
        before: { checkIn: '2027-03-02', checkOut: '2027-03-03', total: NIGHT },
        after: { checkIn: '2027-03-02', checkOut: '2027-03-04', total: 2 * NIGHT },
        failure: null,
      }),
    ]);
    const rowAfter = (await call('GET', `/v1/bookings?bookingIds=${bookingId}`, { key: g.apiKey })).body.data[0];
    expect(rowAfter.totalAmount).toBe(2 * NIGHT);
    expect(rowAfter.updatedAt > rowBefore.updatedAt).toBe(true);
  });

  it('answers an identical resend with alreadyApplied and the same amendment, charging nothing more', async () => {
    const g = await group();
    const bookingId = await confirmed(g);
    const first = await apply(g, bookingId, { checkOut: '2027-03-04' });
    const again = await apply(g, bookingId, { checkOut: '2027-03-04' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, alreadyApplied: true });
    expect((await ledger(g)).filter((e) => e.type === 'ADJUSTMENT')).toHaveLength(1);
  });

  it('is 402 with shortfall and availableCredit when the increase breaches the limit, and nothing changes', async () => {
    const g = await group({ creditLimit: NIGHT * 100 + 100_00 });
    const bookingId = await confirmed(g);
    const before = await groupItems(g.agentGroupId);
    const res = await apply(g, bookingId, { checkOut: '2027-03-04' });
    expect(res.status).toBe(402);
    expectContract(res, 'applyAmendment');
    expect(res.body).toMatchObject({ reasonCode: 'CREDIT_LIMIT_EXCEEDED', shortfall: NIGHT - 100, availableCredit: 100 });
    expect(await groupItems(g.agentGroupId)).toEqual(before);
  });

  it('is 409 CHANNEL_REFUSED when the channel manager refuses, the booking row untouched; the detail shows the refused attempt', async () => {
    const g = await group();
    const bookingId = await confirmed(g, world.slow);
    const row = (await detail(g, bookingId)).body;
    const res = await apply(g, bookingId, { checkOut: '2027-03-04' });
    expect(res.status).toBe(409);
    expectContract(res, 'applyAmendment');
    expect(res.body).toMatchObject({ code: 'CHANNEL_REFUSED', reasonCode: 'CHANNEL_REFUSED' });
    const after = (await detail(g, bookingId)).body;
    expect({ ...after, amendments: [] }).toEqual({ ...row, amendments: [] });
    expect(after.amendments).toEqual([expect.objectContaining({ status: 'REFUSED', failure: expect.objectContaining({ reasonCode: 'CHANNEL_REFUSED' }) })]);
    expect((await ledger(g)).map((e) => e.type)).toEqual(['CHARGE']);
  });

  it.each([
    ['amendment-refused', 'CHANNEL_REFUSED', 'REFUSED'],
    ['amendment-fails', 'AMENDMENT_FAILED', 'COMPENSATED'],
  ])('takes the sandbox scenario %s: 409 %s, the amendment %s, the stay unchanged', async (scenario, code, status) => {
    const g = await group();
    const bookingId = await confirmed(g);
    const res = await apply(g, bookingId, { checkOut: '2027-03-04' }, { 'X-Test-Scenario': scenario });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe(code);
    const d = (await detail(g, bookingId)).body;
    expect(d).toMatchObject({ checkOut: '2027-03-03', totalAmount: NIGHT, amendments: [expect.objectContaining({ status })] });
    expect((await ledger(g)).filter((e) => e.type === 'ADJUSTMENT')).toEqual([]);
  });

  it('is 400 naming X-Test-Scenario for an unknown scenario', async () => {
    const g = await group();
    const bookingId = await confirmed(g);
    const res = await apply(g, bookingId, { checkOut: '2027-03-04' }, { 'X-Test-Scenario': 'booking-late' });
    expect(res.status).toBe(400);
    expect(res.body.param).toBe('X-Test-Scenario');
  });

  it('is 409 CHANNEL_CANNOT_MODIFY, 409 BOOKING_INVOICED and 409 NOT_AMENDABLE where the quote says so', async () => {
    // prepare
    const g = await group();
    const [fixed, invoiced, plain] = await Promise.all([confirmed(g, world.never), confirmed(g), confirmed(g, world.instant, '2027-03-06', '2027-03-07')]);
    const svc = testServices();
    const stored = (await svc.bookingReads.byBookingId(g.agentGroupId, invoiced))!;
    await svc.bookings.update(stored, { ...stored, invoicedIn: ['2d0c6f5e-8d8b-4b58-9a39-0f5b1c9f7e21'], version: stored.version + 1 });
    // act
    const [a, b, c] = await Promise.all([
      apply(g, fixed, { checkOut: '2027-03-04' }),
      apply(g, invoiced, { checkOut: '2027-03-04' }),
      apply(g, plain, { checkOut: '2027-03-08', checkIn: '2027-03-04' }),
    ]);
    // assess
    expect([a.status, b.status, c.status]).toEqual([409, 409, 409]);
    expect([a.body.code, b.body.code, c.body.code]).toEqual(['CHANNEL_CANNOT_MODIFY', 'BOOKING_INVOICED', 'NOT_AMENDABLE']);
    expect(c.body.reasonCode).toBe('UNAVAILABLE');
    // The refusal carries the nights short, as the quote would, and the contract documents them.
    expect(c.body.availability.unavailableNights.length).toBeGreaterThan(0);
    expectContract(c, 'applyAmendment');
  });

  it("lets one of two racing amendments apply; the other is 409 AMENDMENT_CONFLICT or applies on the first one's result, never on the same stay", async () => {
    const g = await group();
    const bookingId = await confirmed(g);
    const [x, y] = await Promise.all([apply(g, bookingId, { checkOut: '2027-03-04' }), apply(g, bookingId, { adults: 1 })]);
    const statuses = [x.status, y.status].sort();
    const amendments = (await detail(g, bookingId)).body.amendments.filter((a: any) => a.status === 'APPLIED');
    // Two applied only if the second one started after the first was done: then it was priced on the first one's stay.
    expect(amendments.filter((a: any) => a.before.checkOut === '2027-03-03' && a.before.total === NIGHT)).toHaveLength(1);
    for (const r of [x, y]) if (r.status === 409) expect(r.body.code).toBe('AMENDMENT_CONFLICT');
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
  });
});

describe('Moving the dates of a booking with dated meals and services (docs/amendments.md "Moving the dates")', () => {
  const { breakfast, housekeeping, transfer } = BOOKING_ADD_ONS;
  const MOVE = { checkIn: '2027-03-06', checkOut: '2027-03-09' };

  /** A CONFIRMED booking of 03-02 to 03-04 for two adults with the given meals and services. */
  async function withAddOns(g: GroupFixture, meals: unknown[], vas: unknown[]): Promise<string> {
    const o = await order(g, { ...stay(world.instant, '2027-03-02', '2027-03-04'), meals, vas });
    const res = await book(g, o);
    expect(res.status).toBe(200);
    return res.body.bookingId;
  }

  it('carries breakfast and housekeeping booked for every night to every night of the new stay, priced so in the quote and the apply (the worked example)', async () => {
    // prepare
    const g = await group();
    const bookingId = await withAddOns(
      g,
      [{ mealId: breakfast.mealId, dates: ['2027-03-02', '2027-03-03'], adults: 2 }],
      [{ vasId: housekeeping.vasId, variantId: housekeeping.variantId, dates: ['2027-03-02', '2027-03-03'] }],
    );
    // act
    const quoted = await quote(g, bookingId, MOVE);
    const applied = await apply(g, bookingId, MOVE);
    // assess
    expect(quoted.status).toBe(200);
    expectContract(quoted, 'quoteAmendment');
    expect(quoted.body).toMatchObject({
      amendable: true,
      checkIn: '2027-03-06',
      checkOut: '2027-03-09',
      availability: { status: 'AVAILABLE', nightsRequested: 3 },
      pricing: {
        current: { stay: 10_000, discount: 0, meals: 1_600, vas: 1_200, tax: 640, total: 13_440 },
        amended: { stay: 15_000, discount: 0, meals: 2_400, vas: 1_800, tax: 960, total: 20_160 },
        delta: { stay: 5_000, discount: 0, meals: 800, vas: 600, tax: 320, total: 6_720 },
        warnings: [],
      },
      chargedTotal: 13_440,
    });
    expect(applied.status).toBe(200);
    expectContract(applied, 'applyAmendment');
    expect(applied.body).toMatchObject({
      checkIn: '2027-03-06',
      checkOut: '2027-03-09',
      previousTotal: 13_440,
      newTotal: 20_160,
      delta: 6_720,
      amendmentDelta: 6_720,
      rateDriftAbsorbed: 0,
      alreadyApplied: false,
    });
    expect((await ledger(g)).find((e) => e.type === 'ADJUSTMENT')).toMatchObject({ status: 'POSTED', amount: 672_000 });
    const d = await detail(g, bookingId);
    expect(d.body).toMatchObject({
      checkIn: '2027-03-06',
      checkOut: '2027-03-09',
      summary: { baseSubtotal: 15_000, mealsSubtotal: 2_400, vasSubtotal: 1_800, grandTotal: 20_160 },
    });
    // The booking now holds the carried dates: moving it back carries them back, to the figures it was booked at.
    expect((await quote(g, bookingId, { checkIn: '2027-03-02', checkOut: '2027-03-04' })).body.pricing.amended).toEqual(quoted.body.pricing.current);
  });

  it('refuses, naming meals and then vas, a move that leaves a selection of some nights behind; nothing changes, and restating both applies', async () => {
    // prepare
    const g = await group();
    const bookingId = await withAddOns(
      g,
      [{ mealId: breakfast.mealId, dates: ['2027-03-03'], adults: 2 }],
      [{ vasId: transfer.vasId, variantId: transfer.variantId, dates: ['2027-03-02'] }],
    );
    const before = await groupItems(g.agentGroupId);
    const meals = [{ mealId: breakfast.mealId, dates: ['2027-03-07'], adults: 2 }];
    const vas = [{ vasId: transfer.vasId, variantId: transfer.variantId, dates: ['2027-03-06'] }];
    // act
    const quoted = await quote(g, bookingId, MOVE);
    const applied = await apply(g, bookingId, MOVE);
    const mealsOnly = await quote(g, bookingId, { ...MOVE, meals });
    const after = await groupItems(g.agentGroupId);
    const restated = await apply(g, bookingId, { ...MOVE, meals, vas });
    // assess
    for (const res of [quoted, applied]) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', param: 'meals' });
      expect(res.body.message).toBe(
        `meals[0] (meal ${breakfast.mealId}) is dated 2027-03-03, not every night of the booked stay, and the new stay does not include 2027-03-03, so it cannot follow the move of the stay (booked 2027-03-02 to 2027-03-04, now 2027-03-06 to 2027-03-09). ` +
          "Send meals with the new dates: the whole list, as it replaces the booking's meals ([] drops them).",
      );
    }
    expectContract(quoted, 'quoteAmendment');
    expectContract(applied, 'applyAmendment');
    expect(mealsOnly.status).toBe(400);
    expect(mealsOnly.body).toMatchObject({
      param: 'vas',
      message: expect.stringMatching(/^vas\[0\] \(service transfer \(variant suv\)\) is dated 2027-03-02, .* Send vas with the new dates/),
    });
    expect(after).toEqual(before);
    expect(restated.status).toBe(200);
    expect(restated.body).toMatchObject({ checkIn: '2027-03-06', checkOut: '2027-03-09', previousTotal: 10_500 + 840 + 3_675 });
  });
});
