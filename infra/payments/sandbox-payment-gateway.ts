import { createHash } from 'node:crypto';
import type { GatewayOrder, GatewayOrderRequest, PaymentGateway } from '../../domain/ports/payment-gateway.ts';

/**
 * The payment gateway of local and sandbox stages (DESIGN.md: a sandbox adapter the project
 * owns, behind the same port as a real one). Like a real gateway asked with an idempotent
 * receipt, it answers the same order for the same receipt: the order id is derived from it,
 * so a retried issue never opens a second order for one invoice.
 */
export class SandboxPaymentGateway implements PaymentGateway {
  async createOrder(request: GatewayOrderRequest): Promise<GatewayOrder> {
    if (!Number.isSafeInteger(request.amount) || request.amount <= 0) throw new RangeError(`a gateway order needs a positive amount of paise, got ${request.amount}`);
    const id = createHash('sha256').update(`sandbox-order:${request.receipt}`).digest('base64url').slice(0, 14);
    return { orderId: `order_sbx_${id}`, receipt: request.receipt, amount: request.amount };
  }
}
