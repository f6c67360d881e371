import { indiaToday } from '../reads/date-window.ts';
import { ConflictError, DomainError, ValidationError } from '../errors.ts';
import type { CatalogueReader, ListingView } from '../ports/catalogue-reader.ts';
import type { ChannexChangesQueue, ChannexInbox, InboundChanges } from '../ports/channex-inbox.ts';
import type { Clock } from '../ports/clock.ts';
import type { DocumentStore } from '../ports/document-store.ts';
import { syncCatalogue, type SyncDeps } from '../sync/sync-catalogue.ts';
import { changeProblems, checkNotification, monthsTouched, planChanges, type ChangesNotification, type NotApplied } from './channex.ts';

/**
 * The listings these hotel codes name that Channex's key may reach: ours and connected to
 * Channex. Any other code (a listing of ours not connected, or none at all) is an unknown hotel.
 */
export async function connectedViews(
  deps: { readonly reader: Pick<CatalogueReader, 'listingViews'>; readonly inbox: Pick<ChannexInbox, 'connected'> },
  hotelCodes: readonly string[],
): Promise<Map<string, ListingView>> {
  const codes = [...new Set(hotelCodes)];
  const [views, connected] = await Promise.all([deps.reader.listingViews(codes), deps.inbox.connected(codes)]);
  return new Map(views.filter((v) => connected.has(v.listing.id)).map((v) => [v.listing.id, v]));
}

export interface ReceiveDeps {
  readonly reader: Pick<CatalogueReader, 'listingViews'>;
  readonly inbox: ChannexInbox;
  readonly documents: DocumentStore;
  readonly queue: ChannexChangesQueue;
  readonly clock: Clock;
  readonly sha256: (text: string) => string;
}

export interface ChangesAck {
  readonly success: true;
  readonly unique_id: string;
  /**
   * What will not be applied as sent, each with the path of the change and why: dates outside
   * the window, an unknown room type or rate plan, values the catalogue cannot hold (changeProblems).
   */
  readonly warnings?: readonly NotApplied[];
}

const documentKeyOf = (bodyHash: string): string => `channel-manager/channex/changes/${bodyHash}.json`;

/**
 * The `changes/` endpoint's work: check every notification (an unknown hotel or an impossible
 * date refuses the whole POST, naming it; an unknown room type or rate plan is reported in
 * `warnings` with every other value not applied as sent, and the rest applies), keep each notification's body (`rawBody`, the
 * POST as received, when it holds one notification) and its
 * idempotency record, and queue it for the apply step. Answers at once; the catalogue
 * changes behind the queue. A request_id seen before is not queued again once applied, so
 * a repeated POST changes nothing; one still waiting is queued again (nothing is lost when
 * the first queueing failed). Refused notifications are recorded as refused, for operators.
 */
export async function receiveChanges(deps: ReceiveDeps, notifications: readonly ChangesNotification[], rawBody?: string): Promise<ChangesAck> {
  const now = deps.clock.now();
  const receivedAt = now.toISOString();
  const today = indiaToday(now);
  const uniqueId = `chx_${deps.sha256(notifications.map((n) => n.attributes.request_id).join('\n')).slice(0, 24)}`;
  const views = await connectedViews(
    deps,
    notifications.map((n) => n.attributes.hotel_code),
  );

  const checked = notifications.map((n, i) => {
    const base = `data[${i}]`;
    // Stored as `{"data": [notification]}`: a POST of one notification (Channex's usual) is kept
    // as it came, so the answer neither writes 5 MB of JSON back out nor hashes a copy.
    const text = notifications.length === 1 && rawBody !== undefined ? rawBody : JSON.stringify({ data: [n] });
    const bodyHash = deps.sha256(text);
    let refusal: InboundChanges['refusal'];
    try {
      checkNotification(n, views.get(n.attributes.hotel_code), base);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      refusal = { param: err.param, message: err.message };
    }
    const record: InboundChanges = {
      requestId: n.attributes.request_id,
      hotelCode: n.attributes.hotel_code,
      uniqueId,
      bodyHash,
      documentKey: documentKeyOf(bodyHash),
      receivedAt,
      status: refusal ? 'REFUSED' : 'RECEIVED',
      ...(refusal ? { refusal } : {}),
    };
    return { n, base, text, record };
  });

  const refused = checked.filter((c) => c.record.refusal);
  // A refusal applies nothing of the POST: only the refused notifications are kept (for operators); Channex resends the rest.
  const keep = refused.length > 0 ? refused : checked;
  const recorded = await Promise.all(
    keep.map(async (c) => {
      await deps.documents.put(c.record.documentKey, new TextEncoder().encode(c.text), 'application/json');
      const { record } = await deps.inbox.receive(c.record);
      if (record.bodyHash !== c.record.bodyHash) {
        throw new ConflictError(
          'CONFLICT',
          `request_id '${record.requestId}' was received before with a different body; a request_id names one notification.`,
          {
            param: `${c.base}.attributes.request_id`,
          },
        );
      }
      return { ...c, record };
    }),
  );
  const firstRefusal = recorded.find((c) => c.record.status === 'REFUSED')?.record.refusal;
  if (firstRefusal) throw new ValidationError(firstRefusal.param, firstRefusal.message);

  await Promise.all(recorded.filter((c) => c.record.status === 'RECEIVED').map((c) => deps.queue.send(c.record.requestId, c.record.hotelCode)));
  const warnings = recorded.flatMap((c) => changeProblems(c.n, views.get(c.n.attributes.hotel_code)!, c.base, today));
  return { success: true, unique_id: uniqueId, ...(warnings.length > 0 ? { warnings } : {}) };
}

export interface ApplyDeps extends SyncDeps {
  readonly reader: SyncDeps['reader'] & Pick<CatalogueReader, 'listingViews' | 'propertyMonths'>;
  readonly inbox: ChannexInbox;
  readonly documents: DocumentStore;
}

export type ApplyResult =
  | { readonly outcome: 'applied'; readonly events: number; readonly nights: number }
  | { readonly outcome: 'refused' | 'already-done' | 'unknown' };

/**
 * The apply step behind the queue: one recorded notification through the catalogue sync
 * (the admin sync's path: the same diff, projection upkeep, change feed and webhooks), then
 * its record marked APPLIED with what was reported and not applied. A rerun after a crash
 * between the two applies nothing twice: the sync writes and announces only what differs.
 */
export async function applyRecordedChanges(deps: ApplyDeps, requestId: string): Promise<ApplyResult> {
  const record = await deps.inbox.get(requestId);
  if (!record) return { outcome: 'unknown' };
  if (record.status !== 'RECEIVED') return { outcome: 'already-done' };
  const bytes = await deps.documents.get(record.documentKey);
  if (!bytes) throw new Error(`The body of Channex request ${requestId} is missing from the document store (${record.documentKey}).`);
  const stored = JSON.parse(new TextDecoder().decode(bytes)) as { data?: ChangesNotification[] } | ChangesNotification;
  // `{"data": [n]}`; a bare notification is how bodies were stored before (still in a DLQ, say).
  const n = 'data' in stored && Array.isArray(stored.data) ? stored.data[0]! : (stored as ChangesNotification);
  const now = deps.clock.now();
  const today = indiaToday(now);
  const base = 'data[0]';
  const view = (await connectedViews(deps, [n.attributes.hotel_code])).get(n.attributes.hotel_code);
  try {
    // The listing may have changed (or been disconnected) since the answer; what it no longer has refuses the notification now.
    checkNotification(n, view, base);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    await deps.inbox.finish(requestId, { status: 'REFUSED', refusal: { param: err.param, message: err.message }, at: now.toISOString() });
    return { outcome: 'refused' };
  }
  const touched = monthsTouched(n, base, today);
  const months = touched ? await deps.reader.propertyMonths(touched.propertyIds, touched.fromMonth, touched.toMonth) : [];
  const plan = planChanges(n, view!, months, base, today);
  let events = 0;
  if (plan.document.catalogue.inventory.length > 0 || plan.document.catalogue.rates.length > 0) {
    try {
      events = (await syncCatalogue(deps, plan.document)).events.length;
    } catch (err) {
      // The plan only names checked properties and values in range; a refusal here is a defect to look at, not to retry.
      if (!(err instanceof DomainError)) throw err;
      await deps.inbox.finish(requestId, {
        status: 'REFUSED',
        refusal: { param: (err.details.param as string | undefined) ?? '$', message: err.message },
        at: now.toISOString(),
      });
      return { outcome: 'refused' };
    }
  }
  await deps.inbox.finish(requestId, { status: 'APPLIED', notApplied: plan.notApplied, nights: plan.nights, events, at: deps.clock.now().toISOString() });
  return { outcome: 'applied', events, nights: plan.nights };
}
