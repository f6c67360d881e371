import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Invoice } from '../../domain/invoicing/invoice.ts';
import { writeIf } from './client.ts';
import { recordOf } from './items.ts';
import { keys } from './keys.ts';

/** Lines join only a DRAFT: an operator abandoning it between plan and write cancels the write. */
export const STILL_DRAFT = '#status = :draft';
/** An invoice leaves the open index once nothing is left to do. */
export const NOTHING_LEFT = 'attribute_exists(pdfKey) AND bookingsMarked = :true';

export function invoiceOf(item: Record<string, unknown>): Invoice {
  const refs = item.bookingRefs;
  return {
    ...recordOf<Invoice>(item),
    lastError: (item.lastError as string | undefined) ?? null,
    bookingRefs: refs instanceof Set ? [...(refs as Set<string>)].sort() : ((refs as string[] | undefined) ?? []),
  };
}

/** Takes an issued invoice off the open index once its last step (its PDF, its booking marks) is done; nothing otherwise. */
export async function closeIfDone(db: DynamoDBDocumentClient, table: string, agentGroupId: string, invoiceId: string): Promise<void> {
  await writeIf(
    db,
    new UpdateCommand({
      TableName: table,
      Key: keys.invoice(agentGroupId, invoiceId),
      UpdateExpression: 'REMOVE GSI2PK, GSI2SK',
      ConditionExpression: NOTHING_LEFT,
      ExpressionAttributeValues: { ':true': true },
    }),
  );
}
