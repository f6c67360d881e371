import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CallbackDelivery, Delivery, DeliveryAttempt, DeliveryStatus } from '../../domain/deliveries/delivery.ts';
import type { AttemptVerdict, DeliveryStore, Page } from '../../domain/ports/delivery-store.ts';
import { putAll } from './batch-write.ts';
import { isConditionFailure } from './client.ts';
import { deliveryEntity } from './entities/delivery.ts';
import { keys } from './keys.ts';
import { oldestAcrossShards, queryAll } from './query.ts';
import { GSI1 } from './table.ts';

/**
 * Deliveries (the outbox). Access patterns:
 * | pattern                               | key condition                                           | index |
 * |---------------------------------------|---------------------------------------------------------|-------|
 * | one delivery of a partner             | PK = PARTNER#<p>, SK = DELIVERY#<id>                    | table |
 * | a partner's deliveries (operator)     | PK = PARTNER#<p>, begins_with(SK, DELIVERY#)            | table |
 * | an endpoint's deliveries, newest first| GSI1PK = ENDPOINT#<e>#DELIVERIES, GSI1SK < <position>   | GSI1  |
 * | a booking's callbacks, oldest first   | GSI1PK = BOOKING#<bookingRef>#DELIVERIES                | GSI1  |
 * | PENDING deliveries overdue (sweeper)  | GSI2PK = DELIVERIES#PENDING#<0..31> (each), GSI2SK < <cutoff> | GSI2 |
 */

const { toItem: deliveryToItem, fromItem: deliveryFromItem, conditions: is } = deliveryEntity;

/** `<createdAt>#<deliveryId>` (GSI1SK) → the full key DynamoDB wants as ExclusiveStartKey on GSI1. */
function endpointIndexStartKey(partnerId: string, endpointId: string, position: string): Record<string, string> {
  const split = position.indexOf('#');
  const deliveryId = position.slice(split + 1);
  return { ...keys.delivery(partnerId, deliveryId), ...keys.endpointDeliveryIndex(endpointId, position.slice(0, split), deliveryId) };
}

/** Query pages read per request while a status filter discards rows; bounds the cost of a sparse filter. */
const MAX_FILTERED_READS = 5;

export class DynamoDeliveryStore implements DeliveryStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async createAll(deliveries: readonly Delivery[]): Promise<void> {
    await putAll(this.db, this.table, deliveries.map(deliveryToItem));
  }

  async createOnce(delivery: Delivery): Promise<boolean> {
    try {
      await this.db.send(new PutCommand({ TableName: this.table, Item: deliveryToItem(delivery), ConditionExpression: is.notYetCreated }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async get(partnerId: string, deliveryId: string): Promise<Delivery | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.delivery(partnerId, deliveryId), ConsistentRead: true }));
    return out.Item ? deliveryFromItem(out.Item) : undefined;
  }

  async claim(d: Delivery, claimId: string, until: string, now: string): Promise<boolean> {
    return this.conditional({
      Key: keys.delivery(d.partnerId, d.deliveryId),
      UpdateExpression: 'SET claimId = :claimId, claimedUntil = :until',
      ConditionExpression: is.claimable,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':claimId': claimId, ':until': until, ':now': now, ':pending': 'PENDING', ':count': d.attempts.length },
    });
  }

  async recordAttempt(d: Delivery, claimId: string, attempt: DeliveryAttempt, verdict: AttemptVerdict, now: string): Promise<boolean> {
    const pending = verdict.status === 'PENDING';
    const set = [
      'attempts = list_append(attempts, :attempt)',
      'attemptCount = :next',
      '#status = :status',
      'nextAttemptAt = :nextAttemptAt',
      'failureReason = :reason',
      'requeues = :zero',
      'updatedAt = :now',
      ...(pending ? ['GSI2PK = :gsi2pk', 'GSI2SK = :gsi2sk'] : []),
    ];
    const remove = ['claimId', 'claimedUntil', ...(pending ? [] : ['GSI2PK', 'GSI2SK'])];
    const pendingIndex = pending ? keys.pendingDeliveryIndex(verdict.nextAttemptAt, d.deliveryId) : undefined;
    return this.conditional({
      Key: keys.delivery(d.partnerId, d.deliveryId),
      UpdateExpression: `SET ${set.join(', ')} REMOVE ${remove.join(', ')}`,
      ConditionExpression: is.stillClaimed,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':attempt': [attempt],
        ':next': d.attempts.length + 1,
        ':count': d.attempts.length,
        ':claimId': claimId,
        ':status': verdict.status,
        ':nextAttemptAt': pending ? verdict.nextAttemptAt : null,
        ':reason': verdict.status === 'FAILED' ? verdict.failureReason : null,
        ':zero': 0,
        ':now': now,
        ...(pendingIndex ? { ':gsi2pk': pendingIndex.GSI2PK, ':gsi2sk': pendingIndex.GSI2SK } : {}),
      },
    });
  }

  async abandon(d: Delivery, reason: string, now: string): Promise<boolean> {
    return this.conditional({
      Key: keys.delivery(d.partnerId, d.deliveryId),
      UpdateExpression: 'SET #status = :failed, failureReason = :reason, nextAttemptAt = :null, updatedAt = :now REMOVE GSI2PK, GSI2SK, claimId, claimedUntil',
      ConditionExpression: is.idleAtCount,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':failed': 'FAILED', ':reason': reason, ':null': null, ':now': now, ':pending': 'PENDING', ':count': d.attempts.length },
    });
  }

  async listOverdue(dueBefore: string, limit: number): Promise<Delivery[]> {
    const overdue = await oldestAcrossShards(this.db, { TableName: this.table, shards: keys.pendingDeliveryShards(), below: dueBefore, limit });
    return overdue.map(deliveryFromItem);
  }

  async markRequeued(d: Delivery, now: string): Promise<boolean> {
    const index = keys.pendingDeliveryIndex(now, d.deliveryId);
    return this.conditional({
      Key: keys.delivery(d.partnerId, d.deliveryId),
      UpdateExpression: 'SET nextAttemptAt = :now, GSI2SK = :gsi2sk, requeues = requeues + :one, updatedAt = :now',
      ConditionExpression: is.overdueAsSeen,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':now': now,
        ':gsi2sk': index.GSI2SK,
        ':one': 1,
        ':pending': 'PENDING',
        ':count': d.attempts.length,
        ':seen': d.nextAttemptAt,
      },
    });
  }

  async listForEndpoint(partnerId: string, endpointId: string, query: { status?: DeliveryStatus; size: number; after?: string }): Promise<Page<Delivery>> {
    const items: Delivery[] = [];
    let startKey: Record<string, unknown> | undefined = query.after ? endpointIndexStartKey(partnerId, endpointId, query.after) : undefined;
    for (let reads = 0; reads < MAX_FILTERED_READS && items.length < query.size; reads += 1) {
      const out = await this.db.send(
        new QueryCommand({
          TableName: this.table,
          IndexName: GSI1,
          KeyConditionExpression: 'GSI1PK = :pk',
          // Tenancy is checked on the endpoint before this read; the filter keeps a foreign row out even so.
          FilterExpression: query.status ? 'partnerId = :partnerId AND #status = :status' : 'partnerId = :partnerId',
          ExpressionAttributeNames: query.status ? { '#status': 'status' } : undefined,
          ExpressionAttributeValues: {
            ':pk': keys.deliveriesOfEndpoint(endpointId).GSI1PK,
            ':partnerId': partnerId,
            ...(query.status ? { ':status': query.status } : {}),
          },
          ScanIndexForward: false,
          Limit: query.size - items.length,
          ExclusiveStartKey: startKey,
        }),
      );
      items.push(...(out.Items ?? []).map(deliveryFromItem));
      startKey = out.LastEvaluatedKey;
      if (!startKey) break;
    }
    // Resume where reading stopped: after the page's last row, or where the read budget ran out under a sparse filter.
    return { items, next: startKey ? String(startKey.GSI1SK) : null };
  }

  async listForBooking(partnerId: string, bookingRef: string): Promise<CallbackDelivery[]> {
    // One page: a booking has a callback per outcome and per amendment, a few KB each, far below a Query's 1 MB.
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: GSI1,
        KeyConditionExpression: 'GSI1PK = :pk',
        // bookingRef is the service's own unique id, but tenancy is still a parameter of every read.
        FilterExpression: 'partnerId = :partnerId',
        ExpressionAttributeValues: { ':pk': keys.deliveriesOfBooking(bookingRef).GSI1PK, ':partnerId': partnerId },
      }),
    );
    return (out.Items ?? []).map(deliveryFromItem).filter((d): d is CallbackDelivery => d.kind === 'callback');
  }

  async eraseText(previous: CallbackDelivery, erased: Pick<CallbackDelivery, 'payload' | 'attempts' | 'failureReason'>): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: keys.delivery(previous.partnerId, previous.deliveryId),
          ConditionExpression: is.textAsRead,
          UpdateExpression: 'SET payload = :payload, attempts = :attempts, failureReason = :failureReason',
          ExpressionAttributeValues: {
            ':count': previous.attempts.length,
            ':previous': previous.payload,
            ':payload': erased.payload,
            ':attempts': erased.attempts,
            ':failureReason': erased.failureReason,
          },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async listByStatus(partnerId: string, status: DeliveryStatus): Promise<Delivery[]> {
    const k = keys.deliveriesOfPartner(partnerId);
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      FilterExpression: '#status = :status',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pk': k.PK, ':prefix': k.SKPrefix, ':status': status },
    });
    return items.map(deliveryFromItem);
  }

  /** An update whose failed condition means "someone else moved the delivery on": false, not an error. */
  private async conditional(input: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName'>): Promise<boolean> {
    try {
      await this.db.send(new UpdateCommand({ TableName: this.table, ...input }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }
}
