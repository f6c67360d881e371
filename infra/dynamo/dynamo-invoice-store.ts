import type { AuditDraft } from '../../domain/audit/audit-event.ts';
import type { DynamoAuditTrail } from './dynamo-audit-trail.ts';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { NO_TOTALS, type Invoice, type InvoiceLine, type InvoiceTotals } from '../../domain/invoicing/invoice.ts';
import type { EInvoiceHold, EInvoiceRegistration } from '../../domain/invoicing/invoice-document.ts';
import type {
  AddLinesOptions,
  EInvoiceVoid,
  RetiredDocument,
  HeldEInvoice,
  InvoiceListQuery,
  InvoicePage,
  InvoiceStore,
  IssueRequest,
  LinesWritten,
  RefreshedParties,
} from '../../domain/ports/invoice-store.ts';
import { addTotals, lineOrder, sumTotals, TOTAL_FIELDS, totalsOf } from '../../domain/invoicing/invoice-totals.ts';
import { getAll } from './batch-get.ts';
import { billingMarkerEntity } from './entities/billing-marker.ts';
import { bookingEntity } from './entities/booking.ts';
import { closeIfDone, invoiceConditions as is, invoiceEntity } from './entities/invoice.ts';
import { invoiceLineEntity, invoiceLineLaneEntity } from './entities/invoice-line.ts';
import { invoiceSeriesEntity } from './entities/invoice-series.ts';
import { dueItems } from './dues.ts';
import { unbilledAgainItems } from './dynamo-unbilled-work.ts';
import { contentionBackoff, isConditionFailure, isRefused, refusedAt, refusedItems, transactIf, writeIf } from './client.ts';
import { itemOf, MAX_TRANSACTION_ITEMS, putNew, recordOf, type TransactItem } from './items.ts';
import { keys, prefixed, type Key } from './keys.ts';
import { queryAll } from './query.ts';
import { GSI1, GSI2 } from './table.ts';

/*
 * Access patterns of invoices and their lines (docs/data-model.md); booking marks, pay links,
 * owing figures, billing control and the run log have their own adapters:
 * | pattern                               | key condition                                                  | index |
 * |---------------------------------------|----------------------------------------------------------------|-------|
 * | invoice by id (tenancy in the key)    | PK = GROUP#<g>, SK = INVOICE#<id>                              | table |
 * | a group's issued invoices, newest first | GSI1PK = GROUP#<g>#INVOICES, GSI1SK = <issueDate>#<issuedAt>#<id> | GSI1 |
 * | a group's open invoices (steps to do) | GSI2PK = INVOICES#OPEN, begins_with(GSI2SK, <g>#)              | GSI2  |
 * | lines of an invoice                   | GSI1PK = INVOICE#<id>#LINES                                    | GSI1  |
 * | line by what it bills (uniqueness)    | PK = GROUP#<g>, SK = INVLINE#<bookingRef>#<kind>#<ref>         | table |
 * | invoiced total of a booking           | PK = GROUP#<g>, SK = BILLED#<bookingRef>                       | table |
 * | lanes of an invoice's parallel lines  | PK = GROUP#<g>, begins_with(SK, INVLANE#<invoiceId>#)          | table |
 * | series counter                        | PK = SERIES#<gstin>, SK = INVOICE#<financial year>             | table |
 */

/**
 * Transactions of one invoice's lines in flight at once (its lanes): 16 halves the rounds of 8
 * (a 5,000-booking invoice's 152 transactions in about 10 rounds, not 19); the closing
 * transaction holds the invoice and every lane, far below DynamoDB's 100 items.
 */
const LINE_LANES = 16;
/** The first lane item number of an invoice's `batch`-th opening of its lanes (1 is the first). */
const laneBase = (batch: number): number => (batch - 1) * LINE_LANES;
/** Closed lanes fence late writes for a day, far longer than any run lives; then they expire. */
const LANE_RETENTION_SECONDS = 86_400;

const MAX_ATTEMPTS = 40;

/** What one lane wrote: its figures and the bookings of its lines. */
interface LaneFigures extends InvoiceTotals {
  readonly bookingRefs: readonly string[];
}

/** A lane as its invoice is closed: the figures it holds, never written, or closed before. */
type LaneState = LaneFigures | 'unused' | 'closed';

/** The item a lane's transactions move by the figures they write, and the condition it must meet. */
interface LaneItem {
  readonly key: Key;
  readonly condition: string;
  readonly names?: Record<string, string>;
  readonly values?: Record<string, unknown>;
  /** Why a refused condition stops the lane, after `invoice <id>`. */
  readonly refusal: string;
}

export class DynamoInvoiceStore implements InvoiceStore {
  /** The last number take of each series this process has in flight (takeNumber). */
  private readonly seriesTurns = new Map<string, Promise<unknown>>();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly audit: DynamoAuditTrail,
  ) {}

  async createDraft(invoice: Invoice): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: invoiceEntity.toItem(invoice), ConditionExpression: is.isNew }));
  }

  async addLines(invoice: Invoice, lines: readonly InvoiceLine[], at: string, opts: AddLinesOptions = {}): Promise<LinesWritten> {
    const byBooking = new Map<string, InvoiceLine[]>();
    for (const l of lines) byBooking.set(l.bookingRef, [...(byBooking.get(l.bookingRef) ?? []), l]);
    const bookings = [...byBooking.values()];
    const refused = new Set<string>();
    const invoiceKey = invoiceEntity.key(invoice.agentGroupId, invoice.id);
    const stop = opts.stop ?? (() => false);
    if (chunksOf(bookings).length <= 1) {
      // One transaction moves the invoice's figures with its lines: nothing to fence.
      const lane = await this.writeLane(
        invoice,
        { key: invoiceKey, condition: is.invoiceIsDraft, names: { '#status': 'status' }, values: { ':draft': 'DRAFT' }, refusal: 'is no longer a DRAFT' },
        bookings,
        refused,
        at,
        stop,
      );
      return { written: lane.lineCount, totals: lane, refusedBookings: [...refused], unwrittenBookings: lane.unwritten };
    }
    if (stop()) return { written: 0, totals: NO_TOTALS, refusedBookings: [], unwrittenBookings: bookings.length };
    // Lanes in parallel: each writes its bookings one transaction after another through its own item.
    // Each opening of an invoice's lanes is a new batch of lane items: a run continuing a DRAFT
    // whose earlier lanes are closed (and stay closed as a fence) writes through fresh ones.
    const opened = await this.openLanes(invoiceKey, at);
    if (opened === undefined) throw new Error(`invoice ${invoice.id} is no longer a DRAFT; its lines were not written`);
    const base = laneBase(opened);
    const lanes: InvoiceLine[][][] = Array.from({ length: LINE_LANES }, () => []);
    bookings.forEach((b, i) => lanes[i % LINE_LANES]!.push(b));
    const outcomes = await Promise.allSettled(
      lanes.map((laneBookings, lane) =>
        this.writeLane(
          invoice,
          {
            key: keys.invoiceLineLane(invoice.agentGroupId, invoice.id, base + lane),
            condition: invoiceLineLaneEntity.conditions.open,
            refusal: 'had its lines closed by another run',
          },
          laneBookings,
          refused,
          at,
          stop,
        ),
      ),
    );
    // Every lane has ended: a failure leaves the invoice open with what committed, closed by the next run.
    const failed = outcomes.find((o) => o.status === 'rejected');
    if (failed) throw failed.reason;
    const figures = outcomes.map((o) => (o as PromiseFulfilledResult<LaneFigures & { unwritten: number }>).value);
    const totals = sumTotals(figures);
    const states = figures.map((f): LaneState => (f.lineCount > 0 ? f : 'unused'));
    if (!(await this.closeLanes(invoice.agentGroupId, invoice.id, base, states, at))) await this.closeLines(invoice.agentGroupId, invoice.id, at);
    return { written: totals.lineCount, totals, refusedBookings: [...refused], unwrittenBookings: figures.reduce((n, f) => n + f.unwritten, 0) };
  }

  /** Marks a DRAFT `linesOpen` and counts one more batch of lanes on it; answers that count, undefined when it is no longer a DRAFT or its lanes are open already. */
  private async openLanes(invoiceKey: Key, at: string): Promise<number | undefined> {
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: invoiceKey,
          UpdateExpression: 'SET linesOpen = :true, updatedAt = :at ADD laneBatches :one',
          ConditionExpression: `${is.invoiceIsDraft} AND ${is.linesClosed}`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':true': true, ':at': at, ':draft': 'DRAFT', ':one': 1 },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return out.Attributes!.laneBatches as number;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      return undefined;
    }
  }

  /**
   * A lane's bookings, one transaction after another: each holds whole bookings (lines that
   * must be new, their markers) and moves the lane's item (the invoice itself, or one of its
   * lane items) by the figures written. Bookings whose line is taken are dropped and the rest
   * sent again. Answers the figures written.
   */
  private async writeLane(
    invoice: Invoice,
    through: LaneItem,
    bookings: readonly InvoiceLine[][],
    refused: Set<string>,
    at: string,
    stop: () => boolean,
  ): Promise<LaneFigures & { unwritten: number }> {
    let wrote: LaneFigures = { ...NO_TOTALS, bookingRefs: [] };
    const chunks = chunksOf(bookings);
    for (const [n, chunk] of chunks.entries()) {
      // The caller's time is up: what is not sent yet is left to the run that continues this invoice.
      if (stop()) return { ...wrote, unwritten: chunks.slice(n).reduce((sum, c) => sum + c.length, 0) };
      let parts = chunk.filter((p) => !refused.has(p[0]!.bookingRef));
      for (let attempt = 0; parts.length > 0; attempt++) {
        const written = parts.flat();
        const t = totalsOf(written);
        const figures = addFigures(t);
        const refs = [...new Set(parts.map((p) => p[0]!.bookingRef))];
        const items: TransactItem[] = [
          {
            Update: {
              TableName: this.table,
              Key: through.key,
              UpdateExpression: `ADD ${figures.add}, bookingRefs :refs SET updatedAt = :at`,
              ConditionExpression: through.condition,
              ExpressionAttributeNames: { ...through.names, ...figures.names },
              ExpressionAttributeValues: { ...through.values, ...figures.values, ':refs': new Set(refs), ':at': at },
            },
          },
        ];
        const owner: string[] = ['invoice'];
        for (const part of parts) {
          const ref = part[0]!.bookingRef;
          for (const l of part) {
            // A line is written only if nothing bills the same booking, kind and item yet. Two runs
            // racing both plan the line; only one transaction can create the item, the other is
            // cancelled here and drops that booking (the winner bills it).
            items.push(putNew(this.table, invoiceLineEntity.toItem(l)));
            owner.push(ref);
          }
          items.push(billingMarkerEntity.billed(this.table, invoice.agentGroupId, ref, part, at));
          owner.push(ref);
        }
        try {
          await this.db.send(new TransactWriteCommand({ TransactItems: items }));
          wrote = { ...addTotals(wrote, t), bookingRefs: [...wrote.bookingRefs, ...refs] };
          break;
        } catch (err) {
          if (!isRefused(err)) throw err;
          if (refusedAt(err, 0)) throw new Error(`invoice ${invoice.id} ${through.refusal}; its lines were not written`);
          for (const i of refusedItems(err)) if (owner[i] !== 'invoice') refused.add(owner[i]!);
          parts = parts.filter((p) => !refused.has(p[0]!.bookingRef));
          if (attempt + 1 >= MAX_ATTEMPTS) throw err;
        }
      }
    }
    return { ...wrote, unwritten: 0 };
  }

  /**
   * Moves the lanes' figures onto an invoice whose lines were written in parallel, and closes
   * every lane, in one transaction conditional on each lane holding exactly the figures given
   * (a lane closed already adds nothing: its figures are on the invoice): a lane write that
   * lands after it is refused, so nothing joins the invoice once its figures are final. False
   * when a lane moved or the invoice was closed meanwhile.
   */
  private async closeLanes(agentGroupId: string, invoiceId: string, base: number, lanes: readonly LaneState[], at: string): Promise<boolean> {
    const written = lanes.filter((l): l is LaneFigures => typeof l === 'object');
    const figures = addFigures(sumTotals(written));
    const refs = new Set(written.flatMap((l) => l.bookingRefs));
    return transactIf(
      this.db,
      [
        {
          Update: {
            TableName: this.table,
            Key: invoiceEntity.key(agentGroupId, invoiceId),
            UpdateExpression: `ADD ${figures.add}${refs.size ? ', bookingRefs :refs' : ''} SET updatedAt = :at REMOVE linesOpen`,
            ConditionExpression: is.linesOpen,
            ExpressionAttributeNames: figures.names,
            ExpressionAttributeValues: { ...figures.values, ...(refs.size ? { ':refs': refs } : {}), ':at': at },
          },
        },
        ...lanes.map((l, lane) => ({
          Update: {
            TableName: this.table,
            Key: keys.invoiceLineLane(agentGroupId, invoiceId, base + lane),
            // Kept closed (not deleted) so a late write of a run that lost its lease cannot reopen it.
            // Expiry by the machine's clock, not the run's: the fence must outlive real runs, which live in real time.
            UpdateExpression: 'SET closed = :true, entity = :entity, expiresAt = :expires',
            ConditionExpression: invoiceLineLaneEntity.conditions[typeof l === 'object' ? 'openAt' : l],
            ExpressionAttributeValues: {
              ':true': true,
              ':entity': 'InvoiceLineLane',
              ':expires': Math.floor(Date.now() / 1000) + LANE_RETENTION_SECONDS,
              ...(typeof l === 'object' ? { ':n': l.lineCount } : {}),
            },
          },
        })),
      ],
      isRefused,
    );
  }

  async closeLines(agentGroupId: string, invoiceId: string, at: string): Promise<Invoice> {
    for (let attempt = 0; ; attempt++) {
      const invoice = await this.get(agentGroupId, invoiceId);
      if (!invoice) throw new Error(`invoice ${invoiceId} vanished while its lines were closed`);
      if (!invoice.linesOpen) return invoice;
      const k = keys.lanesOfInvoice(agentGroupId, invoiceId);
      const items = await queryAll(this.db, {
        TableName: this.table,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': k.PK, ':prefix': k.SKPrefix },
        ConsistentRead: true,
      });
      const base = laneBase(invoice.laneBatches ?? 1);
      const lanes: LaneState[] = Array.from({ length: LINE_LANES }, () => 'unused');
      for (const item of items) {
        const lane = Number((item.SK as string).slice(k.SKPrefix.length)) - base;
        // Lanes of an earlier batch were closed onto the invoice before this batch opened.
        if (lane < 0 || lane >= LINE_LANES) continue;
        const refs = item.bookingRefs as Set<string> | undefined;
        lanes[lane] = item.closed
          ? 'closed'
          : {
              ...(Object.fromEntries(TOTAL_FIELDS.map((f) => [f, (item[f] as number | undefined) ?? 0])) as unknown as InvoiceTotals),
              bookingRefs: refs ? [...refs] : [],
            };
      }
      if (await this.closeLanes(agentGroupId, invoiceId, base, lanes, at)) return (await this.get(agentGroupId, invoiceId))!;
      if (attempt + 1 >= MAX_ATTEMPTS) throw new Error(`invoice ${invoiceId}: its lines could not be closed after ${MAX_ATTEMPTS} attempts`);
      await contentionBackoff(attempt, 200);
    }
  }

  async deleteEmptyDraft(agentGroupId: string, invoiceId: string): Promise<void> {
    await writeIf(
      this.db,
      new DeleteCommand({
        TableName: this.table,
        Key: invoiceEntity.key(agentGroupId, invoiceId),
        ConditionExpression: `${is.invoiceIsDraft} AND ${is.noLines} AND ${is.linesClosed}`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':draft': 'DRAFT', ':zero': 0 },
      }),
    );
  }

  async get(agentGroupId: string, invoiceId: string): Promise<Invoice | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: invoiceEntity.key(agentGroupId, invoiceId), ConsistentRead: true }));
    return out.Item ? invoiceEntity.fromItem(out.Item) : undefined;
  }

  async lines(agentGroupId: string, invoiceId: string): Promise<InvoiceLine[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: GSI1,
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.linesOfInvoice(invoiceId).GSI1PK },
    });
    // The index is shared by every tenant's invoices; a line of another group is never returned.
    return items
      .filter((i) => i.agentGroupId === agentGroupId)
      .map(invoiceLineEntity.fromItem)
      .sort(lineOrder);
  }

  async openInvoices(agentGroupId: string): Promise<Invoice[]> {
    const open = await queryAll(this.db, {
      TableName: this.table,
      IndexName: GSI2,
      KeyConditionExpression: 'GSI2PK = :pk AND begins_with(GSI2SK, :g)',
      ExpressionAttributeValues: { ':pk': keys.openInvoices().GSI2PK, ':g': `${agentGroupId}#` },
      ProjectionExpression: 'id',
    });
    // The index lags the table: read each invoice itself before acting on it.
    const items = await getAll(
      this.db,
      this.table,
      open.map((o) => invoiceEntity.key(agentGroupId, o.id as string)),
      { consistent: true },
    );
    return items.map(invoiceEntity.fromItem).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  async groupsWithOpenInvoices(): Promise<string[]> {
    const open = await queryAll(this.db, {
      TableName: this.table,
      IndexName: GSI2,
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.openInvoices().GSI2PK },
      ProjectionExpression: 'agentGroupId',
    });
    return [...new Set(open.map((o) => o.agentGroupId as string))];
  }

  async setEInvoice(agentGroupId: string, invoiceId: string, eInvoice: EInvoiceRegistration, at: string): Promise<boolean> {
    return this.updateIf(agentGroupId, invoiceId, {
      UpdateExpression: 'SET eInvoice = :e, updatedAt = :at REMOVE lastError',
      ConditionExpression: `${is.exists} AND ${is.issuedOrPaid} AND ${is.unregistered}`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':e': eInvoice, ':at': at, ':issued': 'ISSUED', ':paid': 'PAID' },
    });
  }

  async recordFailure(agentGroupId: string, invoiceId: string, error: string, at: string): Promise<void> {
    // Refused when the invoice is gone (an empty draft its run removed): there is nothing to record against.
    await this.updateIf(agentGroupId, invoiceId, {
      UpdateExpression: 'SET lastError = :e, updatedAt = :at',
      ConditionExpression: is.exists,
      ExpressionAttributeValues: { ':e': error, ':at': at },
    });
  }

  async holdEInvoice(agentGroupId: string, invoiceId: string, hold: EInvoiceHold, lastError: string, at: string): Promise<void> {
    const invoice = await this.get(agentGroupId, invoiceId);
    if (!invoice) return;
    // The first hold's time is kept: the list says how long an operator has left it.
    const since = invoice.eInvoiceHold?.since ?? hold.since;
    const held: HeldEInvoice = {
      agentGroupId,
      invoiceId,
      invoiceNumber: invoice.invoiceNumber,
      supplierGstin: invoice.supplierGstin,
      kind: hold.kind,
      irn: hold.irn,
      reason: hold.reason,
      since,
    };
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: this.table,
              Key: invoiceEntity.key(agentGroupId, invoiceId),
              UpdateExpression: 'SET eInvoiceHold = :h, lastError = :e, updatedAt = :at',
              ConditionExpression: `${is.exists} AND ${is.unregistered}`,
              ExpressionAttributeValues: { ':h': { ...hold, since }, ':e': lastError, ':at': at },
            },
          },
          { Put: { TableName: this.table, Item: itemOf('EInvoiceHold', keys.eInvoiceHold(agentGroupId, invoiceId), held) } },
        ],
      }),
    );
  }

  async releaseEInvoiceHold(agentGroupId: string, invoiceId: string, at: string): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: this.table,
              Key: invoiceEntity.key(agentGroupId, invoiceId),
              UpdateExpression: 'SET updatedAt = :at REMOVE eInvoiceHold',
              ConditionExpression: is.exists,
              ExpressionAttributeValues: { ':at': at },
            },
          },
          { Delete: { TableName: this.table, Key: keys.eInvoiceHold(agentGroupId, invoiceId) } },
        ],
      }),
    );
  }

  async heldEInvoices(): Promise<HeldEInvoice[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.eInvoiceHolds().PK },
    });
    return items.map((i) => recordOf<HeldEInvoice>(i)).sort((a, b) => a.since.localeCompare(b.since));
  }

  async setParties(agentGroupId: string, invoiceId: string, p: RefreshedParties, at: string): Promise<boolean> {
    return this.updateIf(agentGroupId, invoiceId, {
      UpdateExpression: 'SET billToGstin = :bg, billToName = :bn, billToAddress = :ba, supplierName = :sn, supplierAddress = :sa, updatedAt = :at',
      ConditionExpression: is.invoiceIsDraft,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':bg': p.billToGstin,
        ':bn': p.billToName,
        ':ba': p.billToAddress,
        ':sn': p.supplierName,
        ':sa': p.supplierAddress,
        ':at': at,
        ':draft': 'DRAFT',
      },
    });
  }

  /** One conditional update of an invoice: true when applied, false when its condition refused it. */
  private updateIf(agentGroupId: string, invoiceId: string, update: Omit<NonNullable<UpdateCommand['input']>, 'TableName' | 'Key'>): Promise<boolean> {
    return writeIf(this.db, new UpdateCommand({ TableName: this.table, Key: invoiceEntity.key(agentGroupId, invoiceId), ...update }));
  }

  async issue(invoice: Invoice, req: IssueRequest, eInvoice?: EInvoiceRegistration): Promise<Invoice> {
    if (invoice.invoiceNumber) return this.issueReserved(invoice, req.issuedAt, eInvoice);
    const taken = await this.takeNumber(invoice, req, 'ISSUED', eInvoice);
    // A racing run reserved a number for it meanwhile: issue it with that one.
    return taken.status === 'DRAFT' && taken.invoiceNumber ? this.issueReserved(taken, req.issuedAt, eInvoice) : taken;
  }

  async reserveNumber(invoice: Invoice, req: IssueRequest): Promise<Invoice> {
    if (invoice.invoiceNumber) return invoice;
    return this.takeNumber(invoice, req, 'DRAFT');
  }

  /**
   * One transaction: the series moves on by one and the DRAFT takes the number (and, to
   * issue it, becomes ISSUED and listed). The invoice's condition is that it is a DRAFT
   * holding no number, so an invoice never takes two numbers, whichever runs race.
   */
  private takeNumber(invoice: Invoice, req: IssueRequest, status: 'ISSUED' | 'DRAFT', eInvoice?: EInvoiceRegistration): Promise<Invoice> {
    // Takes of one series from this process wait their turn: they all write the one series item,
    // so sent together every one but the first is refused and goes round again (four billing
    // workers with ten groups each in hand sent 2,601 transactions for 200 groups' 1,000). Other
    // processes still race through the conditions, as before.
    const seriesKey = invoiceSeriesEntity.key(invoice.supplierGstin, req.financialYear, req.testClockId);
    const turnKey = `${seriesKey.PK}|${seriesKey.SK}`;
    const mine = (this.seriesTurns.get(turnKey) ?? Promise.resolve()).then(() => this.takeNumberNow(invoice, req, status, eInvoice));
    const settled = mine.catch(() => undefined);
    this.seriesTurns.set(turnKey, settled);
    void settled.then(() => this.seriesTurns.get(turnKey) === settled && this.seriesTurns.delete(turnKey));
    return mine;
  }

  private async takeNumberNow(invoice: Invoice, req: IssueRequest, status: 'ISSUED' | 'DRAFT', eInvoice?: EInvoiceRegistration): Promise<Invoice> {
    const seriesKey = invoiceSeriesEntity.key(invoice.supplierGstin, req.financialYear, req.testClockId);
    const issuing = status === 'ISSUED';
    for (let attempt = 0; ; attempt++) {
      const series = await this.db.send(new GetCommand({ TableName: this.table, Key: seriesKey, ConsistentRead: true }));
      const last = invoiceSeriesEntity.fromItem(series.Item);
      const invoiceNumber = req.numberOf(last + 1);
      const dates = { invoiceNumber, issueDate: req.issueDate, dueDate: req.dueDate, updatedAt: req.issuedAt };
      const after: Invoice = issuing
        ? { ...invoice, ...dates, status, issuedAt: req.issuedAt, lastError: null, ...(eInvoice ? { eInvoice } : {}) }
        : { ...invoice, ...dates };
      try {
        await this.db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: this.table,
                  Key: seriesKey,
                  UpdateExpression: 'SET #last = :next, gstin = :gstin, financialYear = :fy, entity = :entity, updatedAt = :at',
                  ConditionExpression: series.Item ? invoiceSeriesEntity.conditions.seriesAt : invoiceSeriesEntity.conditions.isNew,
                  ExpressionAttributeNames: { '#last': 'last' },
                  ExpressionAttributeValues: {
                    ':next': last + 1,
                    ':gstin': invoice.supplierGstin,
                    ':fy': req.financialYear,
                    ':entity': 'InvoiceSeries',
                    ':at': req.issuedAt,
                    ...(series.Item ? { ':last': last } : {}),
                  },
                },
              },
              {
                Update: {
                  TableName: this.table,
                  Key: invoiceEntity.key(invoice.agentGroupId, invoice.id),
                  UpdateExpression: issuing
                    ? `SET #status = :issued, invoiceNumber = :n, issueDate = :d, dueDate = :due, issuedAt = :at, updatedAt = :at, GSI1PK = :gpk, GSI1SK = :gsk, dueTracked = :true${eInvoice ? ', eInvoice = :e' : ''} REMOVE lastError`
                    : 'SET invoiceNumber = :n, issueDate = :d, dueDate = :due, updatedAt = :at',
                  ConditionExpression: `${is.invoiceIsDraft} AND ${is.unnumbered} AND ${is.linesClosed}`,
                  ExpressionAttributeNames: { '#status': 'status' },
                  ExpressionAttributeValues: {
                    ':n': invoiceNumber,
                    ':d': req.issueDate,
                    ':due': req.dueDate,
                    ':at': req.issuedAt,
                    ':draft': 'DRAFT',
                    ':null': 'NULL',
                    ...(issuing
                      ? {
                          ':issued': 'ISSUED',
                          ':true': true,
                          ...prefixed(keys.invoiceListIndex(invoice.agentGroupId, req.issueDate, req.issuedAt, invoice.id)),
                        }
                      : {}),
                    ...(eInvoice && issuing ? { ':e': eInvoice } : {}),
                  },
                },
              },
              ...(issuing ? this.opening(invoice, req.dueDate, req.issuedAt) : []),
            ],
          }),
        );
        return after;
      } catch (err) {
        if (!isRefused(err)) throw err;
        if (refusedAt(err, 1)) return this.current(invoice);
        if (attempt + 1 >= MAX_ATTEMPTS) throw err;
      }
    }
  }

  /** DRAFT holding a number → ISSUED and listed, keeping the number and dates it reserved. */
  private async issueReserved(invoice: Invoice, issuedAt: string, eInvoice?: EInvoiceRegistration): Promise<Invoice> {
    const number = invoice.invoiceNumber!;
    const issueDate = invoice.issueDate!;
    const issued = await transactIf(this.db, [
      {
        Update: {
          TableName: this.table,
          Key: invoiceEntity.key(invoice.agentGroupId, invoice.id),
          UpdateExpression: `SET #status = :issued, issuedAt = :at, updatedAt = :at, GSI1PK = :gpk, GSI1SK = :gsk, dueTracked = :true${eInvoice ? ', eInvoice = :e' : ''} REMOVE lastError`,
          ConditionExpression: `${is.invoiceIsDraft} AND ${is.numberedAs}`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':issued': 'ISSUED',
            ':at': issuedAt,
            ':draft': 'DRAFT',
            ':n': number,
            ':true': true,
            ...prefixed(keys.invoiceListIndex(invoice.agentGroupId, issueDate, issuedAt, invoice.id)),
            ...(eInvoice ? { ':e': eInvoice } : {}),
          },
        },
      },
      ...this.opening(invoice, invoice.dueDate!, issuedAt),
    ]);
    // Refused: it is no longer the DRAFT holding this number (a racing run issued it, or an operator abandoned it).
    return issued ? { ...invoice, status: 'ISSUED', issuedAt, updatedAt: issuedAt, lastError: null, ...(eInvoice ? { eInvoice } : {}) } : this.current(invoice);
  }

  /** An invoice issued starts owing its total: the group's figures move with the issue (dues.ts). */
  private opening(invoice: Invoice, dueDate: string, at: string) {
    return invoice.creditNoteFor ? [] : dueItems(this.table, invoice.agentGroupId, [{ invoiceId: invoice.id, dueDate, before: 0, after: invoice.total }], at);
  }

  /** Someone else moved this invoice (a racing run issued or numbered it, or an operator abandoned it): what it is now. */
  private async current(invoice: Invoice): Promise<Invoice> {
    const now = await this.get(invoice.agentGroupId, invoice.id);
    if (!now) throw new Error(`invoice ${invoice.id} vanished while being issued`);
    return now;
  }

  async setPdf(agentGroupId: string, invoiceId: string, pdfKey: string, at: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: invoiceEntity.key(agentGroupId, invoiceId),
        UpdateExpression: 'SET pdfKey = :k, updatedAt = :at',
        ConditionExpression: is.notDraft,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':k': pdfKey, ':at': at, ':draft': 'DRAFT' },
      }),
    );
    await closeIfDone(this.db, this.table, agentGroupId, invoiceId);
  }

  async voidIssued(invoice: Invoice, cancellation: EInvoiceVoid, at: string, audit?: AuditDraft): Promise<boolean> {
    const applied = await this.updateWithAudit(
      {
        TableName: this.table,
        Key: invoiceEntity.key(invoice.agentGroupId, invoice.id),
        UpdateExpression:
          'SET #status = :cancelled, updatedAt = :at, eInvoice.cancelledAt = :cd, eInvoice.cancelReason = :r, eInvoice.cancelRemark = :rem, GSI1PK = :gpk, GSI1SK = :gsk REMOVE GSI2PK, GSI2SK',
        ConditionExpression: is.voidable,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':cancelled': 'CANCELLED',
          ':issued': 'ISSUED',
          ':at': at,
          ':cd': cancellation.cancelDate,
          ':r': cancellation.reason,
          ':rem': cancellation.remark,
          ':irn': invoice.eInvoice?.irn ?? '',
          ':true': true,
          ':zero': 0,
          ...prefixed(keys.cancelledDocumentIndex(invoice.supplierGstin, invoice.issueDate ?? '', invoice.invoiceNumber ?? '')),
        },
      },
      audit,
    );
    if (!applied) {
      const current = await this.get(invoice.agentGroupId, invoice.id);
      // A void that died while releasing: finish it.
      if (current?.status !== 'CANCELLED' || !current.eInvoice?.cancelledAt) return false;
    }
    await this.releaseLines(invoice.agentGroupId, invoice.id, at);
    for (const ref of invoice.bookingRefs) await this.unmarkBooking(invoice.agentGroupId, ref, invoice.id);
    return true;
  }

  async retireUnreported(invoice: Invoice, retired: RetiredDocument, audit?: AuditDraft): Promise<boolean> {
    const applied = await this.updateWithAudit(
      {
        TableName: this.table,
        Key: invoiceEntity.key(invoice.agentGroupId, invoice.id),
        UpdateExpression: 'SET #status = :cancelled, updatedAt = :at, retired = :retired, GSI1PK = :gpk, GSI1SK = :gsk REMOVE GSI2PK, GSI2SK',
        // Still the numbered DRAFT read, never registered or held at the IRP (the window bars reporting, not a registration that exists).
        ConditionExpression: `${is.invoiceIsDraft} AND ${is.numberedAs} AND ${is.linesClosed} AND ${is.unregistered} AND ${is.notHeld}`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':cancelled': 'CANCELLED',
          ':draft': 'DRAFT',
          ':at': retired.at,
          ':retired': retired,
          ':n': invoice.invoiceNumber ?? '',
          ...prefixed(keys.cancelledDocumentIndex(invoice.supplierGstin, invoice.issueDate ?? '', invoice.invoiceNumber ?? '')),
        },
      },
      audit,
    );
    // Already retired (a call that died while giving the lines back): finish; its event was written with the status.
    if (!applied && (await this.get(invoice.agentGroupId, invoice.id))?.retired === undefined) return false;
    await this.releaseLines(invoice.agentGroupId, invoice.id, retired.at);
    for (const ref of invoice.bookingRefs) await this.unmarkBooking(invoice.agentGroupId, ref, invoice.id);
    return true;
  }

  /** Takes a voided invoice off a booking's invoicedIn (version + 1), so the booking is amendable and billed again. */
  private async unmarkBooking(agentGroupId: string, bookingRef: string, invoiceId: string): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const out = await this.db.send(
        new GetCommand({ TableName: this.table, Key: keys.booking(agentGroupId, bookingRef), ConsistentRead: true, ProjectionExpression: 'invoicedIn' }),
      );
      const index = ((out.Item?.invoicedIn as string[] | undefined) ?? []).indexOf(invoiceId);
      if (index < 0) return;
      const done = await writeIf(
        this.db,
        new UpdateCommand({
          TableName: this.table,
          Key: bookingEntity.key(agentGroupId, bookingRef),
          UpdateExpression: `REMOVE invoicedIn[${index}] SET #version = #version + :one`,
          ConditionExpression: bookingEntity.conditions.invoicedAt(index),
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':id': invoiceId, ':one': 1 },
        }),
      );
      if (done) return;
    }
    throw new Error(`booking ${bookingRef} kept changing while invoice ${invoiceId} was taken off it`);
  }

  async cancelledDocuments(supplierGstin: string, from: string, to: string): Promise<Invoice[]> {
    const { GSI1PK } = keys.cancelledDocumentIndex(supplierGstin, '', '');
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: GSI1,
      KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': GSI1PK, ':from': from, ':to': `${to}#~` },
    });
    return items.map(invoiceEntity.fromItem);
  }

  async abandon(agentGroupId: string, invoiceId: string, at: string, audit?: AuditDraft): Promise<boolean> {
    const applied = await this.updateWithAudit(
      {
        TableName: this.table,
        Key: invoiceEntity.key(agentGroupId, invoiceId),
        UpdateExpression: 'SET #status = :cancelled, updatedAt = :at REMOVE GSI2PK, GSI2SK',
        // A DRAFT holding a reserved number is issued once registered, never abandoned: the series would have a gap.
        ConditionExpression: `${is.invoiceIsDraft} AND ${is.unnumbered} AND ${is.linesClosed}`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':cancelled': 'CANCELLED', ':at': at, ':draft': 'DRAFT', ':null': 'NULL' },
      },
      audit,
    );
    // Already CANCELLED (an abandon that died while releasing lines): finish releasing them; its event was written with the status.
    if (!applied && (await this.get(agentGroupId, invoiceId))?.status !== 'CANCELLED') return false;
    await this.releaseLines(agentGroupId, invoiceId, at);
    return true;
  }

  /**
   * The invoice's one conditional update, with the operator's event in the same transaction
   * when there is one (then the lines' release that follows is outside it: many transactions,
   * idempotent, finished by a rerun). False when the update's own condition refused it, and
   * then no event was written.
   */
  private async updateWithAudit(update: NonNullable<UpdateCommand['input']>, audit: AuditDraft | undefined): Promise<boolean> {
    if (!audit) return writeIf(this.db, new UpdateCommand(update));
    try {
      await this.audit.transact([{ Update: update as never }], audit);
      return true;
    } catch (err) {
      if (isConditionFailure(err) && refusedAt(err, 0)) return false;
      throw err;
    }
  }

  /**
   * An abandoned draft gives its lines back: each deleted with its booking's marker moved
   * down in the same transaction, so the next run bills those charges again.
   */
  private async releaseLines(agentGroupId: string, invoiceId: string, at: string): Promise<void> {
    const lines = await this.lines(agentGroupId, invoiceId);
    const byBooking = new Map<string, InvoiceLine[]>();
    for (const l of lines) byBooking.set(l.bookingRef, [...(byBooking.get(l.bookingRef) ?? []), l]);
    for (const [ref, group] of byBooking) {
      // Each transaction: the part's lines, the booking's marker and its re-entry in the unbilled index.
      for (let i = 0; i < group.length; i += MAX_TRANSACTION_ITEMS - 2) {
        const part = group.slice(i, i + MAX_TRANSACTION_ITEMS - 2);
        await this.db.send(
          new TransactWriteCommand({
            TransactItems: [
              ...part.map((l) => ({
                Delete: {
                  TableName: this.table,
                  Key: invoiceLineEntity.key(l),
                  ConditionExpression: invoiceLineEntity.conditions.lineOfInvoice,
                  ExpressionAttributeValues: { ':inv': invoiceId },
                },
              })),
              billingMarkerEntity.released(this.table, agentGroupId, ref, part),
              ...unbilledAgainItems(this.table, agentGroupId, [part[0]!.bookingId], at),
            ],
          }),
        );
      }
    }
  }

  async list(agentGroupId: string, q: InvoiceListQuery): Promise<InvoicePage> {
    const pk = keys.invoiceList(agentGroupId).GSI1PK;
    const range = [q.from === undefined ? undefined : 'GSI1SK >= :from', q.to === undefined ? undefined : 'GSI1SK <= :to'].filter(Boolean);
    const keyCondition =
      range.length === 2 ? 'GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to' : range.length === 1 ? `GSI1PK = :pk AND ${range[0]}` : 'GSI1PK = :pk';
    const filtered = q.statuses.length < 2;
    const input: QueryCommandInput = {
      TableName: this.table,
      IndexName: GSI1,
      KeyConditionExpression: keyCondition,
      ...(filtered
        ? { FilterExpression: `#status IN (${q.statuses.map((_, i) => `:s${i}`).join(', ')})`, ExpressionAttributeNames: { '#status': 'status' } }
        : {}),
      ExpressionAttributeValues: {
        ':pk': pk,
        ...(q.from === undefined ? {} : { ':from': q.from }),
        ...(q.to === undefined ? {} : { ':to': `${q.to}#~` }),
        ...(filtered ? Object.fromEntries(q.statuses.map((s, i) => [`:s${i}`, s])) : {}),
      },
      ScanIndexForward: false,
    };
    const found: Invoice[] = [];
    let startKey: Record<string, unknown> | undefined =
      q.after === undefined ? undefined : { ...invoiceEntity.key(agentGroupId, keys.invoiceIdOfListKey(q.after)), GSI1PK: pk, GSI1SK: q.after };
    do {
      const lacking = q.limit - found.length;
      const out = await this.db.send(new QueryCommand({ ...input, Limit: filtered ? Math.max(lacking, 100) : lacking + 1, ExclusiveStartKey: startKey }));
      found.push(...(out.Items ?? []).map(invoiceEntity.fromItem));
      startKey = out.LastEvaluatedKey;
    } while (startKey && found.length <= q.limit);
    const page = found.slice(0, q.limit);
    const more = found.length > q.limit || (startKey !== undefined && page.length === q.limit);
    const last = page.at(-1);
    return { invoices: page, next: more && last ? keys.invoiceListIndex(agentGroupId, last.issueDate!, last.issuedAt!, last.id).GSI1SK : null };
  }
}

/** Whole bookings (split where one has more lines than a transaction holds) packed into transactions of at most 100 items: the lane's item, and per booking its lines and marker. */
function chunksOf(bookings: readonly InvoiceLine[][]): InvoiceLine[][][] {
  const parts: InvoiceLine[][] = [];
  for (const group of bookings) for (let i = 0; i < group.length; i += MAX_TRANSACTION_ITEMS - 2) parts.push(group.slice(i, i + MAX_TRANSACTION_ITEMS - 2));
  const chunks: InvoiceLine[][][] = [];
  let current: InvoiceLine[][] = [];
  let size = 1;
  for (const part of parts) {
    if (size + part.length + 1 > MAX_TRANSACTION_ITEMS) {
      chunks.push(current);
      current = [];
      size = 1;
    }
    current.push(part);
    size += part.length + 1;
  }
  if (current.length) chunks.push(current);
  return chunks;
}

/** `ADD` of an invoice's figures; `total` is a reserved word, so every figure goes by a name placeholder alike. */
const addFigures = (t: InvoiceTotals) => ({
  add: TOTAL_FIELDS.map((f) => `#${f} :${f}`).join(', '),
  names: Object.fromEntries(TOTAL_FIELDS.map((f) => [`#${f}`, f])),
  values: Object.fromEntries(TOTAL_FIELDS.map((f) => [`:${f}`, t[f]])),
});
