import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { invitePerson } from '../../domain/console/sign-in.ts';
import type { Access } from '../../domain/console/people.ts';
import { listBookings } from '../../domain/bookings/read-bookings.ts';
import { createEndpoint, secretContext } from '../../domain/webhooks/manage-endpoints.ts';
import { CONSOLE_ROUTE_PATTERNS, consoleAppDeps, handleConsole, SESSION_COOKIE, type ConsoleAppDeps } from '../../functions/console/app.ts';
import { consoleTokens } from '../../infra/crypto/console-tokens.ts';
import { cryptoKeyMinter } from '../../infra/crypto/key-minter.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { deps as billingDeps } from '../support/billing-run-kit.ts';
import { issueOperatorCreditNote } from '../../domain/invoicing/operator-credit-note.ts';
import { issueKey } from '../../domain/admin.ts';
import { adminDeps } from '../../infra/container.ts';
import { billGroup } from '../support/billing-run-kit.ts';
import { ConsoleBrowser } from '../support/console-browser.ts';
import { offSandbox as offSandboxConsole } from '../support/console-session.ts';
import { bookStay, seedInvoiceWorld } from '../support/invoice-world.ts';
import { mailbox } from '../support/mailbox.ts';
import { DEMO_PEOPLE, loadDemoPeople } from '../../scripts/demo-people.ts';
import { indiaDate } from '../../functions/console/format.ts';
import { newAgentGroup, principalOf, stack, testServices, type GroupFixture } from '../support/stack.ts';
import { getStatement } from '../../domain/ledger/read-ledger.ts';
import { formatIndianGrouping, formatInr } from '../../domain/money.ts';
import { pdfText } from '../support/pdf-scan.ts';

/** The SES emulator the tier's setup runs: the sign-in links arrive there, as they would in a person's inbox. */
const inbox = () => mailbox(stack().env.SES_ENDPOINT!);
async function linkTo(email: string): Promise<URL> {
  const mail = (await inbox().forRecipient(email)).at(-1);
  if (!mail) throw new Error(`no mail to ${email}`);
  return new URL(/https?:\/\/\S+/.exec(mail.text)![0]);
}
const tokenTo = async (email: string): Promise<string> => (await linkTo(email)).searchParams.get('token')!;
let deps: ConsoleAppDeps;
const browser = (ip?: string) => new ConsoleBrowser((event) => handleConsole(deps, event), ip);

/**
 * What the tenancy, role and signed-out checks asked as someone who must not reach it, and how they were
 * answered. The last tenancy test checks every route of the console's table was refused at least once.
 */
const refusals: { readonly method: string; readonly path: string; readonly refused: boolean }[] = [];
/** The browser of someone the checks expect to be refused (another account's person, a role without the screen, a partner on operator pages, a signed-out visitor): every request it makes is recorded. */
function outsider(b: ConsoleBrowser): ConsoleBrowser {
  const request = b.request.bind(b);
  b.request = async (method, target, form) => {
    const answer = await request(method, target, form);
    const refused = answer.statusCode === 403 || answer.statusCode === 404 || (answer.statusCode === 303 && answer.headers?.Location === '/console/sign-in');
    refusals.push({ method, path: new URL(target, 'https://console.test').pathname, refused });
    return answer;
  };
  return b;
}

interface Account {
  readonly group: GroupFixture;
  readonly bookingId: string;
  readonly externalBookingId: string;
  readonly invoiceId: string;
  readonly invoiceNumber: string;
}

async function account(channelId: string, listingId: string, checkIn: string, checkOut: string): Promise<Account> {
  const group = await newAgentGroup({ channelId });
  const bookingId = await bookStay(group, listingId, checkIn, checkOut);
  const page = await listBookings(testServices(), principalOf(group), { bookingIds: [bookingId] });
  const { invoice } = await billGroup(group);
  return { group, bookingId, externalBookingId: page.bookings[0]!.externalBookingId, invoiceId: invoice.id, invoiceNumber: invoice.invoiceNumber! };
}

/** A webhook endpoint of the account's partner, added through the API's use case. */
const endpointOf = (x: Account, name: string) =>
  createEndpoint(
    testServices(),
    { kind: 'partner', partnerId: x.group.partnerId, channelId: 'test-channel', keyId: 'k', keyPrefix: 'p' },
    { url: `http://127.0.0.1:9/${name}-${randomUUID().slice(0, 6)}` },
    TEST_OPERATOR,
  );

const operator = { actor: TEST_OPERATOR.actor, name: 'Test operator', origin: TEST_OPERATOR };

/** Invites a person as the admin tool would and signs them in through the e-mailed link, in a fresh browser. */
async function signIn(access: Access, email = `${randomUUID().slice(0, 8)}@agency.example.in`): Promise<ConsoleBrowser> {
  await invitePerson(deps, operator, email, access);
  const b = browser();
  const link = await linkTo(email);
  const confirm = await b.get(`${link.pathname}${link.search}`);
  expect(confirm.statusCode).toBe(200);
  const token = /name="token" value="([^"]+)"/.exec(confirm.text)![1]!;
  const signedIn = await b.post('/console/sign-in/link', { token });
  expect(signedIn.statusCode).toBe(303);
  return b;
}

const partner = (a: Account, role: 'admin' | 'finance' | 'developer' | 'viewer'): Access => ({
  kind: 'partner',
  agentGroupId: a.group.agentGroupId,
  partnerId: a.group.partnerId,
  role,
});

let a: Account;
let b: Account;

beforeAll(async () => {
  const svc = testServices();
  deps = consoleAppDeps(svc, 'https://console.test/console', new PdfInvoiceRenderer());
  const world = await seedInvoiceWorld();
  [a, b] = await Promise.all([
    account(world.channelId, world.registered, '2027-03-01', '2027-03-03'),
    account(world.channelId, world.registered, '2027-03-02', '2027-03-04'),
  ]);
}, 180_000);

describe('console: a partner admin and an operator at work (DynamoDB Local, the API read paths)', () => {
  it('signs in by the e-mailed link into an HttpOnly, Secure, SameSite=Lax session cookie; the link works once', async () => {
    const email = `admin-${randomUUID().slice(0, 8)}@agency.example.in`;
    await invitePerson(deps, operator, email, partner(a, 'admin'));
    const token = await tokenTo(email);
    const first = browser();

    const landed = await first.post('/console/sign-in/link', { token });

    expect(landed.statusCode).toBe(303);
    expect(landed.headers.Location).toBe('/console/home');
    expect(first.setCookies[0]).toMatch(new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{43}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=43200$`));
    const again = await browser().post('/console/sign-in/link', { token });
    expect(again.statusCode).toBe(400);
    expect(again.text).toContain('already used or has expired');
  });

  it("shows the account's credit, hold and what is due in Indian formats", async () => {
    const admin = await signIn(partner(a, 'admin'));
    const home = await admin.get('/console/home');
    expect(home.statusCode).toBe(200);
    expect(home.headers['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(home.text).toContain('₹50,000.00');
    const position = await testServices().ledger.creditPosition(a.group.agentGroupId);
    const open = await testServices().owing.openFigures(a.group.agentGroupId);
    expect(home.text).toContain(`<dd>₹${(position!.availableCredit / 100).toLocaleString('en-IN', { minimumFractionDigits: 2 })}</dd>`);
    expect(home.text).toContain(`<dd>₹${(open.outstanding / 100).toLocaleString('en-IN', { minimumFractionDigits: 2 })}</dd>`);
    expect(home.text).toContain('Not on hold');
  });

  it('finds a booking by the partner’s own id, shows its status and callbacks, downloads its invoice PDF and the statement CSV and PDF', async () => {
    const finance = await signIn(partner(a, 'finance'));
    const found = await finance.get(`/console/bookings?externalBookingId=${encodeURIComponent(a.externalBookingId)}`);
    expect(found.text).toContain(`/console/bookings/${a.bookingId}`);
    // By guest name: part of the primary guest's name, in another case, over the group's bookings only.
    const { primaryGuest } = (await listBookings(testServices(), principalOf(a.group), { bookingIds: [a.bookingId] })).bookings[0]!;
    const byGuest = await finance.get(
      `/console/bookings?guest=${encodeURIComponent(`${primaryGuest.firstName} ${primaryGuest.lastName ?? ''}`.toUpperCase().slice(0, -1))}`,
    );
    expect(byGuest.text).toContain(`/console/bookings/${a.bookingId}`);
    expect((await finance.get('/console/bookings?guest=No%20such%20guest%20zq')).text).not.toContain(`/console/bookings/${a.bookingId}`);
    const tooLong = await finance.get(`/console/bookings?guest=${'x'.repeat(101)}`);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.text).toContain('guest must be 1–100 characters.');
    const detail = await finance.get(`/console/bookings/${a.bookingId}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.text).toContain('CONFIRMED');
    expect(detail.text).toContain('<h2>Callbacks sent</h2>');

    const invoices = await finance.get('/console/invoices');
    expect(invoices.text).toContain(a.invoiceNumber);
    const pdf = await finance.get(`/console/invoices/${a.invoiceId}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['Content-Type']).toBe('application/pdf');
    expect(Buffer.from(String(pdf.body), 'base64').subarray(0, 5).toString()).toBe('%PDF-');

    const csv = await finance.get('/console/statement.csv?from=2026-01-01&to=2026-12-31');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['Content-Type']).toMatch(/^text\/csv/);
    expect(csv.headers['Content-Disposition']).toBe('attachment; filename="statement-2026-01-01-to-2026-12-31.csv"');
    const page = await finance.get('/console/statement?from=2026-01-01&to=2026-12-31');
    expect(page.text).toContain('<a href="/console/statement.pdf?from=2026-01-01&amp;to=2026-12-31" download>Download PDF</a>');
    const statementPdf = await finance.get('/console/statement.pdf?from=2026-01-01&to=2026-12-31');
    expect(statementPdf.statusCode).toBe(200);
    expect(statementPdf.headers['Content-Type']).toBe('application/pdf');
    expect(statementPdf.headers['Content-Disposition']).toBe('attachment; filename="statement-2026-01-01-to-2026-12-31.pdf"');
    const json = await getStatement(testServices(), principalOf(a.group), { from: '2026-01-01', to: '2026-12-31' });
    expect(pdfText(Buffer.from(String(statementPdf.body), 'base64'))).toContain(
      `Closing balance ${formatIndianGrouping(Math.round(json.closingBalance * 100))}`,
    );
    const bad = await finance.get('/console/statement?from=2026-13-01&to=2026-12-31');
    expect(bad.statusCode).toBe(400);
    expect(bad.text).toContain('from:');
  });

  it('lets an operator hold and release a group only with the session’s CSRF token, audited under the person, and the partner sees it', async () => {
    const ops = await signIn({ kind: 'operator', role: 'finance-operator' });
    const admin = await signIn(partner(b, 'admin'));
    const groupPage = await ops.get(`/console/operator/groups/${b.group.agentGroupId}`);
    expect(groupPage.statusCode).toBe(200);

    const forged = await ops.post(`/console/operator/groups/${b.group.agentGroupId}/hold`, { hold: 'true', csrf: consoleTokens.newToken() });
    expect(forged.statusCode).toBe(403);
    expect((await testServices().tenants.getAgentGroup(b.group.agentGroupId))!.onHold).toBe(false);

    const held = await ops.post(`/console/operator/groups/${b.group.agentGroupId}/hold`, { hold: 'true', csrf: ConsoleBrowser.csrfOf(groupPage) });
    expect(held.statusCode).toBe(200);
    expect(held.text).toContain('The group is on hold.');
    expect((await admin.get('/console/home')).text).toContain('Your account is on hold');
    const trail = await testServices().auditTrail.listTarget(`group:${b.group.agentGroupId}`);
    expect(trail.at(-1)).toEqual(expect.objectContaining({ action: 'group.updated', actorKind: 'operator', actor: expect.stringMatching(/^person:/) }));

    const released = await ops.post(`/console/operator/groups/${b.group.agentGroupId}/hold`, { hold: 'false', csrf: ConsoleBrowser.csrfOf(held) });
    expect(released.text).toContain('The hold is released.');
    expect((await admin.get('/console/home')).text).toContain('Not on hold');
    const badHold = await ops.post(`/console/operator/groups/${b.group.agentGroupId}/hold`, { hold: 'maybe', csrf: ConsoleBrowser.csrfOf(held) });
    expect(badHold.statusCode).toBe(400);
    expect(badHold.text).toContain('hold:');

    const limited = await ops.post(`/console/operator/groups/${b.group.agentGroupId}/limit`, { creditLimit: '75000.50', csrf: ConsoleBrowser.csrfOf(held) });
    expect(limited.text).toContain('The credit limit is now ₹75,000.50.');
    expect((await testServices().tenants.getAgentGroup(b.group.agentGroupId))!.creditLimit).toBe(7_500_050);
    expect((await admin.get('/console/home')).text).toContain('₹75,000.50');
    const badLimit = await ops.post(`/console/operator/groups/${b.group.agentGroupId}/limit`, { creditLimit: '12.345', csrf: ConsoleBrowser.csrfOf(held) });
    expect(badLimit.statusCode).toBe(400);
    expect(badLimit.text).toContain('creditLimit:');
    const plainOperator = await signIn({ kind: 'operator', role: 'operator' });
    const page = await plainOperator.get(`/console/operator/groups/${b.group.agentGroupId}`);
    expect(page.text).not.toContain('Set credit limit');
    expect(
      (await plainOperator.post(`/console/operator/groups/${b.group.agentGroupId}/limit`, { creditLimit: '1', csrf: ConsoleBrowser.csrfOf(page) })).statusCode,
    ).toBe(403);
    expect(
      (
        await admin.post(`/console/operator/groups/${b.group.agentGroupId}/limit`, {
          creditLimit: '1',
          csrf: ConsoleBrowser.csrfOf(await admin.get('/console/home')),
        })
      ).statusCode,
    ).toBe(404);
  });

  it('lets a partner admin invite a teammate onto their own account, with CSRF, and the invitee signs in', async () => {
    const admin = await signIn(partner(a, 'admin'));
    const team = await admin.get('/console/team');
    const email = `clerk-${randomUUID().slice(0, 8)}@agency.example.in`;
    expect((await admin.post('/console/team/invite', { email, role: 'finance' })).statusCode).toBe(403);
    const invited = await admin.post('/console/team/invite', { email, role: 'finance', csrf: ConsoleBrowser.csrfOf(team) });
    expect(invited.statusCode).toBe(200);
    expect(invited.text).toContain(`Invitation sent to ${email}`);
    const person = await deps.people.findPersonByEmail(email);
    expect(person?.access).toEqual(partner(a, 'finance'));
    const badRole = await admin.post('/console/team/invite', { email: `x-${email}`, role: 'owner', csrf: ConsoleBrowser.csrfOf(team) });
    expect(badRole.statusCode).toBe(400);
    expect(badRole.text).toContain('role:');
    expect((await admin.post('/console/team/invite', { email, role: 'viewer', csrf: ConsoleBrowser.csrfOf(team) })).statusCode).toBe(409);
  });

  it("keeps the group's finance contacts as the API does: add, change documents and address, remove, with CSRF, naming a bad field, audited under the person", async () => {
    const clerk = await signIn(partner(b, 'finance'));
    const page = await clerk.get('/console/contacts');
    expect(page.statusCode).toBe(200);
    const csrf = ConsoleBrowser.csrfOf(page);
    const email = `ap-${randomUUID().slice(0, 8)}@agency.example.in`;
    const form = { email, name: 'Accounts payable', documents: 'STATEMENTS' };
    expect((await clerk.post('/console/contacts/add', form)).statusCode).toBe(403);
    const added = await clerk.post('/console/contacts/add', { ...form, csrf });
    expect(added.statusCode, added.text).toBe(200);
    expect(added.text).toContain(`${email} added.`);
    const svc = testServices();
    const [stored] = (await svc.financeContacts.get(b.group.agentGroupId))!.contacts;
    expect(stored).toMatchObject({ email, name: 'Accounts payable', documents: ['STATEMENTS'] });
    // The same rules as POST /v1/finance-contacts: a bad address names email, a statutory document names documents, a twin is a 409.
    const badEmail = await clerk.post('/console/contacts/add', { email: 'not-an-address', csrf });
    expect([badEmail.statusCode, badEmail.text.includes('email:')]).toEqual([400, true]);
    const statutory = new URLSearchParams({ email: `x-${email}`, csrf });
    statutory.append('documents', 'INVOICES');
    expect((await clerk.post('/console/contacts/add', Object.fromEntries(statutory))).text).toContain('documents:');
    expect((await clerk.post('/console/contacts/add', { email, csrf })).statusCode).toBe(409);
    // Unticking every optional document keeps invoices and credit notes only; a new address clears nothing else.
    const moved = `ap2-${randomUUID().slice(0, 8)}@agency.example.in`;
    const changed = await clerk.post(`/console/contacts/${stored!.contactId}/update`, { email: moved, name: '', csrf });
    expect(changed.statusCode, changed.text).toBe(200);
    expect((await svc.financeContacts.get(b.group.agentGroupId))!.contacts[0]).toMatchObject({ email: moved, name: null, documents: [] });
    // Another group's contact, or none, is missing; a viewer may not open the page.
    expect((await clerk.post(`/console/contacts/${randomUUID()}/remove`, { csrf })).statusCode).toBe(404);
    const otherAdmin = await signIn(partner(a, 'admin'));
    const otherPage = await otherAdmin.get('/console/contacts');
    expect(otherPage.text).not.toContain(moved);
    expect((await otherAdmin.post(`/console/contacts/${stored!.contactId}/remove`, { csrf: ConsoleBrowser.csrfOf(otherPage) })).statusCode).toBe(404);
    expect((await (await signIn(partner(b, 'viewer'))).get('/console/contacts')).statusCode).toBe(403);
    const removed = await clerk.post(`/console/contacts/${stored!.contactId}/remove`, { csrf });
    expect(removed.text).toContain('Contact removed.');
    expect((await svc.financeContacts.get(b.group.agentGroupId))!.contacts).toEqual([]);
    const mine = await svc.auditTrail.listTarget(`finance-contact:${stored!.contactId}`);
    expect(mine.map((e) => e.action).sort()).toEqual(['group.finance-contact-added', 'group.finance-contact-changed', 'group.finance-contact-removed']);
    expect(new Set(mine.map((e) => e.actorKind))).toEqual(new Set(['person']));
  });

  it("rotates a webhook endpoint's signing secret, shows the new one once, stores only its sealed copy, and audits it under the person", async () => {
    const svc = testServices();
    const partnerOf = (x: Account) => ({ kind: 'partner' as const, partnerId: x.group.partnerId, channelId: 'test-channel', keyId: 'k', keyPrefix: 'p' });
    const mine = await createEndpoint(svc, partnerOf(a), { url: `http://127.0.0.1:9/hook-${randomUUID().slice(0, 6)}` }, TEST_OPERATOR);
    const theirs = await createEndpoint(svc, partnerOf(b), { url: `http://127.0.0.1:9/their-${randomUUID().slice(0, 6)}` }, TEST_OPERATOR);
    const developer = await signIn(partner(a, 'developer'));
    const page = await developer.get('/console/webhooks');
    expect(page.text).toContain(mine.url);
    expect(page.text).not.toContain(theirs.url);

    const rotated = await developer.post(`/console/webhooks/${mine.id}/rotate-secret`, { csrf: ConsoleBrowser.csrfOf(page) });

    expect(rotated.statusCode).toBe(200);
    const secret = /class="secret"[^>]*>(whsec_[A-Za-z0-9_-]{43})</.exec(rotated.text)![1]!;
    const stored = await svc.webhooks.get(a.group.partnerId, mine.id);
    expect(svc.secrets.open(stored!.signingSecretSealed!, secretContext(mine.id, 'signing'))).toBe(secret);
    expect((await developer.get('/console/webhooks')).text).not.toContain(secret);
    const trail = await svc.auditTrail.listTarget(`webhook-endpoint:${mine.id}`);
    expect(trail.at(-1)).toEqual(
      expect.objectContaining({ action: 'webhook-endpoint.updated', actorKind: 'person', actor: expect.stringMatching(/^person:/) }),
    );
    expect(JSON.stringify(trail)).not.toContain(secret);

    expect((await developer.post(`/console/webhooks/${theirs.id}/rotate-secret`, { csrf: ConsoleBrowser.csrfOf(page) })).statusCode).toBe(404);
    expect((await svc.webhooks.get(b.group.partnerId, theirs.id))!.signingSecretSealed).toBeNull();
    const finance = await signIn(partner(a, 'finance'));
    expect((await finance.get('/console/webhooks')).statusCode).toBe(403);
  });

  it('issues an API key and the new callback secret, shown once, audited under the person; the key opens the account', async () => {
    const svc = testServices();
    const developer = await signIn(partner(a, 'developer'));
    const page = await developer.get('/console/keys');
    expect(page.statusCode).toBe(200);

    const issued = await developer.post('/console/keys/issue', { csrf: ConsoleBrowser.csrfOf(page) });

    const key = /aria-label="New API key">([^<]+)</.exec(issued.text)![1]!;
    const record = await svc.tenants.findKeyByHash(cryptoKeyMinter.hash(key));
    expect(record).toEqual(expect.objectContaining({ owner: { kind: 'agent-group', id: a.group.agentGroupId }, status: 'ACTIVE' }));
    expect((await developer.get('/console/keys')).text).not.toContain(key);
    expect((await developer.get('/console/keys')).text).toContain(`${record!.keyPrefix}…`);
    const trail = await svc.auditTrail.listTarget(`key:${record!.keyId}`);
    expect(trail).toEqual([expect.objectContaining({ action: 'key.issued', actorKind: 'person', account: a.group.agentGroupId })]);
    expect((await (await signIn(partner(a, 'viewer'))).get('/console/keys')).statusCode).toBe(403);
  });

  it('signs out this session, and everywhere: every session of the person then goes to the sign-in page', async () => {
    const email = `twice-${randomUUID().slice(0, 8)}@agency.example.in`;
    const laptop = await signIn(partner(a, 'viewer'), email);
    await deps.people.findPersonByEmail(email);
    const phone = browser();
    await phone.post('/console/sign-in', { email });
    expect((await phone.post('/console/sign-in/link', { token: await tokenTo(email) })).statusCode).toBe(303);
    const home = await laptop.get('/console/home');

    const out = await laptop.post('/console/sign-out-everywhere', { csrf: ConsoleBrowser.csrfOf(home) });

    expect(out.headers.Location).toBe('/console/sign-in?ended=revoked');
    expect(laptop.jar.size).toBe(0);
    expect((await phone.get('/console/home')).headers.Location).toBe('/console/sign-in?ended=revoked');
  });
});

describe('console: ledger, audit trail, credit notes, webhook endpoints and deliveries, key revoke and replace (the API and admin tool use cases)', () => {
  it('pages the ledger with the API’s filters and its 400s, and shows the account’s audit trail with people’s changes', async () => {
    const finance = await signIn(partner(a, 'finance'));
    const all = await finance.get('/console/ledger');
    expect(all.statusCode).toBe(200);
    expect(all.text).toContain('<caption>Ledger entries, newest first</caption>');
    expect(all.text).toContain(a.externalBookingId);
    const charges = await finance.get(`/console/ledger?type=CHARGE&status=&externalBookingIds=${encodeURIComponent(a.externalBookingId)}&size=1`);
    expect(charges.statusCode).toBe(200);
    expect(charges.text).toMatch(/<td>CHARGE<\/td>/);
    expect((await finance.get('/console/ledger?type=REFUND')).text).not.toContain('<td>CHARGE</td>');
    const badType = await finance.get('/console/ledger?type=GIFT');
    expect(badType.statusCode).toBe(400);
    expect(badType.text).toContain('type:');
    expect((await finance.get('/console/ledger?cursor=forged')).statusCode).toBe(400);
    expect((await finance.get('/console/ledger?sort=asc')).text).toContain('sort is not a recognised parameter');

    const admin = await signIn(partner(a, 'admin'));
    const team = await admin.get('/console/team');
    await admin.post('/console/team/invite', {
      email: `audited-${randomUUID().slice(0, 8)}@agency.example.in`,
      role: 'viewer',
      csrf: ConsoleBrowser.csrfOf(team),
    });
    const trail = await finance.get('/console/audit?size=200');
    expect(trail.statusCode).toBe(200);
    expect(trail.text).toContain('person.invited');
    expect(trail.text).toMatch(/person:[0-9a-f-]{36} \(person\)/);
    expect((await finance.get('/console/audit?from=yesterday')).statusCode).toBe(400);
  });

  it('offers an invoice’s pay link while it collects exactly what is owed, and none once it does not', async () => {
    const world = await seedInvoiceWorld();
    const c = await account(world.channelId, world.registered, '2027-03-02', '2027-03-03');
    const svc = testServices();
    const issued = (await svc.invoices.get(c.group.agentGroupId, c.invoiceId))!;
    const owed = issued.total - (issued.amountPaid ?? 0) - (issued.creditedAmount ?? 0);
    const link = { linkId: `plink_${randomUUID().slice(0, 8)}`, url: 'https://rzp.io/i/console-test', amount: owed, seq: 1 };
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    expect(await svc.payLinks.setPayLink(c.group.agentGroupId, c.invoiceId, { ...link, expiresAt }, null, new Date().toISOString())).toBe(true);
    const finance = await signIn(partner(c, 'finance'));

    const page = await finance.get('/console/invoices');

    expect(page.text).toContain(
      `<a href="https://rzp.io/i/console-test" rel="noopener noreferrer">Pay ${formatInr(owed)}<span class="skip"> of ${c.invoiceNumber}</span></a>`,
    );
    expect(page.text).toContain('Pay an invoice online by its "Pay" link');
    // A link for another amount (a payment or credit note moved what is owed) is not offered: only the bank transfer is.
    await svc.payLinks.setPayLink(
      c.group.agentGroupId,
      c.invoiceId,
      { ...link, linkId: `${link.linkId}b`, amount: owed - 100, seq: 2, expiresAt },
      link.linkId,
      new Date().toISOString(),
    );
    const moved = await finance.get('/console/invoices');
    expect(moved.text).not.toContain('rzp.io');
    expect(moved.text).not.toContain('Pay an invoice online');
    expect(moved.text).toContain('<h2>Pay by bank transfer</h2>');
  });

  it('lists a credit note apart from the invoices, against its invoice, with its PDF', async () => {
    const svc = testServices();
    const [line] = (await svc.invoices.lines(a.group.agentGroupId, a.invoiceId)).filter((l) => l.lineTotal > 0);
    const { creditNote } = await issueOperatorCreditNote(
      { ...billingDeps(), tenants: svc.tenants },
      a.group.agentGroupId,
      a.invoiceId,
      [{ lineId: line!.id, amount: 100 }],
      'console test',
      TEST_OPERATOR,
    );
    const viewer = await signIn(partner(a, 'viewer'));
    const page = await viewer.get('/console/invoices');
    const notes = page.text.slice(page.text.indexOf('<h2>Credit notes</h2>'));
    expect(notes).toContain(`<td>${creditNote.invoiceNumber}</td>`);
    expect(notes).toContain(`<td>${a.invoiceNumber}</td>`);
    const pdf = await viewer.get(`/console/invoices/${creditNote.id}/pdf`);
    expect(pdf.headers['Content-Type']).toBe('application/pdf');
    expect(Buffer.from(String(pdf.body), 'base64').subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('adds a webhook endpoint with a signing secret shown once, lists its deliveries and resends one, audited under the person', async () => {
    const svc = testServices();
    const developer = await signIn(partner(a, 'developer'));
    const page = await developer.get('/console/webhooks');
    const url = `http://127.0.0.1:9/console-${randomUUID().slice(0, 6)}`;
    expect((await developer.post('/console/webhooks/create', { url })).statusCode).toBe(403);

    const created = await developer.post('/console/webhooks/create', { url, csrf: ConsoleBrowser.csrfOf(page) });

    expect(created.statusCode).toBe(200);
    const secret = /class="secret"[^>]*>(whsec_[A-Za-z0-9_-]{43})</.exec(created.text)![1]!;
    const endpoint = (await svc.webhooks.list(a.group.partnerId)).find((e) => e.url === url)!;
    expect(svc.secrets.open(endpoint.signingSecretSealed!, secretContext(endpoint.id, 'signing'))).toBe(secret);
    expect((await svc.auditTrail.listTarget(`webhook-endpoint:${endpoint.id}`))[0]).toEqual(
      expect.objectContaining({ action: 'webhook-endpoint.created', actorKind: 'person', actor: expect.stringMatching(/^person:/) }),
    );
    const badUrl = await developer.post('/console/webhooks/create', { url: 'ftp://example.in/x', csrf: ConsoleBrowser.csrfOf(page) });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.text).toContain('url');

    const at = new Date().toISOString();
    const failed = {
      kind: 'webhook' as const,
      deliveryId: randomUUID(),
      partnerId: a.group.partnerId,
      endpointId: endpoint.id,
      eventId: randomUUID(),
      eventType: 'listing.updated' as const,
      payload: JSON.stringify({ eventType: 'listing.updated' }),
      status: 'FAILED' as const,
      attempts: [{ attempt: 1, at, outcome: 'permanent' as const, statusCode: 410, durationMs: 5 }],
      nextAttemptAt: null,
      failureReason: 'HTTP 410',
      resendOf: null,
      requeues: 0,
      createdAt: at,
      updatedAt: at,
    };
    await svc.deliveries.createAll([failed]);
    const log = await developer.get(`/console/webhooks/${endpoint.id}/deliveries`);
    expect(log.statusCode).toBe(200);
    expect(log.text).toContain('HTTP 410');

    const resent = await developer.post(`/console/webhooks/deliveries/${failed.deliveryId}/resend`, { csrf: ConsoleBrowser.csrfOf(log) });

    expect(resent.statusCode).toBe(200);
    expect(resent.text).toContain('Resent as a new delivery');
    const copies = (await svc.deliveries.listForEndpoint(a.group.partnerId, endpoint.id, { size: 10 })).items.filter((d) => d.resendOf === failed.deliveryId);
    expect(copies).toHaveLength(1);

    const other = await signIn(partner(b, 'developer'));
    const otherPage = await other.get('/console/webhooks');
    expect(otherPage.text).not.toContain(url);
    expect((await other.get(`/console/webhooks/${endpoint.id}/deliveries`)).statusCode).toBe(404);
    expect((await other.post(`/console/webhooks/deliveries/${failed.deliveryId}/resend`, { csrf: ConsoleBrowser.csrfOf(otherPage) })).statusCode).toBe(404);
    expect(
      (await svc.deliveries.listForEndpoint(a.group.partnerId, endpoint.id, { size: 10 })).items.filter((d) => d.resendOf === failed.deliveryId),
    ).toHaveLength(1);
  });

  it('revokes and replaces this account’s keys only, with CSRF, audited under the person', async () => {
    const svc = testServices();
    const admin = await signIn(partner(a, 'admin'));
    const keysOf = async (x: Account) => svc.tenants.listKeys({ kind: 'agent-group', id: x.group.agentGroupId });
    const page = await admin.get('/console/keys');
    const issued = await admin.post('/console/keys/issue', { csrf: ConsoleBrowser.csrfOf(page) });
    const [first] = (await keysOf(a)).filter((k) => k.status === 'ACTIVE').slice(-1);
    expect((await admin.post(`/console/keys/${first!.keyId}/revoke`, {})).statusCode).toBe(403);

    const revoked = await admin.post(`/console/keys/${first!.keyId}/revoke`, { csrf: ConsoleBrowser.csrfOf(issued) });

    expect(revoked.statusCode).toBe(200);
    expect((await svc.tenants.getKey(first!.keyId))!.status).toBe('REVOKED');
    expect((await svc.auditTrail.listTarget(`key:${first!.keyId}`)).at(-1)).toEqual(
      expect.objectContaining({ action: 'key.revoked', actorKind: 'person', actor: expect.stringMatching(/^person:/) }),
    );
    expect((await admin.post(`/console/keys/${first!.keyId}/revoke`, { csrf: ConsoleBrowser.csrfOf(issued) })).statusCode).toBe(409);

    await admin.post('/console/keys/issue', { csrf: ConsoleBrowser.csrfOf(issued) });
    const [second] = (await keysOf(a)).filter((k) => k.status === 'ACTIVE').slice(-1);
    const replaced = await admin.post(`/console/keys/${second!.keyId}/replace`, { csrf: ConsoleBrowser.csrfOf(issued) });
    const key = /aria-label="New API key">([^<]+)</.exec(replaced.text)![1]!;
    expect((await svc.tenants.findKeyByHash(cryptoKeyMinter.hash(key)))?.status).toBe('ACTIVE');
    expect((await svc.tenants.getKey(second!.keyId))!.status).toBe('REVOKED');

    const theirs = await issueKey(adminDeps(svc, TEST_OPERATOR), { owner: { kind: 'agent-group', id: b.group.agentGroupId } });
    for (const action of ['revoke', 'replace'])
      expect((await admin.post(`/console/keys/${theirs.record.keyId}/${action}`, { csrf: ConsoleBrowser.csrfOf(issued) })).statusCode, action).toBe(404);
    expect((await svc.tenants.getKey(theirs.record.keyId))!.status).toBe('ACTIVE');
  });
});

describe('console: operators’ partners, failing deliveries and payments (the admin tool’s use cases)', () => {
  it('lists partners and shows one with its groups and failed deliveries', async () => {
    const svc = testServices();
    const endpoint = await endpointOf(b, 'failing');
    const at = new Date().toISOString();
    await svc.deliveries.createAll([
      {
        kind: 'webhook',
        deliveryId: randomUUID(),
        partnerId: b.group.partnerId,
        endpointId: endpoint.id,
        eventId: randomUUID(),
        eventType: 'listing.updated',
        payload: '{}',
        status: 'FAILED',
        attempts: [{ attempt: 1, at, outcome: 'permanent', statusCode: 404, durationMs: 3 }],
        nextAttemptAt: null,
        failureReason: 'HTTP 404 from the operator test',
        resendOf: null,
        requeues: 0,
        createdAt: at,
        updatedAt: at,
      },
    ]);
    const ops = await signIn({ kind: 'operator', role: 'operator' });
    const list = await ops.get('/console/operator/partners');
    expect(list.statusCode).toBe(200);
    expect(list.text).toContain(`/console/operator/partners/${b.group.partnerId}`);
    const detail = await ops.get(`/console/operator/partners/${b.group.partnerId}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.text).toContain(`/console/operator/groups/${b.group.agentGroupId}`);
    expect(detail.text).toContain('HTTP 404 from the operator test');
    expect(detail.text).toContain(endpoint.url);
    expect((await ops.get(`/console/operator/partners/${randomUUID()}`)).statusCode).toBe(404);
  });

  it('records a bank transfer as the admin tool does, once per reference, only for a finance operator, audited under the person', async () => {
    const svc = testServices();
    const ops = await signIn({ kind: 'operator', role: 'finance-operator' });
    const page = await ops.get(`/console/operator/groups/${a.group.agentGroupId}/payments`);
    expect(page.statusCode).toBe(200);
    const reference = `UTR${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    expect((await ops.post(`/console/operator/groups/${a.group.agentGroupId}/payments`, { amount: '10.50', reference })).statusCode).toBe(403);

    const recorded = await ops.post(`/console/operator/groups/${a.group.agentGroupId}/payments`, {
      amount: '10.50',
      reference,
      csrf: ConsoleBrowser.csrfOf(page),
    });

    expect(recorded.statusCode).toBe(200);
    expect(recorded.text).toContain(`Recorded ₹10.50 (${reference})`);
    const payment = (await svc.receivables.payments(a.group.agentGroupId)).find((p) => p.reference === reference)!;
    expect(payment.amount).toBe(1_050);
    expect(await svc.auditTrail.listTarget(`payment:${payment.ledgerEntryId}`)).toEqual([
      expect.objectContaining({ action: 'payment.recorded', actorKind: 'operator', actor: expect.stringMatching(/^person:/) }),
    ]);
    const again = await ops.post(`/console/operator/groups/${a.group.agentGroupId}/payments`, {
      amount: '10.50',
      reference,
      csrf: ConsoleBrowser.csrfOf(page),
    });
    expect(again.text).toContain('was already recorded; nothing changed');
    expect((await svc.receivables.payments(a.group.agentGroupId)).filter((p) => p.reference === reference)).toHaveLength(1);
    for (const [form, param] of [
      [{ amount: '1.234', reference: 'UTR12345' }, 'amount:'],
      [{ amount: '1', reference: 'x' }, 'reference:'],
      [{ amount: '1', reference: 'UTR12345', receivedAt: 'today' }, 'receivedAt:'],
    ] as const) {
      const bad = await ops.post(`/console/operator/groups/${a.group.agentGroupId}/payments`, { ...form, csrf: ConsoleBrowser.csrfOf(page) });
      expect(bad.statusCode, param).toBe(400);
      expect(bad.text).toContain(param);
    }

    const plain = await signIn({ kind: 'operator', role: 'operator' });
    const seen = await plain.get(`/console/operator/groups/${a.group.agentGroupId}/payments`);
    expect(seen.text).toContain(reference);
    expect(seen.text).not.toContain('Record payment');
    expect(
      (await plain.post(`/console/operator/groups/${a.group.agentGroupId}/payments`, { amount: '1', reference: 'UTR99999', csrf: ConsoleBrowser.csrfOf(seen) }))
        .statusCode,
    ).toBe(403);
    expect((await ops.get(`/console/operator/groups/${randomUUID()}/payments`)).statusCode).toBe(404);
  });
});

describe('console: operators’ billing runs, invoice voids and credit notes (the admin tool’s use cases)', () => {
  let voidable: Account;
  let creditable: Account;
  beforeAll(async () => {
    // A registration marked for e-invoicing: the stack's sandbox IRP registers the invoices, so they can be voided within its 24 hours.
    const world = await seedInvoiceWorld({ eInvoicing: true });
    [voidable, creditable] = await Promise.all([
      account(world.channelId, world.registered, '2027-03-01', '2027-03-03'),
      account(world.channelId, world.registered, '2027-03-02', '2027-03-04'),
    ]);
  }, 180_000);

  it('lists the runs and starts one over every group only as a finance operator; the run’s page shows its progress', async () => {
    const plain = await signIn({ kind: 'operator', role: 'operator' });
    const seen = await plain.get('/console/operator/billing');
    expect(seen.statusCode).toBe(200);
    expect(seen.text).toContain("<caption>Groups' billing runs, newest first</caption>");
    expect(seen.text).not.toContain('Start a billing run');
    expect((await plain.post('/console/operator/billing/run', { csrf: ConsoleBrowser.csrfOf(seen) })).statusCode).toBe(403);

    const finance = await signIn({ kind: 'operator', role: 'finance-operator' });
    const page = await finance.get('/console/operator/billing');
    expect(page.text).toContain('Start a billing run over every group');
    expect((await finance.post('/console/operator/billing/run', {})).statusCode).toBe(403);

    const started = await finance.post('/console/operator/billing/run', { csrf: ConsoleBrowser.csrfOf(page) });

    expect(started.statusCode).toBe(303);
    const runId = /^\/console\/operator\/billing\/runs\/([0-9a-f-]{36})$/.exec(started.headers.Location as string)![1]!;
    const progress = (await testServices().billingRuns.progress(runId))!;
    expect(progress).toMatchObject({ trigger: 'ADMIN', enqueued: expect.any(Number) });
    expect(progress.enqueued).toBeGreaterThanOrEqual(2);
    // Write-ahead under the person, as the admin tool's `billing run`: started before the first message, then completed naming the run.
    const trail = await testServices().auditTrail.listTarget('billing:stage');
    const completed = trail.find((e) => e.action === 'billing.all-groups-run' && e.after?.runId === runId)!;
    expect(completed).toMatchObject({
      actorKind: 'operator',
      actor: expect.stringMatching(/^person:/),
      after: { status: 'completed', enqueued: progress.enqueued },
    });
    const pair = trail.filter((e) => e.action === 'billing.all-groups-run' && e.requestId === completed.requestId);
    expect(pair.map((e) => e.after?.status)).toEqual(['started', 'completed']);
    expect(pair[0]!.actor).toBe(completed.actor);
    const runPage = await finance.get(started.headers.Location as string);
    expect(runPage.statusCode).toBe(200);
    expect(runPage.text).toContain(`<div><dt>Groups queued</dt><dd>${progress.enqueued}</dd></div>`);
    expect((await finance.get('/console/operator/billing')).text).toContain(`/console/operator/billing/runs/${runId}`);
    expect((await finance.get(`/console/operator/billing/runs/${randomUUID()}`)).statusCode).toBe(404);
  });

  it('bills one group now from its invoices page (as `billing run --group`), finance operators only, with CSRF, audited under the person', async () => {
    const g = await newAgentGroup();
    const path = `/console/operator/groups/${g.agentGroupId}/invoices`;
    const plain = await signIn({ kind: 'operator', role: 'operator' });
    const seen = await plain.get(path);
    expect(seen.statusCode).toBe(200);
    expect(seen.text).not.toContain('now</button>');
    expect((await plain.post(`${path}/bill`, { csrf: ConsoleBrowser.csrfOf(seen) })).statusCode).toBe(403);

    const email = `billing-${randomUUID().slice(0, 8)}@villas.example`;
    const finance = await signIn({ kind: 'operator', role: 'finance-operator' }, email);
    const page = await finance.get(path);
    expect(page.text).toContain('Bill Test Agents now</button>');
    expect((await finance.post(`${path}/bill`, {})).statusCode).toBe(403);
    expect(await testServices().billingRuns.groupRuns(5, g.agentGroupId)).toEqual([]);

    const billed = await finance.post(`${path}/bill`, { csrf: ConsoleBrowser.csrfOf(page) });

    expect(billed.statusCode).toBe(200);
    const [run] = await testServices().billingRuns.groupRuns(5, g.agentGroupId);
    expect(run).toMatchObject({ agentGroupId: g.agentGroupId, trigger: 'ADMIN', invoiceIds: [] });
    expect(billed.text).toContain(`role="status">Billed ${indiaDate(run!.periodFrom)} to ${indiaDate(run!.periodTo)}: nothing new to invoice.</p>`);
    const person = (await deps.people.findPersonByEmail(email))!;
    const [event] = (await testServices().auditTrail.listTarget(`billing:${g.agentGroupId}`)).filter((e) => e.action === 'billing.run');
    expect(event).toMatchObject({ actorKind: 'operator', actor: `person:${person.personId}`, after: { runId: run!.runId, trigger: 'ADMIN' } });
    expect((await finance.post(`/console/operator/groups/${randomUUID()}/invoices/bill`, { csrf: ConsoleBrowser.csrfOf(page) })).statusCode).toBe(404);
  });

  it('voids a registered invoice within the IRP’s 24 hours, finance operators only, with CSRF, audited under the person', async () => {
    const g = voidable.group.agentGroupId;
    const path = `/console/operator/groups/${g}/invoices/${voidable.invoiceId}`;
    const plain = await signIn({ kind: 'operator', role: 'operator' });
    const list = await plain.get(`/console/operator/groups/${g}/invoices`);
    expect(list.statusCode).toBe(200);
    expect(list.text).toContain(`${path}">${voidable.invoiceNumber}</a>`);
    const seen = await plain.get(path);
    expect(seen.text).toContain('Registered, acknowledged');
    expect(seen.text).not.toContain('Void at the IRP');
    expect((await plain.post(`${path}/void`, { reason: '2', csrf: ConsoleBrowser.csrfOf(seen) })).statusCode).toBe(403);

    const finance = await signIn({ kind: 'operator', role: 'finance-operator' });
    const page = await finance.get(path);
    expect(page.text).toContain('The IRP cancels this IRN until');
    expect((await finance.post(`${path}/void`, { reason: '2' })).statusCode).toBe(403);
    const badReason = await finance.post(`${path}/void`, { reason: '7', csrf: ConsoleBrowser.csrfOf(page) });
    expect(badReason.statusCode).toBe(400);
    expect(badReason.text).toContain('reason:');
    expect((await testServices().invoices.get(g, voidable.invoiceId))!.status).toBe('ISSUED');

    const voided = await finance.post(`${path}/void`, { reason: '2', remark: 'Wrong GSTIN on the bill-to', csrf: ConsoleBrowser.csrfOf(page) });

    expect(voided.statusCode).toBe(200);
    expect(voided.text).toContain(`${voidable.invoiceNumber} is CANCELLED: its IRN was cancelled at the IRP`);
    expect(await testServices().invoices.get(g, voidable.invoiceId)).toMatchObject({ status: 'CANCELLED', eInvoice: { cancelReason: '2' } });
    expect((await testServices().auditTrail.listTarget(`invoice:${voidable.invoiceId}`)).at(-1)).toMatchObject({
      action: 'invoice.voided',
      actorKind: 'operator',
      actor: expect.stringMatching(/^person:/),
    });
    const again = await finance.post(`${path}/void`, { reason: '2', csrf: ConsoleBrowser.csrfOf(page) });
    expect(again.statusCode).toBe(200);
    expect((await finance.get(path)).text).not.toContain('Void at the IRP');
    expect((await finance.get(`/console/operator/groups/${a.group.agentGroupId}/invoices/${voidable.invoiceId}`)).statusCode).toBe(404);
  });

  it('raises a credit note on chosen lines from the invoice page, naming a bad field, audited under the person; the partner sees it', async () => {
    const g = creditable.group.agentGroupId;
    const path = `/console/operator/groups/${g}/invoices/${creditable.invoiceId}`;
    const [line] = (await testServices().invoices.lines(g, creditable.invoiceId)).filter((l) => l.lineTotal > 0);
    const finance = await signIn({ kind: 'operator', role: 'finance-operator' });
    const page = await finance.get(path);
    expect(page.text).toContain('Raise a credit note');
    const csrf = ConsoleBrowser.csrfOf(page);
    const badAmount = await finance.post(`${path}/credit-note`, { [`amount:${line!.id}`]: '12.345', reason: 'Pool closed', csrf });
    expect(badAmount.statusCode).toBe(400);
    expect(badAmount.text).toContain(`amount:${line!.id}:`);
    const noLine = await finance.post(`${path}/credit-note`, { reason: 'Pool closed', csrf });
    expect(noLine.statusCode).toBe(400);
    expect(noLine.text).toContain('lines:');
    const noReason = await finance.post(`${path}/credit-note`, { [`amount:${line!.id}`]: '100', reason: ' ', csrf });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.text).toContain('reason:');
    expect((await testServices().invoices.get(g, creditable.invoiceId))!.creditedAmount ?? 0).toBe(0);
    const plain = await signIn({ kind: 'operator', role: 'operator' });
    expect(
      (await plain.post(`${path}/credit-note`, { [`amount:${line!.id}`]: '100', reason: 'x', csrf: ConsoleBrowser.csrfOf(await plain.get(path)) })).statusCode,
    ).toBe(403);

    const raised = await finance.post(`${path}/credit-note`, { [`amount:${line!.id}`]: '100', reason: 'Pool closed on 2027-04-02', csrf });

    expect(raised.statusCode).toBe(200);
    expect((await testServices().invoices.get(g, creditable.invoiceId))!.creditedAmount).toBe(10_000);
    const noteNumber = />(CN[0-9A-Z/]+)<\/a> of ₹100\.00 raised/.exec(raised.text)![1]!;
    const events = (await testServices().auditTrail.listAccount(g, { limit: 100 })).events;
    expect(events.filter((e) => e.actor.startsWith('person:') && e.actorKind === 'operator').map((e) => e.action)).toContain('credit-note.raised');
    const viewer = await signIn(partner(creditable, 'viewer'));
    expect((await viewer.get('/console/invoices')).text).toContain(`<td>${noteNumber}</td>`);
  });

  it('keeps the billing and invoice pages from partners’ people (404) and signed-out visitors (sign-in)', async () => {
    const g = creditable.group.agentGroupId;
    const admin = outsider(await signIn(partner(creditable, 'admin')));
    const csrf = ConsoleBrowser.csrfOf(await admin.get('/console/home'));
    const visitor = outsider(browser());
    for (const path of [
      '/console/operator/billing',
      `/console/operator/billing/runs/${randomUUID()}`,
      `/console/operator/groups/${g}/invoices`,
      `/console/operator/groups/${g}/invoices/${creditable.invoiceId}`,
    ]) {
      expect((await admin.get(path)).statusCode, path).toBe(404);
      expect((await visitor.get(path)).headers.Location, path).toBe('/console/sign-in');
    }
    for (const path of [
      '/console/operator/billing/run',
      `/console/operator/groups/${g}/invoices/bill`,
      `/console/operator/groups/${g}/invoices/${creditable.invoiceId}/void`,
      `/console/operator/groups/${g}/invoices/${creditable.invoiceId}/credit-note`,
    ]) {
      expect((await admin.post(path, { reason: '1', csrf })).statusCode, path).toBe(404);
      expect((await visitor.post(path, { reason: '1' })).headers.Location, path).toBe('/console/sign-in');
    }
    expect((await testServices().invoices.get(g, creditable.invoiceId))!.status).toBe('ISSUED');
  });
});

describe('console: the operators’ audit trail search (as the admin tool’s audit list)', () => {
  it('finds events by target, group, actor (a person’s address) and window, naming the person; a bad field is a 400 naming it', async () => {
    const email = `ops-${randomUUID().slice(0, 8)}@villas.example`;
    const ops = await signIn({ kind: 'operator', role: 'operator' }, email);
    const g = a.group.agentGroupId;
    const group = await ops.get(`/console/operator/groups/${g}`);
    const held = await ops.post(`/console/operator/groups/${g}/hold`, { hold: 'true', csrf: ConsoleBrowser.csrfOf(group) });
    await ops.post(`/console/operator/groups/${g}/hold`, { hold: 'false', csrf: ConsoleBrowser.csrfOf(held) });
    const person = (await deps.people.findPersonByEmail(email))!;

    for (const query of [`target=group:${g}`, `group=${g}`, `actor=${encodeURIComponent(email)}`, `actor=person:${person.personId}&group=${g}`]) {
      const found = await ops.get(`/console/operator/audit?${query}`);
      expect(found.statusCode, query).toBe(200);
      const rows = found.text.slice(found.text.indexOf('<tbody>'));
      expect(rows.match(/<td>group\.updated<\/td>/g)?.length ?? 0, query).toBeGreaterThanOrEqual(2);
      expect(rows, query).toContain(`${email} <span>(person:${person.personId})</span> (operator)`);
    }
    const byActor = await ops.get(`/console/operator/audit?actor=${encodeURIComponent(email)}`);
    expect(byActor.text.slice(byActor.text.indexOf('<tbody>')).match(/<tr>/g)).toHaveLength(2);
    const later = await ops.get(`/console/operator/audit?target=group:${g}&actor=${encodeURIComponent(email)}&to=2026-01-01`);
    expect(later.text).toContain('No event matches.');

    for (const [query, param] of [
      ['from=2026-13-01', 'from'],
      ['target=nonsense', 'target'],
      [`target=booking:NO-SUCH-${randomUUID().slice(0, 6)}&group=${g}`, 'target'],
      [`group=no-such-${randomUUID().slice(0, 6)}`, 'group'],
      ['actor=nobody-here@villas.example', 'actor'],
      ['from=2026-01-01&to=2026-03-31', 'from'],
      ['from=2026-03-02&to=2026-03-01', 'from'],
    ] as const) {
      const bad = await ops.get(`/console/operator/audit?${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.text, query).toContain(`${param}:`);
      // The browser's words, never the admin tool's flags.
      expect(bad.text, query).not.toContain('--group');
    }
    const unknown = await ops.get(`/console/operator/audit?target=booking:NO-SUCH-${randomUUID().slice(0, 6)}`);
    expect(unknown.text).toContain('with a group chosen in this search, the partner&#39;s externalBookingId');
  });

  it('is an operator’s page: 404 to partners’ people, the sign-in page to a signed-out visitor', async () => {
    const admin = outsider(await signIn(partner(a, 'admin')));
    expect((await admin.get(`/console/operator/audit?group=${b.group.agentGroupId}`)).statusCode).toBe(404);
    expect((await outsider(browser()).get('/console/operator/audit')).headers.Location).toBe('/console/sign-in');
  });
});

describe('console: a partner’s test clock on sandbox stages (the API’s test-clock use cases)', () => {
  it('creates, advances (running the due work) and refuses to delete an advanced clock; another group’s clock is 404; finance may not', async () => {
    const [g, other] = await Promise.all([newAgentGroup(), newAgentGroup()]);
    const access = (f: GroupFixture, role: 'developer' | 'finance'): Access => ({
      kind: 'partner',
      agentGroupId: f.agentGroupId,
      partnerId: f.partnerId,
      role,
    });
    const developer = await signIn(access(g, 'developer'));
    const page = await developer.get('/console/test-clocks');
    expect(page.statusCode).toBe(200);
    expect(page.text).toContain('Your account is on real time.');
    expect(page.text).toContain('<a href="/console/test-clocks" aria-current="page">Test clock</a>');
    expect((await developer.post('/console/test-clocks/create', {})).statusCode).toBe(403);
    const csrf = ConsoleBrowser.csrfOf(page);

    const created = await developer.post('/console/test-clocks/create', { csrf });

    expect(created.text).toContain('Test clock created at real time.');
    const clock = (await testServices().testClocks.get(g.agentGroupId))!;
    expect((await developer.post('/console/test-clocks/create', { csrf })).statusCode).toBe(409);
    const badTo = await developer.post(`/console/test-clocks/${clock.id}/advance`, { to: 'next week', csrf });
    expect(badTo.statusCode).toBe(400);
    expect(badTo.text).toContain('to:');
    const ist = new Date(Date.now() + 10 * 86_400_000 + 330 * 60_000).toISOString().slice(0, 16);

    const advanced = await developer.post(`/console/test-clocks/${clock.id}/advance`, { to: ist, csrf });

    expect(advanced.statusCode).toBe(200);
    expect(advanced.text).toContain('the work due by then has run');
    expect((await testServices().testClocks.get(g.agentGroupId))!).toMatchObject({ status: 'ready', setTo: new Date(`${ist}:00+05:30`).toISOString() });
    const refused = await developer.post(`/console/test-clocks/${clock.id}/delete`, { csrf });
    expect(refused.statusCode).toBe(409);
    expect(refused.text).toContain('ahead of real time');

    const otherDeveloper = outsider(await signIn(access(other, 'developer')));
    const otherCsrf = ConsoleBrowser.csrfOf(await otherDeveloper.get('/console/test-clocks'));
    expect((await otherDeveloper.post(`/console/test-clocks/${clock.id}/advance`, { to: ist, csrf: otherCsrf })).statusCode).toBe(404);
    expect((await otherDeveloper.post(`/console/test-clocks/${clock.id}/delete`, { csrf: otherCsrf })).statusCode).toBe(404);
    await otherDeveloper.post('/console/test-clocks/create', { csrf: otherCsrf });
    const otherClock = (await testServices().testClocks.get(other.agentGroupId))!;
    const deleted = await otherDeveloper.post(`/console/test-clocks/${otherClock.id}/delete`, { csrf: otherCsrf });
    expect(deleted.text).toContain('your account is on real time');
    expect(await testServices().testClocks.get(other.agentGroupId)).toBeUndefined();
    expect((await outsider(await signIn(access(g, 'finance'))).get('/console/test-clocks')).statusCode).toBe(403);
  });

  it('is not there off sandbox stages: the page answers as a missing one and the navigation does not offer it', async () => {
    const g = await newAgentGroup();
    const developer = await signIn({ kind: 'partner', agentGroupId: g.agentGroupId, partnerId: g.partnerId, role: 'developer' });
    const svc = testServices();
    const offSandbox = offSandboxConsole(developer);
    const home = await offSandbox.get('/console/home');
    expect(home.statusCode).toBe(200);
    expect(home.text).not.toContain('Test clock');
    expect((await offSandbox.get('/console/test-clocks')).statusCode).toBe(404);
    expect((await offSandbox.post('/console/test-clocks/create', { csrf: ConsoleBrowser.csrfOf(home) })).statusCode).toBe(404);
    expect(await svc.testClocks.get(g.agentGroupId)).toBeUndefined();
  });
});

describe('admin tool: people invite', () => {
  it("invites a partner's first admin onto their group and an operator; the link in the mail signs them in", async () => {
    const email = `first-admin-${randomUUID().slice(0, 8)}@agency.example.in`;
    const run = await runAdminTool(['people', 'invite', '--email', email, '--role', 'admin', '--group', a.group.agentGroupId, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(expect.objectContaining({ email, access: partner(a, 'admin') }));
    const link = await linkTo(email);
    expect(link.pathname).toBe('/console/sign-in/link');
    const invited = await testServices().auditTrail.listTarget(`person:${JSON.parse(run.stdout).personId}`);
    expect(invited).toEqual([
      expect.objectContaining({ action: 'person.invited', actor: 'test-operator', actorKind: 'operator', account: a.group.agentGroupId }),
    ]);

    const colleague = `ops-${randomUUID().slice(0, 8)}@ourco.example.in`;
    expect((await runAdminTool(['people', 'invite', '--email', colleague, '--role', 'finance-operator'])).code).toBe(0);
    const signedIn = await browser().post('/console/sign-in/link', { token: await tokenTo(colleague) });
    expect(signedIn.headers.Location).toBe('/console/operator/groups');
  });

  it('refuses a partner role without a group, an operator role with one, and a group that does not exist', async () => {
    const email = `x-${randomUUID().slice(0, 8)}@agency.example.in`;
    const noGroup = await runAdminTool(['people', 'invite', '--email', email, '--role', 'finance']);
    expect(noGroup.code).not.toBe(0);
    expect(noGroup.stderr).toContain('--group');
    const opWithGroup = await runAdminTool(['people', 'invite', '--email', email, '--role', 'operator', '--group', a.group.agentGroupId]);
    expect(opWithGroup.code).not.toBe(0);
    expect(opWithGroup.stderr).toContain('--group');
    const unknown = await runAdminTool(['people', 'invite', '--email', email, '--role', 'admin', '--group', 'no-such-group']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('not found');
    expect(await inbox().forRecipient(email)).toEqual([]);
  });
});

describe('npm start: the demo people', () => {
  it('records a partner admin, a finance clerk and an operator, once however often the stack starts, and each can ask for a link', async () => {
    await loadDemoPeople(stack().env as Record<string, string>);
    await loadDemoPeople(stack().env as Record<string, string>);
    for (const p of DEMO_PEOPLE) expect((await deps.people.findPersonByEmail(p.email))?.access, p.email).toEqual(p.access);
    expect(DEMO_PEOPLE.map((p) => p.access.role)).toEqual(['admin', 'finance', 'finance-operator']);
    const visitor = browser('198.51.100.201');
    await visitor.post('/console/sign-in', { email: 'ops@villas.example' });
    expect((await visitor.post('/console/sign-in/link', { token: await tokenTo('ops@villas.example') })).headers.Location).toBe('/console/operator/groups');
  });
});

describe('console tenancy and roles: one account’s people reach nothing of another’s', () => {
  it('answers every console route for another account’s resources as for missing ones, and lists none of them', async () => {
    const admin = outsider(await signIn(partner(a, 'admin')));
    const home = await admin.get('/console/home');
    const csrf = ConsoleBrowser.csrfOf(home);
    const missing = randomUUID();
    for (const path of [
      `/console/invoices/${b.invoiceId}/pdf`,
      `/console/invoices/${missing}/pdf`,
      `/console/bookings/${b.bookingId}`,
      `/console/bookings/${missing}`,
      '/console/operator/groups',
      `/console/operator/groups/${b.group.agentGroupId}`,
      `/console/operator/groups/${b.group.agentGroupId}/payments`,
      '/console/operator/partners',
      `/console/operator/partners/${b.group.partnerId}`,
      '/console/no-such-page',
    ]) {
      const page = await admin.get(path);
      expect(page.statusCode, path).toBe(404);
    }
    const notFound = [await admin.get(`/console/invoices/${b.invoiceId}/pdf`), await admin.get(`/console/invoices/${missing}/pdf`)];
    expect(notFound[0]!.text).toBe(notFound[1]!.text);
    expect((await admin.post(`/console/operator/groups/${b.group.agentGroupId}/hold`, { hold: 'true', csrf })).statusCode).toBe(404);
    expect((await admin.post(`/console/operator/groups/${a.group.agentGroupId}/payments`, { amount: '1', reference: 'UTR12345', csrf })).statusCode).toBe(404);
    expect((await testServices().tenants.getAgentGroup(b.group.agentGroupId))!.onHold).toBe(false);
    for (const path of [
      '/console/home',
      '/console/invoices',
      '/console/bookings',
      `/console/bookings?externalBookingId=${b.externalBookingId}`,
      '/console/bookings?guest=a',
      '/console/statement?from=2026-01-01&to=2026-12-31',
      '/console/team',
      '/console/ledger',
      `/console/ledger?externalBookingIds=${b.externalBookingId}`,
      '/console/audit?size=200',
      '/console/webhooks',
      '/console/keys',
      '/console/partner-keys',
      '/console/partner-audit?size=200',
      '/console/contacts',
    ]) {
      const page = await admin.get(path);
      expect(page.statusCode, path).toBe(200);
      for (const secret of [b.invoiceNumber, b.bookingId, b.group.agentGroupId, b.group.partnerId])
        expect(page.text, `${path} shows ${secret}`).not.toContain(secret);
    }
    const csv = await admin.get('/console/statement.csv?from=2026-01-01&to=2026-12-31');
    expect(csv.statusCode).toBe(200);
    expect(csv.text).toContain(a.externalBookingId);
    expect(csv.text).not.toContain(b.externalBookingId);
  });

  it('keeps each role to its screens, and an operator off the partner screens', async () => {
    const developer = outsider(await signIn(partner(a, 'developer')));
    for (const path of [
      '/console/invoices',
      `/console/invoices/${a.invoiceId}/pdf`,
      '/console/statement',
      '/console/statement.csv',
      '/console/statement.pdf',
      '/console/ledger',
      '/console/team',
      '/console/contacts',
    ]) {
      expect((await developer.get(path)).statusCode, path).toBe(403);
    }
    expect((await developer.get('/console/audit')).statusCode).toBe(200);
    expect((await developer.get('/console/home')).text).not.toContain('<h2>Due</h2>');
    const finance = outsider(await signIn(partner(a, 'finance')));
    expect((await finance.get('/console/team')).statusCode).toBe(403);
    const financeHome = await finance.get('/console/home');
    for (const [path, form] of [
      ['/console/webhooks/create', { url: 'http://127.0.0.1:9/x' }],
      [`/console/webhooks/deliveries/${randomUUID()}/resend`, {}],
      [`/console/keys/${randomUUID()}/revoke`, {}],
      [`/console/keys/${randomUUID()}/replace`, {}],
      ['/console/partner-keys/issue', {}],
      [`/console/partner-keys/${randomUUID()}/revoke`, {}],
    ] as const)
      expect((await finance.post(path, { ...form, csrf: ConsoleBrowser.csrfOf(financeHome) })).statusCode, path).toBe(403);
    for (const path of ['/console/webhooks', `/console/webhooks/${randomUUID()}/deliveries`, '/console/keys', '/console/partner-keys'])
      expect((await finance.get(path)).statusCode, path).toBe(403);
    expect((await finance.get('/console/partner-audit')).statusCode).toBe(200);
    const ops = outsider(await signIn({ kind: 'operator', role: 'operator' }));
    for (const path of [
      '/console/home',
      '/console/invoices',
      '/console/bookings',
      `/console/bookings/${a.bookingId}`,
      '/console/ledger',
      '/console/audit',
      '/console/keys',
      '/console/partner-keys',
      '/console/partner-audit',
    ])
      expect((await ops.get(path)).statusCode, path).toBe(404);
  });

  it('sends a signed-out visitor of every page to the sign-in page', async () => {
    const visitor = outsider(browser());
    for (const path of [
      '/console',
      '/console/home',
      '/console/invoices',
      `/console/invoices/${a.invoiceId}/pdf`,
      '/console/statement.csv',
      '/console/statement.pdf',
      '/console/ledger',
      '/console/audit',
      '/console/partner-audit',
      '/console/partner-keys',
      '/console/contacts',
      `/console/webhooks/${randomUUID()}/deliveries`,
      '/console/operator/groups',
      '/console/operator/partners',
      `/console/operator/groups/${a.group.agentGroupId}/payments`,
    ]) {
      const page = await visitor.get(path);
      expect(page.statusCode, path).toBe(303);
      expect(page.headers.Location, path).toBe('/console/sign-in');
    }
    expect((await visitor.post(`/console/operator/groups/${a.group.agentGroupId}/hold`, { hold: 'true' })).headers.Location).toBe('/console/sign-in');
    for (const path of [
      '/console/webhooks/create',
      `/console/keys/${randomUUID()}/revoke`,
      '/console/partner-keys/issue',
      `/console/partner-keys/${randomUUID()}/replace`,
      `/console/webhooks/deliveries/${randomUUID()}/resend`,
    ])
      expect((await visitor.post(path, {})).headers.Location, path).toBe('/console/sign-in');
  });

  it('answers a sign-in request for an unknown address as for a known one, and refuses a malformed one naming email', async () => {
    const visitor = browser('198.51.100.200');
    const nobody = `nobody-${randomUUID().slice(0, 8)}@agency.example.in`;
    const unknown = await visitor.post('/console/sign-in', { email: nobody });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.text).toContain('If that address has access');
    expect(await inbox().forRecipient(nobody)).toEqual([]);
    const malformed = await visitor.post('/console/sign-in', { email: 'not-an-address' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.text).toContain('email must be an e-mail address');
  });

  it('refuses the other routes to another account’s people, a role without the screen and partners on operator pages, changing nothing', async () => {
    const svc = testServices();
    const theirs = await endpointOf(b, 'theirs');
    const endpointBefore = await svc.webhooks.get(b.group.partnerId, theirs.id);
    const developer = outsider(await signIn(partner(a, 'developer')));
    const csrf = ConsoleBrowser.csrfOf(await developer.get('/console/webhooks'));
    const missing = randomUUID();
    for (const path of [`/console/webhooks/${theirs.id}/edit`, `/console/webhooks/${theirs.id}/deliveries`]) {
      const [their, none] = [await developer.get(path), await developer.get(path.replace(theirs.id, missing))];
      expect([their.statusCode, their.text], path).toEqual([404, none.text]);
    }
    for (const [path, form] of [
      [`/console/webhooks/${theirs.id}/rotate-secret`, {}],
      [`/console/webhooks/${theirs.id}/edit`, { url: 'http://127.0.0.1:9/taken-over' }],
    ] as const) {
      const [their, none] = [await developer.post(path, { ...form, csrf }), await developer.post(path.replace(theirs.id, missing), { ...form, csrf })];
      expect([their.statusCode, their.text], path).toEqual([404, none.text]);
    }
    expect(await svc.webhooks.get(b.group.partnerId, theirs.id)).toEqual(endpointBefore);

    const contactsBefore = await svc.financeContacts.get(a.group.agentGroupId);
    for (const path of [
      '/console/contacts/add',
      `/console/contacts/${encodeURIComponent('ap@agency.example.in')}/update`,
      `/console/contacts/${encodeURIComponent('ap@agency.example.in')}/remove`,
    ])
      expect((await developer.post(path, { email: 'ap@agency.example.in', csrf })).statusCode, path).toBe(403);
    expect(await svc.financeContacts.get(a.group.agentGroupId)).toEqual(contactsBefore);

    const finance = outsider(await signIn(partner(a, 'finance')));
    const financeCsrf = ConsoleBrowser.csrfOf(await finance.get('/console/home'));
    const invitee = `invitee-${randomUUID().slice(0, 8)}@agency.example.in`;
    for (const path of ['/console/keys/issue', `/console/partner-keys/${randomUUID()}/replace`, '/console/team/invite', '/console/test-clocks/create']) {
      const refused = await finance.post(path, { email: invitee, role: 'admin', csrf: financeCsrf });
      expect(refused.statusCode, path).toBe(403);
      expect(refused.text, path).not.toContain('shown once');
    }
    expect((await finance.get('/console/test-scenarios')).statusCode).toBe(403);
    expect(await inbox().forRecipient(invitee)).toEqual([]);
    expect(await svc.testClocks.get(a.group.agentGroupId)).toBeUndefined();

    const admin = outsider(await signIn(partner(a, 'admin')));
    const adminCsrf = ConsoleBrowser.csrfOf(await admin.get('/console/home'));
    const groupBefore = await svc.tenants.getAgentGroup(b.group.agentGroupId);
    for (const path of ['/console/operator/payments', '/console/operator/channex']) expect((await admin.get(path)).statusCode, path).toBe(404);
    const g = b.group.agentGroupId;
    for (const [path, form] of [
      [`/console/operator/groups/${g}/limit`, { creditLimit: '1' }],
      ['/console/operator/partners/create', { name: 'Taken over' }],
      [`/console/operator/partners/${b.group.partnerId}/groups`, { name: 'Taken over' }],
      [`/console/operator/groups/${g}/terms`, { paymentTermsDays: '1' }],
      [`/console/operator/groups/${g}/gstin`, { gstin: '' }],
      [`/console/operator/groups/${g}/bill-to`, { legalName: 'Taken over' }],
      [`/console/operator/groups/${g}/distribution`, { mode: 'none' }],
      ['/console/operator/payments/reconcile', {}],
    ] as const)
      expect((await admin.post(path, { ...form, csrf: adminCsrf })).statusCode, path).toBe(404);
    expect(await svc.tenants.getAgentGroup(g)).toEqual(groupBefore);
  });

  it('has refused every console route to someone who must not reach it: a new route needs its check above', () => {
    const routes = CONSOLE_ROUTE_PATTERNS.map(([method, source]) => ({ method, pattern: new RegExp(source) }));
    // Routes with no account's resource behind them, answered alike to every visitor or only about the person themself.
    const needsNoTenancyCheck: readonly (readonly [string, string])[] = [
      ['GET', '/console/assets/console.css'], // the console's stylesheet, the same for everyone
      ['GET', '/console/assets/passkeys.js'], // the passkey ceremony's script, the same for everyone
      ['GET', '/console/sign-in'], // sign-in is for people not yet signed in
      ['POST', '/console/sign-in'], // answers alike for every address (checked above)
      ['GET', '/console/sign-in/link'], // a page with a button carrying the e-mailed token
      ['POST', '/console/sign-in/link'], // redeems the e-mailed token: the token is the credential
      ['POST', '/console/sign-in/passkey/options'], // a challenge for anyone about to sign in
      ['POST', '/console/sign-in/passkey'], // the passkey is the credential
      ['POST', '/console/sign-out'], // ends the caller's own session
      ['POST', '/console/sign-out-everywhere'], // ends the caller's own sessions
      ['GET', '/console/account/passkeys'], // the caller's own passkeys
      ['POST', '/console/account/passkeys/options'], // a challenge to register a passkey of the caller's own
      ['POST', '/console/account/passkeys'], // registers a passkey of the caller's own
      // Removing another person's passkey is a 404 in console-passkeys.test.ts: it needs a registered passkey (a virtual authenticator).
      ['POST', '/console/account/passkeys/some-credential/remove'],
    ];
    const allowed = ({ method, pattern }: { method: string; pattern: RegExp }) => needsNoTenancyCheck.some(([m, path]) => m === method && pattern.test(path));
    for (const [method, path] of needsNoTenancyCheck)
      expect(
        routes.filter((r) => r.method === method && r.pattern.test(path)),
        `${method} ${path} is one route`,
      ).toHaveLength(1);
    const unrefused = routes
      .filter((route) => !allowed(route) && !refusals.some((r) => r.refused && r.method === route.method && route.pattern.test(r.path)))
      .map(({ method, pattern }) => `${method} ${pattern.source}`);
    expect(unrefused).toEqual([]);
  });
});
