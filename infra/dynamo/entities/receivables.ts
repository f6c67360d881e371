import type { Minor } from '../../../domain/money.ts';
import type { VirtualAccount } from '../../../domain/ports/payment-gateway.ts';
import type { GatewayOrderRef, GroupVirtualAccount } from '../../../domain/ports/receivables-store.ts';
import type { Payment, PaymentDispute, PaymentRefund, UnmatchedPayment } from '../../../domain/receivables/payment.ts';
import { ITEM_EXISTS, ITEM_IS_NEW, itemOf, recordOf } from '../items.ts';
import { keys } from '../keys.ts';

/*
 * The items of receivables (docs/data-model.md, "Receivables"): what a group paid, what was given
 * back or disputed, the group's unallocated credit, and the ways back from a gateway's ids to a
 * group. Every store that writes one takes its keys, its shape and its conditions from here.
 */

/** The Payment item: PK = GROUP#<g>, SK = PAYMENT#<source>#<reference>, so a duplicate delivery collides. */
export const paymentEntity = {
  name: 'Payment',
  key: keys.payment,
  toItem: (paymentKey: string, payment: Payment) => itemOf('Payment', keys.payment(payment.agentGroupId, paymentKey), payment),
  fromItem: (item: Record<string, unknown>): Payment => ({
    agentGroupId: item.agentGroupId as string,
    source: item.source as Payment['source'],
    reference: item.reference as string,
    amount: item.amount as Minor,
    gatewayOrderId: (item.gatewayOrderId as string | null | undefined) ?? null,
    invoiceId: (item.invoiceId as string | null | undefined) ?? null,
    receivedAt: item.receivedAt as string,
    recordedAt: item.recordedAt as string,
    ledgerEntryId: item.ledgerEntryId as string,
    eventId: (item.eventId as string | null | undefined) ?? null,
    virtualAccountId: (item.virtualAccountId as string | null | undefined) ?? null,
    bankReference: (item.bankReference as string | null | undefined) ?? null,
    ...(item.refunded ? { refunded: item.refunded as Minor } : {}),
  }),
  conditions: {
    /** The first delivery of a payment creates its record; every duplicate is refused. */
    isNew: ITEM_IS_NEW,
    /**
     * A refund is added only to a payment that exists and has room for it: never more given back
     * than was received (the gateway refuses that too, so a refusal here is a defect to see).
     * Placeholders: `:room` = the payment's amount less this refund, `:zero` = 0.
     */
    roomToRefund: `${ITEM_EXISTS} AND (attribute_not_exists(refunded) OR refunded <= :room) AND :room >= :zero`,
  },
} as const;

/** A bank transfer's UTR → the one payment that recorded it (typed in, or through Smart Collect). */
export const transferClaimEntity = {
  name: 'TransferClaim',
  key: keys.transferClaim,
  toItem: (utr: string, agentGroupId: string, paymentKey: string) => itemOf('TransferClaim', keys.transferClaim(utr), { agentGroupId, paymentKey }),
  fromItem: (item: Record<string, unknown>) => ({ agentGroupId: item.agentGroupId as string, paymentKey: item.paymentKey as string }),
  /** One payment per UTR: the claim is written with the payment, and a second claimant is refused. */
  conditions: { isNew: ITEM_IS_NEW },
} as const;

/** A gateway payment id → its group: a refund or dispute names only the payment. */
export const gatewayPaymentEntity = {
  name: 'GatewayPayment',
  key: keys.gatewayPayment,
  toItem: (paymentId: string, agentGroupId: string, paymentKey: string) =>
    itemOf('GatewayPayment', keys.gatewayPayment(paymentId), { agentGroupId, paymentKey }),
  fromItem: (item: Record<string, unknown>): string => item.agentGroupId as string,
} as const;

/** The PaymentRefund item: PK = GROUP#<g>, SK = PAYMENTREFUND#<refundId>, so a duplicate collides. */
export const paymentRefundEntity = {
  name: 'PaymentRefund',
  key: keys.paymentRefund,
  toItem: (refund: PaymentRefund) => itemOf('PaymentRefund', keys.paymentRefund(refund.agentGroupId, refund.refundId), refund),
  fromItem: (item: Record<string, unknown>): PaymentRefund => recordOf<PaymentRefund>(item),
  conditions: { isNew: ITEM_IS_NEW },
} as const;

/** The PaymentDispute item, as last seen; on GSI1 (OPENDISPUTES) only while open or under review. */
export const paymentDisputeEntity = {
  name: 'PaymentDispute',
  key: keys.paymentDispute,
  toItem: (dispute: PaymentDispute, rank: number, open: boolean) =>
    itemOf(
      'PaymentDispute',
      { ...keys.paymentDispute(dispute.agentGroupId, dispute.disputeId), ...(open ? keys.openDisputeIndex(dispute.createdAt, dispute.disputeId) : {}) },
      { stateRank: rank, ...dispute },
    ),
  fromItem: (item: Record<string, unknown>): PaymentDispute => {
    const { stateRank: _rank, ...dispute } = recordOf<PaymentDispute & { stateRank?: number }>(item);
    return dispute;
  },
  conditions: {
    /** A state once, never after a later one: redeliveries and late events (created after lost) write nothing. Placeholder `:rank`. */
    laterState: `${ITEM_IS_NEW} OR stateRank < :rank`,
  },
} as const;

/** A gateway payment that is no group's money, kept once per payment id; listed for operators through GSI1. */
export const unmatchedPaymentEntity = {
  name: 'UnmatchedPayment',
  key: keys.unmatchedPayment,
  toItem: (payment: UnmatchedPayment) =>
    itemOf('UnmatchedPayment', { ...keys.unmatchedPayment(payment.paymentId), ...keys.unmatchedPaymentIndex(payment.keptAt, payment.paymentId) }, payment),
  fromItem: (item: Record<string, unknown>): UnmatchedPayment => recordOf<UnmatchedPayment>(item),
  conditions: { isNew: ITEM_IS_NEW },
} as const;

/** A gateway order or pay link → the invoice it was made for (a notification names only the order). */
export const gatewayOrderEntity = {
  name: 'GatewayOrder',
  key: keys.gatewayOrder,
  toItem: (orderId: string, ref: GatewayOrderRef, createdAt: string) =>
    itemOf('GatewayOrder', keys.gatewayOrder(orderId), { orderId, agentGroupId: ref.agentGroupId, invoiceId: ref.invoiceId, createdAt }),
  fromItem: (item: Record<string, unknown>): GatewayOrderRef => ({ agentGroupId: item.agentGroupId as string, invoiceId: item.invoiceId as string }),
  conditions: { isNew: ITEM_IS_NEW },
} as const;

/** The group's virtual account (PK = GROUP#<g>, SK = VIRTUALACCOUNT): asked for, then made once. */
export const groupVirtualAccountEntity = {
  name: 'GroupVirtualAccount',
  key: keys.groupVirtualAccount,
  fromItem: (item: Record<string, unknown> | undefined): GroupVirtualAccount => ({
    ...(item?.account ? { account: item.account as VirtualAccount } : {}),
    ...(item?.requestedAt ? { requestedAt: item.requestedAt as string } : {}),
    ...(item?.lastLookAt ? { lastLookAt: item.lastLookAt as string } : {}),
  }),
  conditions: {
    /** One account per group: a racing request that saved one first stands. */
    noAccountYet: 'attribute_not_exists(account)',
    /** Never backwards: two reconciliations overlapping leave the later mark (placeholder `:at`). */
    lookIsLater: 'attribute_exists(account) AND (attribute_not_exists(lastLookAt) OR lastLookAt < :at)',
  },
} as const;

/** A virtual account id → its group (a Smart Collect payment names only the account). */
export const virtualAccountEntity = {
  name: 'VirtualAccount',
  key: keys.virtualAccount,
  toItem: (virtualAccountId: string, agentGroupId: string, createdAt: string) =>
    itemOf('VirtualAccount', keys.virtualAccount(virtualAccountId), { agentGroupId, createdAt }),
  fromItem: (item: Record<string, unknown>): string => item.agentGroupId as string,
} as const;

/** The group's unallocated credit and its version (PK = GROUP#<g>, SK = RECEIVABLES). */
export const receivablesAccountEntity = {
  name: 'ReceivablesAccount',
  key: keys.receivablesAccount,
  fromItem: (item: Record<string, unknown> | undefined): { unallocated: Minor; version: number } => ({
    unallocated: (item?.unallocated as Minor | undefined) ?? 0,
    version: (item?.version as number | undefined) ?? 0,
  }),
  conditions: {
    /**
     * Allocation commits only on the account it read: two settlements racing read the same
     * unallocated credit; one commits, the other is refused, re-reads and finds less (or none).
     * Placeholders: `#version` → version, `:version` the value read.
     */
    versionAt: '#version = :version',
  },
} as const;

/** Reconciliation's last look at the gateway's account-wide lists (refunds, disputes). */
export const gatewayLookEntity = {
  fromItem: (item: Record<string, unknown> | undefined): string | undefined => item?.lastLookAt as string | undefined,
  conditions: {
    /** Never backwards: two reconciliations overlapping leave the later mark (placeholder `:at`). */
    lookIsLater: 'attribute_not_exists(lastLookAt) OR lastLookAt < :at',
  },
} as const;
