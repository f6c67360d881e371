import { ValidationError } from '../errors.ts';
import type { QueuedCommand } from '../ports/delivery-queue.ts';
import type { WebhookEndpoint } from '../webhooks/endpoint.ts';
import { CATALOGUE_EVENT_TYPES } from '../webhooks/event-types.ts';
import type { CatalogueEvent, CatalogueNotification, ChangeRecord } from './catalogue-event.ts';
import type { DeliveryDeps } from './deps.ts';
import type { Delivery } from './delivery.ts';
import { attemptDueAt, delaySecondsUntil } from './schedule.ts';

export type PublishDeps = Pick<DeliveryDeps, 'webhooks' | 'deliveries' | 'changes' | 'queue' | 'clock' | 'ids' | 'random' | 'timeScale' | 'encodeNotification'>;

export interface PublishResult {
  readonly changeRecords: number;
  readonly deliveries: number;
  /** Deliveries whose first message could not be queued; the sweeper picks them up. */
  readonly notQueued: number;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const WINDOWED = new Set(['inventory.changed', 'rate.changed']);

function checkEvent(e: CatalogueEvent, i: number): void {
  const type = CATALOGUE_EVENT_TYPES.find((t) => t.eventType === e.eventType);
  if (!type) throw new ValidationError(`events[${i}].eventType`, `events[${i}].eventType: unknown event type ${e.eventType}.`);
  if (e.entityType !== type.entityType)
    throw new ValidationError(`events[${i}].entityType`, `events[${i}].entityType must be ${type.entityType} for ${e.eventType}.`);
  if (Number.isNaN(Date.parse(e.occurredAt))) throw new ValidationError(`events[${i}].occurredAt`, `events[${i}].occurredAt must be an ISO 8601 instant.`);
  if (WINDOWED.has(e.eventType)) {
    if (!e.fromDate || !e.toDate || !DATE.test(e.fromDate) || !DATE.test(e.toDate) || e.fromDate > e.toDate) {
      throw new ValidationError(`events[${i}].fromDate`, `events[${i}]: ${e.eventType} needs fromDate <= toDate as yyyy-mm-dd.`);
    }
  } else if (e.fromDate !== null || e.toDate !== null) {
    throw new ValidationError(`events[${i}].fromDate`, `events[${i}]: ${e.eventType} carries no date window; fromDate and toDate must be null.`);
  }
}

const subscribed = (endpoint: WebhookEndpoint, eventType: CatalogueEvent['eventType']): boolean =>
  endpoint.status === 'ACTIVE' && (endpoint.eventTypes === null || endpoint.eventTypes.includes(eventType));

/**
 * Fans catalogue events out: per channel, a change-feed row; per ACTIVE endpoint on that
 * channel subscribed to the event type, a durable PENDING delivery. Only once every record
 * is written are the first-attempt messages queued, so a message never points at a
 * delivery that does not exist, and a message that fails to queue is recovered by the
 * sweeper rather than lost.
 */
export async function publishCatalogueEvents(deps: PublishDeps, events: readonly CatalogueEvent[]): Promise<PublishResult> {
  events.forEach(checkEvent);
  const now = deps.clock.now();
  const at = now.toISOString();
  const endpointsOf = new Map<string, Promise<WebhookEndpoint[]>>();
  const changes: ChangeRecord[] = [];
  const deliveries: Delivery[] = [];

  for (const event of events) {
    const eventId = event.eventId ?? deps.ids.uuid();
    const notification: CatalogueNotification = {
      eventType: event.eventType,
      entityType: event.entityType,
      entityId: event.entityId,
      fromDate: event.fromDate,
      toDate: event.toDate,
      occurredAt: new Date(event.occurredAt).toISOString(),
      dedupKey: eventId,
    };
    const payload = deps.encodeNotification(notification);
    for (const channelId of new Set(event.channelIds)) {
      changes.push({ channelId, recordedAt: at, eventId, notification });
      if (!endpointsOf.has(channelId)) endpointsOf.set(channelId, deps.webhooks.listForChannel(channelId));
      for (const endpoint of await endpointsOf.get(channelId)!) {
        if (!subscribed(endpoint, event.eventType)) continue;
        deliveries.push({
          deliveryId: deps.ids.uuid(),
          kind: 'webhook',
          partnerId: endpoint.partnerId,
          endpointId: endpoint.id,
          eventId,
          eventType: event.eventType,
          payload,
          status: 'PENDING',
          attempts: [],
          nextAttemptAt: attemptDueAt(now, 1, deps.timeScale, deps.random).toISOString(),
          failureReason: null,
          resendOf: null,
          requeues: 0,
          createdAt: at,
          updatedAt: at,
        });
      }
    }
  }

  await deps.changes.appendAll(changes);
  await deps.deliveries.createAll(deliveries);
  const { failed } = await deps.queue.send(deliveries.map((d) => firstAttempt(d, now)));
  return { changeRecords: changes.length, deliveries: deliveries.length, notQueued: failed };
}

/** The message for a new delivery's first attempt. */
export const firstAttempt = (d: Delivery, now: Date): QueuedCommand => ({
  command: { kind: d.kind, partnerId: d.partnerId, deliveryId: d.deliveryId, attempt: 1 },
  delaySeconds: delaySecondsUntil(new Date(d.nextAttemptAt ?? d.createdAt), now),
});
