import { ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { callbackSecretContext } from '../../domain/deliveries/booking-callback.ts';
import type { SealedField, SealedSecretStore } from '../../domain/ports/sealed-secrets.ts';
import { secretContext } from '../../domain/webhooks/manage-endpoints.ts';
import { isConditionFailure } from './client.ts';

interface Ref {
  readonly key: { PK: string; SK: string };
  readonly attribute: 'encrypted' | 'authSecretSealed' | 'signingSecretSealed';
}

type Item = Record<string, unknown> & { PK: string; SK: string; entity: string };

const GROUP_PREFIX = 'GROUP#';

/** The sealed fields of one item: a group's callback secret, or an endpoint's auth and signing secrets. */
function fieldsOf(item: Item): SealedField[] {
  const key = { PK: item.PK, SK: item.SK };
  if (item.entity === 'CallbackSecret' && typeof item.encrypted === 'string' && item.PK.startsWith(GROUP_PREFIX)) {
    return [
      {
        ref: { key, attribute: 'encrypted' } satisfies Ref,
        kind: 'callback-secret',
        context: callbackSecretContext(item.PK.slice(GROUP_PREFIX.length)),
        sealed: item.encrypted,
      },
    ];
  }
  const fields: SealedField[] = [];
  if (item.entity === 'WebhookEndpoint' && typeof item.id === 'string') {
    if (typeof item.authSecretSealed === 'string') {
      fields.push({
        ref: { key, attribute: 'authSecretSealed' } satisfies Ref,
        kind: 'webhook-auth',
        context: secretContext(item.id, 'auth'),
        sealed: item.authSecretSealed,
      });
    }
    if (typeof item.signingSecretSealed === 'string') {
      fields.push({
        ref: { key, attribute: 'signingSecretSealed' } satisfies Ref,
        kind: 'webhook-signing',
        context: secretContext(item.id, 'signing'),
        sealed: item.signingSecretSealed,
      });
    }
  }
  return fields;
}

/**
 * The table's sealed secrets, found by a filtered Scan. Only the admin tool uses it, with the
 * operator's credentials, once per rotation; no function is granted Scan.
 */
export class DynamoSealedSecretStore implements SealedSecretStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async *list(): AsyncIterable<SealedField> {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(
        new ScanCommand({
          TableName: this.table,
          FilterExpression: 'entity IN (:callback, :endpoint)',
          ProjectionExpression: 'PK, SK, entity, encrypted, id, authSecretSealed, signingSecretSealed',
          ExpressionAttributeValues: { ':callback': 'CallbackSecret', ':endpoint': 'WebhookEndpoint' },
          ExclusiveStartKey: start,
          ConsistentRead: true,
        }),
      );
      for (const item of (page.Items ?? []) as Item[]) yield* fieldsOf(item);
      start = page.LastEvaluatedKey;
    } while (start);
  }

  async replace(field: SealedField, resealed: string): Promise<boolean> {
    const { key, attribute } = field.ref as Ref;
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key,
          UpdateExpression: 'SET #a = :next',
          ConditionExpression: '#a = :was',
          ExpressionAttributeNames: { '#a': attribute },
          ExpressionAttributeValues: { ':next': resealed, ':was': field.sealed },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }
}
