import type { CatalogueEventType } from '../webhooks/event-types.ts';

/** A catalogue change as the catalogue sync reports it, before fan-out to channels and endpoints. */
export interface CatalogueEvent {
  readonly eventType: CatalogueEventType;
  readonly entityType: string;
  /** The property id for inventory.changed and rate.changed. */
  readonly entityId: string;
  /** Inclusive affected window for inventory.changed and rate.changed; null otherwise. */
  readonly fromDate: string | null;
  readonly toDate: string | null;
  /** ISO 8601 UTC. */
  readonly occurredAt: string;
  /** Channels that can see the entity; each gets a change-feed row and its endpoints a delivery. */
  readonly channelIds: readonly string[];
  /**
   * Optional stable id: a sync that retries a publish with the same id gives receivers the
   * same dedupKey, so the retry is harmless to them. A new id is minted when absent.
   */
  readonly eventId?: string;
}

/** The catalogue webhook body's fields, in the order they are serialised (events/catalogue-webhook.ts). */
export interface CatalogueNotification {
  readonly eventType: CatalogueEventType;
  readonly entityType: string;
  readonly entityId: string;
  readonly fromDate: string | null;
  readonly toDate: string | null;
  readonly occurredAt: string;
  readonly dedupKey: string;
}

/** One row of a channel's change feed (GET /api/changes). */
export interface ChangeRecord {
  readonly channelId: string;
  /** When the service recorded the change; the feed is ordered by this, not by occurredAt. */
  readonly recordedAt: string;
  readonly eventId: string;
  readonly notification: CatalogueNotification;
}
