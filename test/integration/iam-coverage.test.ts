import { TEST_OPERATOR, testOrigin } from '../support/audit-origin.ts';
import { ConsoleBrowser } from '../support/console-browser.ts';
import { mailbox } from '../support/mailbox.ts';
import { recordPerson } from '../../domain/console/sign-in.ts';
import { createEndpoint } from '../../domain/webhooks/manage-endpoints.ts';
import { addContact } from '../../domain/mail/finance-contacts.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverlessYaml } from '../support/serverless-yaml.ts';
import { ROUTES } from '../../functions/registry.ts';
import { routeKeyOf } from '../../functions/http/area-router.ts';
import { httpEvent, lambdaContext } from '../../bench/harness.ts';
import { dynamoCalls, resetDynamoCalls } from '../../infra/dynamo/client.ts';
import { seedCatalogue, FIXTURE_FROM, FIXTURE_TO, type CatalogueFixture } from '../support/catalogue-fixture.ts';
import { newAgentGroup, stack, testServices, type GroupFixture } from '../support/stack.ts';
import { seedOrderWorld } from '../support/order-world.ts';
import { createOrder } from '../../domain/orders/manage-orders.ts';
import { orderDeps } from '../../infra/container.ts';
import type { Booking } from '../../domain/bookings/booking.ts';
import { seedNewBooking } from '../support/booking-seed.ts';
import { placeBooking, type BookingCommand, type PlaceBookingDeps } from '../../domain/bookings/place-booking.ts';
import { bookingDeps } from '../../infra/container.ts';
import type { AgentGroupPrincipal } from '../../domain/principal.ts';
import { encodeBookingCheck } from '../../events/booking-check-message.ts';
import { cancelStay } from '../support/booking-world.ts';
import { bookStay, seedInvoiceWorld } from '../support/invoice-world.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { SandboxPaymentGateway } from '../../infra/payments/sandbox-payment-gateway.ts';
import { queueBillingRun } from '../../domain/invoicing/scheduled-billing.ts';
import { billingDeps } from '../../infra/container.ts';
import type { BillingJob } from '../../domain/ports/billing-fan-out.ts';

/**
 * Offline does not enforce IAM, so a handler that starts using a new DynamoDB operation
 * would pass every other test and fail in AWS. Here each handler runs in-process against
 * DynamoDB Local; every operation it sends must be granted to its function in serverless.yml.
 * A worker is named by its function; a route by its operationId (or `$default`), which
 * resolves to the function of its area and the route key that area's router dispatches on.
 */
function functionActions(): Map<string, { handler: string; actions: Set<string>; routeKey?: string }> {
  const doc = serverlessYaml();
  const out = new Map<string, { handler: string; actions: Set<string>; routeKey?: string }>();
  const byKey = new Map<string, { handler: string; actions: Set<string> }>();
  for (const [name, fn] of Object.entries(
    doc.functions as Record<
      string,
      { handler: string; events?: { httpApi?: '*' | { method: string; path: string } }[]; iamRoleStatements: { Action: string | string[] }[] }
    >,
  )) {
    const actions = new Set(fn.iamRoleStatements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action])));
    out.set(name, { handler: fn.handler, actions });
    for (const { httpApi } of fn.events ?? [])
      if (httpApi) byKey.set(httpApi === '*' ? '$default' : `${httpApi.method} ${httpApi.path}`, { handler: fn.handler, actions });
  }
  const routeKeys: [string, string][] = [['$default', '$default'], ...ROUTES.map((r): [string, string] => [r.operationId, routeKeyOf(r)])];
  for (const [name, routeKey] of routeKeys) {
    const served = byKey.get(routeKey);
    if (served && !out.has(name)) out.set(name, { ...served, routeKey });
  }
  return out;
}

/** The event as API Gateway hands it to `fn`'s function: with the route key its area's router dispatches on. */
const routedFor = <E extends object>(fn: string, event: E): E => {
  const routeKey = functionActions().get(fn)?.routeKey;
  return routeKey ? { ...event, routeKey } : event;
};

/** SDK command names → IAM actions. A transaction needs its parts' actions, which the command name does not tell. */
const actionOf = (command: string): string | undefined => (command.startsWith('Transact') ? undefined : `dynamodb:${command.replace(/Command$/, '')}`);

let fx: CatalogueFixture;
let group: GroupFixture;
let orderId: string;
let booking: Booking;
let principal: AgentGroupPrincipal;
/** A landed booking (with its simulated reservation) for the cancel case. */
let cancellable: Booking;
/** A landed booking for the amendment cases: the quote, then the apply of the same extra night. */
let amendable: Booking;
beforeAll(async () => {
  Object.assign(process.env, stack().env);
  fx = await seedCatalogue();
  group = await newAgentGroup({ channelId: fx.channelA });
  // Orders price with the GST slab table, which the order world adds; one stored order for the GET and reprice cases.
  await seedOrderWorld(fx);
  principal = {
    kind: 'agent-group' as const,
    agentGroupId: group.agentGroupId,
    partnerId: group.partnerId,
    channelId: fx.channelA,
    keyId: group.keyId,
    keyPrefix: group.apiKey.slice(0, 12),
  };
  orderId = (await createOrder(orderDeps(testServices()), principal, { request: orderBody() })).orderId;
  booking = await seedNewBooking(group);
  cancellable = (await placeBooking(bookingDeps(testServices()), principal, await bookingCommand('2027-03-07'), testOrigin())).booking;
  amendable = (await placeBooking(bookingDeps(testServices()), principal, await bookingCommand('2027-03-02'), testOrigin())).booking;
}, 120_000);

const orderBody = () => ({ listingId: fx.onlyA, checkIn: FIXTURE_FROM, checkOut: '2027-03-03', adults: 2 });

/** A booking command for a new order on one night of fx.onlyA (each case its own night: two units a night). */
async function bookingCommand(checkIn: string): Promise<BookingCommand> {
  const checkOut = `2027-03-${String(Number(checkIn.slice(8)) + 1).padStart(2, '0')}`;
  const order = await createOrder(orderDeps(testServices()), principal, { request: { listingId: fx.onlyA, checkIn, checkOut, adults: 2 } });
  return {
    orderId: order.orderId,
    externalBookingId: `iam-${checkIn}-${order.orderId.slice(0, 8)}`,
    acceptedTotal: order.pricing.summary.grandTotal,
    primaryGuest: { firstName: 'Asha', lastName: 'Rao', email: 'asha.rao@example.com' },
    additionalGuests: [],
    callbackUrl: 'https://93.184.216.34/cb',
  };
}

/**
 * A PROCESSING booking nobody has looked at yet (its first look died before reaching the
 * property system), so the worker under test does every step: reserve, land, take the
 * units, call back. `clock` places it in the past, where the sweeper finds it overdue.
 */
async function unplacedBooking(checkIn: string, clock?: PlaceBookingDeps['clock']): Promise<Booking> {
  const cmd = await bookingCommand(checkIn);
  const base = bookingDeps(testServices());
  const deps: PlaceBookingDeps = {
    ...base,
    ...(clock ? { clock } : {}),
    propertySystem: {
      reserve: () => Promise.reject(new Error('worker died')),
      status: (r) => base.propertySystem.status(r),
      cancel: (r, at) => base.propertySystem.cancel(r, at),
      canModify: (l) => base.propertySystem.canModify(l),
      modify: (r) => base.propertySystem.modify(r),
      forgetGuest: (r, marker) => base.propertySystem.forgetGuest(r, marker),
    },
  };
  await expect(placeBooking(deps, principal, cmd, testOrigin())).rejects.toThrow('worker died');
  const claim = await testServices().bookings.findClaim(principal.agentGroupId, cmd.externalBookingId);
  return (await testServices().bookings.get(principal.agentGroupId, claim!.bookingRef))!;
}

type Case = [fn: string, event: () => ReturnType<typeof httpEvent>];
const cases: Case[] = [
  ['apiPing', () => httpEvent('GET', '/api/ping', { key: fx.partnerA.apiKey })],
  ['v1Ping', () => httpEvent('GET', '/v1/ping', { key: group.apiKey })],
  ['listListings', () => httpEvent('GET', '/api/listings', { key: fx.partnerA.apiKey, query: { size: '5' } })],
  [
    'listInventories',
    () => httpEvent('GET', '/api/inventories', { key: fx.partnerA.apiKey, query: { listingIds: fx.both, from: FIXTURE_FROM, to: FIXTURE_TO } }),
  ],
  [
    'listRates',
    () =>
      httpEvent('GET', '/api/rates', {
        key: fx.partnerA.apiKey,
        query: { propertyIds: fx.propertiesOf[fx.both]!.join(','), from: FIXTURE_FROM, to: FIXTURE_TO },
      }),
  ],
  ['listWebhookEndpoints', () => httpEvent('GET', '/api/webhooks/endpoints', { key: fx.partnerA.apiKey })],
  [
    'createWebhookEndpoint',
    () => httpEvent('POST', '/api/webhooks/endpoints', { key: fx.partnerA.apiKey, body: JSON.stringify({ url: 'https://93.184.216.34/h' }) }),
  ],
  ['listWebhookEventTypes', () => httpEvent('GET', '/api/webhooks/event-types', { key: fx.partnerA.apiKey })],
  ['$default', () => httpEvent('GET', '/api/nothing-here', { key: fx.partnerA.apiKey })],
  ['listDistributionListings', () => httpEvent('GET', '/v1/listings', { key: group.apiKey, query: { size: '5' } })],
  ['getDistributionListing', () => ({ ...httpEvent('GET', `/v1/listings/${fx.both}`, { key: group.apiKey }), pathParameters: { listingId: fx.both } })],
  [
    'searchListings',
    () =>
      httpEvent('POST', '/v1/listings/search', {
        key: group.apiKey,
        body: JSON.stringify({
          rawParams: [
            { filterName: 'checkIn', filterValues: ['2027-03-02'] },
            { filterName: 'checkOut', filterValues: ['2027-03-04'] },
          ],
        }),
      }),
  ],
  ['readAvailability', () => httpEvent('GET', '/v1/availability', { key: group.apiKey, query: { listingIds: fx.both, from: FIXTURE_FROM, to: FIXTURE_TO } })],
  ['previewOrder', () => httpEvent('POST', '/v1/orders/preview', { key: group.apiKey, body: JSON.stringify(orderBody()) })],
  ['createOrder', () => httpEvent('POST', '/v1/orders', { key: group.apiKey, body: JSON.stringify(orderBody()) })],
  ['getOrder', () => ({ ...httpEvent('GET', `/v1/orders/${orderId}`, { key: group.apiKey }), pathParameters: { orderId } })],
  ['repriceOrder', () => ({ ...httpEvent('POST', `/v1/orders/${orderId}/reprice`, { key: group.apiKey }), pathParameters: { orderId } })],
  ['listLedger', () => httpEvent('GET', '/v1/ledger', { key: group.apiKey, query: { status: 'POSTED,AUTHORIZED', from: '2020-01-01T00:00:00Z', size: '5' } })],
  ['getStatement', () => httpEvent('GET', '/v1/statement', { key: group.apiKey, query: { from: '2026-06-01T00:00:00Z', to: '2027-06-01T00:00:00Z' } })],
  ['listBookings', () => httpEvent('GET', '/v1/bookings', { key: group.apiKey, query: { status: 'CONFIRMED', size: '5' } })],
  [
    'listBookings',
    () => httpEvent('GET', '/v1/bookings', { key: group.apiKey, query: { externalBookingIds: booking.externalBookingId, bookingIds: booking.bookingId! } }),
  ],
  [
    'getBooking',
    () => ({ ...httpEvent('GET', `/v1/bookings/${booking.bookingId}`, { key: group.apiKey }), pathParameters: { bookingId: booking.bookingId! } }),
  ],
  [
    'getCancellationQuote',
    () => ({
      ...httpEvent('GET', `/v1/bookings/${booking.bookingId}/cancellation-quote`, { key: group.apiKey }),
      pathParameters: { bookingId: booking.bookingId! },
    }),
  ],
  [
    'quoteAmendment',
    () => ({
      ...httpEvent('PATCH', `/v1/bookings/${amendable.bookingId}`, { key: group.apiKey, body: JSON.stringify({ checkOut: '2027-03-04' }) }),
      pathParameters: { bookingId: amendable.bookingId! },
    }),
  ],
  [
    'applyAmendment',
    () => ({
      ...httpEvent('POST', `/v1/bookings/${amendable.bookingId}/amendments`, { key: group.apiKey, body: JSON.stringify({ checkOut: '2027-03-04' }) }),
      pathParameters: { bookingId: amendable.bookingId! },
    }),
  ],
  [
    'getBooking',
    () => ({ ...httpEvent('GET', `/v1/bookings/${amendable.bookingId}`, { key: group.apiKey }), pathParameters: { bookingId: amendable.bookingId! } }),
  ],
  [
    'cancelBooking',
    () => ({
      ...httpEvent('POST', `/v1/bookings/${cancellable.bookingId}/cancel`, { key: group.apiKey, body: JSON.stringify({ reason: 'IAM coverage' }) }),
      pathParameters: { bookingId: cancellable.bookingId! },
    }),
  ],
];

/** Every DynamoDB action sent since the last reset is granted to `fn`, and `expected` are among them. */
function expectGranted(fn: string, expected: string[]): void {
  const declared = functionActions().get(fn)!;
  const used = Object.keys(dynamoCalls.byOperation).flatMap((c) => actionOf(c) ?? []);
  expect(used).toEqual(expect.arrayContaining(expected));
  for (const action of used) expect(declared.actions, `${fn} needs ${action}`).toContain(action);
}

const sqsEvent = (body: unknown) => ({
  Records: [
    {
      messageId: 'iam-coverage',
      receiptHandle: 'x',
      body: JSON.stringify(body),
      attributes: { ApproximateReceiveCount: '1' },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn',
      awsRegion: 'ap-south-1',
    },
  ],
});

/** Runs `fn`'s handler in-process on one request of `key`'s, and answers its response; it must succeed. */
async function runRoute(key: string, fn: string, method: string, path: string, opts: { body?: string; pathParameters?: Record<string, string> } = {}) {
  const [file, exported] = functionActions().get(fn)!.handler.split('.');
  const mod = (await import(/* @vite-ignore */ new URL(`../../${file}.ts`, import.meta.url).href)) as Record<
    string,
    (e: unknown, c: unknown) => Promise<{ statusCode: number; body: string }>
  >;
  resetDynamoCalls();
  const res = await mod[exported!]!(
    routedFor(fn, {
      ...httpEvent(method, path, { key, ...(opts.body ? { body: opts.body } : {}) }),
      ...(opts.pathParameters ? { pathParameters: opts.pathParameters } : {}),
    }),
    lambdaContext,
  );
  expect(res.statusCode, `${fn}: ${res.body}`).toBeLessThan(300);
  return res;
}

describe('IAM grants cover what each handler sends', () => {
  it.each(cases)('%s', async (fn, event) => {
    // prepare
    const declared = functionActions().get(fn);
    expect(declared, `${fn} is in serverless.yml`).toBeDefined();
    const [file, exported] = declared!.handler.split('.');
    const mod = (await import(/* @vite-ignore */ new URL(`../../${file}.ts`, import.meta.url).href)) as Record<
      string,
      (e: unknown, c: unknown) => Promise<{ statusCode: number }>
    >;

    // act
    resetDynamoCalls();
    const res = await mod[exported!]!(routedFor(fn, event()), lambdaContext);

    // assess
    expect(res.statusCode).toBeLessThan(500);
    const used = Object.keys(dynamoCalls.byOperation).flatMap((c) => actionOf(c) ?? []);
    expect(used.length).toBeGreaterThan(0);
    for (const action of used) expect(declared!.actions, `${fn} needs ${action}`).toContain(action);
  });

  it('syncCatalogue (queue worker)', async () => {
    const declared = functionActions().get('syncCatalogue')!;
    const { handler } = await import('../../functions/workers/sync-catalogue.ts');
    const doc = {
      version: 1,
      catalogue: { rates: [{ propertyId: fx.propertiesOf[fx.both]![0]!, from: '2027-03-04', to: '2027-03-04', mealPlan: 'AP', adults: { '1': 6_000 } }] },
    };

    resetDynamoCalls();
    const res = await handler(sqsEvent(doc) as never);

    expect(res.batchItemFailures).toEqual([]);
    const used = Object.keys(dynamoCalls.byOperation).flatMap((c) => actionOf(c) ?? []);
    expect(used).toContain('dynamodb:BatchWriteItem');
    for (const action of used) expect(declared.actions, `syncCatalogue needs ${action}`).toContain(action);
  });

  it('mailEvents (queue worker): a permanent bounce finds the contacts at its address and flags them', async () => {
    const declared = functionActions().get('mailEvents')!;
    const { handler } = await import('../../functions/workers/mail-events.ts');
    const own = await newAgentGroup({ channelId: fx.channelA });
    const email = `iam-${own.agentGroupId}@finance.example.in`.toLowerCase();
    await addContact(testServices(), own.agentGroupId, { email }, TEST_OPERATOR);
    const event = {
      eventType: 'Bounce',
      bounce: {
        bounceType: 'Permanent',
        bouncedRecipients: [{ emailAddress: email, diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
        timestamp: '2026-11-28T05:41:02.669Z',
      },
      mail: { messageId: 'iam-coverage', destination: [email] },
    };

    resetDynamoCalls();
    const res = await handler(sqsEvent(event) as never);

    expect(res.batchItemFailures).toEqual([]);
    // The flag and its audit event are one transaction (keepMailSettings and writeAudit grant its items).
    const used = Object.keys(dynamoCalls.byOperation).flatMap((c) => actionOf(c) ?? []);
    expect(used).toContain('dynamodb:Query');
    for (const action of used) expect(declared.actions, `mailEvents needs ${action}`).toContain(action);
  });

  it("createTestClock, listTestClocks, getTestClock, advanceTestClock, deleteTestClock (a clock of its own group, advanced a day: the group's share of the billing run)", async () => {
    const own = await newAgentGroup({ channelId: fx.channelA });
    const run = (fn: string, method: string, path: string, opts: { body?: string; id?: string } = {}) =>
      runRoute(own.apiKey, fn, method, path, { body: opts.body, ...(opts.id ? { pathParameters: { id: opts.id } } : {}) });

    const created = JSON.parse((await run('createTestClock', 'POST', '/v1/test-clocks', { body: '{}' })).body) as { id: string; now: string };
    // The clock and the group record's testClockId are one transaction, whose items the recorder does not list:
    // keepTestClocks grants PutItem and UpdateItem on GROUP#* for them.
    expectGranted('createTestClock', ['dynamodb:GetItem']);
    await run('listTestClocks', 'GET', '/v1/test-clocks');
    expectGranted('listTestClocks', ['dynamodb:GetItem']);
    await run('getTestClock', 'GET', `/v1/test-clocks/${created.id}`, { id: created.id });
    expectGranted('getTestClock', ['dynamodb:GetItem']);
    // Only a clock never advanced can be deleted (an advanced one runs ahead of real time for good).
    await run('deleteTestClock', 'DELETE', `/v1/test-clocks/${created.id}`, { id: created.id });
    expectGranted('deleteTestClock', ['dynamodb:GetItem']);
    const again = JSON.parse((await run('createTestClock', 'POST', '/v1/test-clocks', { body: '{}' })).body) as { id: string; now: string };
    const to = new Date(Date.parse(again.now) + 86_400_000).toISOString();
    await run('advanceTestClock', 'POST', `/v1/test-clocks/${again.id}/advance`, { id: again.id, body: JSON.stringify({ to }) });
    expectGranted('advanceTestClock', ['dynamodb:PutItem', 'dynamodb:UpdateItem']);
  });

  it('createFinanceContact, listFinanceContacts, updateFinanceContact, deleteFinanceContact (a contact of its own group, each change audited)', async () => {
    const own = await newAgentGroup({ channelId: fx.channelA });
    const run = (fn: string, method: string, path: string, opts: { body?: string; contactId?: string } = {}) =>
      runRoute(own.apiKey, fn, method, path, { body: opts.body, ...(opts.contactId ? { pathParameters: { contactId: opts.contactId } } : {}) });

    const created = JSON.parse((await run('createFinanceContact', 'POST', '/v1/finance-contacts', { body: '{"email":"ap@finance.example.in"}' })).body) as {
      id: string;
    };
    // The change and its audit event are one transaction (not counted here: writeAudit and keepMailSettings grant its items).
    expectGranted('createFinanceContact', ['dynamodb:GetItem']);
    await run('listFinanceContacts', 'GET', '/v1/finance-contacts');
    expectGranted('listFinanceContacts', ['dynamodb:GetItem']);
    await run('updateFinanceContact', 'PATCH', `/v1/finance-contacts/${created.id}`, { contactId: created.id, body: '{"documents":["STATEMENTS"]}' });
    expectGranted('updateFinanceContact', ['dynamodb:GetItem']);
    await run('deleteFinanceContact', 'DELETE', `/v1/finance-contacts/${created.id}`, { contactId: created.id });
    expectGranted('deleteFinanceContact', ['dynamodb:GetItem']);
  });

  it('createBooking (the credit gate, then the workflow in the call: reserve, land, take the units, call back)', async () => {
    // prepare
    const { handler } = (await import('../../functions/bookings/create-booking.ts')) as unknown as {
      handler: (e: unknown, c: unknown) => Promise<{ statusCode: number; body: string }>;
    };
    const cmd = await bookingCommand('2027-03-06');
    const event = httpEvent('POST', '/v1/bookings', { key: group.apiKey, body: JSON.stringify({ ...cmd, acceptedTotal: cmd.acceptedTotal / 100 }) });

    // act
    resetDynamoCalls();
    const res = await handler(event, lambdaContext);

    // assess
    expect(res.statusCode, res.body).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ status: 'CREATED', bookingStatus: 'CONFIRMED' });
    expectGranted('createBooking', ['dynamodb:GetItem', 'dynamodb:PutItem']);
  });

  it('bookingWorkflow (queue worker): a due check advances an unplaced booking to the end', async () => {
    // prepare
    const { handler } = await import('../../functions/workers/booking-workflow.ts');
    const unplaced = await unplacedBooking('2027-03-08');

    // act
    resetDynamoCalls();
    const res = await handler(
      sqsEvent(JSON.parse(encodeBookingCheck({ agentGroupId: unplaced.agentGroupId, bookingRef: unplaced.bookingRef, dueAt: unplaced.nextCheckAt! }))) as never,
    );

    // assess
    expect(res.batchItemFailures).toEqual([]);
    expect(await testServices().bookings.get(unplaced.agentGroupId, unplaced.bookingRef)).toMatchObject({
      status: 'CONFIRMED',
      nextCheckAt: null,
      steps: { inventoryTaken: true, callbacksPublished: ['booking.confirmed'] },
    });
    expectGranted('bookingWorkflow', ['dynamodb:GetItem', 'dynamodb:PutItem']);
  });

  it('sweepBookings (scheduled): an overdue booking is found on the open-work index and advanced', async () => {
    // prepare
    const { handler } = await import('../../functions/workers/sweep-bookings.ts');
    const overdue = await unplacedBooking('2027-03-09', { now: () => new Date(Date.now() - 5 * 60_000) });

    // act
    resetDynamoCalls();
    const res = await handler();

    // assess
    expect(res.looked).toBeGreaterThan(0);
    expect(await testServices().bookings.get(overdue.agentGroupId, overdue.bookingRef)).toMatchObject({ status: 'CONFIRMED', nextCheckAt: null });
    expectGranted('sweepBookings', ['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:PutItem']);
  });

  it('runBilling, renderInvoicePdfs, listInvoices, getInvoice, getInvoicePdf, gatewayNotification (a run that issues an invoice, its reads, a payment of it)', async () => {
    // prepare: a world with our GST registration (marked for e-invoicing, so the run also registers with the sandbox IRP), and a group with one confirmed stay in it
    const world = await seedInvoiceWorld({ eInvoicing: true });
    const biller = await newAgentGroup({ channelId: world.channelId });
    await bookStay(biller, world.registered, '2027-03-01', '2027-03-02');
    const invoke = async (fn: string, event: unknown) => {
      const [file, exported] = functionActions().get(fn)!.handler.split('.');
      const mod = (await import(/* @vite-ignore */ new URL(`../../${file}.ts`, import.meta.url).href)) as Record<
        string,
        (e: unknown, c: unknown) => Promise<{ statusCode: number; body: string }>
      >;
      resetDynamoCalls();
      return mod[exported!]!(routedFor(fn, event as object), lambdaContext);
    };

    // act and assess, one handler at a time
    const run = await invoke('runBilling', httpEvent('POST', '/v1/invoices', { key: biller.apiKey }));
    expect(run.statusCode, run.body).toBe(200);
    // A new group's first run writes its first balance checkpoint (BatchWrite).
    expectGranted('runBilling', ['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:BatchWriteItem']);
    const id = (JSON.parse(run.body) as { invoiceIds: string[] }).invoiceIds[0];
    const fromTo = await invoke(
      'runBilling',
      httpEvent('POST', '/v1/invoices', { key: biller.apiKey, body: JSON.stringify({ from: '2026-01-01', to: indiaToday(new Date()) }) }),
    );
    expect(fromTo.statusCode, fromTo.body).toBe(200);
    const issued = id ?? (JSON.parse(fromTo.body) as { invoiceIds: string[] }).invoiceIds[0]!;
    expectGranted('runBilling', ['dynamodb:Query']);
    expect((await testServices().invoices.get(biller.agentGroupId, issued))!.eInvoice?.irn).toMatch(/^[0-9a-f]{64}$/);

    expect((await invoke('listInvoices', httpEvent('GET', '/v1/invoices', { key: biller.apiKey }))).statusCode).toBe(200);
    expectGranted('listInvoices', ['dynamodb:Query']);
    expect(
      (await invoke('getInvoice', { ...httpEvent('GET', `/v1/invoices/${issued}`, { key: biller.apiKey }), pathParameters: { id: issued } })).statusCode,
    ).toBe(200);
    expectGranted('getInvoice', ['dynamodb:GetItem', 'dynamodb:Query']);
    // The PDF worker, on the message the run queued (the stack's worker may have stored it first: then it only looks).
    expect(
      (
        (await invoke('renderInvoicePdfs', sqsEvent({ v: 1, agentGroupId: biller.agentGroupId, invoiceId: issued }))) as unknown as {
          batchItemFailures: unknown[];
        }
      ).batchItemFailures,
    ).toEqual([]);
    expectGranted('renderInvoicePdfs', ['dynamodb:GetItem']);
    expect(
      (await invoke('getInvoicePdf', { ...httpEvent('GET', `/v1/invoices/${issued}/pdf`, { key: biller.apiKey }), pathParameters: { id: issued } })).statusCode,
    ).toBe(200);
    expectGranted('getInvoicePdf', ['dynamodb:GetItem']);

    const orderId = (await testServices().invoices.get(biller.agentGroupId, issued))!.gatewayOrderId!;
    const n = new SandboxPaymentGateway(testServices().config.payments.webhookSecrets).capture(orderId, 100_00, new Date());
    const paid = await invoke('receiveGatewayNotification', httpEvent('POST', '/gateway/notifications', { body: n.body, headers: { ...n.headers } }));
    expect(paid.statusCode, paid.body).toBe(200);
    expectGranted('receiveGatewayNotification', ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem']);
  }, 120_000);

  it('scheduledBilling, billGroup (the daily run: its record and queue, then one group billed by the worker)', async () => {
    // prepare: a group with one confirmed stay
    const world = await seedInvoiceWorld();
    const biller = await newAgentGroup({ channelId: world.channelId });
    await bookStay(biller, world.registered, '2027-03-01', '2027-03-02');

    // act and assess: the scheduler's run. Its handler would queue every group of the shared table for the stack's
    // worker to bill, so the same call runs here with the real directory and store and a queue that keeps the jobs.
    const jobs: BillingJob[] = [];
    resetDynamoCalls();
    await queueBillingRun({ ...billingDeps(testServices()), billingQueue: { enqueue: async (j) => void jobs.push(...j) } }, { trigger: 'ADMIN' });
    expectGranted('scheduledBilling', ['dynamodb:Query', 'dynamodb:UpdateItem']);
    const job = jobs.find((j) => j.agentGroupId === biller.agentGroupId)!;
    const [file, exported] = functionActions().get('billGroup')!.handler.split('.');
    const mod = (await import(/* @vite-ignore */ new URL(`../../${file}.ts`, import.meta.url).href)) as Record<
      string,
      (e: unknown, c: unknown) => Promise<{ batchItemFailures: unknown[] }>
    >;
    resetDynamoCalls();
    const res = await mod[exported!]!(sqsEvent({ v: 1, ...job }), lambdaContext);
    expect(res.batchItemFailures).toEqual([]);
    expect((await testServices().billingRuns.progress(job.runId))!.failures.find((f) => f.agentGroupId === biller.agentGroupId)).toBeUndefined();
    expectGranted('billGroup', ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:PutItem']);
  }, 120_000);

  it('runBilling, getInvoicePdf (a run that raises a credit note for a cancelled invoiced booking, and its PDF)', async () => {
    // prepare: an invoiced booking, cancelled
    const world = await seedInvoiceWorld();
    const biller = await newAgentGroup({ channelId: world.channelId });
    const bookingId = await bookStay(biller, world.registered, '2027-03-01', '2027-03-02');
    const invoke = async (fn: string, event: unknown) => {
      const [file, exported] = functionActions().get(fn)!.handler.split('.');
      const mod = (await import(/* @vite-ignore */ new URL(`../../${file}.ts`, import.meta.url).href)) as Record<
        string,
        (e: unknown, c: unknown) => Promise<{ statusCode: number; body: string }>
      >;
      resetDynamoCalls();
      return mod[exported!]!(routedFor(fn, event as object), lambdaContext);
    };
    const body = JSON.stringify({ from: '2026-01-01', to: indiaToday(new Date()) });
    expect((await invoke('runBilling', httpEvent('POST', '/v1/invoices', { key: biller.apiKey, body }))).statusCode).toBe(200);
    expect((await cancelStay(biller, bookingId)).booking.status).toBe('CANCELLED');

    // act and assess
    const run = await invoke('runBilling', httpEvent('POST', '/v1/invoices', { key: biller.apiKey, body }));
    expect(run.statusCode, run.body).toBe(200);
    expectGranted('runBilling', ['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
    const [noteId] = (JSON.parse(run.body) as { invoiceIds: string[] }).invoiceIds;
    expect((await testServices().invoices.get(biller.agentGroupId, noteId!))?.creditNoteFor).toBeDefined();
    expect(
      (await invoke('getInvoicePdf', { ...httpEvent('GET', `/v1/invoices/${noteId}/pdf`, { key: biller.apiKey }), pathParameters: { id: noteId } })).statusCode,
    ).toBe(200);
    expectGranted('getInvoicePdf', ['dynamodb:GetItem']);
  });
});

describe('IAM grants cover what the console sends', () => {
  it('console (sign-in by link, every partner page, a PDF, a secret rotation, a key, a partner key, finance contacts, the test clock, an operator hold, billing run, credit note, audit search, gateway payments, Channex, onboarding, terms)', async () => {
    // prepare: an invoiced group, its partner's endpoint, a partner admin and an operator
    const svc = testServices();
    const world = await seedInvoiceWorld();
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-01', '2027-03-02');
    const run = await queueFreeBilling(g);
    const endpoint = await createEndpoint(
      svc,
      { kind: 'partner', partnerId: g.partnerId, channelId: 'test-channel', keyId: 'k', keyPrefix: 'p' },
      { url: 'http://127.0.0.1:9/h' },
      TEST_OPERATOR,
    );
    const inviter = { actor: 'test-operator', name: 'test-operator', origin: TEST_OPERATOR };
    const tag = Math.random().toString(36).slice(2, 8);
    await recordPerson(svc, inviter, `iam-admin-${tag}@agency.example.in`, {
      kind: 'partner',
      agentGroupId: g.agentGroupId,
      partnerId: g.partnerId,
      role: 'admin',
    });
    await recordPerson(svc, inviter, `iam-ops-${tag}@ourco.example.in`, { kind: 'operator', role: 'finance-operator' });
    const { handler } = await import('../../functions/areas/console.ts');
    const inbox = mailbox(stack().env.SES_ENDPOINT!);
    const signIn = async (email: string) => {
      const b = new ConsoleBrowser((e) => handler(e, lambdaContext as never), `198.51.100.${Math.floor(Math.random() * 200)}`);
      await b.post('/console/sign-in', { email });
      const mail = (await inbox.forRecipient(email)).at(-1)!;
      expect((await b.post('/console/sign-in/link', { token: new URL(/https?:\/\/\S+/.exec(mail.text)![0]).searchParams.get('token')! })).statusCode).toBe(303);
      return b;
    };

    // act
    resetDynamoCalls();
    const admin = await signIn(`iam-admin-${tag}@agency.example.in`);
    const pages = [
      '/console/home',
      '/console/bookings',
      '/console/invoices',
      `/console/invoices/${run}/pdf`,
      '/console/statement',
      '/console/statement.csv',
      '/console/webhooks',
      `/console/webhooks/${endpoint.id}/deliveries`,
      '/console/keys',
      '/console/team',
      '/console/ledger',
      '/console/audit',
      '/console/partner-keys',
      '/console/partner-audit',
    ];
    for (const path of pages) expect((await admin.get(path)).statusCode, path).toBe(200);
    const csrf = ConsoleBrowser.csrfOf(await admin.get('/console/home'));
    expect((await admin.post(`/console/webhooks/${endpoint.id}/rotate-secret`, { csrf })).statusCode).toBe(200);
    expect((await admin.post('/console/keys/issue', { csrf })).statusCode).toBe(200);
    expect((await admin.post('/console/team/invite', { csrf, email: `iam-clerk-${tag}@agency.example.in`, role: 'finance' })).statusCode).toBe(200);
    const [oldKey] = await svc.tenants.listKeys({ kind: 'agent-group', id: g.agentGroupId });
    expect((await admin.post(`/console/keys/${oldKey!.keyId}/replace`, { csrf })).statusCode).toBe(200);
    const active = (await svc.tenants.listKeys({ kind: 'agent-group', id: g.agentGroupId })).filter((k) => k.status === 'ACTIVE');
    expect((await admin.post(`/console/keys/${active[0]!.keyId}/revoke`, { csrf })).statusCode).toBe(200);
    expect((await admin.post('/console/webhooks/create', { csrf, url: 'http://127.0.0.1:9/iam-created' })).statusCode).toBe(200);
    // The company's /api keys: one issued, replaced, and the replacement revoked.
    expect((await admin.post('/console/partner-keys/issue', { csrf })).statusCode).toBe(200);
    const [partnerKey] = await svc.tenants.listKeys({ kind: 'partner', id: g.partnerId });
    expect((await admin.post(`/console/partner-keys/${partnerKey!.keyId}/replace`, { csrf })).statusCode).toBe(200);
    const partnerActive = (await svc.tenants.listKeys({ kind: 'partner', id: g.partnerId })).filter((k) => k.status === 'ACTIVE');
    expect((await admin.post(`/console/partner-keys/${partnerActive[0]!.keyId}/revoke`, { csrf })).statusCode).toBe(200);
    expect((await admin.get('/console/contacts')).statusCode).toBe(200);
    expect((await admin.post('/console/contacts/add', { csrf, email: `iam-ap-${tag}@agency.example.in`, documents: 'STATEMENTS' })).statusCode).toBe(200);
    const [contact] = (await svc.financeContacts.get(g.agentGroupId))!.contacts;
    expect((await admin.post(`/console/contacts/${contact!.contactId}/update`, { csrf, email: contact!.email })).statusCode).toBe(200);
    expect((await admin.post(`/console/contacts/${contact!.contactId}/remove`, { csrf })).statusCode).toBe(200);
    // Sandbox: the test clock page, a clock created and deleted, then one created and advanced (running the work due by then).
    expect((await admin.get('/console/test-clocks')).statusCode).toBe(200);
    expect((await admin.post('/console/test-clocks/create', { csrf })).statusCode).toBe(200);
    const firstClock = (await svc.testClocks.get(g.agentGroupId))!;
    expect((await admin.post(`/console/test-clocks/${firstClock.id}/delete`, { csrf })).statusCode).toBe(200);
    expect((await admin.post('/console/test-clocks/create', { csrf })).statusCode).toBe(200);
    const clock = (await svc.testClocks.get(g.agentGroupId))!;
    const tomorrowIst = new Date(Date.now() + 86_400_000 + 330 * 60_000).toISOString().slice(0, 16);
    expect((await admin.post(`/console/test-clocks/${clock.id}/advance`, { csrf, to: tomorrowIst })).statusCode).toBe(200);
    const ops = await signIn(`iam-ops-${tag}@ourco.example.in`);
    const groupPage = await ops.get(`/console/operator/groups/${g.agentGroupId}`);
    expect((await ops.post(`/console/operator/groups/${g.agentGroupId}/hold`, { hold: 'true', csrf: ConsoleBrowser.csrfOf(groupPage) })).statusCode).toBe(200);
    for (const path of ['/console/operator/partners', `/console/operator/partners/${g.partnerId}`, `/console/operator/groups/${g.agentGroupId}/payments`])
      expect((await ops.get(path)).statusCode, path).toBe(200);
    const payment = { amount: '100', reference: `UTRIAM${tag}`, csrf: ConsoleBrowser.csrfOf(groupPage) };
    expect((await ops.post(`/console/operator/groups/${g.agentGroupId}/payments`, payment)).statusCode).toBe(200);
    // The operator's billing runs (a run over every group started, its page), a group's invoice with a credit note, the audit search.
    const billing = await ops.get('/console/operator/billing');
    expect(billing.statusCode).toBe(200);
    const started = await ops.post('/console/operator/billing/run', { csrf: ConsoleBrowser.csrfOf(billing) });
    expect(started.statusCode).toBe(303);
    expect((await ops.get(started.headers.Location as string)).statusCode).toBe(200);
    const invoicePath = `/console/operator/groups/${g.agentGroupId}/invoices/${run}`;
    for (const path of [`/console/operator/groups/${g.agentGroupId}/invoices`, invoicePath]) expect((await ops.get(path)).statusCode, path).toBe(200);
    const [line] = (await svc.invoices.lines(g.agentGroupId, run)).filter((l) => l.lineTotal > 0);
    const credit = { [`amount:${line!.id}`]: '1', reason: 'IAM coverage', csrf: ConsoleBrowser.csrfOf(groupPage) };
    expect((await ops.post(`${invoicePath}/credit-note`, credit)).statusCode).toBe(200);
    // One group billed now (as `billing run --group`): the billing lock, the group's unbilled entries, the run log.
    expect((await ops.post(`/console/operator/groups/${g.agentGroupId}/invoices/bill`, { csrf: ConsoleBrowser.csrfOf(groupPage) })).statusCode).toBe(200);
    for (const query of ['', `?group=${g.agentGroupId}`, `?target=group:${g.agentGroupId}`, `?actor=iam-ops-${tag}@ourco.example.in`])
      expect((await ops.get(`/console/operator/audit${query}`)).statusCode, query).toBe(200);
    // The gateway's unmatched payments, a listing's Channex connection, a partner created, a group's terms.
    for (const path of ['/console/operator/payments', `/console/operator/channex?listing=${world.registered}`])
      expect((await ops.get(path)).statusCode, path).toBe(200);
    const onboard = { partnerId: `iam-partner-${tag}`, name: 'IAM partner', channelId: 'test-channel', csrf: ConsoleBrowser.csrfOf(groupPage) };
    expect((await ops.post('/console/operator/partners/create', onboard)).statusCode).toBe(303);
    const terms = { paymentTermsDays: '20', overdueHoldDays: '', csrf: ConsoleBrowser.csrfOf(groupPage) };
    expect((await ops.post(`/console/operator/groups/${g.agentGroupId}/terms`, terms)).statusCode).toBe(200);
    expect((await ops.post('/console/sign-out-everywhere', { csrf: ConsoleBrowser.csrfOf(groupPage) })).statusCode).toBe(303);

    // assess
    expectGranted('console', ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:Query', 'dynamodb:BatchGetItem']);
  }, 180_000);
});

/** Bills the group as an operator's run would and returns its invoice's id. */
async function queueFreeBilling(g: GroupFixture): Promise<string> {
  const { billGroup } = await import('../support/billing-run-kit.ts');
  return (await billGroup(g)).invoice.id;
}

describe('IAM: the audit trail cannot be updated, deleted or signed by its writers', () => {
  type Statement = {
    Effect: string;
    Action: string | string[];
    Resource: unknown;
    Condition?: { 'ForAllValues:StringLike'?: { 'dynamodb:LeadingKeys'?: string[] } };
  };
  const statementsOf = () => Object.entries(serverlessYaml().functions as Record<string, { iamRoleStatements: Statement[] }>);
  const actionsOf = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
  const onTable = (s: Statement) => JSON.stringify(s.Resource).includes('"Table.Arn"') || JSON.stringify(s.Resource).includes('"Table"');
  /** Whether a statement's LeadingKeys condition admits an audit item's partition key (no condition admits every key). */
  const admitsAudit = (s: Statement) => {
    const patterns = s.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
    return !patterns || patterns.some((p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test('AUDIT#booking:any'));
  };

  it('no function is granted UpdateItem, DeleteItem or BatchWriteItem on AUDIT#* items', () => {
    const offending = statementsOf().flatMap(([fn, def]) =>
      def.iamRoleStatements
        .filter((s) => s.Effect === 'Allow' && onTable(s) && admitsAudit(s))
        .flatMap((s) =>
          actionsOf(s)
            .filter((a) => ['dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:*'].includes(a))
            .map((a) => `${fn}: ${a}`),
        ),
    );
    expect(offending).toEqual([]);
  });

  it('only writeAuditDigest may sign with the audit key or write the digest bucket', () => {
    const signers = statementsOf().filter(([, def]) => def.iamRoleStatements.some((s) => actionsOf(s).some((a) => a.startsWith('kms:'))));
    const digestWriters = statementsOf().filter(([, def]) =>
      def.iamRoleStatements.some((s) => JSON.stringify(s.Resource).includes('AuditDigestBucket') && actionsOf(s).includes('s3:PutObject')),
    );
    expect(signers.map(([fn]) => fn)).toEqual(['writeAuditDigest']);
    expect(digestWriters.map(([fn]) => fn)).toEqual(['writeAuditDigest']);
  });
});
