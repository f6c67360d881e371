import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type TransactWriteCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecord, KeyOwner } from '../../domain/api-key.ts';
import type { AuditDraft } from '../../domain/audit/audit-event.ts';
import type { DynamoAuditTrail } from './dynamo-audit-trail.ts';
import { ConflictError } from '../../domain/errors.ts';
import type { AgentGroupChanges, SealedCallbackSecret, TenantDirectory } from '../../domain/ports/tenant-directory.ts';
import type { AgentGroup, Partner } from '../../domain/tenants.ts';
import { cancellationReasons, isConditionFailure } from './client.ts';
import { queryAll, scanAll } from './query.ts';
import { agentGroupEntity, apiKeyEntity } from './entities/tenants.ts';
import { ITEM_IS_NEW } from './items.ts';
import { keys } from './keys.ts';
import { GSI1, GSI2 } from './table.ts';

/** Revocation stamps the time once, guarded by apiKeyEntity.conditions.active. */
const REVOKE = 'SET #status = :revoked, revokedAt = :at';
const revokeValues = (at: string) => ({ ':revoked': 'REVOKED', ':active': 'ACTIVE', ':at': at });

const strip = <T>(item: Record<string, unknown> | undefined): T | undefined => {
  if (!item) return undefined;
  const { PK: _pk, SK: _sk, GSI1PK: _g1, GSI1SK: _g1s, GSI2PK: _g2, GSI2SK: _g2s, entity: _e, ...rest } = item;
  return rest as T;
};

export const partnerItem = (p: Partner) => ({ ...keys.partner(p.partnerId), ...keys.partnerIndex(p.partnerId), entity: 'Partner', ...p });
export const agentGroupItem = (g: AgentGroup) => ({
  ...keys.agentGroup(g.agentGroupId),
  ...keys.agentGroupIndex(g.agentGroupId, g.partnerId),
  entity: 'AgentGroup',
  ...g,
});
export const apiKeyItem = (k: ApiKeyRecord) => ({
  ...keys.apiKey(k.keyHash),
  ...keys.apiKeyOwnerIndex(k.owner.kind, k.owner.id, k.createdAt, k.keyId),
  ...keys.apiKeyIdIndex(k.keyId),
  entity: 'ApiKey',
  ...k,
});

/**
 * SETs only the changed fields, so an operator's edit never overwrites attributes it did
 * not mean to touch, even if another writer changed them meanwhile.
 */
export function agentGroupUpdate(table: string, agentGroupId: string, changes: AgentGroupChanges, at: string): UpdateCommandInput {
  const fields = Object.entries({ ...changes, updatedAt: at }).filter(([, value]) => value !== undefined);
  return {
    TableName: table,
    Key: keys.agentGroup(agentGroupId),
    UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
    ConditionExpression: agentGroupEntity.conditions.exists,
    ExpressionAttributeNames: Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
    ExpressionAttributeValues: Object.fromEntries(fields.map(([, value], i) => [`:v${i}`, value])),
    ReturnValues: 'ALL_NEW',
  };
}

/** Which of replaceKey's two writes was refused: the new key's put (index 0) or the old key's revocation (index 1). */
function replaceConflictMessage(err: unknown, oldKeyId: string): string {
  const reasons = cancellationReasons(err);
  return reasons[1]?.Code === 'ConditionalCheckFailed' ? `Key ${oldKeyId} is already revoked; issue a new key instead.` : 'That key is already registered.';
}

const callbackSecretItem = (s: SealedCallbackSecret, at: string) => ({
  ...keys.callbackSecret(s.agentGroupId),
  entity: 'CallbackSecret',
  encrypted: s.sealed,
  rotatedAt: at,
});

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

export class DynamoTenantDirectory implements TenantDirectory {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly audit: DynamoAuditTrail,
  ) {}

  /** The writes with the operator's event in one transaction, or alone when there is none (fixtures, bulk import). */
  private async write(items: TransactItems, audit: AuditDraft | undefined): Promise<void> {
    if (audit) await this.audit.transact(items, audit);
    else await this.db.send(new TransactWriteCommand({ TransactItems: items }));
  }

  async getPartner(partnerId: string): Promise<Partner | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.partner(partnerId) }));
    return strip<Partner>(out.Item);
  }

  async getAgentGroup(agentGroupId: string): Promise<AgentGroup | undefined> {
    // Consistent: disabling a group's distribution access must lock it out at once.
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.agentGroup(agentGroupId), ConsistentRead: true }));
    return strip<AgentGroup>(out.Item);
  }

  async listPartners(): Promise<Partner[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: GSI1,
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.allPartners().GSI1PK },
    });
    return items.map((i) => strip<Partner>(i)!);
  }

  async listAgentGroups(partnerId?: string): Promise<AgentGroup[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: GSI1,
      KeyConditionExpression: partnerId ? 'GSI1PK = :pk AND begins_with(GSI1SK, :prefix)' : 'GSI1PK = :pk',
      ExpressionAttributeValues: {
        ':pk': keys.allAgentGroups().GSI1PK,
        ...(partnerId ? { ':prefix': keys.agentGroupsOfPartnerPrefix(partnerId) } : {}),
      },
    });
    return items.map((i) => strip<AgentGroup>(i)!);
  }

  async createPartner(p: Partner, audit?: AuditDraft): Promise<void> {
    await this.putNew(partnerItem(p), `Partner ${p.partnerId} already exists.`, audit);
  }

  async createAgentGroup(g: AgentGroup, audit?: AuditDraft): Promise<void> {
    await this.putNew(agentGroupItem(g), `Agent group ${g.agentGroupId} already exists.`, audit);
  }

  async putPartner(p: Partner): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: partnerItem(p) }));
  }

  async putAgentGroup(g: AgentGroup): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: agentGroupItem(g) }));
  }

  async updateAgentGroup(agentGroupId: string, changes: AgentGroupChanges, at: string, audit?: AuditDraft): Promise<AgentGroup | undefined> {
    if (audit) {
      // A transaction returns no values: the group is read back after its change and event landed together.
      const { ReturnValues: _all, ...update } = agentGroupUpdate(this.table, agentGroupId, changes, at);
      try {
        await this.audit.transact([{ Update: update as never }], audit);
      } catch (err) {
        if (isConditionFailure(err)) return undefined;
        throw err;
      }
      return this.getAgentGroup(agentGroupId);
    }
    try {
      const out = await this.db.send(new UpdateCommand(agentGroupUpdate(this.table, agentGroupId, changes, at)));
      return strip<AgentGroup>(out.Attributes);
    } catch (err) {
      if (isConditionFailure(err)) return undefined;
      throw err;
    }
  }

  async findKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    // Consistent: a revoked key must get 401 on the very next request.
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.apiKey(keyHash), ConsistentRead: true }));
    return strip<ApiKeyRecord>(out.Item);
  }

  async getKey(keyId: string): Promise<ApiKeyRecord | undefined> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: GSI2,
        KeyConditionExpression: 'GSI2PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.apiKeyIdIndex(keyId).GSI2PK },
      }),
    );
    return strip<ApiKeyRecord>(out.Items?.[0]);
  }

  async listKeys(owner: KeyOwner): Promise<ApiKeyRecord[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: GSI1,
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.keysOfOwner(owner.kind, owner.id).GSI1PK },
    });
    return items.map((i) => strip<ApiKeyRecord>(i)!);
  }

  async findKeysByPrefix(prefix: string): Promise<ApiKeyRecord[]> {
    // A scan, filtered to key items: no index serves "by prefix", and only the admin tool asks,
    // rarely, so a full read beats another index written on every key.
    const items = await scanAll(this.db, {
      TableName: this.table,
      FilterExpression: 'begins_with(PK, :keys) AND begins_with(keyPrefix, :prefix)',
      ExpressionAttributeValues: { ':keys': 'APIKEY#', ':prefix': prefix },
    });
    return items.map((i) => strip<ApiKeyRecord>(i)!);
  }

  async createKey(k: ApiKeyRecord, callbackSecret?: SealedCallbackSecret, audit?: AuditDraft): Promise<void> {
    if (!callbackSecret && !audit) {
      await this.putNew(apiKeyItem(k), 'That key is already registered.');
      return;
    }
    try {
      await this.write(
        [
          { Put: { TableName: this.table, Item: apiKeyItem(k), ConditionExpression: apiKeyEntity.conditions.isNew } },
          ...(callbackSecret ? [{ Put: { TableName: this.table, Item: callbackSecretItem(callbackSecret, k.createdAt) } }] : []),
        ],
        audit,
      );
    } catch (err) {
      if (isConditionFailure(err)) throw new ConflictError('CONFLICT', 'That key is already registered.');
      throw err;
    }
  }

  async revokeKey(keyId: string, at: string, audit?: AuditDraft): Promise<ApiKeyRecord | undefined> {
    const existing = await this.getKey(keyId);
    if (!existing) return undefined;
    if (audit) {
      try {
        await this.audit.transact(
          [
            {
              Update: {
                TableName: this.table,
                Key: keys.apiKey(existing.keyHash),
                UpdateExpression: REVOKE,
                ConditionExpression: apiKeyEntity.conditions.active,
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: revokeValues(at),
              },
            },
          ],
          audit,
        );
      } catch (err) {
        // Already revoked: nothing changed, so nothing is recorded.
        if (!isConditionFailure(err)) throw err;
      }
      return this.findKeyByHash(existing.keyHash);
    }
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: keys.apiKey(existing.keyHash),
          UpdateExpression: REVOKE,
          ConditionExpression: apiKeyEntity.conditions.active,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: revokeValues(at),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return strip<ApiKeyRecord>(out.Attributes);
    } catch (err) {
      if (isConditionFailure(err)) return this.findKeyByHash(existing.keyHash);
      throw err;
    }
  }

  async replaceKey(oldKeyId: string, replacement: ApiKeyRecord, at: string, callbackSecret?: SealedCallbackSecret, audit?: AuditDraft): Promise<void> {
    const old = await this.getKey(oldKeyId);
    if (!old) throw new ConflictError('CONFLICT', `Key ${oldKeyId} does not exist.`);
    try {
      await this.write(
        [
          { Put: { TableName: this.table, Item: apiKeyItem(replacement), ConditionExpression: apiKeyEntity.conditions.isNew } },
          {
            Update: {
              TableName: this.table,
              Key: keys.apiKey(old.keyHash),
              UpdateExpression: REVOKE,
              ConditionExpression: apiKeyEntity.conditions.active,
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: revokeValues(at),
            },
          },
          ...(callbackSecret ? [{ Put: { TableName: this.table, Item: callbackSecretItem(callbackSecret, at) } }] : []),
        ],
        audit,
      );
    } catch (err) {
      if (isConditionFailure(err)) throw new ConflictError('CONFLICT', replaceConflictMessage(err, oldKeyId));
      throw err;
    }
  }

  async putCallbackSecret(agentGroupId: string, encrypted: string, at: string): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: callbackSecretItem({ agentGroupId, sealed: encrypted }, at) }));
  }

  async getCallbackSecret(agentGroupId: string): Promise<string | undefined> {
    // Consistent: a callback sent just after a key replacement must be signed with the new secret.
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.callbackSecret(agentGroupId), ConsistentRead: true }));
    return typeof out.Item?.encrypted === 'string' ? out.Item.encrypted : undefined;
  }

  private async putNew(item: Record<string, unknown>, conflictMessage: string, audit?: AuditDraft): Promise<void> {
    try {
      if (audit) await this.audit.transact([{ Put: { TableName: this.table, Item: item, ConditionExpression: ITEM_IS_NEW } }], audit);
      else await this.db.send(new PutCommand({ TableName: this.table, Item: item, ConditionExpression: ITEM_IS_NEW }));
    } catch (err) {
      if (isConditionFailure(err)) throw new ConflictError('CONFLICT', conflictMessage);
      throw err;
    }
  }
}
