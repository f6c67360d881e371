import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuditDraft } from '../../domain/audit/audit-event.ts';
import type { GroupMailSettings } from '../../domain/mail/finance-contacts.ts';
import type { FinanceContactStore } from '../../domain/ports/finance-contacts.ts';
import { isRefused } from './client.ts';
import type { DynamoAuditTrail } from './dynamo-audit-trail.ts';
import { mailSettingsEntity } from './entities/mail-settings.ts';
import { keys } from './keys.ts';

/**
 * One item per group (GROUP#<id> / MAIL_SETTINGS), replaced whole under its version with the
 * change's audit event; in the same transaction one item per contact address
 * (MAIL_ADDRESS#<email> / GROUP#<id>) is written or deleted, so a bounce is found by its address.
 */
export class DynamoFinanceContactStore implements FinanceContactStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly audit: DynamoAuditTrail,
  ) {}

  async get(agentGroupId: string): Promise<GroupMailSettings | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.mailSettings(agentGroupId), ConsistentRead: true }));
    if (!out.Item) return undefined;
    const { agentGroupId: id, contacts, paused, version } = out.Item as GroupMailSettings;
    return { agentGroupId: id, contacts, paused, version };
  }

  async groupsWithAddress(email: string): Promise<string[]> {
    const groups: string[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.db.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': keys.mailAddress(email, '').PK },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of out.Items ?? []) groups.push(String(item.SK).slice('GROUP#'.length));
      start = out.LastEvaluatedKey;
    } while (start);
    return groups;
  }

  async indexAddresses(settings: GroupMailSettings): Promise<number> {
    const missing: string[] = [];
    for (const email of new Set(settings.contacts.map((c) => c.email))) {
      const out = await this.db.send(
        new GetCommand({ TableName: this.table, Key: keys.mailAddress(email, settings.agentGroupId), ConsistentRead: true, ProjectionExpression: 'PK' }),
      );
      if (!out.Item) missing.push(email);
    }
    if (missing.length === 0) return 0;
    try {
      // Only while the record is the one read: a change since wrote every address it kept, and one it removed must not come back.
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              ConditionCheck: {
                TableName: this.table,
                Key: keys.mailSettings(settings.agentGroupId),
                ConditionExpression: mailSettingsEntity.conditions.versionAt,
                ExpressionAttributeValues: { ':v': settings.version },
              },
            },
            ...missing.map((email) => ({ Put: { TableName: this.table, Item: { ...keys.mailAddress(email, settings.agentGroupId), entity: 'MailAddress' } } })),
          ],
        }),
      );
      return missing.length;
    } catch (err) {
      if (isRefused(err)) return 0;
      throw err;
    }
  }

  async replace(next: GroupMailSettings, expectedVersion: number, audit: AuditDraft): Promise<boolean> {
    const put = {
      TableName: this.table,
      Item: { ...keys.mailSettings(next.agentGroupId), entity: 'GroupMailSettings', ...next },
      ...(expectedVersion === 0
        ? { ConditionExpression: mailSettingsEntity.conditions.isNew }
        : { ConditionExpression: mailSettingsEntity.conditions.versionAt, ExpressionAttributeValues: { ':v': expectedVersion } }),
    };
    // The record the change replaces: if it is no longer at expectedVersion the transaction fails on `put`'s condition anyway.
    const before = expectedVersion === 0 ? undefined : await this.get(next.agentGroupId);
    const kept = new Set(next.contacts.map((c) => c.email));
    const addresses = [
      ...[...kept].map((email) => ({ Put: { TableName: this.table, Item: { ...keys.mailAddress(email, next.agentGroupId), entity: 'MailAddress' } } })),
      ...(before?.contacts ?? [])
        .filter((c) => !kept.has(c.email))
        .map((c) => ({ Delete: { TableName: this.table, Key: keys.mailAddress(c.email, next.agentGroupId) } })),
    ];
    try {
      await this.audit.transact([{ Put: put }, ...addresses], audit);
      return true;
    } catch (err) {
      if (isRefused(err)) return false;
      throw err;
    }
  }
}
