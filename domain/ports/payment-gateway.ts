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
