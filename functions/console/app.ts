import type { AuditFields, AuditOrigin } from '../../domain/audit/audit-event.ts';
import { getBookingDetail, listBookings, type BookingsQuery } from '../../domain/bookings/read-bookings.ts';
import { cancellationQuote } from '../../domain/bookings/cancel-booking.ts';
import { BOOKING_STATUSES, type Booking } from '../../domain/bookings/booking.ts';
import { BookingsQuerySchema } from '../contracts/booking-reads.ts';
import { can, PARTNER_ROLES, personActor, type Capability, type Person } from '../../domain/console/people.ts';
import {
  invitePerson,
  redeemSignIn,
  requestSignIn,
  resolveSession,
  SignInRateLimitedError,
  signOut,
  signOutEverywhere,
  CONSOLE_TIMES,
  type ConsoleDeps,
} from '../../domain/console/sign-in.ts';
import { ConflictError, NotFoundError, ServiceUnavailableError, ValidationError } from '../../domain/errors.ts';
import { invoicePdf } from '../../domain/invoicing/invoice-pdf.ts';
import { listInvoices } from '../../domain/invoicing/read-invoices.ts';
import { runBillingAsOperator } from '../../domain/invoicing/request-billing-run.ts';
import { CSV_MEDIA_TYPE, statementCsv } from '../../domain/ledger/ledger-csv.ts';
import { getStatement } from '../../domain/ledger/read-ledger.ts';
import { PDF_MEDIA_TYPE, statementFileName, statementPdf } from '../../domain/ledger/statement-file.ts';
import { statementRenderer } from '../../infra/pdf/statement-renderer.ts';
import type { ConsoleSession } from '../../domain/ports/console-store.ts';
import type { InvoiceRenderer } from '../../domain/ports/invoice-renderer.ts';
import type { AgentGroupPrincipal, PartnerPrincipal } from '../../domain/principal.ts';
import { createEndpoint, getEndpoint, listEndpoints, updateEndpoint, type EndpointFields } from '../../domain/webhooks/manage-endpoints.ts';
import { listEndpointDeliveries, listFailedDeliveries, resendDelivery } from '../../domain/deliveries/read-deliveries.ts';
import { recordBankTransfer } from '../../domain/receivables/record-payment.ts';
import { INSTANT_RULE, isInstant } from '../../domain/reads/date-window.ts';
import { listAuditEvents } from '../../domain/audit/read-audit-events.ts';
import { listLedger } from '../../domain/ledger/read-ledger.ts';
import { LEDGER_ENTRY_STATUSES, LEDGER_ENTRY_TYPES } from '../../domain/ledger/ledger.ts';
import { LedgerQuerySchema } from '../contracts/ledger.ts';
import { AuditEventsQuerySchema } from '../contracts/audit.ts';
import { ListDeliveriesQuerySchema } from '../contracts/deliveries.ts';
import { authSummary, endpointBody, endpointFields, errorSummary, fieldError, type FieldError, type Typed } from './partner-webhook-form.ts';
import { parseInput } from '../http/validate.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import type { AgentGroup } from '../../domain/tenants.ts';
import { adminDeps, groupServices, type Services } from '../../infra/compose/core.ts';
import { billingDeps, consoleDeps, deliveryDeps, dueWorkOn, paymentDeps, pdfDeps } from '../../infra/compose/console.ts';
import { issueKey, replaceKey, revokeKey, updateAgentGroup } from '../../domain/admin.ts';
import type { HttpEvent, HttpResult } from '../http/types.ts';
import { html, type Html } from './html.ts';
import { CONSOLE_CSS, page, postForm, type Viewer } from './layout.ts';
import { indiaDate, istDateTime, money, rupeesMoney } from './format.ts';
import { parseRupees } from '../../domain/money.ts';
import {
  addContact,
  listContacts,
  MAX_FINANCE_CONTACTS,
  OPTIONAL_DOCUMENTS,
  removeContact,
  updateContact,
  type FinanceContactView,
  type MailDocument,
} from '../../domain/mail/finance-contacts.ts';
import type { FanOutProgress } from '../../domain/ports/billing-fan-out.ts';
import { queueBillingRunAs } from '../../domain/invoicing/scheduled-billing.ts';
import { cancelReasonOf, voidInvoice, voidWindowClosesAt } from '../../domain/invoicing/void-invoice.ts';
import { CANCEL_REASONS } from '../../domain/ports/e-invoice-registry.ts';
import { issueOperatorCreditNote } from '../../domain/invoicing/operator-credit-note.ts';
import { AUDIT_SEARCH_LIMIT, searchAuditTrail, type AuditSearch } from './audit-search.ts';
import { advanceTestClock, createTestClock, deleteTestClock, listTestClocks } from '../../domain/test-clocks/manage-test-clocks.ts';
import { advanceLimitOf, timeOf } from '../../domain/test-clocks/test-clock.ts';
import { testClockDeps } from '../test-clocks/test-clock-json.ts';
import type { OperatorLineCredit } from '../../domain/invoicing/raise-credit-note.ts';
import { amountDueOf } from '../../domain/invoicing/invoice.ts';
import {
  createGroupPage,
  createPartnerPage,
  gatewayPaymentsPage,
  newGroupForm,
  newPartnerForm,
  setBillToPage,
  setDistributionPage,
  setGstinPage,
  setTermsPage,
  termsSection,
} from './operator-accounts.ts';
import { channexPage } from './operator-channex.ts';
import { reconcileNow } from './operator-reconcile.ts';
import { PASSKEY_ROUTES, passkeySignInForm } from './passkeys.ts';
import { issuePartnerKey, partnerAudit, partnerKeys, replacePartnerKey, revokePartnerKey } from './partner-api.ts';
import { sandboxScenariosPage } from './sandbox-scenarios.ts';

export interface ConsoleAppDeps extends ConsoleDeps {
  /** The service's adapters: every figure a page shows comes through the same reads as the API's. */
  readonly svc: Services;
  readonly renderer: InvoiceRenderer;
}

/** The console's dependencies from the service's adapters: the handler and the tests wire it alike. */
export const consoleAppDeps = (svc: Services, consoleUrl: string, renderer: InvoiceRenderer): ConsoleAppDeps => ({
  ...consoleDeps(svc, consoleUrl),
  svc,
  renderer,
});

/** `__Host-`: the browser keeps it only if Secure, for this host alone, at path / (RFC 6265bis §4.1.3.2). */
export const SESSION_COOKIE = '__Host-console-session';

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  // Scripts and fetches only from our own origin: the passkey script (functions/console/passkey-script.ts) is the one script.
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  // A sign-in link's token is in its URL: no page may send it on as a Referer.
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};

export interface Request {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string | undefined>>;
  readonly form: URLSearchParams;
  readonly cookies: Readonly<Record<string, string>>;
  readonly sourceIp: string;
  readonly requestId: string;
}

function requestOf(event: HttpEvent): Request {
  const raw = typeof event.body === 'string' ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '';
  const cookieList = event.cookies ?? (event.headers?.cookie ?? '').split(';');
  const cookies = Object.fromEntries(
    cookieList
      .map((c) => c.trim())
      .filter((c) => c.includes('='))
      .map((c) => [c.slice(0, c.indexOf('=')), c.slice(c.indexOf('=') + 1)]),
  );
  return {
    method: event.requestContext?.http?.method ?? 'GET',
    path: event.rawPath ?? '/console',
    query: event.queryStringParameters ?? {},
    form: new URLSearchParams(raw),
    cookies,
    sourceIp: event.requestContext?.http?.sourceIp ?? 'unknown',
    requestId: event.requestContext?.requestId ?? 'local',
  };
}

export const htmlResult = (status: number, body: string, cookies?: string[], headers: Record<string, string> = {}): HttpResult => ({
  statusCode: status,
  headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/html; charset=utf-8', ...headers },
  body,
  ...(cookies ? { cookies } : {}),
});
export const redirect = (location: string, cookies?: string[]): HttpResult => ({
  statusCode: 303,
  headers: { ...SECURITY_HEADERS, Location: location },
  body: '',
  ...(cookies ? { cookies } : {}),
});
const download = (contentType: string, content: string | Uint8Array, fileName: string): HttpResult => ({
  statusCode: 200,
  headers: { ...SECURITY_HEADERS, 'Content-Type': contentType, 'Content-Disposition': `attachment; filename="${fileName}"` },
  body: typeof content === 'string' ? content : Buffer.from(content).toString('base64'),
  isBase64Encoded: typeof content !== 'string',
});

export const sessionCookie = (value: string): string =>
  `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=${Math.floor(CONSOLE_TIMES.absoluteMs / 1000)}`;
const clearedCookie = `${SESSION_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0`;

/** A person may not use this screen: their role does not include it. */
class ForbiddenError extends Error {}
/** A POST without its session's CSRF token. */
class CsrfError extends Error {}

export interface Signed {
  readonly person: Person;
  readonly session: ConsoleSession;
  readonly viewer: Viewer;
  readonly origin: AuditOrigin;
}

export interface PartnerContext extends Signed {
  readonly group: AgentGroup;
  readonly principal: AgentGroupPrincipal;
  /** The group's services (a sandbox group's test clock, as its API requests get). */
  readonly services: Services;
}

type Handler = (deps: ConsoleAppDeps, req: Request, match: RegExpMatchArray) => Promise<HttpResult>;

const ENDED_MESSAGES: Readonly<Record<string, string>> = {
  idle: 'You were signed out after 30 minutes without activity.',
  expired: 'Your session reached its 12-hour limit. Sign in again.',
  revoked: 'You were signed out everywhere.',
  'signed-out': 'You are signed out.',
};

function signInPage(message: Html | string = '', status = 200, emailError?: string): HttpResult {
  const body = html`${message ? html`<p class="${emailError ? 'alert' : 'notice'}" role="status">${message}</p>` : ''}
<form method="post" action="/console/sign-in" aria-label="Sign in">
<label for="email">Work e-mail</label>
<input id="email" name="email" type="email" autocomplete="email" required${emailError ? html` aria-invalid="true" aria-describedby="email-error"` : ''}>
${emailError ? html`<p id="email-error" class="alert">${emailError}</p>` : ''}
<button type="submit">E-mail me a sign-in link</button>
</form>
${passkeySignInForm}`;
  return htmlResult(status, page('Sign in', body));
}

function errorPage(status: number, title: string, message: string, viewer?: Viewer): HttpResult {
  return htmlResult(status, page(title, html`<p class="alert" role="alert">${message}</p><p><a href="/console">Back to the console</a></p>`, viewer));
}

export async function signedIn(deps: ConsoleAppDeps, req: Request): Promise<Signed | HttpResult> {
  const resolved = await resolveSession(deps, req.cookies[SESSION_COOKIE]);
  if (!resolved.ok)
    return redirect(`/console/sign-in${resolved.why === 'none' ? '' : `?ended=${resolved.why}`}`, resolved.why === 'none' ? undefined : [clearedCookie]);
  const { person, session } = resolved;
  if (req.method === 'POST' && !deps.tokens.same(req.form.get('csrf') ?? '', session.csrfToken)) throw new CsrfError();
  const origin: AuditOrigin = { actor: personActor(person), actorKind: person.access.kind === 'operator' ? 'operator' : 'person', requestId: req.requestId };
  let accountName = 'Operations';
  if (person.access.kind === 'partner') accountName = (await deps.svc.tenants.getAgentGroup(person.access.agentGroupId))?.name ?? person.access.agentGroupId;
  return { person, session, origin, viewer: { person, csrfToken: session.csrfToken, accountName, sandbox: deps.svc.config.isSandbox } };
}

const allowedFor = (person: Person) => (section: string) => can(person.access, section as Capability);

/** A partner's page: signed in, a partner person, a role that includes the screen. */
function partnerPage(
  capability: Capability,
  render: (deps: ConsoleAppDeps, req: Request, ctx: PartnerContext, match: RegExpMatchArray) => Promise<HttpResult>,
): Handler {
  return async (deps, req, match) => {
    const signed = await signedIn(deps, req);
    if (!('person' in signed)) return signed;
    const { access } = signed.person;
    // An operator has no partner screens: exactly as a path that does not exist.
    if (access.kind !== 'partner') throw new NotFoundError('Page');
    if (!can(access, capability)) throw new ForbiddenError();
    const group = await deps.svc.tenants.getAgentGroup(access.agentGroupId);
    if (!group) throw new NotFoundError('Account');
    const principal: AgentGroupPrincipal = {
      kind: 'agent-group',
      agentGroupId: group.agentGroupId,
      partnerId: group.partnerId,
      channelId: group.channelId,
      keyId: personActor(signed.person),
      keyPrefix: 'console',
    };
    return render(deps, req, { ...signed, group, principal, services: await groupServices(deps.svc, group.agentGroupId) }, match);
  };
}

function operatorPage(
  capability: Capability,
  render: (deps: ConsoleAppDeps, req: Request, ctx: Signed, match: RegExpMatchArray) => Promise<HttpResult>,
): Handler {
  return async (deps, req, match) => {
    const signed = await signedIn(deps, req);
    if (!('person' in signed)) return signed;
    if (signed.person.access.kind !== 'operator') throw new NotFoundError('Page');
    if (!can(signed.person.access, capability)) throw new ForbiddenError();
    return render(deps, req, signed, match);
  };
}

export const partnerHtml = (ctx: Signed, title: string, section: string, body: Html, status = 200) =>
  htmlResult(status, page(title, body, ctx.viewer, allowedFor(ctx.person), section));

export const figure = (label: string, value: string | Html) => html`<div><dt>${label}</dt><dd>${value}</dd></div>`;

const signOutEverywhereForm = (viewer: Viewer) =>
  html`<h2>Your sessions</h2><p><a href="/console/account/passkeys">Your passkeys</a></p>${postForm(viewer, '/console/sign-out-everywhere', html`<button type="submit">Sign out everywhere</button>`, 'Sign out everywhere')}`;

const home = partnerPage('home', async (_deps, _req, ctx) => {
  const position = await ctx.services.ledger.creditPosition(ctx.group.agentGroupId);
  if (!position) throw new NotFoundError('Account');
  // The figures GET /v1/invoices reports as outstanding: kept per group, complete whatever the number of invoices.
  const open = can(ctx.person.access, 'invoices') ? await ctx.services.owing.openFigures(ctx.group.agentGroupId) : undefined;
  const today = indiaToday(ctx.services.clock.now());
  const overdueSince = open?.oldestDueDate && open.oldestDueDate < today ? open.oldestDueDate : null;
  const body = html`${ctx.group.onHold ? html`<p class="alert" role="alert">Your account is on hold: new bookings are refused until it is released. Contact your account manager.</p>` : ''}
<h2>Credit</h2>
<dl class="figures">
${figure('Credit limit', money(position.creditLimit))}
${figure('Available credit', money(position.availableCredit))}
${figure('Exposure', money(position.exposure))}
${figure('Hold', ctx.group.onHold ? 'On hold' : 'Not on hold')}
</dl>
${
  open
    ? html`<h2>Due</h2>
<dl class="figures">
${figure('Outstanding', money(open.outstanding))}
${figure('Open invoices', String(open.openCount))}
${figure('Oldest due date', open.oldestDueDate ? indiaDate(open.oldestDueDate) : '—')}
${figure('Overdue', overdueSince ? `Yes, since ${indiaDate(overdueSince)}` : 'Nothing overdue')}
</dl>
<p>As of ${indiaDate(today)} (IST). <a href="/console/invoices">See invoices and how to pay</a>.</p>`
    : ''
}
${signOutEverywhereForm(ctx.viewer)}`;
  return partnerHtml(ctx, 'Home', 'home', body);
});

/** A guest-name search reads at most this many pages of the group's bookings per answer: bounded, the next link goes on from where it stopped. */
export const GUEST_SEARCH_PAGES = 4;
const GUEST_SEARCH_PAGE_SIZE = 50;

/** The primary guest's name as a search compares it: case-insensitive, spaces collapsed. */
const nameKey = (s: string) => s.toLocaleLowerCase('en-IN').replace(/\s+/g, ' ').trim();

/**
 * The bookings the query finds, kept to those whose primary guest's name contains `guest`:
 * the feed holds no name index, so it reads at most GUEST_SEARCH_PAGES pages of 50 in feed
 * order and hands back the cursor after the last page read.
 */
async function findByGuest(ctx: PartnerContext, q: BookingsQuery, guest: string): Promise<{ bookings: Booking[]; nextCursor: string | null }> {
  const wanted = nameKey(guest);
  const bookings: Booking[] = [];
  let cursor = q.cursor;
  for (let read = 0; read < GUEST_SEARCH_PAGES; read++) {
    const page = await listBookings(ctx.services, ctx.principal, { ...q, size: GUEST_SEARCH_PAGE_SIZE, ...(cursor ? { cursor } : {}) });
    bookings.push(...page.bookings.filter((b) => nameKey(`${b.primaryGuest.firstName} ${b.primaryGuest.lastName ?? ''}`).includes(wanted)));
    cursor = page.nextCursor ?? undefined;
    if (!cursor) break;
  }
  return { bookings, nextCursor: cursor ?? null };
}

const bookings = partnerPage('bookings', async (_deps, req, ctx) => {
  const { externalBookingId: wanted, guest, ...rest } = filled(req.query);
  const { cursor: _cursor, ...window } = rest;
  if (wanted !== undefined && wanted.trim().length > 100) throw new ValidationError('externalBookingId', 'externalBookingId must be 1–100 characters.');
  if (guest !== undefined && guest.trim().length > 100) throw new ValidationError('guest', 'guest must be 1–100 characters.');
  // The API's own query contract (GET /v1/bookings): the same check-in window and status filters, the same 400 naming a parameter, the same cursor.
  const q = parseInput(BookingsQuerySchema, { ...rest, ...(wanted ? { externalBookingIds: wanted.trim() } : {}) }, 'query');
  const found = guest ? await findByGuest(ctx, q, guest) : await listBookings(ctx.services, ctx.principal, { size: 20, ...q });
  const filtered = wanted !== undefined || guest !== undefined || Object.keys(window).length > 0;
  const rows = found.bookings.map(
    (
      b,
    ) => html`<tr><td>${b.bookingId ? html`<a href="/console/bookings/${encodeURIComponent(b.bookingId)}">${b.externalBookingId}</a>` : b.externalBookingId}</td>
<td>${b.status}</td><td>${indiaDate(b.checkIn)}</td><td>${indiaDate(b.checkOut)}</td><td>${istDateTime(b.updatedAt)}</td></tr>`,
  );
  const body = html`<form method="get" action="/console/bookings" role="search" aria-label="Find a booking">
<label for="externalBookingId">Your booking id</label>
<input id="externalBookingId" name="externalBookingId" value="${wanted ?? ''}">
<label for="guest">Guest name (part of it)</label>
<input id="guest" name="guest" value="${guest ?? ''}">
<label for="checkInFrom">Check-in from (IST date)</label><input id="checkInFrom" name="checkInFrom" type="date" value="${window.checkInFrom ?? ''}">
<label for="checkInTo">Check-in to (IST date)</label><input id="checkInTo" name="checkInTo" type="date" value="${window.checkInTo ?? ''}">
<label for="status">Status</label><select id="status" name="status"><option value="">Any</option>${BOOKING_STATUSES.map(
    (t) => html`<option value="${t}"${window.status === t ? ' selected' : ''}>${t}</option>`,
  )}</select>
<button type="submit">Find</button>
</form>
<h2>${wanted ? `Bookings with your id ${wanted}` : filtered ? 'Bookings found, oldest change first' : 'Latest bookings'}</h2>
${
  rows.length
    ? html`<div class="table-wrap"><table><caption class="skip">Bookings</caption><thead><tr><th scope="col">Your id</th><th scope="col">Status</th><th scope="col">Check-in</th><th scope="col">Check-out</th><th scope="col">Updated</th></tr></thead><tbody>${rows}</tbody></table></div>`
    : html`<p>No booking found.</p>`
}
${guest ? html`<p>Guest names are matched in ${String(GUEST_SEARCH_PAGES * GUEST_SEARCH_PAGE_SIZE)} bookings per page; the next page searches on from there.</p>` : ''}
${nextPageLink('/console/bookings', { ...window, ...(wanted ? { externalBookingId: wanted } : {}), ...(guest ? { guest } : {}) }, found.nextCursor)}`;
  return partnerHtml(ctx, 'Bookings', 'bookings', body);
});

const bookingDetail = partnerPage('bookings', async (_deps, _req, ctx, match) => {
  const bookingId = decodeURIComponent(match[1]!);
  const { booking, callbacks, amendments } = await getBookingDetail(ctx.services, ctx.principal, bookingId);
  // GET /v1/bookings/{id}/cancellation-quote's use case: what cancelling today would refund; it changes nothing.
  const { quote } = await cancellationQuote({ bookingReads: ctx.services.bookingReads, clock: ctx.services.clock }, ctx.principal, bookingId);
  const body = html`<dl class="figures">
${figure('Your id', booking.externalBookingId)}
${figure('Status', booking.status)}
${figure('Code', booking.code)}
${figure('Stay', `${indiaDate(booking.checkIn)} to ${indiaDate(booking.checkOut)}`)}
</dl>
<h2>Cancellation quote</h2>
${
  quote.cancellable
    ? html`<dl class="figures">${figure('Refund if cancelled today', money(quote.refundAmount))}${figure('Refund share', `${quote.refundPercentage}%`)}${figure('Charged', money(quote.chargedAmount))}${figure('This refund applies until', quote.appliesUntil ? indiaDate(quote.appliesUntil) : '—')}</dl>
<p>As of ${indiaDate(indiaToday(ctx.services.clock.now()))} (IST)${quote.label ? `: ${quote.label}` : ''}. Cancel through the API (POST /v1/bookings/{bookingId}/cancel).</p>`
    : html`<p>Not cancellable: ${quote.reason ?? ''}</p>`
}
<h2>Amendments</h2>
${
  amendments.length
    ? html`<div class="table-wrap"><table><caption class="skip">Amendments</caption><thead><tr><th scope="col">Status</th><th scope="col">Stay before</th><th scope="col">Stay after</th><th scope="col" class="num">Total before</th><th scope="col" class="num">Total after</th></tr></thead><tbody>${amendments.map(
        (am) =>
          html`<tr><td>${am.status}</td><td>${indiaDate(am.before.checkIn)} to ${indiaDate(am.before.checkOut)}</td><td>${indiaDate(am.after.checkIn)} to ${indiaDate(am.after.checkOut)}</td><td class="num">${money(am.money.previousTotal)}</td><td class="num">${money(am.money.newTotal)}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No amendment of this booking.</p>`
}
<h2>Callbacks sent</h2>
${
  callbacks.length
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col" class="num">Attempts</th><th scope="col">Last change</th></tr></thead><tbody>${callbacks.map(
        (c) => html`<tr><td>${c.eventType}</td><td>${c.status}</td><td class="num">${c.attempts.length}</td><td>${istDateTime(c.updatedAt)}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No callback sent for this booking.</p>`
}
<p><a href="/console/bookings">Back to bookings</a></p>`;
  return partnerHtml(ctx, `Booking ${booking.externalBookingId}`, 'bookings', body);
});

const invoices = partnerPage('invoices', async (_deps, _req, ctx) => {
  const list = await listInvoices(ctx.services, ctx.principal, { size: 100 });
  const payTo = list.data.find((i) => i.amountDue > 0 && i.paymentInstructions?.bankTransfer)?.paymentInstructions?.bankTransfer;
  const pdfLink = (i: (typeof list.data)[number]) =>
    html`<a href="/console/invoices/${encodeURIComponent(i.id)}/pdf" download>PDF<span class="skip"> of ${i.invoiceNumber}</span></a>`;
  // A credit note is one of the group's tax documents, listed by the same read as the API's, with its PDF from the same use case.
  const rows = list.data
    .filter((i) => !i.creditNoteFor)
    .map(
      (i) => html`<tr><td>${i.invoiceNumber}</td><td>${i.issueDate ? indiaDate(i.issueDate) : ''}</td><td>${i.dueDate ? indiaDate(i.dueDate) : ''}</td>
<td>${i.status}${i.overdueSince ? html` <strong>(overdue)</strong>` : ''}</td><td class="num">${rupeesMoney(i.total)}</td><td class="num">${rupeesMoney(i.amountDue)}</td>
<td>${pdfLink(i)}</td><td>${
        i.payLink
          ? html`<a href="${i.payLink.url}" rel="noopener noreferrer">Pay ${rupeesMoney(i.payLink.amount)}<span class="skip"> of ${i.invoiceNumber}</span></a>`
          : ''
      }</td></tr>`,
    );
  const numberOf = new Map(list.data.map((i) => [i.id, i.invoiceNumber]));
  const notes = list.data
    .filter((i) => i.creditNoteFor)
    .map(
      (i) =>
        html`<tr><td>${i.invoiceNumber}</td><td>${i.issueDate ? indiaDate(i.issueDate) : ''}</td><td>${numberOf.get(i.creditNoteFor!) ?? i.creditNoteFor}</td><td class="num">${rupeesMoney(i.total)}</td><td>${pdfLink(i)}</td></tr>`,
    );
  const body = html`<h2>What is due</h2>
<dl class="figures">${figure('Outstanding', rupeesMoney(list.outstanding))}${figure('Oldest due date', list.oldestDueDate ? indiaDate(list.oldestDueDate) : '—')}</dl>
${
  list.data.some((i) => i.payLink)
    ? html`<p>Pay an invoice online by its "Pay" link below (card, UPI or netbanking, for exactly what it owes now: the link e-mailed with it), or by bank transfer.</p>`
    : ''
}
${
  payTo
    ? html`<h2>Pay by bank transfer</h2><dl class="figures">${figure('Beneficiary', payTo.beneficiaryName)}${figure('Account number', payTo.accountNumber)}${figure('IFSC', payTo.ifsc)}${figure('Bank', payTo.bankName)}</dl>
<p>Quote the invoice number as the transfer's reference.</p>`
    : ''
}
<h2>Invoices</h2>
${
  rows.length
    ? html`<div class="table-wrap"><table><caption class="skip">Invoices</caption><thead><tr><th scope="col">Number</th><th scope="col">Issued</th><th scope="col">Due</th><th scope="col">Status</th><th scope="col" class="num">Total</th><th scope="col" class="num">Due now</th><th scope="col">Document</th><th scope="col">Pay online</th></tr></thead><tbody>${rows}</tbody></table></div>`
    : html`<p>No invoice issued yet.</p>`
}
<h2>Credit notes</h2>
${
  notes.length
    ? html`<div class="table-wrap"><table><caption class="skip">Credit notes</caption><thead><tr><th scope="col">Number</th><th scope="col">Issued</th><th scope="col">Against invoice</th><th scope="col" class="num">Total</th><th scope="col">Document</th></tr></thead><tbody>${notes}</tbody></table></div>`
    : html`<p>No credit note issued.</p>`
}`;
  return partnerHtml(ctx, 'Invoices', 'invoices', body);
});

const invoiceDocument = partnerPage('invoices', async (deps, _req, ctx, match) => {
  const { pdf, fileName } = await invoicePdf(pdfDeps(ctx.services, deps.renderer), ctx.principal, decodeURIComponent(match[1]!));
  return download('application/pdf', pdf, fileName);
});

/** The statement's default window: this IST month to today. */
function statementWindow(req: Request, today: string): { from: string; to: string } {
  return { from: req.query.from || `${today.slice(0, 8)}01`, to: req.query.to || today };
}

const statement = partnerPage('statement', async (_deps, req, ctx) => {
  const today = indiaToday(ctx.services.clock.now());
  const window = statementWindow(req, today);
  const s = await getStatement(ctx.services, ctx.principal, window);
  const csv = `/console/statement.csv?${new URLSearchParams(window).toString()}`;
  const pdf = `/console/statement.pdf?${new URLSearchParams(window).toString()}`;
  const body = html`<form method="get" action="/console/statement" aria-label="Statement period">
<label for="from">From (IST date)</label><input id="from" name="from" type="date" value="${window.from}" required>
<label for="to">To (IST date)</label><input id="to" name="to" type="date" value="${window.to}" required>
<button type="submit">Show</button>
</form>
<p><a href="${pdf}" download>Download PDF</a> · <a href="${csv}" download>Download this statement as CSV</a></p>
<dl class="figures">${figure('Opening balance', rupeesMoney(s.openingBalance))}${figure('Closing balance', rupeesMoney(s.closingBalance))}${figure('Available credit', rupeesMoney(s.availableCredit))}</dl>
${
  s.entries.length
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Your booking id</th><th scope="col">Status</th><th scope="col" class="num">Amount</th></tr></thead><tbody>${s.entries.map(
        (e) =>
          html`<tr><td>${istDateTime(e.occurredAt)}</td><td>${e.description}</td><td>${e.externalBookingId ?? ''}</td><td>${e.status}</td><td class="num">${rupeesMoney(e.amount)}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No entry in this period.</p>`
}`;
  return partnerHtml(ctx, 'Statement', 'statement', body);
});

const statementFile = partnerPage('statement', async (_deps, req, ctx) => {
  const window = statementWindow(req, indiaToday(ctx.services.clock.now()));
  const s = await getStatement(ctx.services, ctx.principal, window);
  return download(`${CSV_MEDIA_TYPE}; charset=utf-8`, statementCsv(s), statementFileName(s, 'csv'));
});

/** The same statement as the API's PDF (GET /v1/statement with Accept: application/pdf): the same renderer and figures. */
const statementPdfFile = partnerPage('statement', async (_deps, req, ctx) => {
  const window = statementWindow(req, indiaToday(ctx.services.clock.now()));
  const s = await getStatement(ctx.services, ctx.principal, window);
  return download(PDF_MEDIA_TYPE, await statementPdf(statementRenderer, ctx.group, s), statementFileName(s, 'pdf'));
});

/** A GET form's fields as the API's query: empty fields are absent, as an unfilled filter is. */
export const filled = (query: Request['query']): Record<string, string> =>
  Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].trim() !== ''));

/** The link to the next page: the same filters with the page's cursor. */
export const nextPageLink = (path: string, query: Record<string, string>, cursor: string | null) =>
  cursor ? html`<p><a href="${path}?${new URLSearchParams({ ...query, cursor }).toString()}" rel="next">Next page</a></p>` : '';

const ledger = partnerPage('ledger', async (_deps, req, ctx) => {
  const query = filled(req.query);
  // The API's own query contract: the same filters, the same 400 naming a parameter, the same cursor.
  const q = parseInput(LedgerQuerySchema, query, 'query');
  const page = await listLedger(ctx.services, ctx.principal, q);
  const { cursor: _cursor, ...filters } = query;
  const body = html`<form method="get" action="/console/ledger" aria-label="Filter the ledger">
<label for="from">From (IST date)</label><input id="from" name="from" type="date" value="${filters.from ?? ''}">
<label for="to">To (IST date)</label><input id="to" name="to" type="date" value="${filters.to ?? ''}">
<label for="type">Type</label><select id="type" name="type"><option value="">Any</option>${LEDGER_ENTRY_TYPES.map(
    (t) => html`<option value="${t}"${filters.type === t ? ' selected' : ''}>${t}</option>`,
  )}</select>
<label for="status">Status</label><select id="status" name="status"><option value="">Any</option>${LEDGER_ENTRY_STATUSES.map(
    (t) => html`<option value="${t}"${filters.status === t ? ' selected' : ''}>${t}</option>`,
  )}</select>
<label for="externalBookingIds">Your booking id</label><input id="externalBookingIds" name="externalBookingIds" value="${filters.externalBookingIds ?? ''}">
<button type="submit">Show</button>
</form>
<dl class="figures">${figure('Credit limit', rupeesMoney(page.creditLimit))}${figure('Available credit', rupeesMoney(page.availableCredit))}${figure('Exposure', rupeesMoney(page.exposure))}</dl>
${
  page.data.length
    ? html`<div class="table-wrap"><table><caption>Ledger entries, newest first</caption><thead><tr><th scope="col">When</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">What</th><th scope="col">Your booking id</th><th scope="col" class="num">Amount</th></tr></thead><tbody>${page.data.map(
        (e) =>
          html`<tr><td>${istDateTime(e.occurredAt)}</td><td>${e.type}</td><td>${e.status}</td><td>${e.description}</td><td>${e.externalBookingId ?? ''}</td><td class="num">${rupeesMoney(e.amount)}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No entry matches.</p>`
}
${nextPageLink('/console/ledger', filters, page.nextCursor)}`;
  return partnerHtml(ctx, 'Ledger', 'ledger', body);
});

const audit = partnerPage('audit', async (_deps, req, ctx) => {
  const query = filled(req.query);
  const page = await listAuditEvents(ctx.services, ctx.principal, parseInput(AuditEventsQuerySchema, query, 'query'));
  const { cursor: _cursor, ...filters } = query;
  const body = html`<p>Every change to this account, oldest first: by your people, your keys and our operators.</p>
<form method="get" action="/console/audit" aria-label="Audit trail period">
<label for="from">From (date-time with offset, e.g. 2026-11-01T00:00:00+05:30)</label><input id="from" name="from" value="${filters.from ?? ''}">
<label for="to">To</label><input id="to" name="to" value="${filters.to ?? ''}">
<button type="submit">Show</button>
</form>
${
  page.data.length
    ? html`<div class="table-wrap"><table><caption>Audit events</caption><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">On</th></tr></thead><tbody>${page.data.map(
        (e) => html`<tr><td>${istDateTime(e.at)}</td><td>${e.actor} (${e.actorKind})</td><td>${e.action}</td><td>${e.target}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No event in this period.</p>`
}
${nextPageLink('/console/audit', filters, page.nextCursor)}`;
  return partnerHtml(ctx, 'Audit trail', 'audit', body);
});

/** The partner whose webhook endpoints the person's group belongs to, as its /api key would authenticate. */
export async function partnerPrincipal(ctx: PartnerContext): Promise<PartnerPrincipal> {
  const partner = await ctx.services.tenants.getPartner(ctx.group.partnerId);
  if (!partner) throw new NotFoundError('Partner');
  return { kind: 'partner', partnerId: partner.partnerId, channelId: partner.channelId, keyId: personActor(ctx.person), keyPrefix: 'console' };
}

async function webhooksPage(ctx: PartnerContext, notice?: Html | string, refused?: { error: FieldError; typed: Typed }): Promise<HttpResult> {
  const endpoints = await listEndpoints(ctx.services, await partnerPrincipal(ctx));
  const body = html`${notice ?? ''}
<p>Catalogue webhooks go to your company's endpoints (every group of yours shares them).</p>
${
  endpoints.length
    ? html`<div class="table-wrap"><table><caption>Webhook endpoints</caption><thead><tr><th scope="col">URL</th><th scope="col">Status</th><th scope="col">Authentication</th><th scope="col">Signing secret</th><th scope="col">Events</th><th scope="col">Deliveries</th><th scope="col">Change</th></tr></thead><tbody>${endpoints.map(
        (e) =>
          html`<tr><td>${e.url}</td><td>${e.status}</td><td>${authSummary(e)}</td><td>${e.signingSecretConfigured ? 'Set' : 'None'}</td><td>${e.eventTypes ? e.eventTypes.join(', ') : 'All'}</td><td><a href="/console/webhooks/${encodeURIComponent(e.id)}/deliveries">Deliveries<span class="skip"> to ${e.url}</span></a></td><td><a href="/console/webhooks/${encodeURIComponent(e.id)}/edit">Edit<span class="skip"> ${e.url}</span></a> ${postForm(
            ctx.viewer,
            `/console/webhooks/${encodeURIComponent(e.id)}/rotate-secret`,
            html`<button type="submit">Rotate signing secret<span class="skip"> of ${e.url}</span></button>`,
            `Rotate the signing secret of ${e.url}`,
          )}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No webhook endpoint yet.</p>`
}
<h2>Add an endpoint</h2>
${errorSummary(refused?.error, 'endpoint')}
${postForm(ctx.viewer, '/console/webhooks/create', html`${endpointFields('endpoint', undefined, refused?.error, refused?.typed)}<button type="submit">Add endpoint</button>`, 'Add an endpoint')}`;
  return partnerHtml(ctx, 'Webhooks', 'webhooks', body, refused ? 400 : 200);
}

/** A signing secret made by the console, shown once on the answer: the service keeps only its sealed copy (as the API's). */
const shownOnce = (secret: string, text: string) =>
  html`<div class="notice" role="status"><p>${text} Store it now: it cannot be shown again. Deliveries are signed with it from now on.</p>
<p class="secret" aria-label="New signing secret">${secret}</p></div>`;

const newEndpoint = partnerPage('webhooks', async (deps, req, ctx) => {
  const signingSecret = `whsec_${deps.tokens.newToken()}`;
  try {
    const body = endpointBody(req.form, 'create') as EndpointFields & { url: string };
    // The API's POST /api/webhook-endpoints use case: the same schema, URL guard, limits and audit event, under the person.
    const endpoint = await createEndpoint(ctx.services, await partnerPrincipal(ctx), { ...body, signingSecret }, ctx.origin);
    return webhooksPage(ctx, shownOnce(signingSecret, `Endpoint ${endpoint.url} added, with this signing secret.`));
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return webhooksPage(ctx, '', { error: fieldError(err), typed: req.form });
  }
});

async function deliveriesPage(deps: ConsoleAppDeps, req: Request, ctx: PartnerContext, endpointId: string, notice?: Html): Promise<HttpResult> {
  const partner = await partnerPrincipal(ctx);
  const endpoint = await getEndpoint(ctx.services, partner, endpointId);
  const query = req.method === 'GET' ? filled(req.query) : {};
  const q = parseInput(ListDeliveriesQuerySchema, query, 'query');
  const page = await listEndpointDeliveries(deliveryDeps(deps.svc), partner, endpointId, q);
  const { cursor: _cursor, ...filters } = query;
  const body = html`${notice ?? ''}
<p>Deliveries to ${endpoint.url}, newest first.</p>
${
  page.data.length
    ? html`<div class="table-wrap"><table><caption>Deliveries</caption><thead><tr><th scope="col">Created</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col" class="num">Attempts</th><th scope="col">Last failure</th><th scope="col">Resend</th></tr></thead><tbody>${page.data.map(
        (d) =>
          html`<tr><td>${istDateTime(d.createdAt)}</td><td>${d.eventType}</td><td>${d.status}${d.resendOf ? ' (resent)' : ''}</td><td class="num">${d.attempts.length}</td><td>${d.failureReason ?? ''}</td><td>${postForm(
            ctx.viewer,
            `/console/webhooks/deliveries/${encodeURIComponent(d.deliveryId)}/resend`,
            html`<input type="hidden" name="endpointId" value="${endpointId}"><button type="submit">Resend<span class="skip"> ${d.eventType} of ${istDateTime(d.createdAt)}</span></button>`,
            `Resend ${d.eventType} of ${istDateTime(d.createdAt)}`,
          )}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No delivery to this endpoint yet.</p>`
}
${nextPageLink(`/console/webhooks/${encodeURIComponent(endpointId)}/deliveries`, filters, page.nextCursor)}
<p><a href="/console/webhooks">Back to webhooks</a></p>`;
  return partnerHtml(ctx, 'Webhook deliveries', 'webhooks', body);
}

const deliveries = partnerPage('webhooks', async (deps, req, ctx, match) => deliveriesPage(deps, req, ctx, decodeURIComponent(match[1]!)));

const resend = partnerPage('webhooks', async (deps, req, ctx, match) => {
  // The API's resend: a delivery of another partner reads as missing, a callback or a disabled endpoint is a 409.
  const sent = await resendDelivery(deliveryDeps(deps.svc), ctx.group.partnerId, decodeURIComponent(match[1]!));
  return deliveriesPage(deps, req, ctx, sent.endpointId!, html`<p class="notice" role="status">Resent as a new delivery; it is PENDING.</p>`);
});

const webhooks = partnerPage('webhooks', async (_deps, _req, ctx) => webhooksPage(ctx));

async function editEndpointPage(ctx: PartnerContext, id: string, refused?: { error: FieldError; typed: Typed }): Promise<HttpResult> {
  const endpoint = await getEndpoint(ctx.services, await partnerPrincipal(ctx), id);
  const body = html`${errorSummary(refused?.error, 'edit')}
${postForm(
  ctx.viewer,
  `/console/webhooks/${encodeURIComponent(endpoint.id)}/edit`,
  html`${endpointFields('edit', endpoint, refused?.error, refused?.typed)}<button type="submit">Save endpoint</button>`,
  `Edit ${endpoint.url}`,
)}
<p><a href="/console/webhooks">Back to webhooks</a></p>`;
  return partnerHtml(ctx, 'Edit webhook endpoint', 'webhooks', body, refused ? 400 : 200);
}

const editEndpointForm = partnerPage('webhooks', async (_deps, _req, ctx, match) => editEndpointPage(ctx, decodeURIComponent(match[1]!)));

const editEndpoint = partnerPage('webhooks', async (_deps, req, ctx, match) => {
  const id = decodeURIComponent(match[1]!);
  try {
    // The API's PUT /api/webhook-endpoints/{id} use case: the same schema, URL guard and `webhook-endpoint.updated` event, under the person.
    const endpoint = await updateEndpoint(ctx.services, await partnerPrincipal(ctx), id, endpointBody(req.form, 'update'), ctx.origin);
    return webhooksPage(
      ctx,
      html`<p class="notice" role="status">Endpoint ${endpoint.url} saved: ${endpoint.eventTypes ? endpoint.eventTypes.join(', ') : 'every event'}.</p>`,
    );
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return editEndpointPage(ctx, id, { error: fieldError(err), typed: req.form });
  }
});

const rotateSecret = partnerPage('webhooks', async (deps, _req, ctx, match) => {
  // Made here, shown once on this answer: the service keeps only its sealed copy (the API's PUT with a new signingSecret).
  const secret = `whsec_${deps.tokens.newToken()}`;
  const endpoint = await updateEndpoint(ctx.services, await partnerPrincipal(ctx), decodeURIComponent(match[1]!), { signingSecret: secret }, ctx.origin);
  return webhooksPage(ctx, shownOnce(secret, `New signing secret for ${endpoint.url}.`));
});

async function keysPage(ctx: PartnerContext, notice?: Html): Promise<HttpResult> {
  const keys = await ctx.services.tenants.listKeys({ kind: 'agent-group', id: ctx.group.agentGroupId });
  const body = html`${notice ?? ''}
<div class="table-wrap"><table><caption>API keys of this account</caption><thead><tr><th scope="col">Key</th><th scope="col">Status</th><th scope="col">Issued</th><th scope="col">Change</th></tr></thead>
<tbody>${keys.map(
    (k) =>
      html`<tr><td>${k.keyPrefix}…</td><td>${k.status}</td><td>${istDateTime(k.createdAt)}</td><td>${
        k.status === 'ACTIVE'
          ? html`${postForm(
              ctx.viewer,
              `/console/keys/${encodeURIComponent(k.keyId)}/replace`,
              html`<button type="submit">Replace<span class="skip"> key ${k.keyPrefix}</span></button>`,
              `Replace key ${k.keyPrefix}`,
            )}${postForm(
              ctx.viewer,
              `/console/keys/${encodeURIComponent(k.keyId)}/revoke`,
              html`<button type="submit">Revoke<span class="skip"> key ${k.keyPrefix}</span></button>`,
              `Revoke key ${k.keyPrefix}`,
            )}`
          : ''
      }</td></tr>`,
  )}</tbody></table></div>
<h2>Issue a key</h2>
<p>A new key for this account's /v1 API. Issuing one also replaces the signing secret of your booking callbacks.</p>
${postForm(ctx.viewer, '/console/keys/issue', html`<button type="submit">Issue a key</button>`, 'Issue a key')}`;
  return partnerHtml(ctx, 'API keys', 'keys', body);
}

const keys = partnerPage('keys', async (_deps, _req, ctx) => keysPage(ctx));

const newKey = partnerPage('keys', async (_deps, _req, ctx) => {
  // The admin tool's use case: the key and the group's new callback secret land together, shown once on this answer.
  const issued = await issueKey(adminDeps(ctx.services, ctx.origin), { owner: { kind: 'agent-group', id: ctx.group.agentGroupId } });
  return keysPage(ctx, issuedNotice(issued, 'Key issued.'));
});

/** A key of this person's group, or 404 exactly as a missing one: the admin tool's use cases take any key id. */
async function ownKey(ctx: PartnerContext, keyId: string) {
  const key = (await ctx.services.tenants.listKeys({ kind: 'agent-group', id: ctx.group.agentGroupId })).find((k) => k.keyId === keyId);
  if (!key) throw new NotFoundError('Key');
  return key;
}

const issuedNotice = (issued: { apiKey: string; signingSecret: string | null }, text: string) =>
  html`<div class="notice" role="status"><p>${text} Store both now: they cannot be shown again. The service keeps only a hash of the key and a sealed copy of the secret. Booking callbacks are signed with the new secret from now on.</p>
<p class="secret" aria-label="New API key">${issued.apiKey}</p>
<p class="secret" aria-label="New callback signing secret">${issued.signingSecret ?? ''}</p></div>`;

const revoke = partnerPage('keys', async (_deps, _req, ctx, match) => {
  const key = await ownKey(ctx, decodeURIComponent(match[1]!));
  if (key.status !== 'ACTIVE') throw new ConflictError('CONFLICT', `Key ${key.keyPrefix}… is already revoked.`);
  const revoked = await revokeKey(adminDeps(ctx.services, ctx.origin), key.keyId);
  return keysPage(ctx, html`<p class="notice" role="status">Key ${revoked.keyPrefix}… is revoked: requests with it are refused from now on.</p>`);
});

const replace = partnerPage('keys', async (_deps, _req, ctx, match) => {
  const key = await ownKey(ctx, decodeURIComponent(match[1]!));
  // The admin tool's replace: the new key, the group's new callback secret and the old key's revocation in one transaction.
  const issued = await replaceKey(adminDeps(ctx.services, ctx.origin), key.keyId);
  return keysPage(ctx, issuedNotice(issued, `Key ${key.keyPrefix}… is replaced and revoked.`));
});

const teamBody = async (deps: ConsoleAppDeps, ctx: PartnerContext, notice?: Html) => {
  const people = await deps.people.listTeam(ctx.group.agentGroupId);
  return html`${notice ?? ''}
<div class="table-wrap"><table><thead><tr><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Since</th></tr></thead>
<tbody>${people.map((p) => html`<tr><td>${p.email}</td><td>${p.access.role}</td><td>${istDateTime(p.createdAt)}</td></tr>`)}</tbody></table></div>
<h2>Invite someone</h2>
${postForm(
  ctx.viewer,
  '/console/team/invite',
  html`<label for="invite-email">E-mail</label><input id="invite-email" name="email" type="email" required>
<label for="invite-role">Role</label><select id="invite-role" name="role">${PARTNER_ROLES.map((r) => html`<option value="${r}">${r}</option>`)}</select>
<button type="submit">Send invitation</button>`,
  'Invite someone',
)}`;
};

const team = partnerPage('team', async (deps, _req, ctx) => partnerHtml(ctx, 'Team', 'team', await teamBody(deps, ctx)));

const invite = partnerPage('team', async (deps, req, ctx) => {
  const role = req.form.get('role') ?? '';
  if (!(PARTNER_ROLES as readonly string[]).includes(role)) throw new ValidationError('role', `role must be one of ${PARTNER_ROLES.join(', ')}.`);
  const person = await invitePerson(deps, { actor: personActor(ctx.person), name: ctx.person.email, origin: ctx.origin }, req.form.get('email') ?? '', {
    kind: 'partner',
    agentGroupId: ctx.group.agentGroupId,
    partnerId: ctx.group.partnerId,
    role: role as (typeof PARTNER_ROLES)[number],
  });
  return partnerHtml(ctx, 'Team', 'team', await teamBody(deps, ctx, html`<p class="notice" role="status">Invitation sent to ${person.email}.</p>`));
});

const DOCUMENT_LABELS: Readonly<Record<MailDocument, string>> = {
  INVOICES: 'Invoices',
  CREDIT_NOTES: 'Credit notes',
  RECEIPTS: 'Payment receipts',
  REMINDERS: 'Payment reminders',
  STATEMENTS: 'Monthly statements',
};

/** The optional documents as checkboxes, `chosen` ticked; the statutory ones are said, never offered. */
const documentChoices = (idPrefix: string, chosen: readonly string[]) =>
  html`<fieldset><legend>Also receives (invoices and credit notes always)</legend>${OPTIONAL_DOCUMENTS.map(
    (d) =>
      html`<div><input type="checkbox" id="${idPrefix}-${d}" name="documents" value="${d}"${chosen.includes(d) ? ' checked' : ''}> <label for="${idPrefix}-${d}" class="inline">${DOCUMENT_LABELS[d]}</label></div>`,
  )}</fieldset>`;

/**
 * The finance contacts page: the API's GET /v1/finance-contacts use cases on the person's own group. Each contact with its
 * documents, a bounced address said, and a form per contact to change its name, address or documents, or remove it.
 */
async function contactsPage(ctx: PartnerContext, notice?: Html): Promise<HttpResult> {
  const contacts = await listContacts(ctx.services, ctx.group.agentGroupId);
  const path = (c: FinanceContactView, action: string) => `/console/contacts/${encodeURIComponent(c.id)}/${action}`;
  const body = html`${notice ?? ''}
<p>The people who receive your billing documents by e-mail: every invoice and credit note (with its PDF and how to pay), and as each chose, payment receipts, reminders before and after the due date, and the monthly statement. At most ${MAX_FINANCE_CONTACTS}.</p>
${
  contacts.length
    ? html`<div class="table-wrap"><table><caption>Finance contacts</caption><thead><tr><th scope="col">E-mail</th><th scope="col">Name</th><th scope="col">Receives</th><th scope="col">Address</th></tr></thead><tbody>${contacts.map(
        (c) =>
          html`<tr><td>${c.email}</td><td>${c.name ?? ''}</td><td>${c.documents.map((d) => DOCUMENT_LABELS[d]).join(', ')}</td><td>${c.bounced ? html`<strong>Bounced</strong>: nothing is sent until the address is changed` : 'Delivering'}</td></tr>`,
      )}</tbody></table></div>
${contacts.map(
  (c, n) => html`<h2>${c.name ?? c.email}</h2>
${postForm(
  ctx.viewer,
  path(c, 'update'),
  html`<label for="contact-${n}-email">E-mail</label><input id="contact-${n}-email" name="email" type="email" value="${c.email}" required>
<label for="contact-${n}-name">Name (optional)</label><input id="contact-${n}-name" name="name" value="${c.name ?? ''}">
${documentChoices(`contact-${n}`, c.documents)}
<button type="submit">Save<span class="skip"> ${c.email}</span></button>`,
  `Change ${c.email}`,
)}
${postForm(ctx.viewer, path(c, 'remove'), html`<button type="submit">Remove<span class="skip"> ${c.email}</span></button>`, `Remove ${c.email}`)}`,
)}`
    : html`<p>No finance contact yet: nobody receives your invoices by e-mail.</p>`
}
<h2>Add a contact</h2>
${postForm(
  ctx.viewer,
  '/console/contacts/add',
  html`<label for="contact-email">E-mail</label><input id="contact-email" name="email" type="email" required>
<label for="contact-name">Name (optional)</label><input id="contact-name" name="name">
${documentChoices('contact-new', OPTIONAL_DOCUMENTS)}
<button type="submit">Add contact</button>`,
  'Add a contact',
)}`;
  return partnerHtml(ctx, 'Finance contacts', 'contacts', body);
}

/** The form's fields as the API's body takes them: an empty name is none. */
const contactFields = (form: URLSearchParams) => ({
  email: form.get('email') ?? '',
  name: form.get('name')?.trim() || null,
  documents: form.getAll('documents'),
});

const contacts = partnerPage('contacts', async (_deps, _req, ctx) => contactsPage(ctx));

const addFinanceContact = partnerPage('contacts', async (_deps, req, ctx) => {
  // POST /v1/finance-contacts's use case: the same checks, limit and audit event, under the person.
  const added = await addContact(ctx.services, ctx.group.agentGroupId, contactFields(req.form), ctx.origin);
  return contactsPage(ctx, html`<p class="notice" role="status">${added.email} added.</p>`);
});

const updateFinanceContact = partnerPage('contacts', async (_deps, req, ctx, match) => {
  const changed = await updateContact(ctx.services, ctx.group.agentGroupId, decodeURIComponent(match[1]!), contactFields(req.form), ctx.origin);
  return contactsPage(ctx, html`<p class="notice" role="status">${changed.email} saved.</p>`);
});

const removeFinanceContact = partnerPage('contacts', async (_deps, _req, ctx, match) => {
  await removeContact(ctx.services, ctx.group.agentGroupId, decodeURIComponent(match[1]!), ctx.origin);
  return contactsPage(ctx, html`<p class="notice" role="status">Contact removed.</p>`);
});

const groups = operatorPage('groups', async (deps, _req, ctx) => {
  const all = await deps.svc.tenants.listAgentGroups();
  const body = html`<div class="table-wrap"><table><thead><tr><th scope="col">Group</th><th scope="col">Partner</th><th scope="col" class="num">Credit limit</th><th scope="col">Hold</th></tr></thead>
<tbody>${all.map(
    (g) =>
      html`<tr><td><a href="/console/operator/groups/${encodeURIComponent(g.agentGroupId)}">${g.name}</a></td><td>${g.partnerId}</td><td class="num">${money(g.creditLimit)}</td><td>${g.onHold ? 'On hold' : '—'}</td></tr>`,
  )}</tbody></table></div>
${signOutEverywhereForm(ctx.viewer)}`;
  return htmlResult(200, page('Groups', body, ctx.viewer, allowedFor(ctx.person), 'groups'));
});

export async function groupPage(deps: ConsoleAppDeps, ctx: Signed, agentGroupId: string, notice?: Html): Promise<HttpResult> {
  const group = await deps.svc.tenants.getAgentGroup(agentGroupId);
  if (!group) throw new NotFoundError('Agent group');
  const position = await deps.svc.ledger.creditPosition(agentGroupId);
  const action = `/console/operator/groups/${encodeURIComponent(agentGroupId)}/hold`;
  const body = html`${notice ?? ''}
<dl class="figures">
${figure('Partner', group.partnerId)}
${figure('Credit limit', money(group.creditLimit))}
${figure('Available credit', position ? money(position.availableCredit) : '—')}
${figure('Exposure', position ? money(position.exposure) : '—')}
${figure('Hold', group.onHold ? 'On hold' : 'Not on hold')}
</dl>
<h2>${group.onHold ? 'Release the hold' : 'Set a hold'}</h2>
${postForm(
  ctx.viewer,
  action,
  html`<input type="hidden" name="hold" value="${group.onHold ? 'false' : 'true'}"><button type="submit">${group.onHold ? 'Release hold' : 'Set hold'}</button>`,
  group.onHold ? 'Release the hold' : 'Set a hold',
)}
${
  can(ctx.person.access, 'limit')
    ? html`<h2>Credit limit</h2>
${postForm(
  ctx.viewer,
  `/console/operator/groups/${encodeURIComponent(agentGroupId)}/limit`,
  html`<label for="creditLimit">New credit limit (₹, e.g. 500000.00)</label><input id="creditLimit" name="creditLimit" inputmode="decimal" required>
<button type="submit">Set credit limit</button>`,
  'Set the credit limit',
)}`
    : ''
}
${termsSection(ctx, group)}
<p><a href="/console/operator/groups/${encodeURIComponent(agentGroupId)}/payments">Payments of ${group.name}</a></p>
<p><a href="/console/operator/groups/${encodeURIComponent(agentGroupId)}/invoices">Invoices of ${group.name}</a></p>
<p><a href="/console/operator/groups">All groups</a></p>`;
  return htmlResult(200, page(group.name, body, ctx.viewer, allowedFor(ctx.person), 'groups'));
}

const groupDetail = operatorPage('groups', async (deps, _req, ctx, match) => groupPage(deps, ctx, decodeURIComponent(match[1]!)));

const setHold = operatorPage('hold', async (deps, req, ctx, match) => {
  const hold = req.form.get('hold');
  if (hold !== 'true' && hold !== 'false') throw new ValidationError('hold', 'hold must be true or false.');
  const agentGroupId = decodeURIComponent(match[1]!);
  // The admin tool's use case, so the console's change is validated and audited exactly as the CLI's.
  const updated = await updateAgentGroup(adminDeps(deps.svc, ctx.origin), agentGroupId, { onHold: hold === 'true' });
  return groupPage(deps, ctx, agentGroupId, html`<p class="notice" role="status">${updated.onHold ? 'The group is on hold.' : 'The hold is released.'}</p>`);
});

const setLimit = operatorPage('limit', async (deps, req, ctx, match) => {
  const creditLimit = parseRupees(req.form.get('creditLimit') ?? '');
  if (creditLimit === undefined || creditLimit < 0)
    throw new ValidationError('creditLimit', 'creditLimit must be rupees with at most two decimals, like 500000 or 500000.50.');
  const agentGroupId = decodeURIComponent(match[1]!);
  // As the admin tool's groups update: validated whole, audited under the person; a limit below the exposure refuses new bookings only.
  const updated = await updateAgentGroup(adminDeps(deps.svc, ctx.origin), agentGroupId, { creditLimit });
  return groupPage(deps, ctx, agentGroupId, html`<p class="notice" role="status">The credit limit is now ${money(updated.creditLimit)}.</p>`);
});

export const operatorHtml = (ctx: Signed, title: string, section: string, body: Html) =>
  htmlResult(200, page(title, body, ctx.viewer, allowedFor(ctx.person), section));

const partners = operatorPage('partners', async (deps, _req, ctx) => {
  const [all, groupsOf] = await Promise.all([deps.svc.tenants.listPartners(), deps.svc.tenants.listAgentGroups()]);
  const body = html`<div class="table-wrap"><table><caption>Partners</caption><thead><tr><th scope="col">Partner</th><th scope="col">Id</th><th scope="col">Channel</th><th scope="col" class="num">Groups</th><th scope="col">Since</th></tr></thead>
<tbody>${all.map(
    (p) =>
      html`<tr><td><a href="/console/operator/partners/${encodeURIComponent(p.partnerId)}">${p.name}</a></td><td>${p.partnerId}</td><td>${p.channelId}</td><td class="num">${String(groupsOf.filter((g) => g.partnerId === p.partnerId).length)}</td><td>${istDateTime(p.createdAt)}</td></tr>`,
  )}</tbody></table></div>
${can(ctx.person.access, 'create-partner') ? newPartnerForm(ctx.viewer) : ''}`;
  return operatorHtml(ctx, 'Partners', 'partners', body);
});

const partnerDetail = operatorPage('partners', async (deps, _req, ctx, match) => {
  const partnerId = decodeURIComponent(match[1]!);
  const found = await deps.svc.tenants.getPartner(partnerId);
  if (!found) throw new NotFoundError('Partner');
  // The admin tool's `deliveries failed`: the partner's FAILED deliveries, newest first.
  const [groupsOf, endpoints, failed] = await Promise.all([
    deps.svc.tenants.listAgentGroups(),
    deps.svc.webhooks.list(partnerId),
    listFailedDeliveries(deliveryDeps(deps.svc), partnerId),
  ]);
  const urlOf = new Map(endpoints.map((e) => [e.id, e.url]));
  const body = html`<dl class="figures">${figure('Id', found.partnerId)}${figure('Channel', found.channelId)}${figure('Webhook endpoints', String(endpoints.length))}${figure('Failed deliveries', String(failed.length))}</dl>
<h2>Agent groups</h2>
<div class="table-wrap"><table><caption class="skip">Agent groups of ${found.name}</caption><thead><tr><th scope="col">Group</th><th scope="col" class="num">Credit limit</th><th scope="col">Hold</th></tr></thead>
<tbody>${groupsOf
    .filter((g) => g.partnerId === partnerId)
    .map(
      (g) =>
        html`<tr><td><a href="/console/operator/groups/${encodeURIComponent(g.agentGroupId)}">${g.name}</a></td><td class="num">${money(g.creditLimit)}</td><td>${g.onHold ? 'On hold' : '—'}</td></tr>`,
    )}</tbody></table></div>
<h2>Failing webhook deliveries</h2>
${
  failed.length
    ? html`<div class="table-wrap"><table><caption class="skip">Failed deliveries of ${found.name}</caption><thead><tr><th scope="col">Created</th><th scope="col">Endpoint</th><th scope="col">Event</th><th scope="col" class="num">Attempts</th><th scope="col">Failure</th></tr></thead><tbody>${failed.map(
        (d) =>
          html`<tr><td>${istDateTime(d.createdAt)}</td><td>${d.endpointId ? (urlOf.get(d.endpointId) ?? d.endpointId) : 'booking callback'}</td><td>${d.eventType}</td><td class="num">${d.attempts.length}</td><td>${d.failureReason ?? ''}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No failed delivery.</p>`
}
${can(ctx.person.access, 'create-group') ? newGroupForm(ctx.viewer, found) : ''}
<p><a href="/console/operator/partners">All partners</a></p>`;
  return operatorHtml(ctx, found.name, 'partners', body);
});

async function paymentsPage(deps: ConsoleAppDeps, ctx: Signed, agentGroupId: string, notice?: Html): Promise<HttpResult> {
  const group = await deps.svc.tenants.getAgentGroup(agentGroupId);
  if (!group) throw new NotFoundError('Agent group');
  // The admin tool's `payments list`: the group's payments (gateway and bank transfer) and its unallocated credit.
  const [payments, unallocated] = await Promise.all([deps.svc.receivables.payments(agentGroupId), deps.svc.receivables.unallocatedCredit(agentGroupId)]);
  const body = html`${notice ?? ''}
<dl class="figures">${figure('Unallocated credit', money(unallocated))}${figure('Payments', String(payments.length))}</dl>
${
  payments.length
    ? html`<div class="table-wrap"><table><caption>Payments of ${group.name}</caption><thead><tr><th scope="col">Received</th><th scope="col">Source</th><th scope="col">Reference</th><th scope="col" class="num">Amount</th></tr></thead><tbody>${payments.map(
        (p) => html`<tr><td>${istDateTime(p.receivedAt)}</td><td>${p.source}</td><td>${p.reference}</td><td class="num">${money(p.amount)}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No payment from this group.</p>`
}
${
  can(ctx.person.access, 'record-payment')
    ? html`<h2>Record a bank transfer</h2>
<p>For transfers that did not come through Razorpay: the same reference recorded again records nothing.</p>
${postForm(
  ctx.viewer,
  `/console/operator/groups/${encodeURIComponent(agentGroupId)}/payments`,
  html`<label for="amount">Amount received (₹, e.g. 15750.00)</label><input id="amount" name="amount" inputmode="decimal" required>
<label for="reference">Bank reference (UTR)</label><input id="reference" name="reference" required>
<label for="receivedAt">Received at (date-time with offset; empty: now)</label><input id="receivedAt" name="receivedAt">
<button type="submit">Record payment</button>`,
  'Record a bank transfer',
)}`
    : ''
}
<p><a href="/console/operator/groups/${encodeURIComponent(agentGroupId)}">Back to ${group.name}</a></p>`;
  return operatorHtml(ctx, `Payments: ${group.name}`, 'groups', body);
}

const groupPayments = operatorPage('payments', async (deps, _req, ctx, match) => paymentsPage(deps, ctx, decodeURIComponent(match[1]!)));

const recordPayment = operatorPage('record-payment', async (deps, req, ctx, match) => {
  const agentGroupId = decodeURIComponent(match[1]!);
  const amount = parseRupees(req.form.get('amount') ?? '');
  if (amount === undefined) throw new ValidationError('amount', 'amount must be rupees with at most two decimals, like 15750 or 15750.50.');
  const receivedAt = req.form.get('receivedAt')?.trim();
  if (receivedAt && !isInstant(receivedAt)) throw new ValidationError('receivedAt', `receivedAt must be ${INSTANT_RULE}.`);
  const svc = deps.svc;
  // The admin tool's `payments record`: the same use case, allocation and audit event, under the person.
  const outcome = await recordBankTransfer(
    paymentDeps(svc),
    { agentGroupId, reference: req.form.get('reference')?.trim() ?? '', amount, ...(receivedAt ? { receivedAt: new Date(receivedAt).toISOString() } : {}) },
    ctx.origin,
  );
  const notice = outcome.recorded
    ? html`<p class="notice" role="status">Recorded ${money(outcome.payment.amount)} (${outcome.payment.reference}); unallocated credit now ${money(outcome.unallocated)}.</p>`
    : html`<p class="notice" role="status">Payment ${outcome.payment.reference} was already recorded; nothing changed.</p>`;
  return paymentsPage(deps, ctx, agentGroupId, notice);
});

/** A run over every group, as the admin tool's `billing runs` prints it: queued, billed, up to date, failed, pending. */
const progressFigures = (p: FanOutProgress) =>
  html`<dl class="figures">${figure('Groups queued', String(p.enqueued))}${figure('Billed', String(p.billed))}${figure('Up to date', String(p.upToDate))}${figure('Failed', String(p.failed))}${figure('Pending', String(p.pending))}</dl>`;

const runLink = (runId: string) => html`<a href="/console/operator/billing/runs/${encodeURIComponent(runId)}">${runId}</a>`;

const billingRunsPage = operatorPage('billing', async (deps, _req, ctx) => {
  const svc = deps.svc;
  // The admin tool's `billing runs`: the latest runs over every group, then the groups' own runs, newest first.
  const [runs, groupRuns] = await Promise.all([svc.billingRuns.recentRuns(10), svc.billingRuns.groupRuns(20)]);
  const latest = runs[0] && (await svc.billingRuns.progress(runs[0].runId));
  const body = html`${
    can(ctx.person.access, 'run-billing')
      ? html`<h2>Start a run</h2>
<p>Bills every group's last closed period now, as the daily run does (a group already billed for it is billed again only for what is new). Each group is billed by the billing worker; follow the run on its page.</p>
${postForm(ctx.viewer, '/console/operator/billing/run', html`<button type="submit">Start a billing run over every group</button>`, 'Start a billing run')}`
      : ''
  }
<h2>Runs over every group</h2>
${latest ? html`<p>Latest: ${runLink(latest.runId)} (${latest.trigger}, day ${indiaDate(latest.day)}).</p>${progressFigures(latest)}` : ''}
${
  runs.length
    ? html`<div class="table-wrap"><table><caption>Runs over every group, newest first</caption><thead><tr><th scope="col">Run</th><th scope="col">Trigger</th><th scope="col">Day</th><th scope="col">Started</th><th scope="col" class="num">Groups</th></tr></thead><tbody>${runs.map(
        (r) =>
          html`<tr><td>${runLink(r.runId)}</td><td>${r.trigger}</td><td>${indiaDate(r.day)}</td><td>${istDateTime(r.startedAt)}</td><td class="num">${String(r.enqueued)}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No run over every group yet.</p>`
}
<h2>Groups' billing runs</h2>
${
  groupRuns.length
    ? html`<div class="table-wrap"><table><caption>Groups' billing runs, newest first</caption><thead><tr><th scope="col">Started</th><th scope="col">Group</th><th scope="col">Trigger</th><th scope="col">Period</th><th scope="col" class="num">Lines</th><th scope="col" class="num">Invoices</th><th scope="col" class="num">Drafts left</th><th scope="col">Held back</th></tr></thead><tbody>${groupRuns.map(
        (r) =>
          html`<tr><td>${istDateTime(r.startedAt)}</td><td><a href="/console/operator/groups/${encodeURIComponent(r.agentGroupId)}/invoices">${r.agentGroupId}</a></td><td>${r.trigger}</td><td>${indiaDate(r.periodFrom)} to ${indiaDate(r.periodTo)}</td><td class="num">${String(r.linesWritten)}</td><td class="num">${String(r.invoiceIds.length)}</td><td class="num">${String(r.draftsLeft)}</td><td>${r.blockedStates.map((b) => `${b.state} (${b.lineCount} lines)`).join(', ')}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No group billed yet.</p>`
}`;
  return operatorHtml(ctx, 'Billing runs', 'billing', body);
});

const billingRunDetail = operatorPage('billing', async (deps, _req, ctx, match) => {
  const progress = await deps.svc.billingRuns.progress(decodeURIComponent(match[1]!));
  if (!progress) throw new NotFoundError('Billing run');
  const body = html`<p>${progress.trigger} run of ${indiaDate(progress.day)}, started ${istDateTime(progress.startedAt)}. Pending groups have no outcome yet: queued, being billed, or waiting out a retry.</p>
${progressFigures(progress)}
<h2>Failed groups</h2>
${
  progress.failures.length
    ? html`<div class="table-wrap"><table><caption class="skip">Failed groups</caption><thead><tr><th scope="col">Group</th><th scope="col" class="num">Attempts</th><th scope="col">Last attempt</th><th scope="col">Error</th></tr></thead><tbody>${progress.failures.map(
        (f) =>
          html`<tr><td><a href="/console/operator/groups/${encodeURIComponent(f.agentGroupId)}">${f.agentGroupId}</a></td><td class="num">${String(f.attempts)}</td><td>${istDateTime(f.at)}</td><td>${f.error}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No group failed.</p>`
}
<p><a href="/console/operator/billing">All billing runs</a></p>`;
  return operatorHtml(ctx, `Billing run ${progress.runId}`, 'billing', body);
});

const startBillingRun = operatorPage('run-billing', async (deps, _req, ctx) => {
  // The admin tool's `billing run --all` where the stage has a billing queue (every stage, and the local stack): one message per group,
  // recorded write-ahead under the person.
  const run = await queueBillingRunAs({ ...billingDeps(deps.svc), audit: deps.svc.auditTrail }, { trigger: 'ADMIN', force: true }, ctx.origin);
  return redirect(`/console/operator/billing/runs/${encodeURIComponent(run.runId)}`);
});

const groupInvoicesPath = (agentGroupId: string) => `/console/operator/groups/${encodeURIComponent(agentGroupId)}/invoices`;
const operatorInvoicePath = (agentGroupId: string, invoiceId: string) => `${groupInvoicesPath(agentGroupId)}/${encodeURIComponent(invoiceId)}`;

/** The operator's group by the path's id; a missing one is the page's 404. */
async function operatorGroup(deps: ConsoleAppDeps, match: RegExpMatchArray): Promise<AgentGroup> {
  const group = await deps.svc.tenants.getAgentGroup(decodeURIComponent(match[1]!));
  if (!group) throw new NotFoundError('Agent group');
  return group;
}

const groupInvoices = operatorPage('group-invoices', async (deps, _req, ctx, match) => groupInvoicesPage(deps, ctx, await operatorGroup(deps, match)));

async function groupInvoicesPage(deps: ConsoleAppDeps, ctx: Signed, group: AgentGroup, notice?: Html): Promise<HttpResult> {
  const { agentGroupId } = group;
  // The admin tool's `invoices list`: the open ones (DRAFTs with their last error, issued with a step left), then the latest issued.
  const store = deps.svc.invoices;
  const [open, issued] = await Promise.all([store.openInvoices(agentGroupId), store.list(agentGroupId, { statuses: ['ISSUED', 'PAID'], limit: 50 })]);
  const all = [...open, ...issued.invoices.filter((i) => !open.some((o) => o.id === i.id))];
  const body = html`${
    all.length
      ? html`<div class="table-wrap"><table><caption>Invoices and credit notes of ${group.name}</caption><thead><tr><th scope="col">Number</th><th scope="col">Kind</th><th scope="col">Status</th><th scope="col">Issued</th><th scope="col" class="num">Total</th><th scope="col">E-invoice</th><th scope="col">Last error</th></tr></thead><tbody>${all.map(
          (i) =>
            html`<tr><td><a href="${operatorInvoicePath(agentGroupId, i.id)}">${i.invoiceNumber ?? `Draft ${i.id.slice(0, 8)}`}</a></td><td>${i.creditNoteFor ? 'Credit note' : 'Invoice'}</td><td>${i.status}</td><td>${i.issueDate ? indiaDate(i.issueDate) : ''}</td><td class="num">${money(i.total)}</td><td>${i.eInvoice ? (i.eInvoice.cancelledAt ? 'IRN cancelled' : 'Registered') : '—'}</td><td>${i.lastError ?? ''}</td></tr>`,
        )}</tbody></table></div>`
      : html`<p>No invoice for this group.</p>`
  }
${
  can(ctx.person.access, 'run-billing')
    ? html`<h2>Bill now</h2><p>Bills this group's last closed period now, as the admin tool's <code>billing run --group</code> does (what is already billed is billed again only for what is new), on the group's own time.</p>
${postForm(ctx.viewer, `${groupInvoicesPath(agentGroupId)}/bill`, html`<button type="submit">Bill ${group.name} now</button>`, `Bill ${group.name} now`)}`
    : ''
}
<p><a href="/console/operator/groups/${encodeURIComponent(agentGroupId)}">Back to ${group.name}</a></p>`;
  return operatorHtml(ctx, `Invoices: ${group.name}`, 'groups', html`${notice ?? ''}${body}`);
}

const billGroupNow = operatorPage('run-billing', async (deps, _req, ctx, match) => {
  const group = await operatorGroup(deps, match);
  // The admin tool's `billing run --group`, audited under the person.
  const result = await runBillingAsOperator(billingDeps(await groupServices(deps.svc, group.agentGroupId), deps.renderer), group, {}, ctx.origin);
  const issued = result.invoiceIds.length;
  return groupInvoicesPage(
    deps,
    ctx,
    group,
    html`<p class="notice" role="status">Billed ${indiaDate(result.periodFrom)} to ${indiaDate(result.periodTo)}: ${issued === 0 ? 'nothing new to invoice' : `${issued} invoice${issued === 1 ? '' : 's'}`}${result.draftsLeft ? `, ${result.draftsLeft} left as drafts (see their last error)` : ''}.</p>`,
  );
});

async function operatorInvoicePage(deps: ConsoleAppDeps, ctx: Signed, agentGroupId: string, invoiceId: string, notice?: Html): Promise<HttpResult> {
  const group = await deps.svc.tenants.getAgentGroup(agentGroupId);
  if (!group) throw new NotFoundError('Agent group');
  const invoice = await deps.svc.invoices.get(agentGroupId, invoiceId);
  if (!invoice) throw new NotFoundError('Invoice');
  const lines = await deps.svc.invoices.lines(agentGroupId, invoiceId);
  const label = invoice.invoiceNumber ?? `Draft ${invoice.id.slice(0, 8)}`;
  const e = invoice.eInvoice;
  const closes = e && !e.cancelledAt ? voidWindowClosesAt(e) : undefined;
  const correcting = can(ctx.person.access, 'correct-invoices');
  const creditable = !invoice.creditNoteFor && (invoice.status === 'ISSUED' || invoice.status === 'PAID');
  const left = (l: (typeof lines)[number]) => l.lineTotal - (l.creditedTotal ?? 0);
  // A stay's nights are lines of their own: the night tells them apart.
  const lineLabel = (l: (typeof lines)[number]) => `${l.description}${l.nightDate ? `, night of ${indiaDate(l.nightDate)}` : ''}`;
  const action = operatorInvoicePath(agentGroupId, invoiceId);
  const body = html`${notice ?? ''}
<dl class="figures">
${figure(invoice.creditNoteFor ? 'Credit note for' : 'Kind', invoice.creditNoteFor ? (invoice.creditNoteForNumber ?? invoice.creditNoteFor) : 'Invoice')}
${figure('Status', invoice.status)}
${figure('Issued', invoice.issueDate ? indiaDate(invoice.issueDate) : '—')}
${figure('Total', money(invoice.total))}
${invoice.creditNoteFor ? '' : html`${figure('Paid', money(invoice.amountPaid ?? 0))}${figure('Credited', money(invoice.creditedAmount ?? 0))}${figure('Due', money(amountDueOf(invoice)))}`}
${figure('E-invoice', e ? (e.cancelledAt ? `IRN cancelled at ${e.cancelledAt} (India time)` : `Registered, acknowledged ${e.ackDate} (India time)`) : 'Not registered')}
</dl>
${invoice.lastError ? html`<p class="alert">Last error: ${invoice.lastError}</p>` : ''}
<h2>Lines</h2>
${
  lines.length
    ? html`<div class="table-wrap"><table><caption class="skip">Lines of ${label}</caption><thead><tr><th scope="col">Line</th><th scope="col">Partner booking id</th><th scope="col">Stay</th><th scope="col" class="num">Total</th><th scope="col" class="num">Left to credit</th></tr></thead><tbody>${lines.map(
        (l) =>
          html`<tr><td>${lineLabel(l)}</td><td>${l.externalBookingId ?? ''}</td><td>${indiaDate(l.checkIn)} to ${indiaDate(l.checkOut)}</td><td class="num">${money(l.lineTotal)}</td><td class="num">${invoice.creditNoteFor ? '' : money(left(l))}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No line.</p>`
}
${
  correcting && e && closes && invoice.status === 'ISSUED'
    ? html`<h2>Void at the IRP</h2>
<p>${
        deps.svc.clock.now() < closes
          ? `The IRP cancels this IRN until ${istDateTime(closes.toISOString())}. The ${invoice.creditNoteFor ? 'credit note keeps its number; its credit goes back on its invoice' : 'invoice keeps its number; its charges are billed again by the next run'}.`
          : `The IRP's 24-hour window closed at ${istDateTime(closes.toISOString())}: a credit note is the only way to correct it.`
      }</p>
${postForm(
  ctx.viewer,
  `${action}/void`,
  html`<label for="void-reason">Reason (the IRP's code)</label><select id="void-reason" name="reason">${Object.entries(CANCEL_REASONS).map(
    ([code, text]) => html`<option value="${code}">${code}: ${text}</option>`,
  )}</select>
<label for="void-remark">Remark kept by the IRP (up to 100 characters; empty: the reason)</label><input id="void-remark" name="remark" maxlength="100">
<button type="submit">Void ${label}</button>`,
  `Void ${label}`,
)}`
    : ''
}
${
  correcting && creditable
    ? html`<h2>Raise a credit note</h2>
<p>For each line to credit, tick "all that is left" or give an amount in rupees. The note takes the next number of the credit-note series and is printed with the reason.</p>
${postForm(
  ctx.viewer,
  `${action}/credit-note`,
  html`<div class="table-wrap"><table><caption class="skip">Lines to credit</caption><thead><tr><th scope="col">Line</th><th scope="col">All that is left</th><th scope="col">Or an amount (₹)</th></tr></thead><tbody>${lines
    .filter((l) => left(l) > 0)
    .map(
      (l, n) =>
        html`<tr><td>${lineLabel(l)} (${money(left(l))} left)</td><td><input type="checkbox" id="whole-${n}" name="whole" value="${l.id}" aria-label="Credit all that is left of ${lineLabel(l)}"></td><td><input id="amount-${n}" name="amount:${l.id}" inputmode="decimal" aria-label="Amount to credit of ${lineLabel(l)}"></td></tr>`,
    )}</tbody></table></div>
<label for="credit-reason">Reason (printed on the credit note)</label><input id="credit-reason" name="reason" required>
<button type="submit">Raise the credit note</button>`,
  `Raise a credit note against ${label}`,
)}`
    : ''
}
<p><a href="${groupInvoicesPath(agentGroupId)}">All invoices of ${group.name}</a></p>`;
  return operatorHtml(ctx, `${invoice.creditNoteFor ? 'Credit note' : 'Invoice'} ${label}`, 'groups', body);
}

const operatorInvoice = operatorPage('group-invoices', async (deps, _req, ctx, match) =>
  operatorInvoicePage(deps, ctx, decodeURIComponent(match[1]!), decodeURIComponent(match[2]!)),
);

const voidDocument = operatorPage('correct-invoices', async (deps, req, ctx, match) => {
  const [agentGroupId, invoiceId] = [decodeURIComponent(match[1]!), decodeURIComponent(match[2]!)];
  const reason = cancelReasonOf(req.form.get('reason') ?? '');
  const remark = (req.form.get('remark')?.trim() || CANCEL_REASONS[reason]).trim();
  if (remark.length > 100) throw new ValidationError('remark', `remark must be 1 to 100 characters; got ${remark.length}.`);
  const svc = deps.svc;
  // The admin tool's `invoices void`: the IRP cancels the IRN within its 24 hours, or nothing changes; audited under the person.
  const voided = await voidInvoice(
    { invoices: svc.invoices, creditNotes: svc.creditNotes, eInvoices: svc.eInvoices, clock: svc.clock, ids: svc.ids },
    agentGroupId,
    invoiceId,
    reason,
    remark,
    ctx.origin,
  );
  return operatorInvoicePage(
    deps,
    ctx,
    agentGroupId,
    invoiceId,
    html`<p class="notice" role="status">${voided.invoiceNumber} is ${voided.status}: its IRN was cancelled at the IRP on ${voided.eInvoice?.cancelledAt ?? ''} (India time).</p>`,
  );
});

/** The credit note form's lines: a ticked line whole, or an amount in rupees; the parameter named is the field's. */
function creditLines(form: URLSearchParams): OperatorLineCredit[] {
  const whole = new Set(form.getAll('whole'));
  const credits: OperatorLineCredit[] = [...whole].map((lineId) => ({ lineId }));
  for (const [name, value] of form) {
    if (!name.startsWith('amount:') || value.trim() === '') continue;
    const lineId = name.slice('amount:'.length);
    if (whole.has(lineId)) throw new ValidationError(name, 'Tick "all that is left" or give an amount, not both.');
    const amount = parseRupees(value.trim());
    if (amount === undefined || amount <= 0)
      throw new ValidationError(name, `${name} must be a positive amount in rupees with at most two decimals, like 1500 or 1500.50.`);
    credits.push({ lineId, amount });
  }
  return credits;
}

const raiseCreditNote = operatorPage('correct-invoices', async (deps, req, ctx, match) => {
  const [agentGroupId, invoiceId] = [decodeURIComponent(match[1]!), decodeURIComponent(match[2]!)];
  // The admin tool's `invoices credit-note`: raised, registered with the IRP where marked, its PDF stored, audited under the person.
  const outcome = await issueOperatorCreditNote(
    billingDeps(deps.svc, deps.renderer),
    agentGroupId,
    invoiceId,
    creditLines(req.form),
    req.form.get('reason') ?? '',
    ctx.origin,
  );
  const n = outcome.creditNote;
  return operatorInvoicePage(
    deps,
    ctx,
    agentGroupId,
    invoiceId,
    html`<p class="notice" role="status">Credit note <a href="${operatorInvoicePath(agentGroupId, n.id)}">${n.invoiceNumber}</a> of ${money(n.total)} raised.${outcome.pdfStored ? '' : ` Its PDF could not be stored now (${n.lastError ?? ''}); the next billing run stores it.`}</p>`,
  );
});

/** An audit field set as a short line: `status: ISSUED, total: 525000`. */
const fieldsLine = (fields: AuditFields | null) =>
  fields
    ? Object.entries(fields)
        .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(' ') : String(v)}`)
        .join(', ')
    : '';

const auditSearch = operatorPage('audit-search', async (deps, req, ctx) => {
  const query = filled(req.query);
  const result = await searchAuditTrail(deps.svc, deps.people, query, deps.svc.clock.now());
  // Operators read the trail as recorded: a person's changes name the person (their address), not the role.
  const personIds = [...new Set(result.events.map((e) => e.actor).filter((a) => a.startsWith('person:')))];
  const people = new Map(await Promise.all(personIds.map(async (a) => [a, (await deps.people.getPerson(a.slice('person:'.length)))?.email] as const)));
  const field = (name: keyof AuditSearch, label: string) =>
    html`<label for="audit-${name}">${label}</label><input id="audit-${name}" name="${name}" value="${query[name] ?? ''}">`;
  const body = html`<form method="get" action="/console/operator/audit" role="search" aria-label="Search the audit trail">
${field('target', 'Target (kind:id, e.g. group:acme-north, invoice:<id>, booking:<booking code or id>)')}
${field('group', 'Agent group id')}
${field('actor', 'Actor (a person’s e-mail, person:<id>, an operator’s name or a key id)')}
${field('from', 'From (IST date yyyy-mm-dd, or a date-time with offset)')}
${field('to', 'To (IST date, or a date-time with offset; empty: now)')}
<button type="submit">Search</button>
</form>
<p>${result.from ? `From ${istDateTime(result.from)} to ${istDateTime(result.to)}` : `Up to ${istDateTime(result.to)}`}, oldest first.</p>
${result.truncated ? html`<p class="alert" role="status">Only the first ${String(AUDIT_SEARCH_LIMIT)} events are shown: narrow the search.</p>` : ''}
${
  result.events.length
    ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Audit events, scrolls sideways"><table><caption>Audit events</caption><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">On</th><th scope="col">Account</th><th scope="col">Before</th><th scope="col">After</th></tr></thead><tbody>${result.events.map(
        (e) =>
          html`<tr><td>${istDateTime(e.at)}</td><td>${people.get(e.actor) ? html`${people.get(e.actor)} <span>(${e.actor})</span>` : e.actor} (${e.actorKind})</td><td>${e.action}</td><td>${e.target}</td><td>${e.account ?? '—'}</td><td>${fieldsLine(e.before)}</td><td>${fieldsLine(e.after)}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No event matches.</p>`
}`;
  return operatorHtml(ctx, 'Audit trail', 'audit-search', body);
});

/** A sandbox page: off sandbox stages it answers as a path that does not exist, as the API's test-clock routes do. */
const sandboxOnly = (deps: ConsoleAppDeps) => {
  if (!deps.svc.config.isSandbox) throw new NotFoundError('Page');
};

/** An advance's target: a date-time as the browser's datetime-local field sends it (IST, the console's time), or an instant with its offset. */
function clockTarget(text: string): Date {
  const t = text.trim();
  const withOffset = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(t) ? `${t}${t.length === 16 ? ':00' : ''}+05:30` : t;
  if (!isInstant(withOffset)) throw new ValidationError('to', `to must be an IST date-time (yyyy-mm-ddThh:mm) or ${INSTANT_RULE}.`);
  return new Date(withOffset);
}

async function testClocksPage(deps: ConsoleAppDeps, ctx: PartnerContext, notice?: Html): Promise<HttpResult> {
  const [clock] = await listTestClocks(deps.svc, ctx.principal);
  const realNow = deps.svc.realClock.now();
  const path = (action: string) => `/console/test-clocks/${encodeURIComponent(clock!.id)}/${action}`;
  const body = html`${notice ?? ''}
<p>On this sandbox stage your account can live at a time of its own: bookings, billing, due dates and credit control then run at the clock's time. Advancing runs the work that fell due (billing of closed periods, credit control, reminders) as the daily run would.</p>
${
  clock
    ? html`<dl class="figures">${figure("The account's time", istDateTime(timeOf(clock, realNow).toISOString()))}${figure('Status', clock.status)}${figure('Created', istDateTime(clock.createdAt))}${figure('Advances up to', istDateTime(advanceLimitOf(clock).toISOString()))}</dl>
<h2>Advance</h2>
${postForm(
  ctx.viewer,
  path('advance'),
  html`<label for="clock-to">To (IST)</label><input id="clock-to" name="to" type="datetime-local" required>
<button type="submit">Advance the clock</button>`,
  'Advance the test clock',
)}
<h2>Delete</h2>
<p>Only a clock never advanced ahead of real time can be deleted: the account's documents may be dated at the clock's time.</p>
${postForm(ctx.viewer, path('delete'), html`<button type="submit">Delete the test clock</button>`, 'Delete the test clock')}`
    : html`<p>Your account is on real time.</p>
${postForm(ctx.viewer, '/console/test-clocks/create', html`<button type="submit">Create a test clock</button>`, 'Create a test clock')}`
}`;
  return partnerHtml(ctx, 'Test clock', 'test-clocks', body);
}

const testClocks = partnerPage('test-clocks', async (deps, _req, ctx) => {
  sandboxOnly(deps);
  return testClocksPage(deps, ctx);
});

const newTestClockForm = partnerPage('test-clocks', async (deps, _req, ctx) => {
  sandboxOnly(deps);
  // The API's POST /v1/test-clocks: one clock per group, at the real now.
  await createTestClock(testClockDeps(deps.svc), ctx.principal, undefined);
  return testClocksPage(deps, ctx, html`<p class="notice" role="status">Test clock created at real time.</p>`);
});

const advanceClock = partnerPage('test-clocks', async (deps, req, ctx, match) => {
  sandboxOnly(deps);
  const to = clockTarget(req.form.get('to') ?? '');
  // The API's advance: the clock jumps, then the due work runs at its new time.
  const moved = await advanceTestClock({ ...testClockDeps(deps.svc), dueWork: dueWorkOn(deps.svc) }, ctx.principal, decodeURIComponent(match[1]!), to);
  return testClocksPage(deps, ctx, html`<p class="notice" role="status">The clock is at ${istDateTime(moved.setTo)}; the work due by then has run.</p>`);
});

const removeClock = partnerPage('test-clocks', async (deps, _req, ctx, match) => {
  sandboxOnly(deps);
  await deleteTestClock(deps.svc, ctx.principal, decodeURIComponent(match[1]!));
  return testClocksPage(deps, ctx, html`<p class="notice" role="status">The test clock is deleted: your account is on real time.</p>`);
});

/** Where a person lands after signing in. */
export const landingOf = (person: Person): string => (person.access.kind === 'operator' ? '/console/operator/groups' : '/console/home');

const root: Handler = async (deps, req) => {
  const resolved = await resolveSession(deps, req.cookies[SESSION_COOKIE]);
  if (!resolved.ok) return redirect('/console/sign-in');
  return redirect(landingOf(resolved.person));
};

const ROUTES: readonly [string, RegExp, Handler][] = [
  ['GET', /^\/console\/?$/, root],
  [
    'GET',
    /^\/console\/assets\/console\.css$/,
    async () => ({ statusCode: 200, headers: { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'max-age=300' }, body: CONSOLE_CSS }),
  ],
  ['GET', /^\/console\/sign-in$/, async (_d, req) => signInPage(ENDED_MESSAGES[req.query.ended ?? ''] ?? '')],
  [
    'POST',
    /^\/console\/sign-in$/,
    async (deps, req) => {
      await requestSignIn(deps, req.form.get('email') ?? '', req.sourceIp);
      return htmlResult(
        200,
        page(
          'Check your e-mail',
          html`<p class="notice" role="status">If that address has access to the console, a sign-in link is on its way. It works once, for 15 minutes.</p>`,
        ),
      );
    },
  ],
  [
    'GET',
    /^\/console\/sign-in\/link$/,
    // A page with a button, not the sign-in itself: mail scanners open links, and must not use them up.
    async (_d, req) =>
      htmlResult(
        200,
        page(
          'Finish signing in',
          html`<form method="post" action="/console/sign-in/link" aria-label="Finish signing in"><input type="hidden" name="token" value="${req.query.token ?? ''}"><button type="submit">Sign in to the console</button></form>`,
        ),
      ),
  ],
  [
    'POST',
    /^\/console\/sign-in\/link$/,
    async (deps, req) => {
      const started = await redeemSignIn(deps, req.form.get('token') ?? '');
      if (!started) return signInPage('That sign-in link was already used or has expired. Ask for a new one.', 400, 'Ask for a new link.');
      return redirect(landingOf(started.person), [sessionCookie(started.cookieValue)]);
    },
  ],
  [
    'POST',
    /^\/console\/sign-out$/,
    async (deps, req) => {
      const signed = await signedIn(deps, req);
      if (!('person' in signed)) return signed;
      await signOut(deps, signed.session);
      return redirect('/console/sign-in?ended=signed-out', [clearedCookie]);
    },
  ],
  [
    'POST',
    /^\/console\/sign-out-everywhere$/,
    async (deps, req) => {
      const signed = await signedIn(deps, req);
      if (!('person' in signed)) return signed;
      await signOutEverywhere(deps, signed.person, signed.origin);
      return redirect('/console/sign-in?ended=revoked', [clearedCookie]);
    },
  ],
  ...PASSKEY_ROUTES,
  ['GET', /^\/console\/home$/, home],
  ['GET', /^\/console\/bookings$/, bookings],
  ['GET', /^\/console\/bookings\/([^/]+)$/, bookingDetail],
  ['GET', /^\/console\/invoices$/, invoices],
  ['GET', /^\/console\/invoices\/([^/]+)\/pdf$/, invoiceDocument],
  ['GET', /^\/console\/statement$/, statement],
  ['GET', /^\/console\/statement\.csv$/, statementFile],
  ['GET', /^\/console\/statement\.pdf$/, statementPdfFile],
  ['GET', /^\/console\/ledger$/, ledger],
  ['GET', /^\/console\/audit$/, audit],
  ['GET', /^\/console\/webhooks$/, webhooks],
  ['POST', /^\/console\/webhooks\/create$/, newEndpoint],
  ['POST', /^\/console\/webhooks\/([^/]+)\/rotate-secret$/, rotateSecret],
  ['GET', /^\/console\/webhooks\/([^/]+)\/edit$/, editEndpointForm],
  ['POST', /^\/console\/webhooks\/([^/]+)\/edit$/, editEndpoint],
  ['GET', /^\/console\/webhooks\/([^/]+)\/deliveries$/, deliveries],
  ['POST', /^\/console\/webhooks\/deliveries\/([^/]+)\/resend$/, resend],
  ['GET', /^\/console\/keys$/, keys],
  ['POST', /^\/console\/keys\/issue$/, newKey],
  ['POST', /^\/console\/keys\/([^/]+)\/revoke$/, revoke],
  ['POST', /^\/console\/keys\/([^/]+)\/replace$/, replace],
  ['GET', /^\/console\/partner-keys$/, partnerPage('partner-keys', partnerKeys)],
  ['POST', /^\/console\/partner-keys\/issue$/, partnerPage('partner-keys', issuePartnerKey)],
  ['POST', /^\/console\/partner-keys\/([^/]+)\/revoke$/, partnerPage('partner-keys', revokePartnerKey)],
  ['POST', /^\/console\/partner-keys\/([^/]+)\/replace$/, partnerPage('partner-keys', replacePartnerKey)],
  ['GET', /^\/console\/partner-audit$/, partnerPage('partner-audit', partnerAudit)],
  ['GET', /^\/console\/test-clocks$/, testClocks],
  ['POST', /^\/console\/test-clocks\/create$/, newTestClockForm],
  ['POST', /^\/console\/test-clocks\/([^/]+)\/advance$/, advanceClock],
  ['POST', /^\/console\/test-clocks\/([^/]+)\/delete$/, removeClock],
  ['GET', /^\/console\/test-scenarios$/, partnerPage('sandbox-header', sandboxScenariosPage)],
  ['GET', /^\/console\/team$/, team],
  ['POST', /^\/console\/team\/invite$/, invite],
  ['GET', /^\/console\/contacts$/, contacts],
  ['POST', /^\/console\/contacts\/add$/, addFinanceContact],
  ['POST', /^\/console\/contacts\/([^/]+)\/update$/, updateFinanceContact],
  ['POST', /^\/console\/contacts\/([^/]+)\/remove$/, removeFinanceContact],
  ['GET', /^\/console\/operator\/groups$/, groups],
  ['GET', /^\/console\/operator\/groups\/([^/]+)$/, groupDetail],
  ['POST', /^\/console\/operator\/groups\/([^/]+)\/hold$/, setHold],
  ['POST', /^\/console\/operator\/groups\/([^/]+)\/limit$/, setLimit],
  ['GET', /^\/console\/operator\/groups\/([^/]+)\/payments$/, groupPayments],
  ['POST', /^\/console\/operator\/groups\/([^/]+)\/payments$/, recordPayment],
  ['GET', /^\/console\/operator\/partners$/, partners],
  ['GET', /^\/console\/operator\/partners\/([^/]+)$/, partnerDetail],
  ['POST', /^\/console\/operator\/partners\/create$/, operatorPage('create-partner', createPartnerPage)],
  ['POST', /^\/console\/operator\/partners\/([^/]+)\/groups$/, operatorPage('create-group', createGroupPage)],
  ['POST', /^\/console\/operator\/groups\/([^/]+)\/terms$/, operatorPage('terms', setTermsPage)],
  ['POST', /^\/console\/operator\/groups\/([^/]+)\/gstin$/, operatorPage('terms', setGstinPage)],
  ['POST', /^\/console\/operator\/groups\/([^/]+)\/bill-to$/, operatorPage('terms', setBillToPage)],
  ['POST', /^\/console\/operator\/groups\/([^/]+)\/distribution$/, operatorPage('distribution', setDistributionPage)],
  ['GET', /^\/console\/operator\/payments$/, operatorPage('gateway-payments', gatewayPaymentsPage)],
  ['POST', /^\/console\/operator\/payments\/reconcile$/, operatorPage('reconcile-payments', reconcileNow)],
  ['GET', /^\/console\/operator\/channex$/, operatorPage('channex', channexPage)],
  ['GET', /^\/console\/operator\/billing$/, billingRunsPage],
  ['GET', /^\/console\/operator\/billing\/runs\/([^/]+)$/, billingRunDetail],
  ['POST', /^\/console\/operator\/billing\/run$/, startBillingRun],
  ['POST', /^\/console\/operator\/groups\/([^/]+)\/invoices\/bill$/, billGroupNow],
  ['GET', /^\/console\/operator\/audit$/, auditSearch],
  ['GET', /^\/console\/operator\/groups\/([^/]+)\/invoices$/, groupInvoices],
  ['GET', /^\/console\/operator\/groups\/([^/]+)\/invoices\/([^/]+)$/, operatorInvoice],
  ['POST', /^\/console\/operator\/groups\/([^/]+)\/invoices\/([^/]+)\/void$/, voidDocument],
  ['POST', /^\/console\/operator\/groups\/([^/]+)\/invoices\/([^/]+)\/credit-note$/, raiseCreditNote],
];

/** Every console route as [method, pattern source]: the tenancy test checks each is refused to someone who must not reach it. */
export const CONSOLE_ROUTE_PATTERNS = ROUTES.map(([method, pattern]) => [method, pattern.source] as const);

/** One request of the console: the page, a redirect, a download, or a page that says what went wrong. */
export async function handleConsole(deps: ConsoleAppDeps, event: HttpEvent): Promise<HttpResult> {
  const req = requestOf(event);
  const route = ROUTES.find(([method, pattern]) => pattern.test(req.path) && method === req.method);
  if (!route) {
    if (ROUTES.some(([, pattern]) => pattern.test(req.path))) return errorPage(405, 'Not allowed', `${req.method} is not allowed here.`);
    return errorPage(404, 'Not found', 'There is no such page.');
  }
  try {
    return await route[2](deps, req, req.path.match(route[1])!);
  } catch (err) {
    if (err instanceof NotFoundError) return errorPage(404, 'Not found', 'There is no such page, or it is not part of your account.');
    if (err instanceof ForbiddenError) return errorPage(403, 'Not for your role', 'Your role does not include this screen. Ask your account admin.');
    if (err instanceof CsrfError)
      return errorPage(403, 'Form expired', 'This form was not sent from your current session. Go back, reload the page and try again.');
    if (err instanceof SignInRateLimitedError) {
      return {
        ...signInPage(`Too many sign-in requests. Try again in ${err.retryAfterSeconds} seconds.`, 429),
        headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Retry-After': String(err.retryAfterSeconds) },
      };
    }
    if (err instanceof ValidationError) {
      if (req.path === '/console/sign-in') return signInPage('Check the address.', 400, err.message);
      return errorPage(400, 'Check your input', `${err.param}: ${err.message}`);
    }
    if (err instanceof ConflictError) return errorPage(409, 'Already done', err.message);
    if (err instanceof ServiceUnavailableError) {
      const unavailable = errorPage(503, 'Try again shortly', err.message);
      return { ...unavailable, headers: { ...unavailable.headers, 'Retry-After': String(err.retryAfterSeconds) } };
    }
    throw err;
  }
}
