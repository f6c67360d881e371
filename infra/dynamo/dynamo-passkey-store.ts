import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuditDraft } from '../../domain/audit/audit-event.ts';
import { ConflictError } from '../../domain/errors.ts';
import type { Passkey, PasskeyChallenge, PasskeyStore } from '../../domain/ports/passkey-store.ts';
import { cancellationReasons, isConditionFailure } from './client.ts';
import type { DynamoAuditTrail } from './dynamo-audit-trail.ts';
import { passkeyChallengeEntity, passkeyClaimEntity, passkeyEntity } from './entities/passkey.ts';
import { keys } from './keys.ts';
import { queryAll } from './query.ts';

function passkeyOf(item: Record<string, unknown> | undefined): Passkey | undefined {
  if (!item) return undefined;
  const { PK: _pk, SK: _sk, entity: _e, ...rest } = item;
  return rest as unknown as Passkey;
}

/**
 * Passkeys on the single table: each under its person (`PERSON#<id>`, `PASSKEY#<credential id>`),
 * so the person's page lists them with one consistent query, and a claim item under the
 * credential id that names the person, written in the same transaction, so one credential
 * belongs to one person and a sign-in finds it. Challenges live under their value and expire by TTL.
 */
export class DynamoPasskeyStore implements PasskeyStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly audit: DynamoAuditTrail,
  ) {}

  async putChallenge(c: PasskeyChallenge): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...keys.passkeyChallenge(c.challenge),
          entity: 'PasskeyChallenge',
          purpose: c.purpose,
          expiresAtIso: c.expiresAt,
          expiresAt: Math.ceil(Date.parse(c.expiresAt) / 1000),
        },
        ConditionExpression: passkeyChallengeEntity.conditions.isNew,
      }),
    );
  }

  async takeChallenge(challenge: string): Promise<PasskeyChallenge | undefined> {
    try {
      const out = await this.db.send(
        new DeleteCommand({
          TableName: this.table,
          Key: keys.passkeyChallenge(challenge),
          ConditionExpression: passkeyChallengeEntity.conditions.unused,
          ReturnValues: 'ALL_OLD',
        }),
      );
      const item = out.Attributes;
      return item ? { challenge, purpose: item.purpose as PasskeyChallenge['purpose'], expiresAt: item.expiresAtIso as string } : undefined;
    } catch (err) {
      if (isConditionFailure(err)) return undefined;
      throw err;
    }
  }

  async addPasskey(passkey: Passkey, audit: AuditDraft): Promise<void> {
    try {
      await this.audit.transact(
        [
          {
            Put: {
              TableName: this.table,
              Item: { ...keys.passkeyClaim(passkey.credentialId), entity: 'PasskeyClaim', personId: passkey.personId },
              ConditionExpression: passkeyClaimEntity.conditions.isNew,
            },
          },
          {
            Put: {
              TableName: this.table,
              Item: { ...keys.passkey(passkey.personId, passkey.credentialId), entity: 'Passkey', ...passkey },
              ConditionExpression: passkeyEntity.conditions.isNew,
            },
          },
        ],
        audit,
      );
    } catch (err) {
      if (isConditionFailure(err) || cancellationReasons(err).some((r) => r.Code === 'ConditionalCheckFailed'))
        throw new ConflictError('CONFLICT', 'That passkey is already registered.');
      throw err;
    }
  }

  async getPasskey(credentialId: string): Promise<Passkey | undefined> {
    const claim = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.passkeyClaim(credentialId), ConsistentRead: true }));
    const personId = claim.Item?.personId as string | undefined;
    if (personId === undefined) return undefined;
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.passkey(personId, credentialId), ConsistentRead: true }));
    return passkeyOf(out.Item);
  }

  async listPasskeys(personId: string): Promise<Passkey[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      ExpressionAttributeValues: { ':pk': keys.person(personId).PK, ':sk': 'PASSKEY#' },
      ConsistentRead: true,
    });
    return items.map((i) => passkeyOf(i)!).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async recordUse(passkey: Passkey, previous: number, counter: number, at: string): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: keys.passkey(passkey.personId, passkey.credentialId),
          UpdateExpression: 'SET #counter = :counter, lastUsedAt = :at',
          ConditionExpression: passkeyEntity.conditions.counterAt,
          ExpressionAttributeNames: { '#counter': 'counter' },
          ExpressionAttributeValues: { ':counter': counter, ':previous': previous, ':at': at },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async removePasskey(personId: string, credentialId: string, audit: AuditDraft): Promise<boolean> {
    try {
      await this.audit.transact(
        [
          { Delete: { TableName: this.table, Key: keys.passkey(personId, credentialId), ConditionExpression: passkeyEntity.conditions.exists } },
          {
            Delete: {
              TableName: this.table,
              Key: keys.passkeyClaim(credentialId),
              ConditionExpression: passkeyClaimEntity.conditions.claimedBy,
              ExpressionAttributeValues: { ':person': personId },
            },
          },
        ],
        audit,
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err) || cancellationReasons(err).some((r) => r.Code === 'ConditionalCheckFailed')) return false;
      throw err;
    }
  }
}
