import type { AuditDraft } from '../../domain/audit/audit-event.ts';
import { isHeadMoved, type DynamoAuditTrail } from './dynamo-audit-trail.ts';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '../../domain/errors.ts';
import type { LedgerEntry } from '../../domain/ledger/ledger.ts';
import type { Minor } from '../../domain/money.ts';
import type { VirtualAccount } from '../../domain/ports/payment-gateway.ts';
import type { GatewayOrderRef, GroupVirtualAccount, OpenOrder, PaymentRecorded, ReceivablesStore } from '../../domain/ports/receivables-store.ts';
import { allocate, allocationOrder, bookingSpansOf, type BookingSpans, type OpenInvoice } from '../../domain/receivables/allocation.ts';
import type { InvoiceStore } from '../../domain/ports/invoice-store.ts';
import {
  disputeRank,
  isDisputeOpen,
  paymentKey,
  transferReferenceOf,
  type Payment,
  type PaymentDispute,
  type PaymentRefund,
  type PaymentSource,
  type UnmatchedPayment,
} from '../../domain/receivables/payment.ts';
import { getAll } from './batch-get.ts';
import { contentionBackoff, isConditionFailure, isRefused, isTransactionContention, transactIf, writeIf } from './client.ts';
import { recordPostedItems } from './dynamo-credit-ledger.ts';
import { dueItems, trackedAs, unallocatedItem } from './dues.ts';
import { creditCounterEntity } from './entities/credit.ts';
import { invoiceEntity } from './entities/invoice.ts';
import {
  gatewayLookEntity,
  gatewayOrderEntity,
  gatewayPaymentEntity,
  groupVirtualAccountEntity,
  paymentDisputeEntity,
  paymentEntity,
  paymentRefundEntity,
  receivablesAccountEntity,
  transferClaimEntity,
  unmatchedPaymentEntity,
  virtualAccountEntity,
} from './entities/receivables.ts';
import { keys, type Key } from './keys.ts';
import { queryAll } from './query.ts';
import { GSI1 } from './table.ts';

/*
 * Access patterns of receivables (docs/data-model.md):
 * | pattern                        | key condition                                         | index |
 * |--------------------------------|-------------------------------------------------------|-------|
 * | payment by its key (dedupe)    | PK = GROUP#<g>, SK = PAYMENT#<source>#<reference>     | table |
 * | gateway payment → group        | PK = GATEWAYPAYMENT#<paymentId>, SK = PAYMENT         | table |
 * | a transfer's UTR → its payment  | PK = TRANSFERUTR#<UTR>, SK = CLAIM                    | table |
 * | refund by its id (dedupe)      | PK = GROUP#<g>, SK = PAYMENTREFUND#<refundId>         | table |
 * | dispute by its id, last state  | PK = GROUP#<g>, SK = PAYMENTDISPUTE#<disputeId>       | table |
 * | open disputes, oldest first    | GSI1PK = OPENDISPUTES (only while open/under review)  | GSI1  |
 * | refunds' reconciliation look   | PK = GATEWAYREFUNDS, SK = LOOK                        | table |
 * | disputes' reconciliation look  | PK = GATEWAYDISPUTES, SK = LOOK                       | table |
 * | invoices a refund re-opens     | GSI1PK = GROUP#<g>#INVOICES (amountPaid > 0), then a consistent get | GSI1 |
 * | a group's payments             | PK = GROUP#<g>, begins_with(SK, PAYMENT#)             | table |
 * | unallocated credit + version   | PK = GROUP#<g>, SK = RECEIVABLES                      | table |
 * | gateway order → invoice        | PK = GATEWAYORDER#<orderId>, SK = ORDER               | table |
 * | the group's virtual account    | PK = GROUP#<g>, SK = VIRTUALACCOUNT                   | table |
 * | virtual account → group        | PK = VIRTUALACCOUNT#<vaId>, SK = ACCOUNT              | table |
 * | unmatched payment (once)       | PK = UNMATCHEDPAYMENT#<paymentId>, SK = PAYMENT       | table |
 * | unmatched payments, by time    | GSI1PK = UNMATCHEDPAYMENTS                            | GSI1  |
 * | open invoices to allocate to   | GSI1PK = GROUP#<g>#INVOICES (status ISSUED), then a consistent get | GSI1 |
 */

const MAX_TRANSACTION_ITEMS = 100;
const MAX_ATTEMPTS = 60;
const backoff = (attempt: number) => contentionBackoff(attempt, 250);

/** An invoice money was allocated to, as a refund taking it back sees it. */
interface PaidInvoice {
  readonly id: string;
  readonly dueDate: string;
  readonly issueDate: string;
  readonly invoiceNumber: string;
  readonly status: string;
  readonly amountPaid: Minor;
  readonly amountDue: Minor;
  readonly tracked: boolean;
}

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

export class DynamoReceivablesStore implements ReceivablesStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly invoices: Pick<InvoiceStore, 'lines'>,
    private readonly audit: DynamoAuditTrail,
  ) {}

  /** `audit` starts the payment's own chain in the same transaction (no read); a duplicate is refused with it and writes none. */
  async recordPayment(payment: Payment, entry: LedgerEntry, audit?: AuditDraft): Promise<PaymentRecorded> {
    const g = payment.agentGroupId;
    const key = paymentKey(payment.source, payment.reference);
    const utr = payment.bankReference ? transferReferenceOf(payment.bankReference) : undefined;
    const items: TransactItems = [
      ...recordPostedItems(this.table, entry, payment.recordedAt),
      {
        Put: {
          TableName: this.table,
          Item: paymentEntity.toItem(key, payment),
          ConditionExpression: paymentEntity.conditions.isNew,
        },
      },
      // One payment per UTR: a transfer typed in by hand and the same one through Smart Collect (GATEWAY#pay_…) are two keys.
      ...(utr
        ? [
            {
              Put: {
                TableName: this.table,
                Item: transferClaimEntity.toItem(utr, g, key),
                ConditionExpression: transferClaimEntity.conditions.isNew,
              },
            },
          ]
        : []),
      // A refund names only the payment: its way back to the group, written with it.
      ...(payment.source === 'GATEWAY' ? [{ Put: { TableName: this.table, Item: gatewayPaymentEntity.toItem(payment.reference, g, key) } }] : []),
      unallocatedItem(this.table, g, payment.amount, payment.recordedAt),
      ...(audit ? this.audit.firstItems(audit) : []),
    ];
    for (let attempt = 0; ; attempt++) {
      try {
        await this.db.send(new TransactWriteCommand({ TransactItems: items }));
        return { payment, recorded: true };
      } catch (err) {
        if (!isRefused(err)) throw err;
        // A duplicate (or a racing twin) already wrote it: answer with what is stored.
        const stored = await this.payment(g, key);
        if (stored) return { payment: stored, recorded: false };
        const claimant = utr ? await this.transferClaimant(utr) : undefined;
        if (claimant && (claimant.agentGroupId !== g || paymentKey(claimant.source, claimant.reference) !== key))
          return { payment: claimant, recorded: false, sameTransfer: true };
        // Not recorded and only the event refused: the trail failed, so nothing was changed.
        if (audit && isHeadMoved(err, items.length - 2)) throw err;
        if (!isTransactionContention(err)) throw new NotFoundError('Agent group');
        if (attempt + 1 >= MAX_ATTEMPTS) throw err;
        await backoff(attempt);
      }
    }
  }

  async settle(agentGroupId: string, at: string, first?: string): Promise<{ allocated: Minor; unallocated: Minor }> {
    let allocated = 0;
    for (let attempt = 0; ; attempt++) {
      const account = await this.account(agentGroupId);
      if (account.unallocated < 0) {
        await this.takeBack(agentGroupId, at, first);
        attempt = -1;
        continue;
      }
      if (account.unallocated === 0) return { allocated, unallocated: account.unallocated };
      const open = await this.openInvoices(agentGroupId);
      // One transaction holds the account and at most 99 invoices; the loop takes the rest next.
      const plan = allocate(account.unallocated, open, first);
      // Each invoice may also move its due marker, and the group's figures take one more write (dues.ts).
      const taken = plan.allocations.slice(0, (MAX_TRANSACTION_ITEMS - 2) / 2);
      if (taken.length === 0) return { allocated, unallocated: account.unallocated };
      const moved = taken.reduce((s, a) => s + a.amount, 0);
      const byId = new Map(open.map((o) => [o.id, o]));
      // An invoice's booking spans are written with its first allocation (its lines never change once issued).
      const spans = new Map<string, BookingSpans>();
      for (const a of taken) if (!byId.get(a.invoiceId)!.hasSpans) spans.set(a.invoiceId, bookingSpansOf(await this.invoices.lines(agentGroupId, a.invoiceId)));
      const items: TransactItems = [
        {
          Update: {
            TableName: this.table,
            Key: receivablesAccountEntity.key(agentGroupId),
            UpdateExpression: 'SET unallocated = :rest, #version = :next, updatedAt = :at',
            ConditionExpression: receivablesAccountEntity.conditions.versionAt,
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':rest': account.unallocated - moved, ':next': account.version + 1, ':version': account.version, ':at': at },
          },
        },
        ...taken.map((a) => {
          const inv = byId.get(a.invoiceId)!;
          return {
            Update: {
              TableName: this.table,
              Key: invoiceEntity.key(agentGroupId, a.invoiceId),
              UpdateExpression: `SET amountPaid = :paid, #status = :status, updatedAt = :at${spans.has(a.invoiceId) ? ', bookingSpans = if_not_exists(bookingSpans, :spans)' : ''}`,
              ConditionExpression: `${invoiceEntity.conditions.paidAsRead} AND ${trackedAs(inv.tracked)}`,
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: {
                ':paid': inv.amountPaid + a.amount,
                ':status': a.amount === inv.amountDue ? 'PAID' : 'ISSUED',
                ':issued': 'ISSUED',
                ':prev': inv.amountPaid,
                ':zero': 0,
                ':at': at,
                ...(spans.has(a.invoiceId) ? { ':spans': spans.get(a.invoiceId) } : {}),
              },
            },
          };
        }),
        ...dueItems(
          this.table,
          agentGroupId,
          taken.flatMap((a) => {
            const inv = byId.get(a.invoiceId)!;
            return inv.tracked ? [{ invoiceId: inv.id, dueDate: inv.dueDate, before: inv.amountDue, after: inv.amountDue - a.amount }] : [];
          }),
          at,
        ),
      ];
      try {
        await this.db.send(new TransactWriteCommand({ TransactItems: items }));
        allocated += moved;
        attempt = -1;
      } catch (err) {
        if (!isRefused(err) || attempt + 1 >= MAX_ATTEMPTS) throw err;
        await backoff(attempt);
      }
    }
  }

  async recordRefund(refund: PaymentRefund, entry: LedgerEntry, audit?: AuditDraft): Promise<{ refund: PaymentRefund; recorded: boolean }> {
    const g = refund.agentGroupId;
    const paid = await this.payment(g, paymentKey('GATEWAY', refund.paymentId));
    if (!paid) throw new NotFoundError('Payment');
    const room = paid.amount - refund.amount;
    const items: TransactItems = [
      {
        Put: {
          TableName: this.table,
          Item: paymentRefundEntity.toItem(refund),
          ConditionExpression: paymentRefundEntity.conditions.isNew,
        },
      },
      {
        Update: {
          TableName: this.table,
          Key: paymentEntity.key(g, paymentKey('GATEWAY', refund.paymentId)),
          UpdateExpression: 'ADD refunded :amount',
          ConditionExpression: paymentEntity.conditions.roomToRefund,
          ExpressionAttributeValues: { ':amount': refund.amount, ':room': room, ':zero': 0 },
        },
      },
      ...recordPostedItems(this.table, entry, refund.recordedAt),
      unallocatedItem(this.table, g, -refund.amount, refund.recordedAt),
      ...(audit ? this.audit.firstItems(audit) : []),
    ];
    for (let attempt = 0; ; attempt++) {
      try {
        await this.db.send(new TransactWriteCommand({ TransactItems: items }));
        return { refund, recorded: true };
      } catch (err) {
        if (!isRefused(err)) throw err;
        // The payment first, then the refund: a racing twin that commits between the two reads shows in both (one transaction
        // writes them), so its `refunded` is never taken for an over-refund of ours.
        const now = await this.payment(g, paymentKey('GATEWAY', refund.paymentId));
        const stored = await this.db.send(new GetCommand({ TableName: this.table, Key: paymentRefundEntity.key(g, refund.refundId), ConsistentRead: true }));
        if (stored.Item) return { refund: paymentRefundEntity.fromItem(stored.Item), recorded: false };
        if (room < 0 || (now?.refunded ?? 0) > room)
          throw new RangeError(
            `refund ${refund.refundId} of ${refund.amount} paise is more than is left of payment ${refund.paymentId} (${paid.amount} received, ${now?.refunded ?? 0} refunded)`,
          );
        if (audit && isHeadMoved(err, items.length - 2)) throw err;
        if (!isTransactionContention(err) || attempt + 1 >= MAX_ATTEMPTS) throw err;
        await backoff(attempt);
      }
    }
  }

  /**
   * One step of taking a negative credit back from the invoices it paid: `first`, then the
   * newest due first (the reverse of allocation), each owing again what is taken. Commits on
   * the account's version and each invoice as read, like an allocation.
   */
  private async takeBack(agentGroupId: string, at: string, first?: string): Promise<void> {
    const account = await this.account(agentGroupId);
    if (account.unallocated >= 0) return;
    const paid = (await this.paidInvoices(agentGroupId)).sort((a, b) => Number(b.id === first) - Number(a.id === first) || allocationOrder(b, a));
    let need = -account.unallocated;
    const taken: { inv: PaidInvoice; amount: Minor }[] = [];
    for (const inv of paid) {
      if (need === 0 || taken.length >= (MAX_TRANSACTION_ITEMS - 2) / 2) break;
      const amount = Math.min(need, inv.amountPaid);
      taken.push({ inv, amount });
      need -= amount;
    }
    // A racing settlement took it back between the two reads (the account moved): the caller reads again.
    if (taken.length === 0 && (await this.account(agentGroupId)).version !== account.version) return;
    // Σ amountPaid + unallocated = Σ payments − Σ refunds ≥ 0: a refund never outgrows what the group paid, so this is a defect.
    if (taken.length === 0) throw new RangeError(`group ${agentGroupId} has ${-account.unallocated} paise refunded beyond what its invoices were paid`);
    const moved = taken.reduce((s, t) => s + t.amount, 0);
    const items: TransactItems = [
      {
        Update: {
          TableName: this.table,
          Key: receivablesAccountEntity.key(agentGroupId),
          UpdateExpression: 'SET unallocated = :rest, #version = :next, updatedAt = :at',
          ConditionExpression: receivablesAccountEntity.conditions.versionAt,
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':rest': account.unallocated + moved, ':next': account.version + 1, ':version': account.version, ':at': at },
        },
      },
      ...taken.map(({ inv, amount }) => ({
        Update: {
          TableName: this.table,
          Key: invoiceEntity.key(agentGroupId, inv.id),
          UpdateExpression: 'SET amountPaid = :paid, #status = :issued, updatedAt = :at',
          ConditionExpression: `${invoiceEntity.conditions.takenBackAsRead} AND ${trackedAs(inv.tracked)}`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':paid': inv.amountPaid - amount, ':issued': 'ISSUED', ':was': inv.status, ':prev': inv.amountPaid, ':at': at },
        },
      })),
      ...dueItems(
        this.table,
        agentGroupId,
        taken.flatMap(({ inv, amount }) =>
          inv.tracked ? [{ invoiceId: inv.id, dueDate: inv.dueDate, before: inv.amountDue, after: inv.amountDue + amount }] : [],
        ),
        at,
      ),
    ];
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (err) {
      // Moved meanwhile (a payment, an allocation, another take-back): the caller reads again.
      if (!isRefused(err)) throw err;
      await backoff(0);
    }
  }

  /** The group's invoices (not credit notes) that money was allocated to: ISSUED part-paid or PAID. */
  private async paidInvoices(agentGroupId: string): Promise<PaidInvoice[]> {
    const listed = await queryAll(this.db, {
      TableName: this.table,
      IndexName: GSI1,
      KeyConditionExpression: 'GSI1PK = :pk',
      FilterExpression: 'amountPaid > :zero',
      ExpressionAttributeValues: { ':pk': keys.invoiceList(agentGroupId).GSI1PK, ':zero': 0 },
      ProjectionExpression: 'id',
    });
    const items = await getAll(
      this.db,
      this.table,
      listed.map((i) => invoiceEntity.key(agentGroupId, i.id as string)),
      { consistent: true },
    );
    return items
      .filter((i) => (i.status === 'ISSUED' || i.status === 'PAID') && !i.creditNoteFor && ((i.amountPaid as Minor | undefined) ?? 0) > 0)
      .map((i) => {
        const amountPaid = i.amountPaid as Minor;
        return {
          id: i.id as string,
          dueDate: i.dueDate as string,
          issueDate: i.issueDate as string,
          invoiceNumber: i.invoiceNumber as string,
          status: i.status as string,
          amountPaid,
          amountDue: (i.total as Minor) - amountPaid - ((i.creditedAmount as Minor | undefined) ?? 0),
          tracked: i.dueTracked === true,
        };
      });
  }

  /** The payment that claimed a UTR, if any. */
  private async transferClaimant(utr: string): Promise<Payment | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: transferClaimEntity.key(utr), ConsistentRead: true }));
    if (!out.Item) return undefined;
    const claim = transferClaimEntity.fromItem(out.Item);
    return this.payment(claim.agentGroupId, claim.paymentKey);
  }

  async gatewayPaymentGroup(paymentId: string): Promise<string | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: gatewayPaymentEntity.key(paymentId), ConsistentRead: true }));
    return out.Item ? gatewayPaymentEntity.fromItem(out.Item) : undefined;
  }

  async refunds(agentGroupId: string): Promise<PaymentRefund[]> {
    const k = keys.refundsOfGroup(agentGroupId);
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': k.PK, ':prefix': k.SKPrefix },
      ConsistentRead: true,
    });
    return items.map(paymentRefundEntity.fromItem).sort((a, b) => a.refundedAt.localeCompare(b.refundedAt) || a.refundId.localeCompare(b.refundId));
  }

  async refundLook(): Promise<string | undefined> {
    return this.look(keys.refundLook());
  }

  async markRefundLook(at: string): Promise<void> {
    await this.markLook(keys.refundLook(), 'GatewayRefundLook', at);
  }

  async disputeLook(): Promise<string | undefined> {
    return this.look(keys.disputeLook());
  }

  async markDisputeLook(at: string): Promise<void> {
    await this.markLook(keys.disputeLook(), 'GatewayDisputeLook', at);
  }

  private async look(key: Key): Promise<string | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true }));
    return gatewayLookEntity.fromItem(out.Item);
  }

  private async markLook(key: Key, entity: string, at: string): Promise<void> {
    await writeIf(
      this.db,
      new UpdateCommand({
        TableName: this.table,
        Key: key,
        UpdateExpression: 'SET entity = :entity, lastLookAt = :at',
        ConditionExpression: gatewayLookEntity.conditions.lookIsLater,
        ExpressionAttributeValues: { ':entity': entity, ':at': at },
      }),
    );
  }

  async unallocatedCredit(agentGroupId: string): Promise<Minor> {
    return (await this.account(agentGroupId)).unallocated;
  }

  async openDues(agentGroupId: string): Promise<{ invoiceId: string; dueDate: string; amountDue: Minor }[]> {
    return (await this.openInvoices(agentGroupId)).map((i) => ({ invoiceId: i.id, dueDate: i.dueDate, amountDue: i.amountDue }));
  }

  async setCreditHold(agentGroupId: string, hold: boolean, at: string): Promise<void> {
    await this.db
      .send(
        new UpdateCommand({
          TableName: this.table,
          Key: creditCounterEntity.key(agentGroupId),
          UpdateExpression: 'SET creditHold = :hold, creditHoldAt = :at',
          ConditionExpression: creditCounterEntity.conditions.holdChanges,
          ExpressionAttributeValues: { ':hold': hold, ':at': at },
        }),
      )
      .catch((err: unknown) => {
        if (!isConditionFailure(err)) throw err;
      });
  }

  async gatewayOrder(orderId: string): Promise<GatewayOrderRef | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: gatewayOrderEntity.key(orderId), ConsistentRead: true }));
    return out.Item ? gatewayOrderEntity.fromItem(out.Item) : undefined;
  }

  async virtualAccountGroup(virtualAccountId: string): Promise<string | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: virtualAccountEntity.key(virtualAccountId), ConsistentRead: true }));
    return out.Item ? virtualAccountEntity.fromItem(out.Item) : undefined;
  }

  async groupVirtualAccount(agentGroupId: string): Promise<GroupVirtualAccount> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: groupVirtualAccountEntity.key(agentGroupId), ConsistentRead: true }));
    return groupVirtualAccountEntity.fromItem(out.Item);
  }

  async requestVirtualAccount(agentGroupId: string, at: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: groupVirtualAccountEntity.key(agentGroupId),
        UpdateExpression: 'SET entity = :entity, agentGroupId = :g, requestedAt = if_not_exists(requestedAt, :at)',
        ExpressionAttributeValues: { ':entity': groupVirtualAccountEntity.name, ':g': agentGroupId, ':at': at },
      }),
    );
  }

  async saveVirtualAccount(agentGroupId: string, account: VirtualAccount, at: string): Promise<VirtualAccount> {
    const saved = await transactIf(this.db, [
      {
        Update: {
          TableName: this.table,
          Key: groupVirtualAccountEntity.key(agentGroupId),
          UpdateExpression: 'SET entity = :entity, agentGroupId = :g, account = :account, createdAt = :at, lastLookAt = if_not_exists(lastLookAt, :at)',
          ConditionExpression: groupVirtualAccountEntity.conditions.noAccountYet,
          ExpressionAttributeValues: { ':entity': groupVirtualAccountEntity.name, ':g': agentGroupId, ':account': account, ':at': at },
        },
      },
      { Put: { TableName: this.table, Item: virtualAccountEntity.toItem(account.virtualAccountId, agentGroupId, at) } },
    ]);
    // Refused: a racing request saved the group's account first; that one stands.
    return saved ? account : (await this.groupVirtualAccount(agentGroupId)).account!;
  }

  async markVirtualAccountLook(agentGroupId: string, at: string): Promise<void> {
    await writeIf(
      this.db,
      new UpdateCommand({
        TableName: this.table,
        Key: groupVirtualAccountEntity.key(agentGroupId),
        UpdateExpression: 'SET lastLookAt = :at',
        ConditionExpression: groupVirtualAccountEntity.conditions.lookIsLater,
        ExpressionAttributeValues: { ':at': at },
      }),
    );
  }

  async keepUnmatched(payment: UnmatchedPayment): Promise<boolean> {
    return writeIf(
      this.db,
      new PutCommand({
        TableName: this.table,
        Item: unmatchedPaymentEntity.toItem(payment),
        ConditionExpression: unmatchedPaymentEntity.conditions.isNew,
      }),
    );
  }

  async recordDispute(dispute: PaymentDispute): Promise<{ applied: boolean; previous: string | null; stored: PaymentDispute }> {
    const key = paymentDisputeEntity.key(dispute.agentGroupId, dispute.disputeId);
    const rank = disputeRank(dispute.status);
    try {
      const out = await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: paymentDisputeEntity.toItem(dispute, rank, isDisputeOpen(dispute.status)),
          ConditionExpression: paymentDisputeEntity.conditions.laterState,
          ExpressionAttributeValues: { ':rank': rank },
          ReturnValues: 'ALL_OLD',
        }),
      );
      return { applied: true, previous: (out.Attributes?.status as string | undefined) ?? null, stored: dispute };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const stored = await this.db.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true }));
      return { applied: false, previous: (stored.Item?.status as string | undefined) ?? null, stored: paymentDisputeEntity.fromItem(stored.Item!) };
    }
  }

  async openDisputes(): Promise<PaymentDispute[]> {
    return (
      await queryAll(this.db, {
        TableName: this.table,
        IndexName: GSI1,
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': 'OPENDISPUTES' },
      })
    ).map(paymentDisputeEntity.fromItem);
  }

  async disputes(agentGroupId: string): Promise<PaymentDispute[]> {
    const k = keys.disputesOfGroup(agentGroupId);
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': k.PK, ':prefix': k.SKPrefix },
      ConsistentRead: true,
    });
    return items.map(paymentDisputeEntity.fromItem);
  }

  async unmatchedPayments(): Promise<UnmatchedPayment[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: GSI1,
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': 'UNMATCHEDPAYMENTS' },
    });
    return items.map(unmatchedPaymentEntity.fromItem);
  }

  async dropUnmatched(paymentId: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: unmatchedPaymentEntity.key(paymentId) }));
  }

  async adoptLinkOrder(orderId: string, ref: GatewayOrderRef, at: string): Promise<void> {
    await writeIf(
      this.db,
      new PutCommand({
        TableName: this.table,
        Item: gatewayOrderEntity.toItem(orderId, ref, at),
        ConditionExpression: gatewayOrderEntity.conditions.isNew,
      }),
    );
  }

  async openOrders(agentGroupId: string): Promise<OpenOrder[]> {
    return (await this.openInvoices(agentGroupId)).flatMap((i) =>
      i.order
        ? [
            {
              invoiceId: i.id,
              invoiceNumber: i.invoiceNumber,
              gatewayOrderId: i.order.id,
              orderAmount: i.order.amount,
              orderSeq: i.order.seq,
              earlierOrderIds: i.order.earlier,
              amountDue: i.amountDue,
            },
          ]
        : [],
    );
  }

  async replaceGatewayOrder(
    agentGroupId: string,
    invoiceId: string,
    order: { readonly orderId: string; readonly amount: Minor; readonly seq: number },
    replaces: string,
    at: string,
  ): Promise<boolean> {
    // The order's way back to its invoice is written with it: a gateway notification names only the order.
    return transactIf(this.db, [
      {
        Update: {
          TableName: this.table,
          Key: invoiceEntity.key(agentGroupId, invoiceId),
          UpdateExpression:
            'SET gatewayOrderId = :o, gatewayOrderAmount = :a, gatewayOrderSeq = :s, earlierGatewayOrders = list_append(if_not_exists(earlierGatewayOrders, :none), :prev), updatedAt = :at',
          ConditionExpression: invoiceEntity.conditions.orderReplaces,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':o': order.orderId,
            ':a': order.amount,
            ':s': order.seq,
            ':none': [],
            ':prev': [replaces],
            ':replaces': replaces,
            ':issued': 'ISSUED',
            ':at': at,
          },
        },
      },
      {
        Put: {
          TableName: this.table,
          Item: gatewayOrderEntity.toItem(order.orderId, { agentGroupId, invoiceId }, at),
        },
      },
    ]);
  }

  async payments(agentGroupId: string): Promise<Payment[]> {
    const k = keys.paymentsOfGroup(agentGroupId);
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': k.PK, ':prefix': k.SKPrefix },
      ConsistentRead: true,
    });
    return items.map(paymentEntity.fromItem).sort((a, b) => a.receivedAt.localeCompare(b.receivedAt) || a.reference.localeCompare(b.reference));
  }

  async payment(agentGroupId: string, source: PaymentSource, reference: string): Promise<Payment | undefined>;
  async payment(agentGroupId: string, key: string): Promise<Payment | undefined>;
  async payment(agentGroupId: string, keyOrSource: string, reference?: string): Promise<Payment | undefined> {
    const key = reference === undefined ? keyOrSource : paymentKey(keyOrSource as PaymentSource, reference);
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: paymentEntity.key(agentGroupId, key), ConsistentRead: true }));
    return out.Item ? paymentEntity.fromItem(out.Item) : undefined;
  }

  private async account(agentGroupId: string): Promise<{ unallocated: Minor; version: number }> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: receivablesAccountEntity.key(agentGroupId), ConsistentRead: true }));
    return receivablesAccountEntity.fromItem(out.Item);
  }

  /**
   * ISSUED invoices still owing, read from the table itself (the indexes only find them);
   * credit notes owe nothing. Found from the group's due markers (dues.ts), one per invoice
   * still owing, once the kept figures are complete, so the read costs what is open, not the
   * group's whole invoice list; before that, from the list as it always was.
   */
  private async openInvoices(agentGroupId: string): Promise<
    (OpenInvoice & {
      amountPaid: Minor;
      hasSpans: boolean;
      tracked: boolean;
      order?: { id: string; amount: Minor; seq: number; earlier: string[] };
    })[]
  > {
    const m = keys.dueMarkers(agentGroupId);
    const [dues, markers] = await Promise.all([
      this.db.send(new GetCommand({ TableName: this.table, Key: keys.dues(agentGroupId), ConsistentRead: true, ProjectionExpression: 'complete' })),
      queryAll(this.db, {
        TableName: this.table,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': m.PK, ':prefix': m.SKPrefix },
        ProjectionExpression: 'invoiceId',
        ConsistentRead: true,
      }),
    ]);
    const ids = dues.Item?.complete === true ? markers.map((i) => i.invoiceId as string) : await this.listedIssued(agentGroupId);
    const items = await getAll(
      this.db,
      this.table,
      ids.map((id) => invoiceEntity.key(agentGroupId, id)),
      { consistent: true },
    );
    return items
      .filter((i) => i.status === 'ISSUED' && !i.creditNoteFor)
      .map((i) => {
        const amountPaid = (i.amountPaid as Minor | undefined) ?? 0;
        const amountDue = (i.total as Minor) - amountPaid - ((i.creditedAmount as Minor | undefined) ?? 0);
        return {
          id: i.id as string,
          dueDate: i.dueDate as string,
          issueDate: i.issueDate as string,
          invoiceNumber: i.invoiceNumber as string,
          amountDue,
          amountPaid,
          hasSpans: i.bookingSpans !== undefined,
          tracked: i.dueTracked === true,
          // The first order is for the total (no amount stored); a replacing order stores its own.
          ...(i.gatewayOrderId
            ? {
                order: {
                  id: i.gatewayOrderId as string,
                  amount: (i.gatewayOrderAmount as Minor | undefined) ?? (i.total as Minor),
                  seq: (i.gatewayOrderSeq as number | undefined) ?? 1,
                  earlier: (i.earlierGatewayOrders as string[] | undefined) ?? [],
                },
              }
            : {}),
        };
      })
      .filter((i) => i.amountDue > 0);
  }

  /** Every ISSUED invoice of the group's list: what a group whose kept figures are not complete yet is read from. */
  private async listedIssued(agentGroupId: string): Promise<string[]> {
    const listed = await queryAll(this.db, {
      TableName: this.table,
      IndexName: GSI1,
      KeyConditionExpression: 'GSI1PK = :pk',
      FilterExpression: '#status = :issued',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pk': keys.invoiceList(agentGroupId).GSI1PK, ':issued': 'ISSUED' },
      ProjectionExpression: 'id',
    });
    return listed.map((i) => i.id as string);
  }
}
