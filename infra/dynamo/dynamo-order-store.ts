import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Order, OrderPricing } from '../../domain/orders/order.ts';
import type { OrderStore } from '../../domain/ports/order-store.ts';
import { ERASED } from '../../domain/guests/guest-erasure.ts';
import { isConditionFailure } from './client.ts';
import { orderEntity } from './entities/order.ts';
import { keys } from './keys.ts';

export const orderItem = (o: Order) => ({ ...keys.order(o.agentGroupId, o.orderId), entity: 'Order', ...o });

const fromItem = (item: Record<string, unknown> | undefined): Order | undefined => {
  if (!item) return undefined;
  const { PK: _pk, SK: _sk, entity: _e, ...rest } = item;
  return rest as unknown as Order;
};

export class DynamoOrderStore implements OrderStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(order: Order): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: orderItem(order), ConditionExpression: orderEntity.conditions.isNew }));
  }

  async get(agentGroupId: string, orderId: string): Promise<Order | undefined> {
    // Consistent: a partner reads its order straight after creating or repricing it.
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.order(agentGroupId, orderId), ConsistentRead: true }));
    return fromItem(out.Item);
  }

  async eraseExternalRef(agentGroupId: string, orderId: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: keys.order(agentGroupId, orderId),
        ConditionExpression: orderEntity.conditions.exists,
        UpdateExpression: 'SET externalRef = :erased',
        ExpressionAttributeValues: { ':erased': ERASED },
      }),
    );
  }

  async savePricing(agentGroupId: string, orderId: string, update: { pricing: OrderPricing; pricedAt: string; validUntil: string }): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: keys.order(agentGroupId, orderId),
          ConditionExpression: orderEntity.conditions.exists,
          UpdateExpression: 'SET pricing = :pricing, pricedAt = :pricedAt, validUntil = :validUntil',
          ExpressionAttributeValues: { ':pricing': update.pricing, ':pricedAt': update.pricedAt, ':validUntil': update.validUntil },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }
}
