import type { Minor } from '../money.ts';

export interface GatewayOrderRequest {
  /** Our reference for the order (the invoice id): the gateway creates one order per receipt, however often asked. */
  readonly receipt: string;
  readonly amount: Minor;
  readonly currency: 'INR';
  readonly description: string;
  /** Shown to operators on the gateway's dashboard (invoice number, group). */
  readonly notes: Readonly<Record<string, string>>;
}

export interface GatewayOrder {
  readonly orderId: string;
  readonly receipt: string;
  readonly amount: Minor;
}

/** A hosted page that collects one amount (a Razorpay Payment Link): sent to the payer, paid without our checkout. */
export interface PaymentLinkRequest {
  /** Our reference, unique across the account's links (`<invoice id>/L<n>`): a retry finds the link an earlier attempt made. */
  readonly referenceId: string;
  readonly amount: Minor;
  readonly currency: 'INR';
  readonly description: string;
  /** After this the link takes no payment (the gateway marks it expired). */
  readonly expireBy: Date;
  readonly notes: Readonly<Record<string, string>>;
}

export interface PaymentLink {
  readonly linkId: string;
  /** The URL a payer opens. */
  readonly shortUrl: string;
  readonly referenceId: string;
  readonly amount: Minor;
  /** created, partially_paid, paid, cancelled or expired. */
  readonly status: string;
  /** The order the gateway opened for the link's payment, once paid. */
  readonly orderId: string | null;
}

/** The bank account (Smart Collect virtual account) a group pays its invoices into by NEFT/RTGS/IMPS. */
export interface VirtualAccount {
  readonly virtualAccountId: string;
  readonly accountNumber: string;
  readonly ifsc: string;
  readonly bankName: string;
  readonly beneficiaryName: string;
}

export interface VirtualAccountRequest {
  readonly agentGroupId: string;
  /** The group's legal name: shown to the payer's bank as the beneficiary's customer. */
  readonly name: string;
}

/** A payment as the gateway reports it (a notification's payment entity, or a reconciliation's fetch). */
export interface GatewayPayment {
  /** The gateway's own payment id: one payment, however often it is announced or fetched. */
  readonly paymentId: string;
  /** The order paid (card, UPI, netbanking through checkout); null for a bank transfer. */
  readonly orderId: string | null;
  /** The virtual account credited by a bank transfer; null otherwise. */
  readonly virtualAccountId: string | null;
  /** Positive minor units of `currency`. */
  readonly amount: Minor;
  readonly currency: string;
  /** Razorpay's payment state: `captured` money is ours, and stays so once `refunded` (its refunds then move it back). */
  readonly status: string;
  /** Paise refunded of it so far, as the gateway reports (pending refunds included): more than 0 sends a look at its refunds. */
  readonly amountRefunded: Minor;
  /** When the gateway created the payment (ISO instant). */
  readonly createdAt: string;
  /** The bank's reference (UTR) of a bank transfer, when the gateway gave it. */
  readonly bankReference: string | null;
}

/**
 * A refund of a gateway payment, as the gateway reports it (razorpay.com/docs/api/refunds,
 * "Refunds Entity"). Only a `processed` refund has given the money back; `pending` may still
 * fail, and `failed` never left.
 */
export interface GatewayRefund {
  /** The gateway's refund id: one refund, however often it is announced or fetched. */
  readonly refundId: string;
  readonly paymentId: string;
  /** Positive minor units of `currency`. */
  readonly amount: Minor;
  readonly currency: string;
  readonly status: string;
  /** When the gateway created the refund (ISO instant). */
  readonly createdAt: string;
}

/**
 * A dispute (chargeback) of a gateway payment, as the gateway reports it (razorpay.com/docs/api/disputes/entity):
 * `open` when raised, `under_review` once contested, then `won`, `lost` (the amount deducted from the
 * merchant's balance) or `closed`.
 */
export interface GatewayDispute {
  /** The gateway's dispute id (disp_…). */
  readonly disputeId: string;
  readonly paymentId: string;
  /** Positive minor units disputed. */
  readonly amount: Minor;
  /** Minor units deducted from the merchant's balance: 0 unless `lost`. */
  readonly amountDeducted: Minor;
  readonly currency: string;
  readonly status: string;
  /** fraud, retrieval, chargeback, pre_arbitration, arbitration. */
  readonly phase: string;
  readonly reasonCode: string;
  /** When a response is due (ISO instant). */
  readonly respondBy: string;
  readonly createdAt: string;
}

/** True for the payment states in which the money was captured (razorpay.com/docs/payments/payments, "Payment Life Cycle": captured, then refunded). */
export const wasCaptured = (p: Pick<GatewayPayment, 'status'>): boolean => p.status === 'captured' || p.status === 'refunded';

/** The gateway answered with a refusal of the request itself (4xx): retrying the same request will not help. */
export class GatewayRejectedError extends Error {
  override readonly name = 'GatewayRejectedError';
  constructor(
    readonly code: string,
    readonly description: string,
    readonly httpStatus: number,
  ) {
    super(`the payment gateway refused the request (${httpStatus} ${code}): ${description}`);
  }
}

/** The gateway did not answer, or answered 5xx/429: the same request is retried later. */
export class GatewayUnavailableError extends Error {
  override readonly name = 'GatewayUnavailableError';
  constructor(detail: string) {
    super(`the payment gateway is unavailable: ${detail}`);
  }
}

/**
 * The payment gateway partners pay invoices through. An order is created when an invoice
 * is issued; each group has one virtual bank account for transfers; payments arrive as the
 * gateway's notifications and, for those it never delivered, by asking (reconciliation).
 * Failures throw GatewayRejectedError or GatewayUnavailableError.
 */
export interface PaymentGateway {
  /** Creates (or, for a receipt already used, returns) the order for paying one invoice. */
  createOrder(request: GatewayOrderRequest): Promise<GatewayOrder>;
  createVirtualAccount(request: VirtualAccountRequest): Promise<VirtualAccount>;
  /** The group's virtual account if one was created for it (a creation whose answer was lost), else undefined. */
  findVirtualAccount(agentGroupId: string): Promise<VirtualAccount | undefined>;
  /** Every payment of an order (a handful per invoice). */
  orderPayments(orderId: string): Promise<GatewayPayment[]>;
  /** The payments into a virtual account created at or after `since`. */
  virtualAccountPayments(virtualAccountId: string, since: Date): Promise<GatewayPayment[]>;
  /**
   * The account's payments created at or after `since`, whatever their order or state. Reconciliation reads those still
   * `authorized` (the capture window is 3 days), to see one on the order of an invoice already settled when its webhook was lost.
   */
  paymentsSince(since: Date): Promise<GatewayPayment[]>;
  /** Every refund of one payment. */
  paymentRefunds(paymentId: string): Promise<GatewayRefund[]>;
  /** The account's refunds created at or after `since` (whatever payment they refund). */
  refundsSince(since: Date): Promise<GatewayRefund[]>;
  /** The account's disputes created at or after `since` (whatever payment they dispute), as they stand now. */
  disputesSince(since: Date): Promise<GatewayDispute[]>;
  /** One dispute as it stands now. */
  dispute(disputeId: string): Promise<GatewayDispute>;
  /**
   * Captures an authorized payment for its whole amount (razorpay.com/docs/api/payments/capture): the captured payment.
   * The gateway refunds an authorized payment not captured within its window (3 days) by itself.
   */
  capturePayment(paymentId: string, amount: Minor, currency: string): Promise<GatewayPayment>;
  /** The bank's reference (UTR) of a bank transfer's payment; null when the gateway has none for it. */
  transferReference(paymentId: string): Promise<string | null>;
  /** Creates (or, for a reference already used, returns) a payment link; GatewayRejectedError AMOUNT_MISMATCH when that one is for another amount. */
  createPaymentLink(request: PaymentLinkRequest): Promise<PaymentLink>;
  /** Cancels a link still payable and answers it; a link already paid, cancelled or expired is answered as it stands. */
  cancelPaymentLink(linkId: string): Promise<PaymentLink>;
  /** One link as it stands now. */
  paymentLink(linkId: string): Promise<PaymentLink>;
}

/** What a verified notification says. */
export type GatewayNotice =
  | { readonly kind: 'payment'; readonly event: string; readonly eventId: string | null; readonly payment: GatewayPayment }
  /** A dispute event: the dispute and the disputed payment, as the event carries them. */
  | { readonly kind: 'dispute'; readonly event: string; readonly eventId: string | null; readonly dispute: GatewayDispute; readonly payment: GatewayPayment }
  /** A refund event: the refund and the payment it refunds, as the event carries them. */
  | { readonly kind: 'refund'; readonly event: string; readonly eventId: string | null; readonly refund: GatewayRefund; readonly payment: GatewayPayment }
  /** `payment_link.paid`: a pay link's payment, on the order the gateway opened for it (unknown to us until then). */
  | { readonly kind: 'link-paid'; readonly event: string; readonly eventId: string | null; readonly payment: GatewayPayment; readonly linkId: string }
  /** `payment_link.expired` / `payment_link.cancelled`: the link takes no more payments. */
  | { readonly kind: 'link-ended'; readonly event: string; readonly eventId: string | null; readonly linkId: string }
  /** `payment.authorized` of an order: not money yet; captured by reconciliation while its invoice owes it, alerted otherwise. */
  | { readonly kind: 'authorized'; readonly event: string; readonly eventId: string | null; readonly payment: GatewayPayment }
  /** An event we do not act on (or a payment not captured): answered 200 so the gateway stops sending it. */
  | { readonly kind: 'ignored'; readonly event: string; readonly eventId: string | null };

/**
 * Reading the gateway's notifications: verifies the signature over the raw body (throws
 * NotificationSignatureError) before reading anything in it, then the body (throws
 * ValidationError naming the field).
 */
export interface PaymentNotifications {
  /** The header the gateway signs its notifications in. */
  readonly signatureHeader: string;
  /** The header carrying the gateway's id of the event (the same on every redelivery). */
  readonly eventIdHeader: string;
  readNotification(rawBody: string, signature: string | undefined, eventId: string | undefined): GatewayNotice;
}
