import type { AuditDraft } from '../audit/audit-event.ts';
import type { LedgerEntry } from '../ledger/ledger.ts';
import type { Minor } from '../money.ts';
import type { Payment, PaymentDispute, PaymentRefund, PaymentSource, UnmatchedPayment } from '../receivables/payment.ts';
import type { VirtualAccount } from './payment-gateway.ts';

/** An ISSUED invoice still owing and its gateway orders. */
export interface OpenOrder {
  readonly invoiceId: string;
  readonly invoiceNumber: string;
  /** The current order. */
  readonly gatewayOrderId: string;
  /** Paise the current order collects. */
  readonly orderAmount: Minor;
  /** Which of the invoice's orders the current one is (1 = the first). */
  readonly orderSeq: number;
  /** The orders it replaced (payments on them still land on this invoice). */
  readonly earlierOrderIds: readonly string[];
  readonly amountDue: Minor;
}

export interface PaymentRecorded {
  readonly payment: Payment;
  /** False when this payment (same source and reference) was already recorded: nothing new was written. */
  readonly recorded: boolean;
  /**
   * Set when nothing was written because the transfer's UTR was already recorded as another
   * payment (typed in by hand, or through the gateway): that payment, which `payment` also is.
   */
  readonly sameTransfer?: boolean;
}

/** Where a gateway order leads: the group and the invoice it was opened for. */
export interface GatewayOrderRef {
  readonly agentGroupId: string;
  readonly invoiceId: string;
}

export interface GroupVirtualAccount {
  readonly account?: VirtualAccount;
  readonly requestedAt?: string;
  readonly lastLookAt?: string;
}

/**
 * Payments and their allocation to a group's invoices. Money received first becomes the
 * group's unallocated credit (in the same transaction as its ledger entry); settling moves
 * that credit onto open invoices.
 */
export interface ReceivablesStore {
  /**
   * Writes the payment, its POSTED PAYMENT ledger entry (with exposure) and adds its amount
   * to the group's unallocated credit, in one transaction that only the first call for the
   * payment's key can commit. A transfer (its `bankReference`) also claims its UTR there: one
   * already claimed by another payment (another source or id) records nothing and answers with
   * that payment (`sameTransfer`). Throws NotFoundError for an unknown group.
   */
  recordPayment(payment: Payment, entry: LedgerEntry, audit?: AuditDraft): Promise<PaymentRecorded>;
  /**
   * Writes a processed refund of a recorded payment, its POSTED ADJUSTMENT (with exposure),
   * the payment's refunded figure and takes its amount off the group's unallocated credit
   * (below 0 when the money was allocated: settle takes it back), in one transaction only
   * the first call for the refund id commits. Throws RangeError when the payment has less
   * left to refund than the refund's amount.
   */
  recordRefund(refund: PaymentRefund, entry: LedgerEntry, audit?: AuditDraft): Promise<{ readonly refund: PaymentRefund; readonly recorded: boolean }>;
  /**
   * Allocates the group's unallocated credit to its open invoices (`first`, then oldest due
   * first), invoices reaching 0 due becoming PAID; a negative credit (money refunded after it
   * was allocated) is taken back from the invoices it paid (`first`, then newest due first),
   * each owing again (PAID → ISSUED). Safe to run concurrently and repeatedly: each
   * allocation commits only on the figures it read.
   */
  settle(agentGroupId: string, at: string, first?: string): Promise<{ readonly allocated: Minor; readonly unallocated: Minor }>;
  unallocatedCredit(agentGroupId: string): Promise<Minor>;
  /** Due date and amount still due of each ISSUED invoice still owing. */
  openDues(agentGroupId: string): Promise<{ readonly invoiceId: string; readonly dueDate: string; readonly amountDue: Minor }[]>;
  /** Credit control's verdict, stored where the credit gate reads it (the group's credit counter). */
  setCreditHold(agentGroupId: string, hold: boolean, at: string): Promise<void>;
  gatewayOrder(orderId: string): Promise<GatewayOrderRef | undefined>;
  /** The group a recorded gateway payment belongs to. */
  gatewayPaymentGroup(paymentId: string): Promise<string | undefined>;
  payment(agentGroupId: string, source: PaymentSource, reference: string): Promise<Payment | undefined>;
  refunds(agentGroupId: string): Promise<PaymentRefund[]>;
  /**
   * Stores a dispute's state when it is new or later than the stored one (`disputeRank`); an
   * earlier or the same state arriving late writes nothing (`applied` false). `previous`: the state
   * it replaced. Open disputes are listed by `openDisputes`.
   */
  recordDispute(dispute: PaymentDispute): Promise<{ readonly applied: boolean; readonly previous: string | null; readonly stored: PaymentDispute }>;
  /** Disputes open or under review, across groups, oldest first. */
  openDisputes(): Promise<PaymentDispute[]>;
  disputes(agentGroupId: string): Promise<PaymentDispute[]>;
  /** When reconciliation last asked the gateway for its refunds (undefined: never). */
  refundLook(): Promise<string | undefined>;
  markRefundLook(at: string): Promise<void>;
  /** When the account's disputes were last asked for (reconciliation of disputes whose webhooks were lost). */
  disputeLook(): Promise<string | undefined>;
  markDisputeLook(at: string): Promise<void>;
  /** The group a Smart Collect virtual account belongs to. */
  virtualAccountGroup(virtualAccountId: string): Promise<string | undefined>;
  /** The group's virtual account as stored: the account once created, the intent written before asking the gateway, the last reconciliation look. */
  groupVirtualAccount(agentGroupId: string): Promise<GroupVirtualAccount>;
  /** Writes the intent (once) before the gateway is asked, so a crash before the answer is stored is known to the next attempt. */
  requestVirtualAccount(agentGroupId: string, at: string): Promise<void>;
  /** Stores the account on the group with its way back (virtual account → group) in one write; the first stored wins and is returned. */
  saveVirtualAccount(agentGroupId: string, account: VirtualAccount, at: string): Promise<VirtualAccount>;
  /** Moves the group's reconciliation mark (payments into its account are asked for from here on). */
  markVirtualAccountLook(agentGroupId: string, at: string): Promise<void>;
  /** Keeps a payment that is not a group's money, once per payment id; false when it was already kept. */
  keepUnmatched(payment: UnmatchedPayment): Promise<boolean>;
  unmatchedPayments(): Promise<UnmatchedPayment[]>;
  /** Removes a kept payment that turned out to be a group's (a pay link's order, learned from `payment_link.paid` after its twin was kept). */
  dropUnmatched(paymentId: string): Promise<void>;
  /**
   * Writes an order the gateway opened for a pay link's payment as the invoice's (its way back, as any order of ours; the invoice's
   * current order is unchanged), once: a second call changes nothing.
   */
  adoptLinkOrder(orderId: string, ref: GatewayOrderRef, at: string): Promise<void>;
  /** The gateway orders of the group's ISSUED invoices still owing (reconciliation asks for their payments and replaces an order for more than is due). */
  openOrders(agentGroupId: string): Promise<OpenOrder[]>;
  /**
   * Makes `order` the invoice's current order (its way back to the invoice written with it), the one it replaces kept as an
   * earlier order; false, writing nothing, when the invoice's current order is no longer `replaces` or it is not ISSUED.
   */
  replaceGatewayOrder(
    agentGroupId: string,
    invoiceId: string,
    order: { readonly orderId: string; readonly amount: Minor; readonly seq: number },
    replaces: string,
    at: string,
  ): Promise<boolean>;
  payments(agentGroupId: string): Promise<Payment[]>;
}
