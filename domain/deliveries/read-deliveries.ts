import { ConflictError, NotFoundError } from '../errors.ts';
import type { PartnerPrincipal } from '../principal.ts';
import type { CatalogueNotification } from './catalogue-event.ts';
import type { DeliveryDeps } from './deps.ts';
import { deliveryView, type Delivery, type DeliveryStatus, type DeliveryView } from './delivery.ts';
import { firstAttempt } from './publish-catalogue-events.ts';

/** Page sizes for the delivery log and the change feed. */
export const PAGE_SIZE = { default: 20, max: 100 } as const;

/** Without a cursor, the change feed starts this far back. */
export const CHANGES_DEFAULT_LOOKBACK_DAYS = 7;

export interface DeliveryPage {
  readonly data: readonly DeliveryView[];
  readonly nextCursor: string | null;
}

/** An endpoint's deliveries with their attempts, newest first. Another partner's endpoint reads as missing. */
export async function listEndpointDeliveries(
  deps: Pick<DeliveryDeps, 'webhooks' | 'deliveries' | 'cursors'>,
  partner: PartnerPrincipal,
  endpointId: string,
  query: { outcome?: DeliveryStatus; size: number; cursor?: string },
): Promise<DeliveryPage> {
  // The cursor is checked first: a tampered cursor is a 400 whatever the endpoint.
  const scope = { callerId: partner.partnerId, query: `deliveries:${endpointId}:${query.outcome ?? '*'}` };
  const after = query.cursor === undefined ? undefined : deps.cursors.decode(scope, query.cursor);
  if (!(await deps.webhooks.get(partner.partnerId, endpointId))) throw new NotFoundError('Webhook endpoint');
  const page = await deps.deliveries.listForEndpoint(partner.partnerId, endpointId, { status: query.outcome, size: query.size, after });
  return { data: page.items.map(deliveryView), nextCursor: page.next === null ? null : deps.cursors.encode(scope, page.next) };
}

/**
 * A new delivery of the same bytes (same payload, same dedupKey) to the same endpoint, on
 * a fresh schedule. The original is left as it was, so the log shows both.
 */
export async function resendDelivery(
  deps: Pick<DeliveryDeps, 'webhooks' | 'deliveries' | 'queue' | 'clock' | 'ids' | 'random' | 'timeScale'>,
  partnerId: string,
  deliveryId: string,
): Promise<DeliveryView> {
  const original = await deps.deliveries.get(partnerId, deliveryId);
  if (!original) throw new NotFoundError('Delivery');
  // A booking callback is not re-sent from here: it has no endpoint, and GET /v1/bookings is its system of record.
  if (original.kind !== 'webhook')
    throw new ConflictError('CONFLICT', 'Booking callbacks are not resent; the booking read (GET /v1/bookings) has the outcome.');
  const endpoint = await deps.webhooks.get(partnerId, original.endpointId);
  if (!endpoint) throw new ConflictError('CONFLICT', 'The endpoint of this delivery was deleted; there is nowhere to resend it.');
  if (endpoint.status !== 'ACTIVE') throw new ConflictError('CONFLICT', 'The endpoint of this delivery is DISABLED; enable it first.');
  const now = deps.clock.now();
  const at = now.toISOString();
  const resend: Delivery = {
    ...original,
    deliveryId: deps.ids.uuid(),
    status: 'PENDING',
    attempts: [],
    nextAttemptAt: at,
    failureReason: null,
    resendOf: original.deliveryId,
    requeues: 0,
    createdAt: at,
    updatedAt: at,
  };
  await deps.deliveries.createAll([resend]);
  // Not queued is not lost: the sweeper finds the PENDING record.
  await deps.queue.send([firstAttempt(resend, now)]);
  return deliveryView(resend);
}

export interface ChangeView extends CatalogueNotification {
  readonly recordedAt: string;
}

export interface ChangePage {
  readonly data: readonly ChangeView[];
  readonly nextCursor: string;
}

/**
 * The partner's channel change feed, oldest first. Without a cursor it starts
 * CHANGES_DEFAULT_LOOKBACK_DAYS back; nextCursor is always returned, so a poller keeps
 * calling with the last one it got and sees each change once.
 */
export async function readChanges(
  deps: Pick<DeliveryDeps, 'changes' | 'cursors' | 'clock'>,
  partner: PartnerPrincipal,
  query: { size: number; cursor?: string },
): Promise<ChangePage> {
  const scope = { callerId: partner.partnerId, query: `changes:${partner.channelId}` };
  const after = query.cursor === undefined ? undefined : deps.cursors.decode(scope, query.cursor);
  const since = new Date(deps.clock.now().getTime() - CHANGES_DEFAULT_LOOKBACK_DAYS * 86_400_000).toISOString();
  const page = await deps.changes.read(partner.channelId, { after, since, size: query.size });
  return {
    data: page.items.map((r) => ({ ...r.notification, recordedAt: r.recordedAt })),
    nextCursor: deps.cursors.encode(scope, page.next),
  };
}

/** A partner's FAILED deliveries, newest first (operator tool). */
export async function listFailedDeliveries(deps: Pick<DeliveryDeps, 'deliveries'>, partnerId: string): Promise<DeliveryView[]> {
  const failed = await deps.deliveries.listByStatus(partnerId, 'FAILED');
  return failed.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.deliveryId.localeCompare(a.deliveryId)).map(deliveryView);
}
