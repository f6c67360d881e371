import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { OpenFigures } from '../../domain/invoicing/invoice.ts';
import type { Minor } from '../../domain/money.ts';
import type { OwingFigures, ReceivableFigures } from '../../domain/ports/owing-figures.ts';
import { keptOpenFigures, readOpenFigures, trackOwing } from './dues.ts';
import { keys } from './keys.ts';
import { queryAll } from './query.ts';
import { GSI1 } from './table.ts';

/*
 * Access patterns of what a group owes (docs/data-model.md, "Dues"):
 * | pattern                               | key condition                                          | index |
 * |---------------------------------------|--------------------------------------------------------|-------|
 * | figures of a group's listed invoices  | GSI1PK = GROUP#<g>#INVOICES                            | GSI1  |
 * | open figures, oldest due (dues.ts)    | PK = GROUP#<g>, SK = DUES; begins_with(SK, DUE#) Limit 1 | table |
 */

/** The kept figures of dues.ts, and the listed invoices they are defined from. */
export class DynamoOwingFigures implements OwingFigures {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async receivables(agentGroupId: string): Promise<(ReceivableFigures & { readonly tracked: boolean })[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: GSI1,
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.invoiceList(agentGroupId).GSI1PK },
      ProjectionExpression: 'id, #total, dueDate, amountPaid, creditedAmount, creditNoteFor, dueTracked',
      ExpressionAttributeNames: { '#total': 'total' },
    });
    return items.map((i) => ({
      id: i.id as string,
      total: i.total as Minor,
      amountPaid: (i.amountPaid as Minor | undefined) ?? 0,
      creditedAmount: (i.creditedAmount as Minor | undefined) ?? 0,
      dueDate: i.dueDate as string,
      tracked: i.dueTracked === true,
      ...(i.creditNoteFor ? { creditNoteFor: i.creditNoteFor as string } : {}),
    }));
  }

  async openFigures(agentGroupId: string): Promise<OpenFigures> {
    return readOpenFigures(this.db, this.table, agentGroupId, () => this.receivables(agentGroupId));
  }

  async keptOpenFigures(agentGroupId: string): Promise<OpenFigures | undefined> {
    return keptOpenFigures(this.db, this.table, agentGroupId);
  }

  async backfillOpenFigures(agentGroupId: string): Promise<number> {
    return trackOwing(this.db, this.table, agentGroupId, () => this.receivables(agentGroupId));
  }
}
