import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../domain/authenticate.ts';
import { UnauthorizedError } from '../../domain/errors.ts';
import { sha256Hex } from '../../infra/crypto/api-keys.ts';
import { consoleAppDeps, handleConsole, type ConsoleAppDeps } from '../../functions/console/app.ts';
import { consoleTokens } from '../../infra/crypto/console-tokens.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { ConsoleBrowser } from '../support/console-browser.ts';
import { signedInAs } from '../support/console-session.ts';
import { seedCatalogue } from '../support/catalogue-fixture.ts';
import { newAgentGroup, testServices, uniqueId, type GroupFixture } from '../support/stack.ts';

/*
 * Operators' onboarding, terms and gateway payments in the console (docs/console.md): each change is
 * the admin tool's use case, only with the session's CSRF token, audited under the person; partners'
 * people reach none of it (404, as a missing page).
 */

let deps: ConsoleAppDeps;
let group: GroupFixture;
beforeAll(async () => {
  deps = consoleAppDeps(testServices(), 'https://console.test/console', new PdfInvoiceRenderer());
  group = await newAgentGroup({ legalName: 'Not The IRP Name Pvt Ltd' });
}, 120_000);

const financeOperator = () => signedInAs(deps, { kind: 'operator', role: 'finance-operator' });
const plainOperator = () => signedInAs(deps, { kind: 'operator', role: 'operator' });
const partnerAdmin = () => signedInAs(deps, { kind: 'partner', agentGroupId: group.agentGroupId, partnerId: group.partnerId, role: 'admin' });
const keyOpensV1 = async (apiKey: string) => {
  const svc = testServices();
  return (await authenticate({ tenants: svc.tenants, rateLimiter: svc.rateLimiter, defaultPolicy: svc.config.rateLimit }, sha256Hex(apiKey), 'v1', Date.now()))
    .principal;
};
const lastEvent = async (target: string) => (await testServices().auditTrail.listTarget(target)).at(-1);

const groupForm = (agentGroupId: string, overrides: Record<string, string> = {}) => ({
  agentGroupId,
  name: 'Console Agents',
  channelId: 'test-channel',
  creditLimit: '250000.50',
  billingCycle: 'MONTHLY',
  billingAnchorDay: '5',
  paymentTermsDays: '21',
  overdueHoldDays: '',
  gstin: '27aapfu0939f1zv',
  legalName: 'Console Agents Pvt Ltd',
  line1: '4 Linking Road',
  line2: '',
  city: 'Mumbai',
  state: 'Maharashtra',
  postalCode: '400050',
  country: 'IN',
  ...overrides,
});

describe('console: operators create partners and groups (the admin tool’s partners create and groups create)', () => {
  it('creates a partner with CSRF, audited under the person; refuses a forged form, a bad id (400 naming it) and partners’ people (404)', async () => {
    const ops = await plainOperator();
    const list = await ops.get('/console/operator/partners');
    expect(list.text).toContain('Add a partner');
    const partnerId = uniqueId('console-partner');

    const forged = await ops.post('/console/operator/partners/create', {
      partnerId,
      name: 'Forged',
      channelId: 'test-channel',
      csrf: consoleTokens.newToken(),
    });
    expect(forged.statusCode).toBe(403);
    expect(await testServices().tenants.getPartner(partnerId)).toBeUndefined();

    const created = await ops.post('/console/operator/partners/create', {
      partnerId,
      name: 'Console Travel',
      channelId: 'test-channel',
      csrf: ConsoleBrowser.csrfOf(list),
    });
    expect(created.statusCode).toBe(303);
    expect(created.headers.Location).toBe(`/console/operator/partners/${partnerId}`);
    expect((await ops.get(created.headers.Location as string)).text).toContain('<h1>Console Travel</h1>');
    expect(await lastEvent(`partner:${partnerId}`)).toEqual(
      expect.objectContaining({ action: 'partner.created', actorKind: 'operator', actor: expect.stringMatching(/^person:/) }),
    );
    expect(
      (await ops.post('/console/operator/partners/create', { partnerId, name: 'Again', channelId: 'test-channel', csrf: ConsoleBrowser.csrfOf(list) }))
        .statusCode,
    ).toBe(409);

    const bad = await ops.post('/console/operator/partners/create', {
      partnerId: 'Not An Id',
      name: 'X',
      channelId: 'test-channel',
      csrf: ConsoleBrowser.csrfOf(list),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.text).toContain('partnerId:');

    const admin = await partnerAdmin();
    const home = await admin.get('/console/home');
    const intruded = await admin.post('/console/operator/partners/create', {
      partnerId: uniqueId('p'),
      name: 'X',
      channelId: 'test-channel',
      csrf: ConsoleBrowser.csrfOf(home),
    });
    expect(intruded.statusCode).toBe(404);
  });

  it('creates a group under a partner as a finance operator, the GSTIN checked with the IRP first and its bill-to offered, audited under the person', async () => {
    const ops = await financeOperator();
    const partnerPage = await ops.get(`/console/operator/partners/${group.partnerId}`);
    expect(partnerPage.text).toContain('Add an agent group');
    const csrf = ConsoleBrowser.csrfOf(partnerPage);
    const path = `/console/operator/partners/${group.partnerId}/groups`;

    const cancelled = uniqueId('console-group');
    const refused = await ops.post(path, { ...groupForm(cancelled, { gstin: '29AABCC1111C1Z9' }), csrf });
    expect(refused.statusCode).toBe(400);
    expect(refused.text).toContain('gstin: GSTIN is not active');
    expect(await testServices().tenants.getAgentGroup(cancelled)).toBeUndefined();

    const agentGroupId = uniqueId('console-group');
    expect((await ops.post(path, { ...groupForm(agentGroupId), csrf: consoleTokens.newToken() })).statusCode).toBe(403);
    expect(await testServices().tenants.getAgentGroup(agentGroupId)).toBeUndefined();

    const created = await ops.post(path, { ...groupForm(agentGroupId), csrf });
    expect(created.statusCode).toBe(200);
    expect(created.text).toContain('Agent group Console Agents created');
    // The IRP's record for the GSTIN names another legal name and address: offered, not taken.
    expect(created.text).toContain('The IRP has GSTIN 27AAPFU0939F1ZV as Test Agents Pvt Ltd');
    expect(created.text).toContain('₹2,50,000.50');
    const stored = await testServices().tenants.getAgentGroup(agentGroupId);
    expect(stored).toEqual(
      expect.objectContaining({
        partnerId: group.partnerId,
        creditLimit: 25_000_050,
        paymentTermsDays: 21,
        overdueHoldDays: null,
        gstin: '27AAPFU0939F1ZV',
        legalName: 'Console Agents Pvt Ltd',
      }),
    );
    expect(await lastEvent(`group:${agentGroupId}`)).toEqual(expect.objectContaining({ action: 'group.created', actor: expect.stringMatching(/^person:/) }));

    const badAnchor = await ops.post(path, { ...groupForm(uniqueId('console-group'), { billingAnchorDay: '31' }), csrf });
    expect(badAnchor.statusCode).toBe(400);
    expect(badAnchor.text).toContain('billingAnchorDay:');
    expect((await ops.post(`/console/operator/partners/${uniqueId('nobody')}/groups`, { ...groupForm(uniqueId('console-group')), csrf })).statusCode).toBe(404);

    const plain = await plainOperator();
    const plainPage = await plain.get(`/console/operator/partners/${group.partnerId}`);
    expect(plainPage.text).not.toContain('Add an agent group');
    expect((await plain.post(path, { ...groupForm(uniqueId('console-group')), csrf: ConsoleBrowser.csrfOf(plainPage) })).statusCode).toBe(403);
    const admin = await partnerAdmin();
    expect(
      (await admin.post(path, { ...groupForm(uniqueId('console-group')), csrf: ConsoleBrowser.csrfOf(await admin.get('/console/home')) })).statusCode,
    ).toBe(404);
  });
});

describe('console: a group’s terms and GSTIN (the admin tool’s groups update)', () => {
  it('sets payment terms and the overdue hold as a finance operator, with CSRF, audited with before and after; others are refused', async () => {
    const ops = await financeOperator();
    const page = await ops.get(`/console/operator/groups/${group.agentGroupId}`);
    expect(page.text).toContain('<dd>15 days</dd>');
    const path = `/console/operator/groups/${group.agentGroupId}/terms`;

    expect((await ops.post(path, { paymentTermsDays: '30', overdueHoldDays: '10' })).statusCode).toBe(403);
    const set = await ops.post(path, { paymentTermsDays: '30', overdueHoldDays: '10', csrf: ConsoleBrowser.csrfOf(page) });
    expect(set.statusCode).toBe(200);
    expect(set.text).toContain('due 30 days after issue; hold after 10 days overdue');
    expect(await testServices().tenants.getAgentGroup(group.agentGroupId)).toEqual(expect.objectContaining({ paymentTermsDays: 30, overdueHoldDays: 10 }));
    const event = await lastEvent(`group:${group.agentGroupId}`);
    expect(event).toEqual(expect.objectContaining({ action: 'group.updated', actor: expect.stringMatching(/^person:/) }));
    expect(event?.after).toEqual(expect.objectContaining({ paymentTermsDays: 30, overdueHoldDays: 10 }));

    const none = await ops.post(path, { paymentTermsDays: '30', overdueHoldDays: '', csrf: ConsoleBrowser.csrfOf(page) });
    expect(none.text).toContain('no automatic hold');
    const bad = await ops.post(path, { paymentTermsDays: '400', overdueHoldDays: '', csrf: ConsoleBrowser.csrfOf(page) });
    expect(bad.statusCode).toBe(400);
    expect(bad.text).toContain('paymentTermsDays:');
    const notNumber = await ops.post(path, { paymentTermsDays: 'thirty', overdueHoldDays: '', csrf: ConsoleBrowser.csrfOf(page) });
    expect(notNumber.statusCode).toBe(400);
    expect(notNumber.text).toContain('paymentTermsDays:');
    expect(
      (await ops.post(`/console/operator/groups/${uniqueId('nobody')}/terms`, { paymentTermsDays: '30', csrf: ConsoleBrowser.csrfOf(page) })).statusCode,
    ).toBe(404);

    const plain = await plainOperator();
    const plainPage = await plain.get(`/console/operator/groups/${group.agentGroupId}`);
    expect(plainPage.text).toContain('<h2>Terms</h2>');
    expect(plainPage.text).not.toContain('Set terms');
    expect((await plain.post(path, { paymentTermsDays: '7', csrf: ConsoleBrowser.csrfOf(plainPage) })).statusCode).toBe(403);
    const admin = await partnerAdmin();
    expect((await admin.post(path, { paymentTermsDays: '7', csrf: ConsoleBrowser.csrfOf(await admin.get('/console/home')) })).statusCode).toBe(404);
    expect((await testServices().tenants.getAgentGroup(group.agentGroupId))?.paymentTermsDays).toBe(30);
  });

  it('checks a new GSTIN with the IRP before setting it, and bills to the IRP’s name and address on the operator’s word', async () => {
    const ops = await financeOperator();
    const page = await ops.get(`/console/operator/groups/${group.agentGroupId}`);
    const path = `/console/operator/groups/${group.agentGroupId}/gstin`;
    const csrf = ConsoleBrowser.csrfOf(page);

    const inactive = await ops.post(path, { gstin: '07AABCI2222I1Z5', csrf });
    expect(inactive.statusCode).toBe(400);
    expect(inactive.text).toContain('gstin: GSTIN is not active');
    const unknown = await ops.post(path, { gstin: '24AAACU4444U1Z1', csrf });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.text).toContain('The IRP does not know GSTIN 24AAACU4444U1Z1');
    expect((await testServices().tenants.getAgentGroup(group.agentGroupId))?.gstin).toBe('27AAPFU0939F1ZV');

    const checked = await ops.post(path, { gstin: '27AAPFU0939F1ZV', csrf });
    expect(checked.statusCode).toBe(200);
    expect(checked.text).toContain("Bill to the IRP's name and address");
    const taken = await ops.post(path, { gstin: '27AAPFU0939F1ZV', useIrpDetails: 'true', csrf });
    expect(taken.text).toContain('The group is billed to Test Agents Pvt Ltd');
    expect(await testServices().tenants.getAgentGroup(group.agentGroupId)).toEqual(
      expect.objectContaining({
        legalName: 'Test Agents Pvt Ltd',
        address: expect.objectContaining({ line1: '1 Test Road', state: 'Maharashtra', postalCode: '400001' }),
      }),
    );
    expect(await lastEvent(`group:${group.agentGroupId}`)).toEqual(
      expect.objectContaining({ action: 'group.updated', actor: expect.stringMatching(/^person:/) }),
    );
    expect((await ops.post(path, { gstin: '27AAPFU0939F1ZV' })).statusCode).toBe(403);
    const plain = await plainOperator();
    expect((await plain.post(path, { gstin: '', csrf: ConsoleBrowser.csrfOf(await plain.get('/console/operator/groups')) })).statusCode).toBe(403);
    expect((await ops.post(`/console/operator/groups/${uniqueId('nobody')}/gstin`, { gstin: '27AAPFU0939F1ZV', csrf })).statusCode).toBe(404);
  });
});

describe('console: a group’s distribution access and bill-to (the admin tool’s groups update)', () => {
  it('closes and opens distribution as either operator role, with CSRF, audited with before and after; the group’s keys are refused while closed', async () => {
    const g = await newAgentGroup();
    const ops = await plainOperator();
    const page = await ops.get(`/console/operator/groups/${g.agentGroupId}`);
    expect(page.text).toContain('Open: the group&#39;s keys use /v1');
    expect(page.text).toContain('Close distribution');
    const path = `/console/operator/groups/${g.agentGroupId}/distribution`;

    expect((await ops.post(path, { distribution: 'disabled' })).statusCode).toBe(403);
    expect((await testServices().tenants.getAgentGroup(g.agentGroupId))?.distributionEnabled).toBe(true);
    const bad = await ops.post(path, { distribution: 'off', csrf: ConsoleBrowser.csrfOf(page) });
    expect(bad.statusCode).toBe(400);
    expect(bad.text).toContain('distribution: distribution must be enabled or disabled.');

    const closed = await ops.post(path, { distribution: 'disabled', csrf: ConsoleBrowser.csrfOf(page) });
    expect(closed.statusCode).toBe(200);
    expect(closed.text).toContain('Distribution is closed: the group&#39;s keys are refused on /v1 from now.');
    expect(closed.text).toContain('Open distribution');
    expect((await testServices().tenants.getAgentGroup(g.agentGroupId))?.distributionEnabled).toBe(false);
    const event = await lastEvent(`group:${g.agentGroupId}`);
    expect(event).toEqual(expect.objectContaining({ action: 'group.updated', actorKind: 'operator', actor: expect.stringMatching(/^person:/) }));
    expect(event?.before).toEqual(expect.objectContaining({ distributionEnabled: true }));
    expect(event?.after).toEqual(expect.objectContaining({ distributionEnabled: false }));
    // The same switch the API's key check reads: the group's key no longer opens /v1.
    await expect(keyOpensV1(g.apiKey)).rejects.toThrow(UnauthorizedError);

    const finance = await financeOperator();
    const opened = await finance.post(path, { distribution: 'enabled', csrf: ConsoleBrowser.csrfOf(await finance.get('/console/operator/groups')) });
    expect(opened.text).toContain('Distribution is open: the group&#39;s keys use /v1 again.');
    expect(await keyOpensV1(g.apiKey)).toEqual(expect.objectContaining({ agentGroupId: g.agentGroupId }));

    expect(
      (await ops.post(`/console/operator/groups/${uniqueId('nobody')}/distribution`, { distribution: 'disabled', csrf: ConsoleBrowser.csrfOf(page) }))
        .statusCode,
    ).toBe(404);
    const admin = await partnerAdmin();
    expect((await admin.post(path, { distribution: 'disabled', csrf: ConsoleBrowser.csrfOf(await admin.get('/console/home')) })).statusCode).toBe(404);
    expect((await testServices().tenants.getAgentGroup(g.agentGroupId))?.distributionEnabled).toBe(true);
  });

  it('sets the legal name and address as a finance operator, every box checked as the tool checks it (400 naming it), audited; others are refused', async () => {
    const g = await newAgentGroup();
    const ops = await financeOperator();
    const page = await ops.get(`/console/operator/groups/${g.agentGroupId}`);
    expect(page.text).toContain('<h2>Bill-to</h2>');
    expect(page.text).toContain('The billing cycle and the day it closes are set when the group is created');
    const csrf = ConsoleBrowser.csrfOf(page);
    const path = `/console/operator/groups/${g.agentGroupId}/bill-to`;
    const form = {
      legalName: 'Moved Agents Pvt Ltd',
      'address.line1': '9 Residency Road',
      'address.line2': '',
      'address.city': 'Bengaluru',
      'address.state': 'Karnataka',
      'address.postalCode': '560025',
      'address.country': 'in',
    };
    const before = await testServices().tenants.getAgentGroup(g.agentGroupId);

    expect((await ops.post(path, form)).statusCode).toBe(403);
    for (const [name, value, message] of [
      ['legalName', ' ', 'legalName: legalName must not be empty.'],
      ['address.city', '', 'address.city: address.city must not be empty.'],
    ] as const) {
      const refused = await ops.post(path, { ...form, [name]: value, csrf });
      expect(refused.statusCode, name).toBe(400);
      expect(refused.text, name).toContain(message);
    }
    expect(await testServices().tenants.getAgentGroup(g.agentGroupId)).toEqual(before);

    const set = await ops.post(path, { ...form, csrf });
    expect(set.statusCode).toBe(200);
    expect(set.text).toContain('Invoices issued from now are billed to Moved Agents Pvt Ltd, 9 Residency Road, Bengaluru, Karnataka, 560025, IN.');
    const stored = await testServices().tenants.getAgentGroup(g.agentGroupId);
    expect(stored?.legalName).toBe('Moved Agents Pvt Ltd');
    expect(stored?.address).toEqual({ line1: '9 Residency Road', city: 'Bengaluru', state: 'Karnataka', postalCode: '560025', country: 'IN' });
    const event = await lastEvent(`group:${g.agentGroupId}`);
    expect(event).toEqual(expect.objectContaining({ action: 'group.updated', actor: expect.stringMatching(/^person:/) }));
    expect(event?.after).toEqual(expect.objectContaining({ legalName: 'Moved Agents Pvt Ltd', address: '9 Residency Road, Bengaluru, Karnataka, 560025, IN' }));

    expect((await ops.post(`/console/operator/groups/${uniqueId('nobody')}/bill-to`, { ...form, csrf })).statusCode).toBe(404);
    const plain = await plainOperator();
    const plainPage = await plain.get(`/console/operator/groups/${g.agentGroupId}`);
    expect(plainPage.text).not.toContain('Set bill-to');
    expect((await plain.post(path, { ...form, legalName: 'Plain', csrf: ConsoleBrowser.csrfOf(plainPage) })).statusCode).toBe(403);
    const admin = await partnerAdmin();
    expect((await admin.post(path, { ...form, legalName: 'Partner', csrf: ConsoleBrowser.csrfOf(await admin.get('/console/home')) })).statusCode).toBe(404);
    expect((await testServices().tenants.getAgentGroup(g.agentGroupId))?.legalName).toBe('Moved Agents Pvt Ltd');
  });
});

describe('console: the gateway’s unmatched payments and open disputes (the admin tool’s payments unmatched and payments disputes)', () => {
  it('lists unmatched gateway payments for both operator roles in Indian formats; partners’ people get 404, visitors the sign-in page', async () => {
    const paymentId = `pay_Console${randomUUID().replaceAll('-', '').slice(0, 10)}`;
    const at = new Date().toISOString();
    await testServices().receivables.keepUnmatched({
      paymentId,
      eventId: null,
      event: 'payment.captured',
      orderId: 'order_NotOurs0001',
      virtualAccountId: null,
      amount: 12_345_678,
      currency: 'INR',
      reason: 'UNKNOWN_ORDER',
      createdAt: at,
      keptAt: at,
    });
    for (const ops of [await plainOperator(), await financeOperator()]) {
      const page = await ops.get('/console/operator/payments');
      expect(page.statusCode).toBe(200);
      expect(page.text).toContain('<h1>Gateway payments</h1>');
      const row = page.text.slice(page.text.indexOf(paymentId) - 200, page.text.indexOf(paymentId) + 300);
      expect(row).toContain('₹1,23,456.78');
      expect(row).toContain('Order not ours');
      expect(row).toContain('order_NotOurs0001');
      expect(row).toMatch(/\d{2} \w{3} \d{4}, \d{2}:\d{2} IST/);
    }
    const admin = await partnerAdmin();
    const refused = await admin.get('/console/operator/payments');
    expect(refused.statusCode).toBe(404);
    expect(refused.text).not.toContain(paymentId);
    const visitor = new ConsoleBrowser((event) => handleConsole(deps, event));
    expect((await visitor.get('/console/operator/payments')).headers.Location).toBe('/console/sign-in');
  });
});

describe('console: a listing’s Channex connection (what the inbound endpoints keep)', () => {
  it('shows the mapping, the last notification and its failures for a connected listing; a listing not connected says so; partners’ people get 404', async () => {
    const catalogue = await seedCatalogue({ channex: ['onlyA'] });
    const listingId = catalogue.onlyA;
    const svc = testServices();
    const now = Date.now();
    const record = (minutesAgo: number, requestId = `req-${randomUUID()}`) => ({
      requestId,
      hotelCode: listingId,
      uniqueId: `chx_${randomUUID()}`,
      bodyHash: randomUUID(),
      documentKey: `channel-manager/channex/changes/${randomUUID()}.json`,
      receivedAt: new Date(now - minutesAgo * 60_000).toISOString(),
      status: 'RECEIVED' as const,
    });
    const [applied, refused, stuck, fresh] = [record(90), record(60), record(20), record(1)];
    for (const r of [applied, refused, stuck, fresh]) await svc.channexInbox.receive(r);
    await svc.channexInbox.finish(applied.requestId, {
      status: 'APPLIED',
      nights: 12,
      events: 3,
      notApplied: [{ path: 'data[0].attributes.values[0].date_from', reason: 'date before today' }],
      at: new Date(now - 89 * 60_000).toISOString(),
    });
    await svc.channexInbox.finish(refused.requestId, {
      status: 'REFUSED',
      refusal: { param: 'data[0].attributes.hotel_code', message: 'not a listing connected to Channex' },
      at: new Date(now - 60 * 60_000).toISOString(),
    });

    const ops = await plainOperator();
    const page = await ops.get(`/console/operator/channex?listing=${encodeURIComponent(listingId)}`);
    expect(page.statusCode).toBe(200);
    expect(page.text).toContain('Connected to Channex');
    for (const propertyId of catalogue.propertiesOf[listingId]!)
      expect(page.text).toContain(`${propertyId}:EP, ${propertyId}:CP, ${propertyId}:MAP, ${propertyId}:AP`);
    const rows = page.text.slice(page.text.indexOf('<h2>Latest notifications</h2>'));
    // Newest first: the fresh one, the stuck one, the refused one, the applied one.
    const order = [fresh, stuck, refused, applied].map((r) => rows.indexOf(r.requestId));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
    expect(rows).toContain('Received, being applied');
    expect(rows).toContain('Not applied after 15 minutes');
    expect(rows).toContain('Refused: data[0].attributes.hotel_code: not a listing connected to Channex');
    expect(rows).toContain('Applied: 12 nights, 3 events; 1 not applied as sent (first: data[0].attributes.values[0].date_from: date before today)');
    expect(page.text).toMatch(/<dt>Failures shown<\/dt><dd>2<\/dd>/);

    const other = await ops.get(`/console/operator/channex?listing=${encodeURIComponent(catalogue.onlyB)}`);
    expect(other.statusCode).toBe(200);
    expect(other.text).toContain('Not connected');
    expect(other.text).toContain('None in the last 90 days');
    expect((await ops.get(`/console/operator/channex?listing=${uniqueId('nowhere')}`)).statusCode).toBe(404);
    const tooLong = await ops.get(`/console/operator/channex?listing=${'x'.repeat(101)}`);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.text).toContain('listing:');
    expect((await ops.get('/console/operator/channex')).text).toContain('Show connection');

    const admin = await partnerAdmin();
    const refusedPage = await admin.get(`/console/operator/channex?listing=${encodeURIComponent(listingId)}`);
    expect(refusedPage.statusCode).toBe(404);
    expect(refusedPage.text).not.toContain(applied.requestId);
  });
});
