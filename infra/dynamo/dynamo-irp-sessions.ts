import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { IrpSession, IrpSessionStore } from '../einvoice/nic-e-invoice-registry.ts';
import { writeIf } from './client.ts';
import { irpSessionEntity } from './entities/claims.ts';

/**
 * The IRP sessions of a stage in its table (`IRPSESSION#<gstin>`): the auth token and Sek
 * sealed under the stage's secrets key (bound to the GSTIN), so every Lambda shares one
 * sign-in per registration and the table never holds them in the clear. The sign-in lease
 * is a conditional update: taken only when no other holder's is live.
 */
export class DynamoIrpSessions implements IrpSessionStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly box: SecretBox,
  ) {}

  private readonly context = (gstin: string): string => `irp-session:${gstin}`;

  async get(gstin: string): Promise<IrpSession | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: irpSessionEntity.key(gstin), ConsistentRead: true }));
    const item = out.Item as { sealed?: string; expiresAt?: number } | undefined;
    if (!item?.sealed || item.expiresAt === undefined) return undefined;
    let opened: { authToken: string; sek: string };
    try {
      opened = JSON.parse(this.box.open(item.sealed, this.context(gstin))) as { authToken: string; sek: string };
    } catch {
      // Sealed under a secrets key since rotated out: unusable (no token), the next caller signs in
      // again; its expiry is still answered so the lease is taken over exactly this item.
      return { authToken: '', sek: Buffer.alloc(0), expiresAt: item.expiresAt };
    }
    const { authToken, sek } = opened;
    return { authToken, sek: Buffer.from(sek, 'base64'), expiresAt: item.expiresAt };
  }

  lease(gstin: string, holder: string, now: number, until: number, seenExpiresAt?: number): Promise<boolean> {
    // With the session the caller read: a holder that stored a fresh session and freed the
    // lease between that read and this write must not be followed by a second sign-in; also
    // when the caller read none (the first sign-in of a registration, 12 callers once signed in twice).
    return writeIf(
      this.db,
      new UpdateCommand({
        TableName: this.table,
        Key: irpSessionEntity.key(gstin),
        UpdateExpression: 'SET leaseHolder = :h, leaseUntil = :u, entity = :e',
        ConditionExpression: `${irpSessionEntity.conditions.leaseFree} AND ${irpSessionEntity.conditions.sessionAsSeen(seenExpiresAt !== undefined)}`,
        ExpressionAttributeValues: {
          ':h': holder,
          ':u': until,
          ':now': now,
          ':e': irpSessionEntity.name,
          ...(seenExpiresAt === undefined ? {} : { ':seen': seenExpiresAt }),
        },
      }),
    );
  }

  async put(gstin: string, holder: string, session: IrpSession): Promise<void> {
    const sealed = this.box.seal(JSON.stringify({ authToken: session.authToken, sek: session.sek.toString('base64') }), this.context(gstin));
    // A holder whose lease lapsed and was taken over leaves the session to the new holder.
    await writeIf(
      this.db,
      new UpdateCommand({
        TableName: this.table,
        Key: irpSessionEntity.key(gstin),
        UpdateExpression: 'SET sealed = :s, expiresAt = :x REMOVE leaseHolder, leaseUntil',
        ConditionExpression: irpSessionEntity.conditions.heldBy,
        ExpressionAttributeValues: { ':s': sealed, ':x': session.expiresAt, ':h': holder },
      }),
    );
  }

  async release(gstin: string, holder: string): Promise<void> {
    await writeIf(
      this.db,
      new UpdateCommand({
        TableName: this.table,
        Key: irpSessionEntity.key(gstin),
        UpdateExpression: 'REMOVE leaseHolder, leaseUntil',
        ConditionExpression: irpSessionEntity.conditions.heldBy,
        ExpressionAttributeValues: { ':h': holder },
      }),
    );
  }
}
