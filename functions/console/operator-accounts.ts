import { createAgentGroup, createPartner, updateAgentGroup, type AgentGroupUpdate, type NewAgentGroup } from '../../domain/admin.ts';
import { can } from '../../domain/console/people.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { billToOf, billToOffer, checkRecipientGstin } from '../../domain/invoicing/recipient-gstin.ts';
import { formatRupees, parseRupees } from '../../domain/money.ts';
import type { Taxpayer } from '../../domain/ports/e-invoice-registry.ts';
import { BILLING_CYCLES, paymentTermsOf, type AgentGroup, type BillingCycle, type Partner, type PostalAddress } from '../../domain/tenants.ts';
import { adminDeps } from '../../infra/compose/core.ts';
import type { HttpResult } from '../http/types.ts';
import { figure, groupPage, operatorHtml, redirect, type ConsoleAppDeps, type Request, type Signed } from './app.ts';
import { istDateTime, money } from './format.ts';
import { Html, html } from './html.ts';
import { postForm, type Viewer } from './layout.ts';
import { reconcileForm } from './operator-reconcile.ts';

/*
 * Operators' screens for onboarding and terms (partners and groups created, a group's payment terms and
 * GSTIN) and the gateway's unmatched payments and open disputes: each is the admin tool's use case
 * (docs/decisions/console.md). The handlers here are wrapped with their capability in app.ts's routes.
 */

type Render = (deps: ConsoleAppDeps, req: Request, ctx: Signed, match: RegExpMatchArray) => Promise<HttpResult>;

const field = (req: Request, name: string): string => req.form.get(name)?.trim() ?? '';

/** A whole number of days as typed; empty is `empty`. The ranges are the domain's (validateAgentGroup). */
function daysField(req: Request, name: string): number | undefined {
  const text = field(req, name);
  if (text === '') return undefined;
  if (!/^[0-9]{1,4}$/.test(text)) throw new ValidationError(name, `${name} must be a whole number of days, like 15.`);
  return Number(text);
}

function rupeesField(req: Request, name: string) {
  const amount = parseRupees(field(req, name));
  if (amount === undefined) throw new ValidationError(name, `${name} must be rupees with at most two decimals, like 500000 or 500000.50.`);
  return amount;
}

/** GSTINs are printed in capitals; people often type them in lower case (as the admin tool takes them). */
const gstinField = (req: Request): string | null => field(req, 'gstin').toUpperCase() || null;

const addressText = (a: PostalAddress) => [a.line1, a.line2, a.city, a.state, a.postalCode, a.country].filter(Boolean).join(', ');

/** The IRP's bill-to for the GSTIN, when it differs from the group's: offered, taken only on the operator's word (as the tool's). */
function offerNotice(viewer: Viewer, group: AgentGroup, taxpayer: Taxpayer | undefined): Html | '' {
  const offer = taxpayer && billToOffer(taxpayer, group);
  if (!offer) return '';
  return html`<div class="notice" role="status"><p>The IRP has GSTIN ${group.gstin ?? ''} as ${offer.legalName}, ${addressText(offer.address)}; the group's bill-to differs.</p>
${postForm(
  viewer,
  `/console/operator/groups/${encodeURIComponent(group.agentGroupId)}/gstin`,
  html`<input type="hidden" name="gstin" value="${group.gstin ?? ''}"><input type="hidden" name="useIrpDetails" value="true"><button type="submit">Bill to the IRP's name and address</button>`,
  "Bill to the IRP's name and address",
)}</div>`;
}

// ---- Partners and groups created -------------------------------------------------------------

/** The form on the partners page: as `partners create`. */
export const newPartnerForm = (viewer: Viewer): Html =>
  html`<h2>Add a partner</h2>
${postForm(
  viewer,
  '/console/operator/partners/create',
  html`<label for="partner-id">Partner id (2–63 characters of a–z, 0–9 and '-')</label><input id="partner-id" name="partnerId" required>
<label for="partner-name">Name</label><input id="partner-name" name="name" required>
<label for="partner-channel">Channel (whose catalogue and rates the partner reads)</label><input id="partner-channel" name="channelId" required>
<button type="submit">Add partner</button>`,
  'Add a partner',
)}`;

export const createPartnerPage: Render = async (deps, req, ctx) => {
  // The admin tool's `partners create`: the same checks and `partner.created` event, under the person.
  const partner = await createPartner(adminDeps(deps.svc, ctx.origin), {
    partnerId: field(req, 'partnerId'),
    name: field(req, 'name'),
    channelId: field(req, 'channelId'),
  });
  return redirect(`/console/operator/partners/${encodeURIComponent(partner.partnerId)}`);
};

/** The form on a partner's page: as `groups create`, the channel the partner's by default. */
export const newGroupForm = (viewer: Viewer, partner: Partner): Html =>
  html`<h2>Add an agent group</h2>
${postForm(
  viewer,
  `/console/operator/partners/${encodeURIComponent(partner.partnerId)}/groups`,
  html`<label for="group-id">Group id (2–63 characters of a–z, 0–9 and '-')</label><input id="group-id" name="agentGroupId" required>
<label for="group-name">Name</label><input id="group-name" name="name" required>
<label for="group-channel">Channel (whose listings and rates the group books)</label><input id="group-channel" name="channelId" value="${partner.channelId}" required>
<label for="group-limit">Credit limit (₹, e.g. 500000.00)</label><input id="group-limit" name="creditLimit" inputmode="decimal" required>
<label for="group-cycle">Billing cycle</label><select id="group-cycle" name="billingCycle">${BILLING_CYCLES.map((c) => html`<option value="${c}">${c}</option>`)}</select>
<label for="group-anchor">Day the cycle closes (1–28 monthly; 1–7, Monday = 1, weekly and fortnightly)</label><input id="group-anchor" name="billingAnchorDay" inputmode="numeric" required>
<label for="group-terms">Payment terms in days (empty: ${String(paymentTermsOf({}))})</label><input id="group-terms" name="paymentTermsDays" inputmode="numeric">
<label for="group-overdue">Hold the account when an invoice is overdue by more than (days; empty: never)</label><input id="group-overdue" name="overdueHoldDays" inputmode="numeric">
<label for="group-gstin">GSTIN (if registered; checked with the IRP)</label><input id="group-gstin" name="gstin" autocapitalize="characters">
<label for="group-legal">Legal name (as on the GST invoice)</label><input id="group-legal" name="legalName" required>
<label for="group-line1">Registered address, first line</label><input id="group-line1" name="line1" required>
<label for="group-line2">Second line (optional)</label><input id="group-line2" name="line2">
<label for="group-city">City</label><input id="group-city" name="city" required>
<label for="group-state">State or union territory (e.g. Maharashtra)</label><input id="group-state" name="state" required>
<label for="group-pin">PIN code</label><input id="group-pin" name="postalCode" inputmode="numeric" required>
<label for="group-country">Country code</label><input id="group-country" name="country" value="IN" required>
<button type="submit">Add agent group</button>`,
  'Add an agent group',
)}`;

export const createGroupPage: Render = async (deps, req, ctx, match) => {
  const partnerId = decodeURIComponent(match[1]!);
  // Another partner's page is never reached by a wrong id: a partner that does not exist is a missing page.
  if (!(await deps.svc.tenants.getPartner(partnerId))) throw new NotFoundError('Partner');
  const cycle = field(req, 'billingCycle');
  if (!(BILLING_CYCLES as readonly string[]).includes(cycle))
    throw new ValidationError('billingCycle', `billingCycle must be one of ${BILLING_CYCLES.join(', ')}.`);
  const anchor = daysField(req, 'billingAnchorDay');
  if (anchor === undefined) throw new ValidationError('billingAnchorDay', 'billingAnchorDay is required.');
  const paymentTermsDays = daysField(req, 'paymentTermsDays');
  const line2 = field(req, 'line2');
  const input: NewAgentGroup = {
    agentGroupId: field(req, 'agentGroupId'),
    partnerId,
    name: field(req, 'name'),
    channelId: field(req, 'channelId'),
    creditLimit: rupeesField(req, 'creditLimit'),
    onHold: false,
    distributionEnabled: true,
    billingCycle: cycle as BillingCycle,
    billingAnchorDay: anchor,
    gstin: gstinField(req),
    ...(paymentTermsDays === undefined ? {} : { paymentTermsDays }),
    overdueHoldDays: daysField(req, 'overdueHoldDays') ?? null,
    legalName: field(req, 'legalName'),
    address: {
      line1: field(req, 'line1'),
      ...(line2 ? { line2 } : {}),
      city: field(req, 'city'),
      state: field(req, 'state'),
      postalCode: field(req, 'postalCode'),
      country: field(req, 'country').toUpperCase(),
    },
  };
  // As `groups create`: the GSTIN checked with the IRP first (unknown, cancelled, inactive or provisional refused in its words), nothing written before.
  const taxpayer = input.gstin ? await checkRecipientGstin(deps.svc.eInvoices, input.gstin) : undefined;
  const group = await createAgentGroup(adminDeps(deps.svc, ctx.origin), input);
  return groupPage(
    deps,
    ctx,
    group.agentGroupId,
    html`<p class="notice" role="status">Agent group ${group.name} created under ${group.partnerId}${group.gstin ? html`; the IRP has GSTIN ${group.gstin} as active` : ''}.</p>${offerNotice(ctx.viewer, group, taxpayer)}`,
  );
};

// ---- A group's terms, GSTIN, bill-to and distribution ------------------------------------------

const openOrClosed = (group: AgentGroup) => (group.distributionEnabled ? "Open: the group's keys use /v1" : "Closed: the group's keys are refused on /v1");

/** The bill-to form's fields are named as the domain's checks name them (`address.postalCode`), so a 400 names the box. */
const ADDRESS_FIELDS: readonly [keyof PostalAddress, string, string][] = [
  ['line1', 'Registered address, first line', ''],
  ['line2', 'Second line (optional; empty removes it)', ''],
  ['city', 'City', ''],
  ['state', 'State or union territory (e.g. Maharashtra)', ''],
  ['postalCode', 'PIN code', ' inputmode="numeric"'],
  ['country', 'Country code', ''],
];

function billToForm(viewer: Viewer, path: string, group: AgentGroup): Html {
  return html`<h2>Bill-to</h2>
<p>The legal name and registered address printed on the group's GST invoices from now on; invoices already issued keep theirs. With a GSTIN, the form above offers the IRP's.</p>
${postForm(
  viewer,
  `${path}/bill-to`,
  html`<label for="bill-legal">Legal name (as on the GST invoice)</label><input id="bill-legal" name="legalName" value="${group.legalName}" required>
${ADDRESS_FIELDS.map(
  ([key, label, extra]) =>
    html`<label for="bill-${key}">${label}</label><input id="bill-${key}" name="address.${key}" value="${group.address[key] ?? ''}"${new Html(extra)}${key === 'line2' ? '' : new Html(' required')}>`,
)}
<button type="submit">Set bill-to</button>`,
  'Set the bill-to',
)}`;
}

/** On a group's page: its terms, tax details and distribution, and (for the roles that may) the forms that change them. */
export function termsSection(ctx: Signed, group: AgentGroup): Html {
  const path = `/console/operator/groups/${encodeURIComponent(group.agentGroupId)}`;
  const changing = can(ctx.person.access, 'terms');
  return html`<h2>Terms</h2>
<dl class="figures">
${figure('Billing', `${group.billingCycle}, closes on day ${group.billingAnchorDay}`)}
${figure('Payment terms', `${paymentTermsOf(group)} days`)}
${figure('Hold when overdue', group.overdueHoldDays === undefined || group.overdueHoldDays === null ? 'Never' : `After ${group.overdueHoldDays} days`)}
${figure('GSTIN', group.gstin ?? 'None')}
${figure('Legal name', group.legalName)}
${figure('Address', addressText(group.address))}
${figure('Distribution', openOrClosed(group))}
</dl>
<p>The billing cycle and the day it closes are set when the group is created; neither the admin tool nor the console changes them (the billing of the period already running would have no rule). Nor is what the group sells changed here: that is its channel's listings, and the channel is the group's from its creation.</p>
${
  changing
    ? html`${postForm(
        ctx.viewer,
        `${path}/terms`,
        html`<label for="terms-days">Payment terms in days</label><input id="terms-days" name="paymentTermsDays" inputmode="numeric" value="${String(paymentTermsOf(group))}" required>
<label for="terms-overdue">Hold when an invoice is overdue by more than (days; empty: never)</label><input id="terms-overdue" name="overdueHoldDays" inputmode="numeric" value="${group.overdueHoldDays === undefined || group.overdueHoldDays === null ? '' : String(group.overdueHoldDays)}">
<button type="submit">Set terms</button>`,
        'Set the terms',
      )}
<h2>GSTIN</h2>
${postForm(
  ctx.viewer,
  `${path}/gstin`,
  html`<label for="gstin-new">GSTIN (checked with the IRP; empty: none)</label><input id="gstin-new" name="gstin" value="${group.gstin ?? ''}" autocapitalize="characters">
<button type="submit">Check and set GSTIN</button>`,
  'Set the GSTIN',
)}
${billToForm(ctx.viewer, path, group)}`
    : ''
}
${
  can(ctx.person.access, 'distribution')
    ? html`<h2>Distribution</h2>
<p>${group.distributionEnabled ? "Closing distribution refuses the group's keys on /v1 at once (its people still sign in to the console); a hold only refuses new bookings." : "Opening distribution lets the group's keys use /v1 again."}</p>
${postForm(
  ctx.viewer,
  `${path}/distribution`,
  html`<input type="hidden" name="distribution" value="${group.distributionEnabled ? 'disabled' : 'enabled'}"><button type="submit">${group.distributionEnabled ? 'Close distribution' : 'Open distribution'}</button>`,
  group.distributionEnabled ? 'Close distribution' : 'Open distribution',
)}`
    : ''
}`;
}

export const setDistributionPage: Render = async (deps, req, ctx, match) => {
  const agentGroupId = decodeURIComponent(match[1]!);
  const distribution = field(req, 'distribution');
  if (distribution !== 'enabled' && distribution !== 'disabled') throw new ValidationError('distribution', 'distribution must be enabled or disabled.');
  // As `groups update --distribution enabled|disabled`: group.updated with before and after, under the person.
  const updated = await updateAgentGroup(adminDeps(deps.svc, ctx.origin), agentGroupId, { distributionEnabled: distribution === 'enabled' });
  const done = updated.distributionEnabled
    ? "Distribution is open: the group's keys use /v1 again."
    : "Distribution is closed: the group's keys are refused on /v1 from now.";
  return groupPage(deps, ctx, agentGroupId, html`<p class="notice" role="status">${done}</p>`);
};

export const setBillToPage: Render = async (deps, req, ctx, match) => {
  const agentGroupId = decodeURIComponent(match[1]!);
  // As `groups update --legal-name --address-line1 …`: every line given (an empty second line removes it), validated whole, audited under the person.
  const address = Object.fromEntries(ADDRESS_FIELDS.map(([key]) => [key, field(req, `address.${key}`)])) as Record<keyof PostalAddress, string>;
  const updated = await updateAgentGroup(adminDeps(deps.svc, ctx.origin), agentGroupId, {
    legalName: field(req, 'legalName'),
    address: { ...address, country: address.country.toUpperCase() },
  });
  return groupPage(
    deps,
    ctx,
    agentGroupId,
    html`<p class="notice" role="status">Invoices issued from now are billed to ${updated.legalName}, ${addressText(updated.address)}.</p>`,
  );
};

export const setTermsPage: Render = async (deps, req, ctx, match) => {
  const agentGroupId = decodeURIComponent(match[1]!);
  const paymentTermsDays = daysField(req, 'paymentTermsDays');
  if (paymentTermsDays === undefined) throw new ValidationError('paymentTermsDays', 'paymentTermsDays is required.');
  // As `groups update --payment-terms --overdue-hold`: validated whole, `group.updated` with before and after, under the person.
  const updated = await updateAgentGroup(adminDeps(deps.svc, ctx.origin), agentGroupId, {
    paymentTermsDays,
    overdueHoldDays: daysField(req, 'overdueHoldDays') ?? null,
  });
  return groupPage(
    deps,
    ctx,
    agentGroupId,
    html`<p class="notice" role="status">Invoices issued from now are due ${String(paymentTermsOf(updated))} days after issue; ${updated.overdueHoldDays === null || updated.overdueHoldDays === undefined ? 'no automatic hold' : `hold after ${updated.overdueHoldDays} days overdue`}.</p>`,
  );
};

export const setGstinPage: Render = async (deps, req, ctx, match) => {
  const agentGroupId = decodeURIComponent(match[1]!);
  const gstin = gstinField(req);
  const useIrp = field(req, 'useIrpDetails') === 'true';
  let update: AgentGroupUpdate = { gstin };
  let taxpayer: Taxpayer | undefined;
  // As `groups update --gstin [--use-irp-details]`: checked with the IRP before anything is written.
  if (gstin) taxpayer = await checkRecipientGstin(deps.svc.eInvoices, gstin);
  if (useIrp) {
    const billTo = taxpayer && billToOf(taxpayer);
    if (!billTo)
      throw new ValidationError('useIrpDetails', `The IRP gives no legal name and address for ${gstin ?? 'no GSTIN'}: set them with the admin tool.`);
    update = { ...update, legalName: billTo.legalName, address: { ...billTo.address, line2: billTo.address.line2 ?? '' } };
  }
  const updated = await updateAgentGroup(adminDeps(deps.svc, ctx.origin), agentGroupId, update);
  const done = updated.gstin
    ? useIrp
      ? `The group is billed to ${updated.legalName}, as the IRP has GSTIN ${updated.gstin}.`
      : `The IRP has GSTIN ${updated.gstin} as active; it is the group's now.`
    : 'The group has no GSTIN now.';
  return groupPage(deps, ctx, agentGroupId, html`<p class="notice" role="status">${done}</p>${offerNotice(ctx.viewer, updated, taxpayer)}`);
};

// ---- The gateway's unmatched payments and open disputes -------------------------------------

export const gatewayPaymentsPage: Render = async (deps, _req, ctx) => {
  // The admin tool's `payments unmatched` and `payments disputes`.
  const [unmatched, disputes] = await Promise.all([deps.svc.receivables.unmatchedPayments(), deps.svc.receivables.openDisputes()]);
  const body = html`<h2>Unmatched gateway payments</h2>
<p>Payments Razorpay captured that are no group's money: an order or virtual account that is not ours, or a currency other than INR. Razorpay was answered, so it does not send them again; nothing was posted to any account. Refund each to its payer on the Razorpay dashboard. Never record one as a bank transfer: that would count money the gateway holds.</p>
${
  unmatched.length
    ? html`<div class="table-wrap"><table><caption class="skip">Unmatched gateway payments</caption><thead><tr><th scope="col">Kept</th><th scope="col">Payment</th><th scope="col">Why</th><th scope="col" class="num">Amount</th><th scope="col">Order or account</th><th scope="col">Event</th></tr></thead><tbody>${unmatched.map(
        (u) =>
          html`<tr><td>${istDateTime(u.keptAt)}</td><td>${u.paymentId}</td><td>${UNMATCHED_REASONS[u.reason]}</td><td class="num">${u.currency === 'INR' ? money(u.amount) : `${u.currency} ${formatRupees(u.amount)}`}</td><td>${u.orderId ?? u.virtualAccountId ?? ''}</td><td>${u.event}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No unmatched gateway payment.</p>`
}
<h2>Open disputes</h2>
<p>Answer each on the Razorpay dashboard (Transactions, Disputes) before its respond-by date. A lost dispute gives the amount back as a refund does.</p>
${
  disputes.length
    ? html`<div class="table-wrap"><table><caption class="skip">Open disputes</caption><thead><tr><th scope="col">Respond by</th><th scope="col">Dispute</th><th scope="col">Status</th><th scope="col">Payment</th><th scope="col" class="num">Amount</th><th scope="col">Group</th></tr></thead><tbody>${disputes.map(
        (d) =>
          html`<tr><td>${istDateTime(d.respondBy)}</td><td>${d.disputeId}</td><td>${d.status} (${d.phase})</td><td>${d.paymentId}</td><td class="num">${money(d.amount)}</td><td><a href="/console/operator/groups/${encodeURIComponent(d.agentGroupId)}/payments">${d.agentGroupId}</a></td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No open dispute.</p>`
}
<h2>Reconciliation</h2>
<p>Every hour the service asks Razorpay for the payments of every open invoice's order and each group's virtual account, and records those whose notification never came (once each). A group's payments page shows what was recorded; a bank transfer that came outside Razorpay is recorded there by a finance operator.</p>
${reconcileForm(deps, ctx)}`;
  return operatorHtml(ctx, 'Gateway payments', 'gateway-payments', body);
};

const UNMATCHED_REASONS: Readonly<Record<string, string>> = {
  UNKNOWN_ORDER: 'Order not ours',
  UNKNOWN_VIRTUAL_ACCOUNT: 'Virtual account not ours',
  CURRENCY: 'Not in INR',
};
