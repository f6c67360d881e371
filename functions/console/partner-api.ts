import type { ApiKeyRecord } from '../../domain/api-key.ts';
import { issueKey, replaceKey, revokeKey } from '../../domain/admin.ts';
import { listAuditEvents } from '../../domain/audit/read-audit-events.ts';
import { ConflictError, NotFoundError } from '../../domain/errors.ts';
import { adminDeps } from '../../infra/compose/core.ts';
import { AuditEventsQuerySchema } from '../contracts/audit.ts';
import { parseInput } from '../http/validate.ts';
import type { HttpResult } from '../http/types.ts';
import { filled, nextPageLink, partnerHtml, partnerPrincipal, type ConsoleAppDeps, type PartnerContext, type Request } from './app.ts';
import { istDateTime } from './format.ts';
import { html, type Html } from './html.ts';
import { postForm } from './layout.ts';

/*
 * The partner's own /api surface in the console (docs/console.md, docs/decisions/console.md): the
 * company's /api keys (webhook endpoints, its audit trail) and the partner account's audit trail.
 * The keys are the admin tool's use cases (issueKey, replaceKey, revokeKey) under the person; the
 * trail is GET /api/audit-events' read. Both use the stage's services, as a partner key's /api request does:
 * a sandbox group's test clock is that group's time, not its company's. The handlers are wrapped with their capability in app.ts's routes.
 */

type Render = (deps: ConsoleAppDeps, req: Request, ctx: PartnerContext, match: RegExpMatchArray) => Promise<HttpResult>;

export const PARTNER_KEYS_PATH = '/console/partner-keys';
export const PARTNER_AUDIT_PATH = '/console/partner-audit';

const ownerOf = (ctx: PartnerContext) => ({ kind: 'partner', id: ctx.group.partnerId }) as const;

const keyAction = (ctx: PartnerContext, key: ApiKeyRecord, action: 'Replace' | 'Revoke') =>
  postForm(
    ctx.viewer,
    `${PARTNER_KEYS_PATH}/${encodeURIComponent(key.keyId)}/${action.toLowerCase()}`,
    html`<button type="submit">${action}<span class="skip"> partner key ${key.keyPrefix}</span></button>`,
    `${action} partner key ${key.keyPrefix}`,
  );

async function keysPage(deps: ConsoleAppDeps, ctx: PartnerContext, notice?: Html): Promise<HttpResult> {
  const keys = await deps.svc.tenants.listKeys(ownerOf(ctx));
  const rows = keys.map(
    (k) =>
      html`<tr><td>${k.keyPrefix}…</td><td>${k.status}</td><td>${istDateTime(k.createdAt)}</td><td>${
        k.status === 'ACTIVE' ? html`${keyAction(ctx, k, 'Replace')}${keyAction(ctx, k, 'Revoke')}` : ''
      }</td></tr>`,
  );
  const body = html`${notice ?? ''}
<p>Your company's keys for the partner API under /api: webhook endpoints, their deliveries and your company's audit trail. Every agent group of yours shares them; each group's bookings use its own /v1 keys (<a href="/console/keys">API keys</a>).</p>
${
  keys.length
    ? html`<div class="table-wrap"><table><caption>Partner API keys (/api)</caption><thead><tr><th scope="col">Key</th><th scope="col">Status</th><th scope="col">Issued</th><th scope="col">Change</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
    : html`<p>No /api key yet.</p>`
}
<h2>Issue a partner key</h2>
<p>A new key for your company's /api. Keys already issued keep working until replaced or revoked.</p>
${postForm(ctx.viewer, `${PARTNER_KEYS_PATH}/issue`, html`<button type="submit">Issue a partner key</button>`, 'Issue a partner key')}`;
  return partnerHtml(ctx, 'Partner API keys', 'partner-keys', body);
}

/** The new key, shown once on this answer: the service keeps only its hash. A partner key has no callback secret. */
const issuedNotice = (apiKey: string, text: string) =>
  html`<div class="notice" role="status"><p>${text} Store it now: it cannot be shown again. The service keeps only a hash of it.</p>
<p class="secret" aria-label="New partner API key">${apiKey}</p></div>`;

/** A key of this person's partner, or 404 exactly as a missing one: the admin tool's use cases take any key id (a group's too). */
async function ownKey(deps: ConsoleAppDeps, ctx: PartnerContext, keyId: string): Promise<ApiKeyRecord> {
  const key = (await deps.svc.tenants.listKeys(ownerOf(ctx))).find((k) => k.keyId === keyId);
  if (!key) throw new NotFoundError('Key');
  return key;
}

export const partnerKeys: Render = async (deps, _req, ctx) => keysPage(deps, ctx);

export const issuePartnerKey: Render = async (deps, _req, ctx) => {
  // The admin tool's `keys issue --partner`: the key and its `key.issued` event (on the partner's account) in one write.
  const issued = await issueKey(adminDeps(deps.svc, ctx.origin), { owner: ownerOf(ctx) });
  return keysPage(deps, ctx, issuedNotice(issued.apiKey, `Partner key ${issued.record.keyPrefix}… issued.`));
};

export const replacePartnerKey: Render = async (deps, _req, ctx, match) => {
  const key = await ownKey(deps, ctx, decodeURIComponent(match[1]!));
  // The admin tool's replace: the new key and the old one's revocation in one transaction, recorded on the old key.
  const issued = await replaceKey(adminDeps(deps.svc, ctx.origin), key.keyId);
  return keysPage(deps, ctx, issuedNotice(issued.apiKey, `Partner key ${key.keyPrefix}… is replaced and revoked; the new one is ${issued.record.keyPrefix}….`));
};

export const revokePartnerKey: Render = async (deps, _req, ctx, match) => {
  const key = await ownKey(deps, ctx, decodeURIComponent(match[1]!));
  if (key.status !== 'ACTIVE') throw new ConflictError('CONFLICT', `Partner key ${key.keyPrefix}… is already revoked.`);
  const revoked = await revokeKey(adminDeps(deps.svc, ctx.origin), key.keyId);
  return keysPage(
    deps,
    ctx,
    html`<p class="notice" role="status">Partner key ${revoked.keyPrefix}… is revoked: /api requests with it are refused from now on.</p>`,
  );
};

/** GET /api/audit-events in the console: the partner account's events, oldest first, the API's query rules, 400s and cursor. */
export const partnerAudit: Render = async (deps, req, ctx) => {
  const query = filled(req.query);
  const page = await listAuditEvents(deps.svc, await partnerPrincipal(ctx), parseInput(AuditEventsQuerySchema, query, 'query'));
  const { cursor: _cursor, ...filters } = query;
  const events = page.data.map((e) => html`<tr><td>${istDateTime(e.at)}</td><td>${e.actor} (${e.actorKind})</td><td>${e.action}</td><td>${e.target}</td></tr>`);
  const body = html`<p>Every change to your company's partner account, oldest first: its webhook endpoints and their secrets (recorded as set or rotated, never the value) and its /api keys, by your people, your keys and our operators. Bookings and limits are on each group's <a href="/console/audit">audit trail</a>.</p>
<form method="get" action="${PARTNER_AUDIT_PATH}" aria-label="Partner audit trail period">
<label for="from">From (date-time with offset, e.g. 2026-11-01T00:00:00+05:30)</label><input id="from" name="from" value="${filters.from ?? ''}">
<label for="to">To</label><input id="to" name="to" value="${filters.to ?? ''}">
<button type="submit">Show</button>
</form>
${
  events.length
    ? html`<div class="table-wrap"><table><caption>Partner account's audit events</caption><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">On</th></tr></thead><tbody>${events}</tbody></table></div>`
    : html`<p>No event in this period.</p>`
}
${nextPageLink(PARTNER_AUDIT_PATH, filters, page.nextCursor)}`;
  return partnerHtml(ctx, 'Partner audit trail', 'partner-audit', body);
};
