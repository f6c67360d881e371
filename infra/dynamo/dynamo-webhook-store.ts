import type { AuditDraft } from '../../domain/audit/audit-event.ts';
import type { DynamoAuditTrail } from './dynamo-audit-trail.ts';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../../domain/errors.ts';
import type { WebhookStore } from '../../domain/ports/webhook-store.ts';
import type { WebhookEndpoint } from '../../domain/webhooks/endpoint.ts';
import { isConditionFailure } from './client.ts';
import { webhookCounterEntity, webhookEndpointEntity } from './entities/webhook-endpoint.ts';
import { keys } from './keys.ts';
import { queryAll } from './query.ts';
import { GSI1 } from './table.ts';

const { toItem, fromItem } = webhookEndpointEntity;

export class DynamoWebhookStore implements WebhookStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly audit: DynamoAuditTrail,
  ) {}

  async list(partnerId: string): Promise<WebhookEndpoint[]> {
    const k = keys.webhookEndpointsOfPartner(partnerId);
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': k.PK, ':prefix': k.SKPrefix },
    });
    return items.map((i) => fromItem(i)!);
  }

  async get(partnerId: string, id: string): Promise<WebhookEndpoint | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.webhookEndpoint(partnerId, id), ConsistentRead: true }));
    return fromItem(out.Item);
  }

  async create(endpoint: WebhookEndpoint, max: number, audit: AuditDraft): Promise<void> {
    try {
      await this.audit.transact(
        [
          { Put: { TableName: this.table, Item: toItem(endpoint), ConditionExpression: webhookEndpointEntity.conditions.isNew } },
          {
            Update: {
              TableName: this.table,
              Key: keys.webhookCounter(endpoint.partnerId),
              UpdateExpression: 'ADD endpointCount :one',
              ConditionExpression: webhookCounterEntity.conditions.underLimit,
              ExpressionAttributeValues: { ':one': 1, ':max': max },
            },
          },
        ],
        audit,
      );
    } catch (err) {
      if (isConditionFailure(err)) throw new ConflictError('CONFLICT', `A partner may register at most ${max} webhook endpoints; delete one first.`);
      throw err;
    }
  }

  async replace(endpoint: WebhookEndpoint, expectedUpdatedAt: string, audit?: AuditDraft): Promise<void> {
    const put = {
      TableName: this.table,
      Item: toItem(endpoint),
      ConditionExpression: webhookEndpointEntity.conditions.unchangedSince,
      ExpressionAttributeValues: { ':expected': expectedUpdatedAt },
    };
    try {
      // Without an event only for the delivery engine's own status moves (it disables an endpoint that keeps failing).
      if (audit) await this.audit.transact([{ Put: put }], audit);
      else await this.db.send(new PutCommand(put));
    } catch (err) {
      if (isConditionFailure(err)) throw new ConflictError('CONFLICT', 'The endpoint was changed by another request; read it again and retry.');
      throw err;
    }
  }

  async delete(partnerId: string, id: string, audit: AuditDraft): Promise<boolean> {
    try {
      await this.audit.transact(
        [
          { Delete: { TableName: this.table, Key: keys.webhookEndpoint(partnerId, id), ConditionExpression: webhookEndpointEntity.conditions.exists } },
          {
            Update: {
              TableName: this.table,
              Key: keys.webhookCounter(partnerId),
              UpdateExpression: 'ADD endpointCount :minus',
              ExpressionAttributeValues: { ':minus': -1 },
            },
          },
        ],
        audit,
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async listForChannel(channelId: string): Promise<WebhookEndpoint[]> {
    const out = await queryAll(this.db, {
      TableName: this.table,
      IndexName: GSI1,
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.webhooksOfChannel(channelId).GSI1PK },
    });
    return out.map((i) => fromItem(i)!);
  }
}
