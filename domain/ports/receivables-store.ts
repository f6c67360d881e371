import type { LedgerEntry } from '../ledger/ledger.ts';
import type { Minor } from '../money.ts';
import type { Payment } from '../receivables/payment.ts';

export interface PaymentRecorded {
  readonly payment: Payment;
  /** False when this payment (same source and reference) was already recorded: nothing new was written. */
  readonly recorded: boolean;
}

/** Where a gateway order leads: the group and the invoice it was opened for. */
export interface GatewayOrderRef {
  readonly agentGroupId: string;
  readonly invoiceId: string;
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
   * payment's key can commit. Throws NotFoundError for an unknown group.
   */
  recordPayment(payment: Payment, entry: LedgerEntry): Promise<PaymentRecorded>;
  /**
   * Allocates the group's unallocated credit to its open invoices (`first`, then oldest due
   * first), invoices reaching 0 due becoming PAID. Safe to run concurrently and repeatedly:
   * each allocation commits only on the figures it read.
   */
  settle(agentGroupId: string, at: string, first?: string): Promise<{ readonly allocated: Minor; readonly unallocated: Minor }>;
  unallocatedCredit(agentGroupId: string): Promise<Minor>;
  /** Due date and amount still due of each ISSUED invoice still owing. */
  openDues(agentGroupId: string): Promise<{ readonly dueDate: string; readonly amountDue: Minor }[]>;
  /** Credit control's verdict, stored where the credit gate reads it (the group's credit counter). */
  setCreditHold(agentGroupId: string, hold: boolean, at: string): Promise<void>;
  gatewayOrder(orderId: string): Promise<GatewayOrderRef | undefined>;
  payments(agentGroupId: string): Promise<Payment[]>;
  /**
   * bookingRef → paise of payments that reached the booking's invoice lines: each invoice's
   * amountPaid covers its bookings in the invoice's line order. Absent = nothing paid.
   */
  paidOfBookings(agentGroupId: string, bookings: readonly { readonly bookingRef: string; readonly invoicedIn?: readonly string[] }[]): Promise<Map<string, Minor>>;
}
