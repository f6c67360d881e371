import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SandboxIrpMemory, SandboxIrpRecord } from '../einvoice/sandbox-e-invoice-registry.ts';
import { isConditionFailure, writeIf } from './client.ts';
import { sandboxIrpRegistrationEntity } from './entities/sandbox-irp.ts';
import { keys } from './keys.ts';

/**
 * The sandbox IRP's registered documents in the stage's table (`SANDBOXIRP#<irn>`), so every
 * process of a stage (API, schedule, admin tool) is one IRP: a document registered by one is
 * a duplicate to all. The first write of an IRN wins (conditional Put), as on the real IRP.
 */
export class DynamoSandboxIrpMemory implements SandboxIrpMemory {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async keep(record: SandboxIrpRecord): Promise<{ record: SandboxIrpRecord; existed: boolean }> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...keys.sandboxIrn(record.irn), entity: 'SandboxIrpRegistration', ...record },
          ConditionExpression: sandboxIrpRegistrationEntity.conditions.isNew,
        }),
      );
      return { record, existed: false };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.sandboxIrn(record.irn), ConsistentRead: true }));
    if (!out.Item) throw new Error(`the sandbox IRP lost its record of IRN ${record.irn}`);
    const { irn, ackNo, ackDate, signedQrCode, signedInvoice } = out.Item as SandboxIrpRecord;
    return { record: { irn, ackNo, ackDate, signedQrCode, signedInvoice }, existed: true };
  }

  async get(irn: string): Promise<(SandboxIrpRecord & { cancelledAt?: string }) | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.sandboxIrn(irn), ConsistentRead: true }));
    if (!out.Item) return undefined;
    const { ackNo, ackDate, signedQrCode, signedInvoice, cancelledAt } = out.Item as SandboxIrpRecord & { cancelledAt?: string };
    return { irn, ackNo, ackDate, signedQrCode, signedInvoice, ...(cancelledAt ? { cancelledAt } : {}) };
  }

  cancel(irn: string, at: string): Promise<boolean> {
    return writeIf(
      this.db,
      new UpdateCommand({
        TableName: this.table,
        Key: keys.sandboxIrn(irn),
        UpdateExpression: 'SET cancelledAt = :at',
        ConditionExpression: sandboxIrpRegistrationEntity.conditions.cancellable,
        ExpressionAttributeValues: { ':at': at },
      }),
    );
  }
}
