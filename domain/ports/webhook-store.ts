import type { AuditDraft } from '../audit/audit-event.ts';
import type { WebhookEndpoint } from '../webhooks/endpoint.ts';

/** Webhook endpoints, always addressed through their owning partner. */
export interface WebhookStore {
  list(partnerId: string): Promise<WebhookEndpoint[]>;
  get(partnerId: string, id: string): Promise<WebhookEndpoint | undefined>;
  /** Fails with ConflictError when the partner already has `max` endpoints. */
  create(endpoint: WebhookEndpoint, max: number, audit: AuditDraft): Promise<void>;
  /** Fails with ConflictError when the stored endpoint changed since `expectedUpdatedAt`, or is gone. */
  replace(endpoint: WebhookEndpoint, expectedUpdatedAt: string, audit?: AuditDraft): Promise<void>;
  /** False when there was nothing to delete. */
  delete(partnerId: string, id: string, audit: AuditDraft): Promise<boolean>;
  /** Every endpoint of every partner on a channel: the fan-out of catalogue events. */
  listForChannel(channelId: string): Promise<WebhookEndpoint[]>;
}
