import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuditDraft } from '../../domain/audit/audit-event.ts';
import type { MailLog, MailSendKey } from '../../domain/ports/mail-log.ts';
import { writeIf } from './client.ts';
import type { DynamoAuditTrail } from './dynamo-audit-trail.ts';
import { mailSendEntity } from './entities/mail-send.ts';

const keyOf = (k: MailSendKey) => mailSendEntity.key(k.agentGroupId, k.what, k.contactId);

/** Each send an item under its group (GROUP#<id> / MAIL#<what>#<contactId>): CLAIMED, then SENT with the message id. */
export class DynamoMailLog implements MailLog {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly audit: DynamoAuditTrail,
  ) {}

  claim(k: MailSendKey, at: string): Promise<boolean> {
    return writeIf(
      this.db,
      new PutCommand({
        TableName: this.table,
        Item: { ...keyOf(k), entity: mailSendEntity.name, ...k, status: 'CLAIMED', claimedAt: at },
        ConditionExpression: mailSendEntity.conditions.isNew,
      }),
    );
  }

  async claimed(k: MailSendKey): Promise<boolean> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keyOf(k), ConsistentRead: true, ProjectionExpression: 'PK' }));
    return out.Item !== undefined;
  }

  async sent(k: MailSendKey, messageId: string, at: string, audit: AuditDraft): Promise<void> {
    await this.audit.transact(
      [
        {
          Update: {
            TableName: this.table,
            Key: keyOf(k),
            UpdateExpression: 'SET #s = :sent, messageId = :m, sentAt = :at',
            ConditionExpression: mailSendEntity.conditions.claimed,
            ExpressionAttributeNames: { '#s': 'status' },
            ExpressionAttributeValues: { ':sent': 'SENT', ':claimed': 'CLAIMED', ':m': messageId, ':at': at },
          },
        },
      ],
      audit,
    );
  }

  async release(k: MailSendKey): Promise<void> {
    await writeIf(
      this.db,
      new DeleteCommand({
        TableName: this.table,
        Key: keyOf(k),
        ConditionExpression: mailSendEntity.conditions.claimed,
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':claimed': 'CLAIMED' },
      }),
    );
  }
}
