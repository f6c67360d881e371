import { mappingDetails } from '../../domain/channel-manager/channex.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { InboundChanges } from '../../domain/ports/channex-inbox.ts';
import type { HttpResult } from '../http/types.ts';
import { figure, operatorHtml, type ConsoleAppDeps, type Request, type Signed } from './app.ts';
import { istDateTime } from './format.ts';
import { html } from './html.ts';

/** The notifications a listing's page shows: enough to see the last ARI and a run of failures. */
export const CHANNEX_NOTIFICATIONS_SHOWN = 20;

/** Connections listed per page: each costs one query of its notifications. */
export const CONNECTIONS_PER_PAGE = 20;

/** A notification still RECEIVED this long after it arrived did not apply: its message is being retried or sits in the DLQ. */
const STUCK_AFTER_MS = 15 * 60_000;

const lookUpForm = (listingId: string) =>
  html`<form method="get" action="/console/operator/channex" role="search" aria-label="Find a listing's Channex connection">
<label for="listing">Listing id (Channex's hotel code)</label>
<input id="listing" name="listing" value="${listingId}" required>
<button type="submit">Show connection</button>
</form>`;

function outcome(n: InboundChanges, now: Date): string {
  if (n.status === 'REFUSED') return `Refused: ${n.refusal ? `${n.refusal.param}: ${n.refusal.message}` : 'no reason kept'}`;
  if (n.status === 'RECEIVED')
    return now.getTime() - Date.parse(n.receivedAt) > STUCK_AFTER_MS
      ? 'Not applied after 15 minutes: retried or in the dead-letter queue (alarm channex-changes-dlq)'
      : 'Received, being applied';
  const left = n.notApplied ?? [];
  return `Applied: ${n.nights ?? 0} nights, ${n.events ?? 0} events${left.length ? `; ${left.length} not applied as sent (first: ${left[0]!.path}: ${left[0]!.reason})` : ''}`;
}

const isFailure = (n: InboundChanges, now: Date) =>
  n.status === 'REFUSED' || (n.status === 'RECEIVED' && now.getTime() - Date.parse(n.receivedAt) > STUCK_AFTER_MS);

/**
 * Every listing connected to Channex, by id, a page at a time (the sparse CHANNEX_CONNECTIONS index): each with
 * its last notification, last ARI applied and the failures among its latest notifications, as its own page counts them.
 */
async function connectionsList(deps: ConsoleAppDeps, req: Request, ctx: Signed): Promise<HttpResult> {
  const after = req.query.after?.trim() || undefined;
  if (after !== undefined && after.length > 100) throw new ValidationError('after', 'after must be a listing id of 1–100 characters.');
  const svc = deps.svc;
  const page = await svc.channexInbox.connections({ limit: CONNECTIONS_PER_PAGE, ...(after ? { after } : {}) });
  const [views, recents] = await Promise.all([
    svc.reader.listingViews([...page.listingIds]),
    Promise.all(page.listingIds.map((id) => svc.channexInbox.recent(id, CHANNEX_NOTIFICATIONS_SHOWN))),
  ]);
  const titles = new Map(views.map((v) => [v.listing.id, v.listing.title]));
  const now = svc.clock.now();
  const rows = page.listingIds.map((id, i) => {
    const recent = recents[i]!;
    const applied = recent.find((n) => n.status === 'APPLIED');
    return html`<tr><td><a href="/console/operator/channex?listing=${encodeURIComponent(id)}">${id}</a></td><td>${titles.get(id) ?? '—'}</td><td>${recent[0] ? istDateTime(recent[0].receivedAt) : 'None in 90 days'}</td><td>${applied ? istDateTime(applied.appliedAt ?? applied.receivedAt) : '—'}</td><td class="num">${String(recent.filter((n) => isFailure(n, now)).length)}</td></tr>`;
  });
  const body = html`${lookUpForm('')}
<h2>Listings connected to Channex</h2>
${
  rows.length
    ? html`<div class="table-wrap"><table><caption class="skip">Listings connected to Channex, by id</caption><thead><tr><th scope="col">Listing (hotel code)</th><th scope="col">Title</th><th scope="col">Last notification</th><th scope="col">Last ARI applied</th><th scope="col" class="num">Failures (latest ${String(CHANNEX_NOTIFICATIONS_SHOWN)})</th></tr></thead><tbody>${rows}</tbody></table></div>`
    : html`<p>${after ? 'No more connected listings.' : 'No listing is connected to Channex (a listing is connected by simulator.channelManager: channex in its world file).'}</p>`
}
${page.next ? html`<p><a href="/console/operator/channex?after=${encodeURIComponent(page.next)}">Next ${String(CONNECTIONS_PER_PAGE)} listings</a></p>` : ''}
${after ? html`<p><a href="/console/operator/channex">First page</a></p>` : ''}`;
  return operatorHtml(ctx, 'Channex connections', 'channex', body);
}

/**
 * One listing's Channex connection, read-only: whether Channex's key reaches it, the mapping
 * `mapping_details/` gives Channex, and the latest notifications (the last ARI received, refusals,
 * what was not applied as sent, what did not apply at all), from the records the inbound path keeps.
 */
export const channexPage = async (deps: ConsoleAppDeps, req: Request, ctx: Signed): Promise<HttpResult> => {
  const listingId = req.query.listing?.trim() ?? '';
  if (!listingId) return connectionsList(deps, req, ctx);
  if (listingId.length > 100) throw new ValidationError('listing', 'listing must be 1–100 characters.');
  const svc = deps.svc;
  // The reads the inbound endpoints make: the listing's view and whether Channex's key reaches it (connectedViews), then its records.
  const [[view], connected, recent] = await Promise.all([
    svc.reader.listingViews([listingId]),
    svc.channexInbox.connected([listingId]),
    svc.channexInbox.recent(listingId, CHANNEX_NOTIFICATIONS_SHOWN),
  ]);
  if (!view) throw new NotFoundError('Listing');
  const isConnected = connected.has(listingId);
  const now = svc.clock.now();
  const lastApplied = recent.find((n) => n.status === 'APPLIED');
  const failing = recent.filter((n) => isFailure(n, now));
  const roomTypes = mappingDetails(view).data.attributes.room_types;
  const body = html`${lookUpForm(listingId)}
<h2>${view.listing.title}</h2>
<dl class="figures">
${figure('Connection', isConnected ? 'Connected to Channex' : 'Not connected: Channex’s key does not reach it')}
${figure('Last notification', recent[0] ? istDateTime(recent[0].receivedAt) : 'None in the last 90 days')}
${figure('Last ARI applied', lastApplied ? istDateTime(lastApplied.appliedAt ?? lastApplied.receivedAt) : '—')}
${figure('Failures shown', String(failing.length))}
</dl>
<h2>Mapping</h2>
${
  isConnected
    ? html`<p>What <code>mapping_details/</code> gives Channex: each property a room type, each meal plan a rate plan, priced per person.</p>
<div class="table-wrap"><table><caption class="skip">Room types and rate plans</caption><thead><tr><th scope="col">Room type (property id)</th><th scope="col">Title</th><th scope="col">Rate plans</th><th scope="col" class="num">Max persons</th></tr></thead><tbody>${roomTypes.map(
        (r) =>
          html`<tr><td>${r.id}</td><td>${r.title}</td><td>${r.rate_plans.map((p) => p.id).join(', ')}</td><td class="num">${String(r.rate_plans[0]?.max_persons ?? '')}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No mapping: Channex is answered as for a hotel we do not have. Connect it with <code>simulator.channelManager: channex</code> in its world file (docs/channel-manager.md).</p>`
}
<h2>Latest notifications</h2>
${
  recent.length
    ? html`<div class="table-wrap"><table><caption class="skip">Latest Channex notifications of ${view.listing.title}, newest first</caption><thead><tr><th scope="col">Received</th><th scope="col">Request</th><th scope="col">Status</th><th scope="col">Outcome</th></tr></thead><tbody>${recent.map(
        (n) => html`<tr><td>${istDateTime(n.receivedAt)}</td><td>${n.requestId}</td><td>${n.status}</td><td>${outcome(n, now)}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No notification from Channex for this listing in the last 90 days.</p>`
}`;
  return operatorHtml(ctx, 'Channex connections', 'channex', body);
};
