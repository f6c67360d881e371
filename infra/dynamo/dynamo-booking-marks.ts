import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Invoice } from '../../domain/invoicing/invoice.ts';
import type { Minor } from '../../domain/money.ts';
import type { BookingMarks } from '../../domain/ports/booking-marks.ts';
import { getAll } from './batch-get.ts';
import { billingMarkerEntity } from './entities/billing-marker.ts';
import { bookingEntity } from './entities/booking.ts';
import { closeIfDone, invoiceEntity } from './entities/invoice.ts';
import { keys } from './keys.ts';
import { queryAll } from './query.ts';
import { transactEach } from './transact-each.ts';

/*
 * Access patterns of booking marks (docs/data-model.md):
 * | pattern                               | key condition                                          | index |
 * |---------------------------------------|--------------------------------------------------------|-------|
 * | invoiced total of a booking           | PK = GROUP#<g>, SK = BILLED#<bookingRef>               | table |
 * | lines of a booking                    | PK = GROUP#<g>, begins_with(SK, INVLINE#<bookingRef>#) | table |
 * | a booking's invoices (invoicedIn)     | PK = GROUP#<g>, SK = BOOKING#<bookingRef>              | table |
 */

/** Transactions of booking marks in flight at once when an invoice is issued (each on its own bookings, so they never conflict). */
const MARK_TRANSACTIONS_IN_FLIGHT = 8;

/** The billing markers and line items a run plans from, and the invoicedIn marks an issued invoice leaves on its bookings. */
export class DynamoBookingMarks implements BookingMarks {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async billedTotals(agentGroupId: string, bookingRefs: readonly string[]): Promise<Map<string, Minor>> {
    const items = await getAll(
      this.db,
      this.table,
      [...new Set(bookingRefs)].map((ref) => billingMarkerEntity.key(agentGroupId, ref)),
      { projection: 'bookingRef, billedTotal', consistent: true },
    );
    return new Map(items.map(billingMarkerEntity.fromItem));
  }

  async billedLines(agentGroupId: string, bookingRef: string): Promise<Map<string, Minor>> {
    const k = keys.linesOfBooking(agentGroupId, bookingRef);
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': k.PK, ':prefix': k.SKPrefix },
      ProjectionExpression: '#key, lineTotal',
      ExpressionAttributeNames: { '#key': 'key' },
      ConsistentRead: true,
    });
    return new Map(items.map((i) => [i.key as string, i.lineTotal as Minor]));
  }

  async markBookingsInvoiced(invoice: Invoice, at: string): Promise<void> {
    // Each mark is its own conditional write; sent 100 to a transaction, so a 5,000-booking invoice costs 50 calls, not 5,000.
    await transactEach(
      this.db,
      invoice.bookingRefs.map((ref) => this.bookingMark(invoice, ref)),
      MARK_TRANSACTIONS_IN_FLIGHT,
    );
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: invoiceEntity.key(invoice.agentGroupId, invoice.id),
        UpdateExpression: 'SET bookingsMarked = :true, updatedAt = :at',
        ExpressionAttributeValues: { ':true': true, ':at': at },
      }),
    );
    await closeIfDone(this.db, this.table, invoice.agentGroupId, invoice.id);
  }

  /**
   * invoicedIn += the invoice and version + 1, in one atomic update: every other booking write
   * is conditional on the version it read, so an amendment or workflow step computed before
   * this mark loses and re-reads (and then sees the booking invoiced). Once per invoice: a
   * booking already marked refuses it (a retried step changes nothing, version included).
   */
  private bookingMark(invoice: Invoice, bookingRef: string) {
    return {
      Update: {
        TableName: this.table,
        Key: keys.booking(invoice.agentGroupId, bookingRef),
        UpdateExpression: 'SET invoicedIn = list_append(if_not_exists(invoicedIn, :none), :invoice), #version = #version + :one',
        ConditionExpression: bookingEntity.conditions.notYetMarked,
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':none': [], ':invoice': [invoice.id], ':one': 1, ':id': invoice.id },
      },
    };
  }
}
