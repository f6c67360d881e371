import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { CreditableLine } from '../../domain/invoicing/credit-notes.ts';
import type { Invoice } from '../../domain/invoicing/invoice.ts';
import type { Minor } from '../../domain/money.ts';
import { StaleCreditPlan, type CreditNoteStore, type CreditNoteVoidWrite, type CreditNoteWrite } from '../../domain/ports/credit-note-store.ts';
import { cancellationReasons, contentionBackoff, isRefused, isTransactionContention } from './client.ts';
import { recordPostedEntriesItems } from './dynamo-credit-ledger.ts';
import { isHeadMoved, type DynamoAuditTrail } from './dynamo-audit-trail.ts';
import { dueItems, trackedAs, unallocatedItem } from './dues.ts';
import { invoiceEntity } from './entities/invoice.ts';
import { billingMarkerEntity } from './entities/billing-marker.ts';
import { creditNoteLineEntity, invoiceLineEntity } from './entities/invoice-line.ts';
import { creditNoteSeriesEntity } from './entities/invoice-series.ts';
import { keys, prefixed } from './keys.ts';
import { queryAll } from './query.ts';

/*
 * Access patterns of credit notes (docs/data-model.md):
 * | pattern                               | key condition                                                  | index |
 * |---------------------------------------|----------------------------------------------------------------|-------|
 * | credit note by id (an Invoice item)   | PK = GROUP#<g>, SK = INVOICE#<id>                              | table |
 * | a booking's invoiced lines + credited | PK = GROUP#<g>, begins_with(SK, INVLINE#<bookingRef>#)         | table |
 * | lines of a credit note                | GSI1PK = INVOICE#<id>#LINES (items CNLINE#<id>#<lineId>)       | GSI1  |
 * | credit-note series counter            | PK = SERIES#<gstin>, SK = CREDITNOTE#<financial year>          | table |
 */

const is = invoiceEntity.conditions;

const MAX_TRANSACTION_ITEMS = 100;
const MAX_ATTEMPTS = 60;
const backoff = (attempt: number) => contentionBackoff(attempt, 250);

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** The corrected invoice as its dues see it. */
interface Corrected {
  readonly total: Minor;
  readonly dueDate: string;
  readonly tracked: boolean;
}

const KEY_ATTRIBUTES = new Set(['PK', 'SK', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'entity']);

export class DynamoCreditNoteStore implements CreditNoteStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly audit: DynamoAuditTrail,
  ) {}

  async creditableLines(agentGroupId: string, bookingRef: string): Promise<CreditableLine[]> {
    const k = keys.linesOfBooking(agentGroupId, bookingRef);
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': k.PK, ':prefix': k.SKPrefix },
      ConsistentRead: true,
    });
    return items.map((i) => {
      const line = Object.fromEntries(Object.entries(i).filter(([name]) => !KEY_ATTRIBUTES.has(name))) as unknown as CreditableLine;
      return { ...line, creditedTotal: (i.creditedTotal as Minor | undefined) ?? 0, creditedGst: (i.creditedGst as Minor | undefined) ?? 0 };
    });
  }

  async raise(w: CreditNoteWrite): Promise<Invoice> {
    const note = w.note;
    const g = note.agentGroupId;
    const seriesKey = keys.creditNoteSeries(note.supplierGstin, w.financialYear, w.testClockId);
    for (let attempt = 0; ; attempt++) {
      const series = await this.db.send(new GetCommand({ TableName: this.table, Key: seriesKey, ConsistentRead: true }));
      const last = (series.Item?.last as number | undefined) ?? 0;
      const issued: Invoice = { ...note, invoiceNumber: w.numberOf(last + 1) };
      const change = this.items(w, issued, series.Item ? last : undefined, await this.dueOf(g, w.invoice.id));
      // The operator's event joins the note's own transaction, on the chain of the invoice it corrects.
      const items = [...change, ...(w.audit ? await this.audit.itemsFor(w.audit(issued)) : [])];
      if (items.length > MAX_TRANSACTION_ITEMS)
        throw new RangeError(`a credit note of ${w.lines.length} lines needs ${items.length} writes, more than one transaction holds`);
      try {
        await this.db.send(new TransactWriteCommand({ TransactItems: items }));
        return issued;
      } catch (err) {
        if (!isRefused(err)) throw err;
        // Only the invoice's audit chain moved (another change to the invoice committed its event first): read its head again.
        if (isHeadMoved(err, change.length) && attempt + 1 < MAX_ATTEMPTS) continue;
        const reasons = cancellationReasons(err);
        // Anything but the series failing its condition: the figures planned on moved.
        if (reasons.some((r, i) => i > 0 && r.Code === 'ConditionalCheckFailed'))
          throw new StaleCreditPlan(`credit note for invoice ${w.invoice.id}: the figures it was planned on have moved`);
        if (attempt + 1 >= MAX_ATTEMPTS) throw err;
        if (isTransactionContention(err)) await backoff(attempt);
      }
    }
  }

  async voidNote(w: CreditNoteVoidWrite): Promise<void> {
    const t = this.table;
    const note = w.note;
    const g = note.agentGroupId;
    const corrected = await this.dueOf(g, w.invoice.id);
    const items: TransactItems = [
      {
        Update: {
          TableName: t,
          Key: invoiceEntity.key(g, note.id),
          UpdateExpression:
            'SET #status = :cancelled, updatedAt = :at, eInvoice.cancelledAt = :cd, eInvoice.cancelReason = :r, eInvoice.cancelRemark = :rem, GSI1PK = :gpk, GSI1SK = :gsk REMOVE GSI2PK, GSI2SK',
          ConditionExpression: is.creditNoteVoidable,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':cancelled': 'CANCELLED',
            ':issued': 'ISSUED',
            ':at': w.at,
            ':cd': w.cancellation.cancelDate,
            ':r': w.cancellation.reason,
            ':rem': w.cancellation.remark,
            ':irn': note.eInvoice?.irn ?? '',
            ':invoice': w.invoice.id,
            ':zero': 0,
            ...prefixed(keys.cancelledDocumentIndex(note.supplierGstin, note.issueDate ?? '', note.invoiceNumber ?? '')),
          },
        },
      },
      {
        Update: {
          TableName: t,
          Key: invoiceEntity.key(g, w.invoice.id),
          UpdateExpression: 'SET creditedAmount = :credNow, creditedByBooking = :byBooking, updatedAt = :at',
          ConditionExpression: `${is.creditTakenBackAt} AND ${trackedAs(corrected.tracked)}`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':credNow': w.invoice.creditedAmount,
            ':byBooking': w.invoice.creditedByBooking,
            ':at': w.at,
            ':issued': 'ISSUED',
            ':ep': w.invoice.expectPaid,
            ':ec': w.invoice.expectCredited,
            ':zero': 0,
          },
        },
      },
      ...this.lineCreditItems(g, w.credits),
      ...this.markerItems(g, w.markers, w.at),
      ...recordPostedEntriesItems(t, w.ledgerEntries, w.at),
      ...(corrected.tracked
        ? dueItems(
            t,
            g,
            [
              {
                invoiceId: w.invoice.id,
                dueDate: corrected.dueDate,
                before: corrected.total - w.invoice.expectPaid - w.invoice.expectCredited,
                after: corrected.total - w.invoice.amountPaid - w.invoice.creditedAmount,
              },
            ],
            w.at,
          )
        : []),
    ];
    // The event and its chain's head: two more writes.
    if (items.length + (w.audit ? 2 : 0) > MAX_TRANSACTION_ITEMS)
      throw new RangeError(`voiding a credit note of ${w.credits.length} lines needs ${items.length} writes, more than one transaction holds`);
    try {
      if (w.audit) await this.audit.transact(items, w.audit);
      else await this.db.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (err) {
      if (isRefused(err)) throw new StaleCreditPlan(`void of credit note ${note.id}: the figures it was planned on have moved`);
      throw err;
    }
  }

  /** The credited lines' running totals moving by each credit (negative when a void takes it back), from the totals planned on. */
  private lineCreditItems(g: string, credits: CreditNoteWrite['credits']): TransactItems {
    return credits.map((c) => ({
      Update: {
        TableName: this.table,
        Key: keys.invoiceLine(g, c.line.bookingRef, c.line.key),
        UpdateExpression: 'ADD creditedTotal :amount, creditedGst :gst',
        ConditionExpression: invoiceLineEntity.conditions.creditedAt,
        ExpressionAttributeValues: { ':amount': c.amount, ':gst': c.gst, ':prev': c.expectCredited, ':zero': 0 },
      },
    }));
  }

  /** The bookings' billing markers moving by each delta, from the value planned on when one is given. */
  private markerItems(g: string, markers: CreditNoteWrite['markers'], at: string): TransactItems {
    return markers.map((m) => ({
      Update: {
        TableName: this.table,
        Key: billingMarkerEntity.key(g, m.bookingRef),
        UpdateExpression: 'ADD billedTotal :delta SET updatedAt = :at',
        ...(m.expect === undefined ? {} : { ConditionExpression: billingMarkerEntity.conditions.billedAt }),
        ExpressionAttributeValues: { ':delta': m.delta, ':at': at, ...(m.expect === undefined ? {} : { ':expect': m.expect }) },
      },
    }));
  }

  /** What the corrected invoice's figures need to move the group's dues with the credit: its total, due date and whether it is tracked. */
  private async dueOf(agentGroupId: string, invoiceId: string): Promise<Corrected> {
    const out = await this.db.send(
      new GetCommand({
        TableName: this.table,
        Key: invoiceEntity.key(agentGroupId, invoiceId),
        ProjectionExpression: '#total, dueDate, dueTracked',
        ExpressionAttributeNames: { '#total': 'total' },
        ConsistentRead: true,
      }),
    );
    return {
      total: (out.Item?.total as Minor | undefined) ?? 0,
      dueDate: (out.Item?.dueDate as string | undefined) ?? '',
      tracked: out.Item?.dueTracked === true,
    };
  }

  private items(w: CreditNoteWrite, note: Invoice, seriesAt: number | undefined, corrected: Corrected): TransactItems {
    const t = this.table;
    const g = note.agentGroupId;
    const at = note.issuedAt!;
    const items: TransactItems = [
      {
        Update: {
          TableName: t,
          Key: keys.creditNoteSeries(note.supplierGstin, w.financialYear, w.testClockId),
          UpdateExpression: 'SET #last = :next, gstin = :gstin, financialYear = :fy, entity = :entity, updatedAt = :at',
          ConditionExpression: seriesAt === undefined ? creditNoteSeriesEntity.conditions.isNew : creditNoteSeriesEntity.conditions.seriesAt,
          ExpressionAttributeNames: { '#last': 'last' },
          ExpressionAttributeValues: {
            ':next': (seriesAt ?? 0) + 1,
            ':gstin': note.supplierGstin,
            ':fy': w.financialYear,
            ':entity': 'CreditNoteSeries',
            ':at': at,
            ...(seriesAt === undefined ? {} : { ':last': seriesAt }),
          },
        },
      },
      {
        Put: {
          TableName: t,
          Item: {
            ...invoiceEntity.key(g, note.id),
            ...keys.invoiceListIndex(g, note.issueDate!, at, note.id),
            // Open until its PDF is stored: the next run (or the first GET …/pdf) renders it.
            ...keys.openInvoiceIndex(g, note.createdAt, note.id),
            entity: 'Invoice',
            ...note,
          },
          ConditionExpression: is.isNew,
        },
      },
      {
        Update: {
          TableName: t,
          Key: invoiceEntity.key(g, w.invoice.id),
          UpdateExpression:
            'SET amountPaid = :paidNow, creditedAmount = :credNow, creditedByBooking = :byBooking, creditNoteIds = list_append(if_not_exists(creditNoteIds, :none), :note), updatedAt = :at',
          ConditionExpression: `${is.creditFiguresAt} AND ${trackedAs(corrected.tracked)}`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':paidNow': w.invoice.amountPaid,
            ':credNow': w.invoice.creditedAmount,
            ':byBooking': w.invoice.creditedByBooking,
            ':none': [],
            ':note': [note.id],
            ':at': at,
            ':issued': 'ISSUED',
            ':paid': 'PAID',
            ':ep': w.invoice.expectPaid,
            ':ec': w.invoice.expectCredited,
            ':zero': 0,
          },
        },
      },
      ...w.lines.map((l) => ({
        Put: {
          TableName: t,
          Item: { ...keys.creditNoteLine(g, note.id, l.id), ...keys.invoiceLineIndex(note.id, l.bookingRef, l.key), entity: 'InvoiceLine', ...l },
          ConditionExpression: creditNoteLineEntity.conditions.isNew,
        },
      })),
      ...this.lineCreditItems(g, w.credits),
      ...this.markerItems(g, w.markers, at),
      ...(w.release > 0 ? [unallocatedItem(t, g, w.release, at)] : []),
      ...recordPostedEntriesItems(t, w.ledgerEntries, at),
      ...(corrected.tracked
        ? dueItems(
            t,
            g,
            [
              {
                invoiceId: w.invoice.id,
                dueDate: corrected.dueDate,
                before: corrected.total - w.invoice.expectPaid - w.invoice.expectCredited,
                after: corrected.total - w.invoice.amountPaid - w.invoice.creditedAmount,
              },
            ],
            at,
          )
        : []),
    ];
    return items;
  }
}
