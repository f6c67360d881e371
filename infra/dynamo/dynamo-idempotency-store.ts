import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { IdempotencyClaim, IdempotencyRecord, IdempotencyStore, StoredReply } from '../../domain/ports/idempotency-store.ts';
import { writeIf } from './client.ts';
import { idempotencyKeyEntity } from './entities/claims.ts';
import { TTL_ATTRIBUTE } from './table.ts';

/** A claim freed or expired between the refused put and the read is claimed again; a few rounds settle any race. */
const CLAIM_ROUNDS = 3;

const epochSeconds = (at: Date): number => Math.floor(at.getTime() / 1000);

/**
 * Idempotency keys as items of the single table: a conditional put claims a key (of any
 * number of concurrent claims exactly one succeeds), the answer is written onto the item
 * as JSON text (any body, no DynamoDB type rules), and `expiresAt` (the table's TTL
 * attribute, epoch seconds) drops it after 24 hours. Keeping and freeing are conditional on
 * the claim's id, so a run whose lease was taken over cannot touch its successor's claim.
 */
export class DynamoIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async claim(scope: string, key: string, claim: IdempotencyClaim): Promise<IdempotencyRecord | undefined> {
    const Key = idempotencyKeyEntity.key(scope, key);
    const now = epochSeconds(claim.now);
    for (let round = 0; round < CLAIM_ROUNDS; round++) {
      const claimed = await writeIf(
        this.db,
        new PutCommand({
          TableName: this.table,
          Item: {
            ...Key,
            entity: idempotencyKeyEntity.name,
            requestHash: claim.requestHash,
            claimId: claim.claimId,
            claimedAt: claim.now.toISOString(),
            leaseUntil: epochSeconds(claim.leaseUntil),
            [TTL_ATTRIBUTE]: epochSeconds(claim.expiresAt),
          },
          ConditionExpression: idempotencyKeyEntity.conditions.free,
          ExpressionAttributeValues: { ':now': now },
        }),
      );
      if (claimed) return undefined;
      const item = (await this.db.send(new GetCommand({ TableName: this.table, Key, ConsistentRead: true }))).Item;
      if (!item || (item[TTL_ATTRIBUTE] as number) < now) continue;
      if (typeof item.replyJson === 'string') return { requestHash: item.requestHash as string, reply: JSON.parse(item.replyJson) as StoredReply };
      if ((item.leaseUntil as number) >= now) return { requestHash: item.requestHash as string };
    }
    throw new Error(`Idempotency key ${scope}/${key} kept changing hands while being claimed.`);
  }

  async complete(scope: string, key: string, claimId: string, reply: StoredReply): Promise<void> {
    await writeIf(
      this.db,
      new UpdateCommand({
        TableName: this.table,
        Key: idempotencyKeyEntity.key(scope, key),
        UpdateExpression: 'SET replyJson = :reply',
        ConditionExpression: idempotencyKeyEntity.conditions.claimedBy,
        ExpressionAttributeValues: { ':reply': JSON.stringify(reply), ':claimId': claimId },
      }),
    );
  }

  async release(scope: string, key: string, claimId: string): Promise<void> {
    await writeIf(
      this.db,
      new DeleteCommand({
        TableName: this.table,
        Key: idempotencyKeyEntity.key(scope, key),
        ConditionExpression: idempotencyKeyEntity.conditions.claimedBy,
        ExpressionAttributeValues: { ':claimId': claimId },
      }),
    );
  }
}
