import { amountDueOf } from '../invoicing/invoice.ts';
import type { Clock } from '../ports/clock.ts';
import type { InvoiceStore } from '../ports/invoice-store.ts';
import { GatewayRejectedError, type GatewayPayment, type PaymentGateway } from '../ports/payment-gateway.ts';
import type { OpenOrder, ReceivablesStore } from '../ports/receivables-store.ts';

/** Razorpay's smallest order (razorpay.com/docs/api/orders/create, `amount`: at least ₹1): less than that is paid by transfer. */
export const MIN_ORDER_AMOUNT = 100;

/** How many receipts past the stored one a replacement tries when an earlier attempt's order (its answer lost) is for another amount. */
const RECEIPT_TRIES = 3;

/**
 * The receipt of an invoice's n-th order: the invoice id for the first (as it always was), then `<invoice id>/<n>`. Razorpay
 * finds an order by receipt (razorpay.com/docs/api/orders/fetch-all), so a retry after a lost answer reuses the order it made;
 * 36 characters of id, `/` and up to three digits stay within the receipt's 40.
 */
export const orderReceipt = (invoiceId: string, seq: number): string => (seq === 1 ? invoiceId : `${invoiceId}/${seq}`);

export interface GatewayOrderDeps {
  readonly gateway: Pick<PaymentGateway, 'createOrder'>;
  readonly receivables: Pick<ReceivablesStore, 'replaceGatewayOrder'>;
  readonly clock: Clock;
}

/**
 * An order for what is owed now. A Razorpay order is immutable and cannot be cancelled, and without `partial_payment`
 * checkout collects exactly its amount (razorpay.com/docs/api/orders/create, Request Parameters); so when a transfer, a
 * payment on another order, a credit note or a refund changed the invoice's amount due, a fresh order for that amount
 * replaces the current one (docs/decisions/receivables.md, "Orders for what is owed"). So does a `spent` order (one a payment
 * was captured on: it is `paid` and takes no more, even once refunded — razorpay.com/docs/payments/payment-gateway/web-integration/standard/build-integration,
 * order states) when a refund or lost dispute made the same amount due again. Nothing to do (null) when the order is
 * already for the amount due and unspent, or the amount due is below Razorpay's smallest order. The invoice offers no order until then
 * (payableOrderOf). Throws the gateway's errors; callers report them and the next run tries again.
 */
export async function orderForAmountDue(
  deps: GatewayOrderDeps,
  agentGroupId: string,
  open: OpenOrder,
  spent: boolean,
): Promise<{ readonly orderId: string; readonly amount: number; readonly seq: number } | null> {
  if ((open.amountDue === open.orderAmount && !spent) || open.amountDue < MIN_ORDER_AMOUNT) return null;
  for (let seq = open.orderSeq + 1; seq <= open.orderSeq + RECEIPT_TRIES; seq++) {
    try {
      const order = await deps.gateway.createOrder({
        receipt: orderReceipt(open.invoiceId, seq),
        amount: open.amountDue,
        currency: 'INR',
        description: `Amount due on invoice ${open.invoiceNumber}`,
        notes: { invoice_id: open.invoiceId, agent_group_id: agentGroupId, invoice_number: open.invoiceNumber, replaces: open.gatewayOrderId },
      });
      const made = { orderId: order.orderId, amount: open.amountDue, seq };
      // A concurrent run that replaced it first wins; this order stays unmapped and unshown (nobody can be sent to it).
      return (await deps.receivables.replaceGatewayOrder(agentGroupId, open.invoiceId, made, open.gatewayOrderId, deps.clock.now().toISOString()))
        ? made
        : null;
    } catch (err) {
      // An order made under this receipt by an attempt whose answer was lost, for an amount due since changed: the next receipt.
      if (err instanceof GatewayRejectedError && err.code === 'AMOUNT_MISMATCH') continue;
      throw err;
    }
  }
  throw new Error(`invoice ${open.invoiceId}: receipts ${open.orderSeq + 1}..${open.orderSeq + RECEIPT_TRIES} all hold orders for other amounts`);
}

/**
 * An authorized payment of one of our orders, announced by `payment.authorized`: when its invoice owes less than the payment
 * (settled, or the order replaced by one for less), what it owes, for an alert — capturing it would take money not owed, and
 * Razorpay refunds a payment left uncaptured 3 days after it was made (razorpay.com/docs/payments/payments/capture-settings).
 * Null when the invoice still owes it (the hourly reconciliation captures it) or the order is not ours (nothing to say).
 */
export async function authorizedNotOwed(
  deps: { readonly receivables: Pick<ReceivablesStore, 'gatewayOrder'>; readonly invoices: Pick<InvoiceStore, 'get'> },
  payment: GatewayPayment,
): Promise<{ readonly agentGroupId: string; readonly invoiceId: string; readonly amountDue: number } | null> {
  const ref = payment.orderId ? await deps.receivables.gatewayOrder(payment.orderId) : undefined;
  if (!ref) return null;
  const invoice = await deps.invoices.get(ref.agentGroupId, ref.invoiceId);
  const amountDue = invoice && invoice.status === 'ISSUED' ? amountDueOf(invoice) : 0;
  return payment.amount > amountDue ? { agentGroupId: ref.agentGroupId, invoiceId: ref.invoiceId, amountDue } : null;
}
