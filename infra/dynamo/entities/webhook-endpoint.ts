import type { WebhookEndpoint } from '../../../domain/webhooks/endpoint.ts';
import { ITEM_EXISTS, ITEM_IS_NEW } from '../items.ts';
import { keys } from '../keys.ts';

/*
 * A partner's WebhookEndpoint (PK = PARTNER#<p>, SK = WEBHOOK#<id>; on GSI1 under its channel) and
 * the partner's WebhookCounter beside it, moved in the same transaction. DynamoWebhookStore takes
 * its items and conditions from here.
 */
export const webhookEndpointEntity = {
  name: 'WebhookEndpoint',
  key: keys.webhookEndpoint,
  toItem: (e: WebhookEndpoint) => ({
    ...keys.webhookEndpoint(e.partnerId, e.id),
    ...keys.webhookChannelIndex(e.channelId, e.partnerId, e.id),
    entity: 'WebhookEndpoint',
    ...e,
  }),
  fromItem: (item: Record<string, unknown> | undefined): WebhookEndpoint | undefined => {
    if (!item) return undefined;
    const { PK: _pk, SK: _sk, GSI1PK: _g, GSI1SK: _gs, entity: _e, ...rest } = item;
    return rest as unknown as WebhookEndpoint;
  },
  conditions: {
    isNew: ITEM_IS_NEW,
    /** Deleted only while there: a second delete counts nothing down. */
    exists: ITEM_EXISTS,
    /** Optimistic concurrency: a PUT applies only to the version it was computed from (`:expected` its updatedAt). */
    unchangedSince: 'attribute_exists(PK) AND updatedAt = :expected',
  },
} as const;

export const webhookCounterEntity = {
  key: keys.webhookCounter,
  conditions: {
    /** The per-partner endpoint count moves in the same transaction as the endpoint it counts (`:max`). */
    underLimit: 'attribute_not_exists(endpointCount) OR endpointCount < :max',
  },
} as const;
