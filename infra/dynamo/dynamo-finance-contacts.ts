import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuditDraft } from '../../domain/audit/audit-event.ts';
import type { GroupMailSettings } from '../../domain/mail/finance-contacts.ts';
import type { FinanceContactStore } from '../../domain/ports/finance-contacts.ts';
import { isRefused } from './client.ts';
import type { DynamoAuditTrail } from './dynamo-audit-trail.ts';
import { keys } from './keys.ts';

/** One item per group (GROUP#<id> / MAIL_SETTINGS), replaced whole under its version with the change's audit event. */
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

  async replace(next: GroupMailSettings, expectedVersion: number, audit: AuditDraft): Promise<boolean> {
    const put = {
      TableName: this.table,
      Item: { ...keys.mailSettings(next.agentGroupId), entity: 'GroupMailSettings', ...next },
      ...(expectedVersion === 0
        ? { ConditionExpression: 'attribute_not_exists(PK)' }
        : { ConditionExpression: 'version = :expected', ExpressionAttributeValues: { ':expected': expectedVersion } }),
    };
    try {
      await this.audit.transact([{ Put: put }], audit);
      return true;
    } catch (err) {
      if (isRefused(err)) return false;
      throw err;
    }
  }
}
