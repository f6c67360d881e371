import type { Minor } from '../money.ts';

export interface GatewayOrderRequest {
  /** Our reference for the order (the invoice id): the gateway creates one order per receipt, however often asked. */
  readonly receipt: string;
  readonly amount: Minor;
  readonly currency: 'INR';
  readonly description: string;
}

export interface GatewayOrder {
  readonly orderId: string;
  readonly receipt: string;
  readonly amount: Minor;
}

/**
 * The payment gateway partners pay invoices through. An order is created when an invoice
 * is issued; payments against it arrive later as the gateway's notifications.
 */
export interface PaymentGateway {
  /** Creates (or, for a receipt already used, returns) the order for paying one invoice. */
  createOrder(request: GatewayOrderRequest): Promise<GatewayOrder>;
}

/** A captured payment as the gateway announced it, after its signature was verified. */
export interface GatewayPaymentNotice {
  /** The gateway's own payment id: one payment, however often it is announced. */
  readonly paymentId: string;
  readonly orderId: string;
  /** Positive paise captured. */
  readonly amount: Minor;
  readonly capturedAt: string;
}

/**
 * Reading the gateway's notifications: verifies the signature over the raw body (throws
 * NotificationSignatureError) before reading anything in it, then the body (throws
 * ValidationError naming the field).
 */
export interface PaymentNotifications {
  /** The header the gateway signs its notifications in. */
  readonly signatureHeader: string;
  readNotification(rawBody: string, signature: string | undefined): GatewayPaymentNotice;
}
