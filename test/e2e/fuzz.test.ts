import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKING_SCENARIO_VALUES } from '../../functions/contracts/bookings.ts';
import { buildOpenApi } from '../../functions/openapi/build.ts';
import { inlinedDocument } from '../../functions/openapi/refs.ts';
import { ROUTES } from '../../functions/registry.ts';
import { SANDBOX_SCENARIOS } from '../../domain/sandbox/order-scenarios.ts';
import { book, guest, order, seedBookingWorld, stay } from '../support/booking-world.ts';
import { expectContract } from '../support/contract.ts';
import {
  EXTREME_DATES,
  EXTREME_INSTANTS,
  EXTREMES_WITHIN,
  extremeDateRequests,
  requestArb,
  type FuzzRequest,
  type Operation,
  type ValuePools,
} from '../support/fuzz-requests.ts';
import { call, newAgentGroup, newPartner, stack, uniqueId, type CallResult, type GroupFixture, type PartnerFixture } from '../support/stack.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { randomised, sizedTimeout } from '../support/randomised.ts';

/*
 * Property-based HTTP fuzzing of every operation in the OpenAPI document, over the wire
 * against serverless offline. Requests are drawn from each operation's parameters and body
 * schema, mixed with the tenants' real ids, another tenant's ids, real and forged cursors,
 * and hostile values of every type. Every answer must be a documented status with a body in
 * its documented shape, never a 5xx; a 400 names its parameter; no secret ever comes back.
 *
 * FUZZ_SEED replays a run (the seed is printed; fixed in `npm test`, fresh in `npm run soak`,
 * test/support/randomised.ts); FUZZ_RUNS sets the number of requests;
 * FUZZ_VERBOSE=1 prints the statuses each operation answered.
 */
const { seed: SEED, runs: RUNS } = randomised({
  name: 'fuzz',
  file: 'test/e2e/fuzz.test.ts',
  seedVar: 'FUZZ_SEED',
  runsVar: 'FUZZ_RUNS',
  fixedSeed: 20_261_127,
  ci: 1_000,
  soak: 10_000,
});
const PARALLEL = 6;
/** Far above what the fuzzer sends, so no answer is a 429 that would hide what the route does. */
const UNTHROTTLED = { perMinute: 100_000, burst: 10_000 };

let receiver: Receiver;
let own: GroupFixture;
let other: GroupFixture;
let partner: PartnerFixture;
let otherPartner: PartnerFixture;
let pools: ValuePools;
let secrets: string[];

/** A webhook endpoint with both write-only secrets set; returns its id and the secrets. */
async function endpointWithSecrets(p: PartnerFixture, path: string): Promise<{ id: string; secrets: string[] }> {
  const authSecret = `bearer-${uniqueId('secret')}-${uniqueId('x')}`;
  const signingSecret = `signing-${uniqueId('secret')}-${uniqueId('x')}`;
  const res = await call('POST', '/api/webhooks/endpoints', {
    key: p.apiKey,
    body: { url: `${receiver.url}${path}`, authType: 'Bearer', authSecret, signingSecret },
  });
  if (res.status !== 201) throw new Error(`endpoint not created: ${res.status} ${res.text}`);
  return { id: res.body.id, secrets: [authSecret, signingSecret] };
}

/** A confirmed booking for the group; returns the ids a partner would hold. */
async function bookingOf(g: GroupFixture, listingId: string) {
  const o = await order(g, stay(listingId));
  const res = await book(g, o);
  if (res.status !== 200) throw new Error(`booking not confirmed: ${res.status} ${res.text}`);
  return { orderId: o.orderId, total: o.total, bookingId: res.body.bookingId as string, externalBookingId: res.body.externalBookingId as string };
}

const cursorOf = async (path: string, key: string): Promise<string[]> => {
  const res = await call('GET', path, { key });
  return res.body?.nextCursor ? [res.body.nextCursor] : [];
};

beforeAll(async () => {
  receiver = await startReceiver();
  const world = await seedBookingWorld();
  [own, other, partner, otherPartner] = await Promise.all([
    newAgentGroup({ channelId: world.channelId, rateLimit: UNTHROTTLED }),
    newAgentGroup({ channelId: world.channelId, rateLimit: UNTHROTTLED }),
    newPartner({ channelId: world.channelId, rateLimit: UNTHROTTLED }),
    newPartner({ channelId: world.channelId, rateLimit: UNTHROTTLED }),
  ]);
  const [mine, theirs, ownHook, theirHook] = await Promise.all([
    bookingOf(own, world.instant),
    bookingOf(other, world.instant),
    endpointWithSecrets(partner, '/own'),
    endpointWithSecrets(otherPartner, '/other'),
  ]);
  await bookingOf(own, world.instant);
  // Orders nobody booked yet, so a plausible POST /v1/bookings can confirm, stay PROCESSING,
  // fail, or be refused credit (ten units for a night are more than the group's ₹50,000).
  const fresh = await Promise.all([
    order(own, stay(world.instant)),
    order(own, stay(world.slow, '2027-03-04', '2027-03-06')),
    order(own, stay(world.never, '2027-03-05', '2027-03-06')),
    order(own, { ...stay(world.instant), adults: 20, selectedProperties: [{ propertyId: world.propertyOf(world.instant), quantity: 10 }] }),
  ]);
  const cursors = (
    await Promise.all([
      cursorOf('/v1/bookings?size=1', own.apiKey),
      cursorOf('/v1/ledger?size=1', own.apiKey),
      cursorOf('/v1/listings?size=1', own.apiKey),
      cursorOf('/api/changes?size=1', partner.apiKey),
      cursorOf('/v1/bookings?size=1', other.apiKey),
    ])
  ).flat();
  // A real cursor with one character changed, and one cut short: forged, so a 400.
  const forged = cursors.flatMap((c) => [`${c.slice(0, 10)}${c[10] === 'A' ? 'B' : 'A'}${c.slice(11)}`, c.slice(0, -4)]);
  const listings = [world.instant, world.slow, world.never];
  const properties = listings.map(world.propertyOf);
  const dates = ['2027-03-01', '2027-03-02', '2027-03-03', '2027-03-09', '2027-03-31', '2026-11-01', '2025-01-01'];
  const searches = [
    [
      { filterName: 'checkIn', filterValues: ['2027-03-02'] },
      { filterName: 'checkOut', filterValues: ['2027-03-04'] },
    ],
    [
      { filterName: 'checkIn', filterValues: ['2027-03-02'] },
      { filterName: 'checkOut', filterValues: ['2027-03-03'] },
      { filterName: 'adults', filterValues: ['2'] },
      { filterName: 'sort', filterValues: ['price_asc'] },
    ],
  ];
  pools = {
    byName: {
      listingId: [...listings, 'no-such-listing'],
      listingIds: [listings, [world.instant], ['no-such-listing', world.slow]],
      propertyId: [...properties, 'no-such-property'],
      propertyIds: [properties, [properties[0]]],
      id: [ownHook.id, theirHook.id, ...properties, 'no-such-id'],
      bookingId: [mine.bookingId, theirs.bookingId, 'BK-NO-SUCH'],
      bookingIds: [[mine.bookingId], [theirs.bookingId, mine.bookingId]],
      orderId: [...fresh.map((o) => o.orderId), mine.orderId, theirs.orderId, '00000000-0000-4000-8000-000000000000'],
      externalBookingId: [mine.externalBookingId, theirs.externalBookingId, uniqueId('ext')],
      externalBookingIds: [[mine.externalBookingId], [theirs.externalBookingId]],
      acceptedTotal: [...fresh.map((o) => o.total), mine.total, 0.01],
      primaryGuest: [guest, { firstName: 'Ünïcödé', lastName: 'हिन्दी' }],
      adults: [1, 2, 3],
      children: [0, 1],
      infants: [0],
      quantity: [1, 2],
      selectedProperties: [[{ propertyId: properties[0], quantity: 1 }], [{ propertyId: properties[1], quantity: 2 }], []],
      rawParams: searches,
      checkIn: [...dates, ...EXTREME_DATES],
      checkOut: [...dates, ...EXTREME_DATES],
      from: [...dates, ...EXTREME_DATES, ...EXTREME_INSTANTS],
      to: [...dates, ...EXTREME_DATES, ...EXTREME_INSTANTS],
      date: [...dates, ...EXTREME_DATES],
      checkInFrom: [...dates, ...EXTREME_DATES],
      checkInTo: [...dates, ...EXTREME_DATES],
      dates: [dates.slice(1, 3), [dates[1]]],
      updatedSince: ['2026-01-01T00:00:00.000Z', '2027-03-02T10:00:00+05:30', ...EXTREME_INSTANTS],
      cursor: [...cursors, ...forged, 'eyJ2IjoxfQ', 'AAAAAAAAAAAAAAAAAAAAAAAA.BBBB'],
      size: ['1', '20', '100', '101', '0', '0001', '9999'],
      page: ['1', '2', '0', '-1'],
      status: ['CONFIRMED', 'PROCESSING', 'FAILED', 'CANCELLED', 'ACTIVE', 'DISABLED', ['CONFIRMED', 'CANCELLED']],
      type: ['PROPERTY', 'BOOKING', 'CANCELLATION', 'PAYMENT', 'ADJUSTMENT'],
      outcome: ['SUCCEEDED', 'FAILED', 'PENDING'],
      filterName: ['checkIn', 'checkOut', 'adults', 'children', 'city', 'sort', 'size', 'page', 'minPrice', 'mealPlan', 'bogus'],
      filterValues: [['2027-03-02'], ['2027-03-03'], ['2'], ['Goa'], ['price_asc'], ['EP']],
      url: [`${receiver.url}/fuzz`, 'https://example.com/hook', 'http://169.254.169.254/latest/meta-data', 'ftp://example.com/x', 'not a url'],
      callbackUrl: [`${receiver.url}/callback`, 'https://example.com/cb', 'http://10.0.0.1/x', 'javascript:alert(1)'],
      mealId: ['breakfast', 'dinner', 'no-such-meal'],
      cancellationPlanId: ['no-such-plan'],
    },
    foreignIds: [theirs.bookingId, theirs.orderId, theirHook.id],
    bodies: {
      createBooking: fc.tuple(fc.constantFrom(...fresh, mine), fc.uuid(), fc.boolean()).map(([o, id, withCallback]) => ({
        orderId: o.orderId,
        externalBookingId: `fz-${id}`,
        acceptedTotal: o.total,
        primaryGuest: guest,
        ...(withCallback ? { callbackUrl: `${receiver.url}/callback` } : {}),
      })),
      createOrder: fc.constantFrom(...listings).map((listingId) => stay(listingId, '2027-03-04', '2027-03-06')),
      previewOrder: fc.constantFrom(...listings).map((listingId) => stay(listingId, '2027-03-04', '2027-03-06')),
      createWebhookEndpoint: fc.constant({
        url: `${receiver.url}/fuzz`,
        authType: 'HMAC',
        signingSecret: 'a-signing-secret-of-32-characters',
        eventTypes: ['rate.changed'],
      }),
      updateWebhookEndpoint: fc.constant({ description: 'fuzzed', maxAttempts: 3 }),
      searchListings: fc.constantFrom(...searches).map((rawParams) => ({ rawParams })),
      cancelBooking: fc.constant({ reason: 'fuzz' }),
    },
    scenarios: [...new Set([...SANDBOX_SCENARIOS, ...BOOKING_SCENARIO_VALUES])],
  };
  const env = stack().env;
  secrets = [
    own.apiKey,
    other.apiKey,
    partner.apiKey,
    otherPartner.apiKey,
    own.signingSecret,
    other.signingSecret,
    ...ownHook.secrets,
    ...theirHook.secrets,
    env.CURSOR_KEY!,
    env.SECRETS_KEY!,
    env.CHANNEX_INBOUND_API_KEY!,
  ];
}, 180_000);

afterAll(async () => {
  await receiver?.close();
});

function send(req: FuzzRequest): Promise<CallResult> {
  const route = ROUTES.find((r) => r.operationId === req.operationId)!;
  const ownKey = route.auth === 'api' ? partner.apiKey : own.apiKey;
  const otherSurfaceKey = route.auth === 'api' ? own.apiKey : partner.apiKey;
  const key = { own: ownKey, 'other-surface': otherSurfaceKey, garbage: 'pk_live_not_a_real_key_0000', none: undefined }[req.auth];
  if (route.auth === 'channex') {
    // Channex's routes take the api-key header: the stage's inbound key as "own", a partner key as another surface's.
    const apiKey = { own: stack().env.CHANNEX_INBOUND_API_KEY!, 'other-surface': partner.apiKey, garbage: 'pk_live_not_a_real_key_0000', none: undefined }[
      req.auth
    ];
    return call(req.method, req.path, {
      headers: { ...req.headers, ...(apiKey ? { 'api-key': apiKey } : {}) },
      ...(req.rawBody !== undefined ? { rawBody: req.rawBody } : {}),
    });
  }
  return call(req.method, req.path, { ...(key ? { key } : {}), headers: { ...req.headers }, ...(req.rawBody !== undefined ? { rawBody: req.rawBody } : {}) });
}

/** The message names the parameter as a word of its own, not inside another (`to` in `total`). */
const namesParam = (message: string, param: string): boolean =>
  new RegExp(`(^|[^\\w.\\[])${param.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w])`).test(message);

/** A request the server dropped without an HTTP answer: recorded as status 0, which no contract allows. */
const noAnswer = (err: Error): CallResult => ({
  status: 0,
  headers: new Headers(),
  text: `no HTTP answer: ${err.message} (${String((err.cause as Error | undefined)?.message ?? '')})`,
  body: undefined,
});

/**
 * Sends once more when the connection closed without an answer, as HTTP clients do for a
 * kept-alive socket the local server closed just as the request went out (offline's idle
 * timeout racing the client's reuse). A request the server really drops fails twice and is
 * reported.
 */
const sendAgainIfDropped = (req: FuzzRequest): Promise<CallResult> =>
  send(req)
    .catch(() => send(req))
    .catch(noAnswer);

/**
 * The account's own billing-run limits (2 a minute, one run at a time), not the key's: a run of
 * the fuzzer whose seed draws three valid billing runs within a minute, or two at once (a test
 * clock's advance runs one too), meets them as any partner would, and the answer must still say
 * how long to wait.
 */
const billingThrottle = (req: FuzzRequest, res: CallResult): boolean => {
  const message = String((res.body as { message?: unknown } | undefined)?.message ?? '');
  return (
    (req.operationId === 'runBilling' || req.operationId === 'advanceTestClock') &&
    res.headers.get('retry-after') !== null &&
    /^(Billing runs are limited to \d+ a minute|Another billing run for your account is in progress)/.test(message)
  );
};

/** Everything wrong with one answer, as readable lines (empty when it is what the contract says). */
function problemsWith(req: FuzzRequest, res: CallResult): string[] {
  const problems: string[] = [];
  if (res.status >= 500 || res.status === 0) problems.push(res.status ? `status ${res.status}` : res.text);
  if (res.status === 429 && !billingThrottle(req, res)) problems.push('429: the fuzzer keys must never be throttled');
  try {
    expectContract(res, req.operationId);
  } catch (err) {
    problems.push((err as Error).message.split('\n')[0]!);
  }
  if (res.status === 400) {
    const { param, message } = (res.body ?? {}) as { param?: unknown; message?: unknown };
    if (typeof param !== 'string' || param === '') problems.push('400 without param');
    else if (typeof message !== 'string' || !namesParam(message, param)) problems.push(`400 message does not name ${param}`);
  }
  const headerText = [...res.headers.values()].join('\n');
  for (const s of secrets) if (res.text.includes(s) || headerText.includes(s)) problems.push(`a secret came back: ${s.slice(0, 6)}…`);
  if (req.foreign && res.status < 300) problems.push(`another tenant's resource answered ${res.status}`);
  // Their booking, order and endpoint ids are minted by the service: no answer of ours may carry one (an error's path may echo it).
  if (res.status < 300 && pools.foreignIds.some((id) => res.text.includes(id))) problems.push(`a 2xx body holds another tenant's id`);
  return problems;
}

async function inParallel<T, R>(items: readonly T[], width: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await run(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return out;
}

describe('HTTP fuzzing from the OpenAPI document', () => {
  it(
    `answers ${RUNS} generated requests within the contract`,
    async () => {
      const document = inlinedDocument(buildOpenApi(ROUTES)) as { paths: Record<string, Record<string, Operation>> };
      const arbitraries = ROUTES.flatMap((route) => {
        const op = document.paths[route.path]![route.method.toLowerCase()]!;
        return [requestArb(route, op, pools, 'plausible'), requestArb(route, op, pools, 'hostile')];
      });
      const requests = fc.sample(fc.oneof(...arbitraries), { seed: SEED, numRuns: RUNS });
      const started = Date.now();
      const answers = await inParallel(requests, PARALLEL, async (req) => ({ req, res: await sendAgainIfDropped(req) }));
      const seconds = (Date.now() - started) / 1000;

      const byStatus: Record<number, number> = {};
      const byOperation: Record<string, Record<number, number>> = {};
      for (const { req, res } of answers) {
        byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
        const op = (byOperation[req.operationId] ??= {});
        op[res.status] = (op[res.status] ?? 0) + 1;
      }
      if (process.env.FUZZ_VERBOSE) for (const [op, statuses] of Object.entries(byOperation)) console.log(`${op}: ${JSON.stringify(statuses)}`);
      const failures = answers.flatMap(({ req, res }) => {
        const problems = problemsWith(req, res);
        return problems.length
          ? [
              {
                problems,
                request: `${req.method} ${req.path} auth=${req.auth} headers=${JSON.stringify(req.headers)} body=${req.rawBody?.slice(0, 400) ?? '-'}`,
                answer: `${res.status} ${res.text.slice(0, 400)}`,
              },
            ]
          : [];
      });
      console.log(
        `fuzz seed=${SEED} requests=${answers.length} operations=${ROUTES.length} in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(byStatus)}; failures ${failures.length}` +
          (failures.length ? `; replay: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} npx vitest run test/e2e/fuzz.test.ts` : ''),
      );

      expect(answers.length).toBeGreaterThanOrEqual(RUNS);
      expect(failures.slice(0, 15), `seed ${SEED}: ${failures.length} answers broke the contract`).toEqual([]);
    },
    sizedTimeout(600_000),
  );

  it('answers every date and time parameter of every operation at the extremes (0001, 9999, 10000, 31 February, leap days) without a 5xx, refusing each beyond the horizon', async () => {
    const document = inlinedDocument(buildOpenApi(ROUTES)) as { paths: Record<string, Record<string, Operation>> };
    const requests = ROUTES.flatMap((route) => extremeDateRequests(route, document.paths[route.path]![route.method.toLowerCase()]!, pools));
    const answers = await inParallel(requests, PARALLEL, async (req) => ({ req, res: await sendAgainIfDropped(req) }));
    const failures = answers.flatMap(({ req, res }) => {
      const problems = problemsWith(req, res);
      // Channex's changes are acknowledged as received (its protocol) and checked by the worker, which records dates it cannot apply.
      const acknowledgedThenChecked = ROUTES.find((r) => r.operationId === req.operationId)?.auth === 'channex';
      if (res.status < 300 && !EXTREMES_WITHIN.has(req.extreme) && !acknowledgedThenChecked)
        problems.push(`a date beyond the horizon or not in the calendar answered ${res.status}`);
      return problems.length
        ? [
            {
              problems,
              request: `${req.method} ${req.path} body=${req.rawBody?.slice(0, 300) ?? '-'} (extreme ${req.extreme})`,
              answer: `${res.status} ${res.text.slice(0, 300)}`,
            },
          ]
        : [];
    });
    const operations = new Set(requests.map((r) => r.operationId));
    console.log(`extreme dates: ${answers.length} requests over ${operations.size} operations; failures ${failures.length}`);
    expect(operations.size).toBeGreaterThanOrEqual(15);
    expect(failures.slice(0, 15), `${failures.length} answers to extreme dates broke the contract`).toEqual([]);
  }, 600_000);
});
