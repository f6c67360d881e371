import { describe, expect, it } from 'vitest';
import { payableOrderOf } from '../../domain/invoicing/invoice.ts';
import { GatewayRejectedError, type GatewayOrderRequest, type GatewayPayment } from '../../domain/ports/payment-gateway.ts';
import type { Invoice } from '../../domain/invoicing/invoice.ts';
import type { OpenOrder } from '../../domain/ports/receivables-store.ts';
import { authorizedNotOwed, orderForAmountDue, orderReceipt } from '../../domain/receivables/gateway-orders.ts';

const INVOICE = '0b6f3c1e-6a2b-4c7d-9e8f-1a2b3c4d5e6f';

/** Razorpay's orders by receipt, as its Fetch All Orders finds them: a receipt already used answers its order (for its amount). */
function gatewayOf(existing: Record<string, number> = {}) {
  const byReceipt = new Map(Object.entries(existing).map(([r, amount], i) => [r, { orderId: `order_Existing${i}`, amount }]));
  const asked: GatewayOrderRequest[] = [];
  return {
    asked,
    async createOrder(request: GatewayOrderRequest) {
      asked.push(request);
      const found = byReceipt.get(request.receipt);
      if (found && found.amount !== request.amount) throw new GatewayRejectedError('AMOUNT_MISMATCH', `receipt ${request.receipt} is for ${found.amount}`, 200);
      const order = found ?? { orderId: `order_New${byReceipt.size}`, amount: request.amount };
      byReceipt.set(request.receipt, order);
      return { orderId: order.orderId, receipt: request.receipt, amount: order.amount };
    },
  };
}

function storeOf(current: { orderId: string }) {
  const writes: { orderId: string; amount: number; seq: number; replaces: string }[] = [];
  return {
    writes,
    async replaceGatewayOrder(_g: string, _i: string, order: { orderId: string; amount: number; seq: number }, replaces: string) {
      if (replaces !== current.orderId) return false;
      writes.push({ ...order, replaces });
      current.orderId = order.orderId;
      return true;
    },
  };
}

const clock = { now: () => new Date('2027-04-01T06:00:00Z') };
const open = (o: Partial<OpenOrder> = {}): OpenOrder => ({
  invoiceId: INVOICE,
  invoiceNumber: 'MH/2027-28/000042',
  gatewayOrderId: 'order_First000000001',
  orderAmount: 10_500_00,
  orderSeq: 1,
  earlierOrderIds: [],
  amountDue: 10_500_00,
  ...o,
});

describe('orders for what is owed', () => {
  it('offers the current order only while it is for exactly the amount due', () => {
    const base = { total: 10_500_00, gatewayOrderId: 'order_First000000001' as string | null };
    expect(payableOrderOf(base)).toBe('order_First000000001');
    expect(payableOrderOf({ ...base, amountPaid: 4_000_00 })).toBeNull();
    expect(payableOrderOf({ ...base, creditedAmount: 2_000_00 })).toBeNull();
    expect(payableOrderOf({ ...base, amountPaid: 4_000_00, gatewayOrderId: 'order_Second00000002', gatewayOrderAmount: 6_500_00 })).toBe(
      'order_Second00000002',
    );
    expect(payableOrderOf({ ...base, amountPaid: 10_500_00 })).toBeNull();
    expect(payableOrderOf({ ...base, gatewayOrderId: null })).toBeNull();
  });

  it('numbers receipts after the invoice id within Razorpay’s 40 characters', () => {
    expect(orderReceipt(INVOICE, 1)).toBe(INVOICE);
    expect(orderReceipt(INVOICE, 2)).toBe(`${INVOICE}/2`);
    expect(orderReceipt(INVOICE, 999).length).toBeLessThanOrEqual(40);
  });

  it('replaces an order for more than is owed (a credit note, a transfer) with one for the amount due, once', async () => {
    const gateway = gatewayOf();
    const current = { orderId: 'order_First000000001' };
    const store = storeOf(current);
    const made = await orderForAmountDue({ gateway, receivables: store, clock }, 'g1', open({ amountDue: 8_500_00 }), false);
    expect(made).toEqual({ orderId: 'order_New0', amount: 8_500_00, seq: 2 });
    expect(gateway.asked).toEqual([
      expect.objectContaining({
        receipt: `${INVOICE}/2`,
        amount: 8_500_00,
        currency: 'INR',
        notes: expect.objectContaining({ replaces: 'order_First000000001' }),
      }),
    ]);
    expect(store.writes).toEqual([{ orderId: 'order_New0', amount: 8_500_00, seq: 2, replaces: 'order_First000000001' }]);
    // The same figures again (the next run): nothing to do.
    expect(
      await orderForAmountDue(
        { gateway, receivables: store, clock },
        'g1',
        open({ gatewayOrderId: 'order_New0', orderAmount: 8_500_00, orderSeq: 2, amountDue: 8_500_00 }),
        false,
      ),
    ).toBeNull();
    expect(gateway.asked).toHaveLength(1);
  });

  it('leaves an unspent order for the amount due, and an amount below Razorpay’s ₹1 minimum, alone', async () => {
    const gateway = gatewayOf();
    const store = storeOf({ orderId: 'order_First000000001' });
    expect(await orderForAmountDue({ gateway, receivables: store, clock }, 'g1', open(), false)).toBeNull();
    expect(await orderForAmountDue({ gateway, receivables: store, clock }, 'g1', open({ amountDue: 99 }), false)).toBeNull();
    expect(gateway.asked).toEqual([]);
  });

  it('replaces a spent order (paid, then refunded) even for the same amount: Razorpay takes no more on a paid order', async () => {
    const gateway = gatewayOf();
    const store = storeOf({ orderId: 'order_First000000001' });
    expect(await orderForAmountDue({ gateway, receivables: store, clock }, 'g1', open(), true)).toMatchObject({ amount: 10_500_00, seq: 2 });
  });

  it('reuses the order an attempt with a lost answer made for the same amount, and passes one made for another amount', async () => {
    const same = gatewayOf({ [`${INVOICE}/2`]: 6_500_00 });
    expect(
      await orderForAmountDue({ gateway: same, receivables: storeOf({ orderId: 'order_First000000001' }), clock }, 'g1', open({ amountDue: 6_500_00 }), false),
    ).toEqual({
      orderId: 'order_Existing0',
      amount: 6_500_00,
      seq: 2,
    });
    const other = gatewayOf({ [`${INVOICE}/2`]: 7_000_00 });
    expect(
      await orderForAmountDue({ gateway: other, receivables: storeOf({ orderId: 'order_First000000001' }), clock }, 'g1', open({ amountDue: 6_500_00 }), false),
    ).toMatchObject({
      amount: 6_500_00,
      seq: 3,
    });
  });

  it('writes nothing when another run replaced the order first', async () => {
    const store = storeOf({ orderId: 'order_ByTheOtherRun1' });
    expect(await orderForAmountDue({ gateway: gatewayOf(), receivables: store, clock }, 'g1', open({ amountDue: 6_500_00 }), false)).toBeNull();
    expect(store.writes).toEqual([]);
  });

  it('says when an authorized payment is for more than its invoice owes (settled, or a replaced order), so it is alerted, not captured', async () => {
    const invoices = new Map<string, Partial<Invoice>>();
    const deps = {
      receivables: { gatewayOrder: async (orderId: string) => (orderId === 'order_Ours0000000001' ? { agentGroupId: 'g1', invoiceId: INVOICE } : undefined) },
      invoices: { get: async (_g: string, id: string) => invoices.get(id) as Invoice | undefined },
    };
    const authorized = (amount: number, orderId: string | null = 'order_Ours0000000001'): GatewayPayment => ({
      paymentId: 'pay_Authorized00001',
      orderId,
      virtualAccountId: null,
      amount,
      currency: 'INR',
      status: 'authorized',
      amountRefunded: 0,
      createdAt: '2027-04-01T06:00:00.000Z',
      bankReference: null,
    });
    invoices.set(INVOICE, { id: INVOICE, status: 'ISSUED', total: 10_500_00, amountPaid: 4_000_00 });
    expect(await authorizedNotOwed(deps, authorized(6_500_00))).toBeNull();
    expect(await authorizedNotOwed(deps, authorized(10_500_00))).toEqual({ agentGroupId: 'g1', invoiceId: INVOICE, amountDue: 6_500_00 });
    invoices.set(INVOICE, { id: INVOICE, status: 'PAID', total: 10_500_00, amountPaid: 10_500_00 });
    expect(await authorizedNotOwed(deps, authorized(100_00))).toEqual({ agentGroupId: 'g1', invoiceId: INVOICE, amountDue: 0 });
    expect(await authorizedNotOwed(deps, authorized(100_00, 'order_NotOurs000001'))).toBeNull();
  });
});
