import type { InvoiceLine } from '../../../domain/invoicing/invoice.ts';
import { lineTotalOf } from '../../../domain/invoicing/invoice-totals.ts';
import type { Minor } from '../../../domain/money.ts';
import type { TransactItem } from '../items.ts';
import { keys } from '../keys.ts';

/*
 * The BillingMarker item: PK = GROUP#<g>, SK = BILLED#<bookingRef>: Σ lineTotal and count of a
 * booking's invoiced lines, moved in the same transaction as the lines.
 */
export const billingMarkerEntity = {
  name: 'BillingMarker',
  key: keys.billingMarker,
  /** Moved up by a booking's lines as they are written (created by the first). */
  billed: (table: string, agentGroupId: string, bookingRef: string, lines: readonly InvoiceLine[], at: string): TransactItem => ({
    Update: {
      TableName: table,
      Key: keys.billingMarker(agentGroupId, bookingRef),
      UpdateExpression: 'ADD billedTotal :t, lineCount :n SET bookingRef = :ref, entity = :entity, updatedAt = :at',
      ExpressionAttributeValues: { ':t': lineTotalOf(lines), ':n': lines.length, ':ref': bookingRef, ':entity': 'BillingMarker', ':at': at },
    },
  }),
  /** Moved down by a booking's lines given back (kept at 0, never deleted). */
  released: (table: string, agentGroupId: string, bookingRef: string, lines: readonly InvoiceLine[]): TransactItem => ({
    Update: {
      TableName: table,
      Key: keys.billingMarker(agentGroupId, bookingRef),
      UpdateExpression: 'ADD billedTotal :t, lineCount :n',
      ExpressionAttributeValues: { ':t': -lineTotalOf(lines), ':n': -lines.length },
    },
  }),
  conditions: {
    /** Moved from the billed total a credit was planned on (`:expect`), when it names one. */
    billedAt: 'billedTotal = :expect',
  },
  /** Read with the projection `bookingRef, billedTotal`. */
  fromItem: (item: Record<string, unknown>): readonly [string, Minor] => [item.bookingRef as string, item.billedTotal as Minor],
} as const;
