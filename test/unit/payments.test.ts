import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NotificationSignatureError, ValidationError } from '../../domain/errors.ts';
import { allocate, bookingSpansOf, paidOfSpan, type OpenInvoice } from '../../domain/receivables/allocation.ts';
import { overdueHold } from '../../domain/receivables/credit-control.ts';
import { paymentEntryId } from '../../domain/receivables/payment.ts';
import { SandboxPaymentGateway } from '../../infra/payments/sandbox-payment-gateway.ts';

const inv = (id: string, dueDate: string, amountDue: number, issueDate = '2027-01-01', invoiceNumber = id): OpenInvoice => ({
  id,
  dueDate,
  issueDate,
  invoiceNumber,
  amountDue,
});

/** Each body is refused by `read` with a ValidationError naming `param`. */
function expectRefused(read: (body: unknown) => unknown, cases: readonly (readonly [unknown, string])[]): void {
  for (const [body, param] of cases) {
    let caught: unknown;
    try {
      read(body);
    } catch (err) {
      caught = err;
    }
    expect(caught, JSON.stringify(body)).toBeInstanceOf(ValidationError);
    expect((caught as ValidationError).details.param).toBe(param);
  }
}

describe('allocate', () => {
  it('pays the oldest due date first, each up to what it owes, and keeps the rest unallocated', () => {
    const open = [inv('b', '2027-02-10', 300), inv('a', '2027-02-01', 500), inv('c', '2027-03-01', 200)];
    expect(allocate(700, open)).toEqual({
      allocations: [
        { invoiceId: 'a', amount: 500 },
        { invoiceId: 'b', amount: 200 },
      ],
      unallocated: 0,
    });
    expect(allocate(1_100, open)).toEqual({
      allocations: [
        { invoiceId: 'a', amount: 500 },
        { invoiceId: 'b', amount: 300 },
        { invoiceId: 'c', amount: 200 },
      ],
      unallocated: 100,
    });
  });

  it("pays the paid order's invoice first, then the rest oldest first", () => {
    const open = [inv('a', '2027-02-01', 500), inv('b', '2027-02-10', 300)];
    expect(allocate(400, open, 'b')).toEqual({
      allocations: [
        { invoiceId: 'b', amount: 300 },
        { invoiceId: 'a', amount: 100 },
      ],
      unallocated: 0,
    });
  });

  it('breaks due-date ties by issue date, then number', () => {
    const open = [
      inv('x', '2027-02-01', 100, '2027-01-02', 'N/2'),
      inv('y', '2027-02-01', 100, '2027-01-02', 'N/1'),
      inv('z', '2027-02-01', 100, '2027-01-01', 'N/9'),
    ];
    expect(allocate(300, open).allocations.map((a) => a.invoiceId)).toEqual(['z', 'y', 'x']);
  });

  it('never allocates more than is owed or than was received, and loses no paisa', () => {
    fc.assert(
      fc.property(
        fc.nat(10_000_000),
        fc.array(fc.record({ due: fc.integer({ min: 1, max: 28 }), amount: fc.integer({ min: 1, max: 5_000_000 }) }), { maxLength: 30 }),
        (credit, rows) => {
          const open = rows.map((r, i) => inv(`i${i}`, `2027-02-${String(r.due).padStart(2, '0')}`, r.amount));
          const { allocations, unallocated } = allocate(credit, open);
          const owed = open.reduce((s, o) => s + o.amountDue, 0);
          expect(allocations.reduce((s, a) => s + a.amount, 0) + unallocated).toBe(credit);
          expect(unallocated).toBe(Math.max(0, credit - owed));
          for (const a of allocations) expect(a.amount).toBeLessThanOrEqual(open.find((o) => o.id === a.invoiceId)!.amountDue);
          // Oldest first: an invoice is touched only when every earlier-due one is fully paid.
          const paidFully = new Set(allocations.filter((a) => a.amount === open.find((o) => o.id === a.invoiceId)!.amountDue).map((a) => a.invoiceId));
          allocations.slice(0, -1).forEach((a) => expect(paidFully.has(a.invoiceId)).toBe(true));
        },
      ),
    );
  });
});

describe('bookingSpansOf, paidOfSpan', () => {
  it("pays an invoice's bookings in its line order, each up to its lines' total", () => {
    const spans = bookingSpansOf([
      { bookingRef: 'r1', lineTotal: 5_250_00 },
      { bookingRef: 'r1', lineTotal: 5_250_00 },
      { bookingRef: 'r2', lineTotal: 3_000_00 },
    ]);
    expect(spans).toEqual({ r1: [0, 10_500_00], r2: [10_500_00, 13_500_00] });
    expect([paidOfSpan(4_000_00, spans.r1!), paidOfSpan(4_000_00, spans.r2!)]).toEqual([4_000_00, 0]);
    expect([paidOfSpan(12_000_00, spans.r1!), paidOfSpan(12_000_00, spans.r2!)]).toEqual([10_500_00, 1_500_00]);
    expect([paidOfSpan(13_500_00, spans.r1!), paidOfSpan(13_500_00, spans.r2!)]).toEqual([10_500_00, 3_000_00]);
  });
});

describe('paymentEntryId', () => {
  it('is the same for every delivery of one payment, different across payments and groups, and UUID-shaped', () => {
    const id = paymentEntryId('g1', 'GATEWAY', 'pay_1');
    expect(paymentEntryId('g1', 'GATEWAY', 'pay_1')).toBe(id);
    expect(
      new Set([id, paymentEntryId('g2', 'GATEWAY', 'pay_1'), paymentEntryId('g1', 'BANK_TRANSFER', 'pay_1'), paymentEntryId('g1', 'GATEWAY', 'pay_2')]).size,
    ).toBe(4);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('Razorpay webhooks (sandbox and Razorpay alike)', () => {
  const secret = 'whsec-current-1234';
  const previous = 'whsec-previous-5678';
  const gw = new SandboxPaymentGateway([secret, previous]);
  const at = new Date('2027-03-12T05:00:00.000Z');
  const read = (n: { body: string; headers: Readonly<Record<string, string>> }, sig = n.headers['x-razorpay-signature']) =>
    gw.readNotification(n.body, sig, n.headers['x-razorpay-event-id']);

  it("signs Razorpay's envelope with HMAC-SHA256 of the raw body and reads back what it sent", () => {
    const n = gw.capture('order_AbCdEf123456', 12_345, at, 'pay_AbCdEf123456');
    expect(n.headers['x-razorpay-signature']).toBe(createHmac('sha256', secret).update(n.body).digest('hex'));
    expect(JSON.parse(n.body)).toMatchObject({
      entity: 'event',
      event: 'payment.captured',
      contains: ['payment'],
      payload: {
        payment: {
          entity: {
            id: 'pay_AbCdEf123456',
            order_id: 'order_AbCdEf123456',
            amount: 12_345,
            currency: 'INR',
            status: 'captured',
            created_at: at.getTime() / 1000,
          },
        },
      },
    });
    expect(read(n)).toEqual({
      kind: 'payment',
      event: 'payment.captured',
      eventId: n.headers['x-razorpay-event-id'],
      payment: {
        paymentId: 'pay_AbCdEf123456',
        orderId: 'order_AbCdEf123456',
        virtualAccountId: null,
        amount: 12_345,
        currency: 'INR',
        status: 'captured',
        amountRefunded: 0,
        createdAt: at.toISOString(),
        bankReference: null,
      },
    });
    const credited = read(gw.credit('va_AbCdEf123456', 50_000, 'UTR123456', at, 'pay_Transfer0001'));
    expect(credited).toMatchObject({
      kind: 'payment',
      event: 'virtual_account.credited',
      payment: { virtualAccountId: 'va_AbCdEf123456', orderId: null, bankReference: 'UTR123456' },
    });
  });

  it('accepts the previous webhook secret during a rotation and refuses a missing, short, foreign or tampered signature', () => {
    const n = gw.capture('order_AbCdEf123456', 12_345, at, 'pay_AbCdEf123456');
    expect(read(n, createHmac('sha256', previous).update(n.body).digest('hex')).kind).toBe('payment');
    const foreign = new SandboxPaymentGateway(['whsec-someone-else']).capture('order_AbCdEf123456', 12_345, at, 'pay_AbCdEf123456');
    for (const sig of [
      undefined,
      '',
      'abc',
      n.headers['x-razorpay-signature']!.slice(0, 62),
      n.headers['x-razorpay-signature']!.toUpperCase(),
      foreign.headers['x-razorpay-signature'],
    ]) {
      expect(() => gw.readNotification(n.body, sig, undefined)).toThrow(NotificationSignatureError);
    }
    expect(() => gw.readNotification(`${n.body} `, n.headers['x-razorpay-signature'], undefined)).toThrow(NotificationSignatureError);
    expect(() => new SandboxPaymentGateway([]).readNotification(n.body, n.headers['x-razorpay-signature'], undefined)).toThrow(NotificationSignatureError);
  });

  it('ignores events it does not use and payments not captured; names the field of a signed body that is not an event', () => {
    const sign = (body: unknown) => {
      const raw = typeof body === 'string' ? body : JSON.stringify(body);
      return gw.readNotification(raw, createHmac('sha256', secret).update(raw).digest('hex'), 'evt_1');
    };
    const good = JSON.parse(gw.capture('order_AbCdEf123456', 100, at, 'pay_AbCdEf123456').body);
    expect(sign({ ...good, event: 'settlement.processed' })).toEqual({ kind: 'ignored', event: 'settlement.processed', eventId: 'evt_1' });
    // A bank transfer's payment.captured (no order, method bank_transfer): its virtual_account.credited twin records it.
    expect(sign({ ...good, payload: { payment: { entity: { ...good.payload.payment.entity, order_id: null, method: 'bank_transfer' } } } }).kind).toBe(
      'ignored',
    );
    expect(sign({ ...good, payload: { payment: { entity: { ...good.payload.payment.entity, status: 'failed' } } } }).kind).toBe('ignored');
    // payment.authorized of an order: read (reconciliation captures it, or it is alerted); of no order, or not authorized, ignored.
    const authorizedEntity = { ...good.payload.payment.entity, status: 'authorized', captured: false };
    expect(sign({ ...good, event: 'payment.authorized', payload: { payment: { entity: authorizedEntity } } })).toMatchObject({
      kind: 'authorized',
      payment: { paymentId: 'pay_AbCdEf123456', orderId: 'order_AbCdEf123456', status: 'authorized', amount: 100 },
    });
    expect(sign({ ...good, event: 'payment.authorized', payload: { payment: { entity: { ...authorizedEntity, order_id: null } } } }).kind).toBe('ignored');
    expect(sign({ ...good, event: 'payment.authorized' }).kind).toBe('ignored');
    const entity = good.payload.payment.entity;
    const cases: [unknown, string][] = [
      ['{"event":', 'body'],
      ['[1]', 'body'],
      [{ ...good, event: 7 }, 'event'],
      [{ ...good, payload: null }, 'payload'],
      [{ ...good, payload: { payment: { entity: { ...entity, id: 'has space' } } } }, 'payload.payment.entity.id'],
      [{ ...good, payload: { payment: { entity: { ...entity, order_id: 'x' } } } }, 'payload.payment.entity.order_id'],
      [{ ...good, payload: { payment: { entity: { ...entity, amount: -5 } } } }, 'payload.payment.entity.amount'],
      [{ ...good, payload: { payment: { entity: { ...entity, amount: '100' } } } }, 'payload.payment.entity.amount'],
      [{ ...good, payload: { payment: { entity: { ...entity, currency: 'rupees' } } } }, 'payload.payment.entity.currency'],
      [{ ...good, payload: { payment: { entity: { ...entity, created_at: '2027-03-12' } } } }, 'payload.payment.entity.created_at'],
      [{ ...good, event: 'virtual_account.credited' }, 'payload.virtual_account.entity.id'],
    ];
    expectRefused(sign, cases);
  });
});

describe('Razorpay refund events', () => {
  const secret = 'whsec-current-1234';
  const gw = new SandboxPaymentGateway([secret]);
  // razorpay.com/docs/webhooks/refunds, "Sample Payloads" (Refund Processed): payload.refund.entity and payload.payment.entity.
  const sample = {
    entity: 'event',
    account_id: 'acc_E7OQJcEANmBHTC',
    event: 'refund.processed',
    contains: ['refund', 'payment'],
    payload: {
      refund: {
        entity: {
          id: 'rfnd_FS8TWyPrCsa0OB',
          entity: 'refund',
          amount: 50000,
          currency: 'INR',
          payment_id: 'pay_FPoJKWQQ8lK13n',
          notes: { comment: 'Customer Notes for Webhooks.' },
          receipt: null,
          acquirer_data: { arn: null },
          created_at: 1597734071,
          batch_id: null,
          status: 'processed',
          speed_processed: 'normal',
          speed_requested: 'optimum',
        },
      },
      payment: {
        entity: {
          id: 'pay_FPoJKWQQ8lK13n',
          entity: 'payment',
          amount: 500000,
          currency: 'INR',
          status: 'captured',
          order_id: 'order_FPoIeimWki9j8A',
          invoice_id: null,
          international: false,
          method: 'card',
          amount_refunded: 50000,
          refund_status: 'partial',
          captured: true,
          created_at: 1597226379,
        },
      },
    },
    created_at: 1597734071,
  };
  const read = (body: unknown) => {
    const raw = JSON.stringify(body);
    return gw.readNotification(raw, createHmac('sha256', secret).update(raw).digest('hex'), 'evt_1');
  };

  it("reads Razorpay's sample refund.processed: the refund and the payment it refunds", () => {
    expect(read(sample)).toEqual({
      kind: 'refund',
      event: 'refund.processed',
      eventId: 'evt_1',
      refund: {
        refundId: 'rfnd_FS8TWyPrCsa0OB',
        paymentId: 'pay_FPoJKWQQ8lK13n',
        amount: 50000,
        currency: 'INR',
        status: 'processed',
        createdAt: new Date(1597734071_000).toISOString(),
      },
      payment: expect.objectContaining({
        paymentId: 'pay_FPoJKWQQ8lK13n',
        orderId: 'order_FPoIeimWki9j8A',
        amount: 500000,
        amountRefunded: 50000,
        status: 'captured',
      }),
    });
    for (const event of ['refund.created', 'refund.failed']) expect(read({ ...sample, event }).kind).toBe('refund');
  });

  it('ignores an auto-refund (payment never captured); names the field of a malformed refund or a payment that is not the refunded one', () => {
    const payment = sample.payload.payment.entity;
    const refund = sample.payload.refund.entity;
    expect(read({ ...sample, payload: { ...sample.payload, payment: { entity: { ...payment, status: 'refunded', captured: false } } } }).kind).toBe('ignored');
    const cases: [unknown, string][] = [
      [{ ...sample, payload: { ...sample.payload, refund: { entity: { ...refund, id: 'pay_FS8TWyPrCsa0OB' } } } }, 'payload.refund.entity.id'],
      [{ ...sample, payload: { ...sample.payload, refund: { entity: { ...refund, payment_id: null } } } }, 'payload.refund.entity.payment_id'],
      [{ ...sample, payload: { ...sample.payload, refund: { entity: { ...refund, amount: 0 } } } }, 'payload.refund.entity.amount'],
      [{ ...sample, payload: { ...sample.payload, refund: { entity: { ...refund, status: '' } } } }, 'payload.refund.entity.status'],
      [{ ...sample, payload: { ...sample.payload, refund: undefined } }, 'payload.refund.entity'],
      [{ ...sample, payload: { ...sample.payload, payment: { entity: { ...payment, id: 'pay_SomeoneElse01' } } } }, 'payload.payment.entity.id'],
      [{ ...sample, payload: { ...sample.payload, payment: { entity: { ...payment, amount_refunded: 600000 } } } }, 'payload.payment.entity.amount_refunded'],
    ];
    expectRefused(read, cases);
  });
});

describe('Razorpay dispute events', () => {
  const secret = 'whsec-current-1234';
  const gw = new SandboxPaymentGateway([secret]);
  // razorpay.com/docs/api/disputes/entity (the sample entity, evidence left out), in the envelope of razorpay.com/docs/webhooks/disputes
  // (payload.payment.entity and payload.dispute.entity).
  const sample = {
    entity: 'event',
    account_id: 'acc_E7OQJcEANmBHTC',
    event: 'payment.dispute.created',
    contains: ['payment', 'dispute'],
    payload: {
      payment: {
        entity: {
          id: 'pay_EsyWjHrfzb59eR',
          entity: 'payment',
          amount: 10000,
          currency: 'INR',
          status: 'captured',
          order_id: 'order_EsyWgCX7P4jjVS',
          invoice_id: null,
          international: false,
          method: 'card',
          amount_refunded: 0,
          refund_status: null,
          captured: true,
          created_at: 1590059011,
        },
      },
      dispute: {
        entity: {
          id: 'disp_AHfqOvkldwsbqt',
          entity: 'dispute',
          payment_id: 'pay_EsyWjHrfzb59eR',
          amount: 10000,
          currency: 'INR',
          amount_deducted: 0,
          reason_code: 'chargeback',
          respond_by: 1590604200,
          status: 'open',
          phase: 'chargeback',
          created_at: 1590059211,
        },
      },
    },
    created_at: 1590059211,
  };
  const read = (body: unknown) => {
    const raw = JSON.stringify(body);
    return gw.readNotification(raw, createHmac('sha256', secret).update(raw).digest('hex'), 'evt_2');
  };

  it("reads the documented dispute entity under every dispute event: the dispute's own status is the state", () => {
    expect(read(sample)).toEqual({
      kind: 'dispute',
      event: 'payment.dispute.created',
      eventId: 'evt_2',
      dispute: {
        disputeId: 'disp_AHfqOvkldwsbqt',
        paymentId: 'pay_EsyWjHrfzb59eR',
        amount: 10000,
        amountDeducted: 0,
        currency: 'INR',
        status: 'open',
        phase: 'chargeback',
        reasonCode: 'chargeback',
        respondBy: new Date(1590604200_000).toISOString(),
        createdAt: new Date(1590059211_000).toISOString(),
      },
      payment: expect.objectContaining({ paymentId: 'pay_EsyWjHrfzb59eR', amount: 10000, status: 'captured' }),
    });
    for (const event of [
      'payment.dispute.won',
      'payment.dispute.lost',
      'payment.dispute.closed',
      'payment.dispute.under_review',
      'payment.dispute.action_required',
    ])
      expect(read({ ...sample, event }).kind).toBe('dispute');
  });

  it('names the field of a malformed dispute, an undocumented state, or a payment that is not the disputed one', () => {
    const dispute = sample.payload.dispute.entity;
    const cases: [unknown, string][] = [
      [{ ...sample, payload: { ...sample.payload, dispute: { entity: { ...dispute, id: 'rfnd_AHfqOvkldwsbqt' } } } }, 'payload.dispute.entity.id'],
      [{ ...sample, payload: { ...sample.payload, dispute: { entity: { ...dispute, status: 'accepted' } } } }, 'payload.dispute.entity.status'],
      [{ ...sample, payload: { ...sample.payload, dispute: { entity: { ...dispute, amount_deducted: 20000 } } } }, 'payload.dispute.entity.amount_deducted'],
      [{ ...sample, payload: { ...sample.payload, dispute: { entity: { ...dispute, respond_by: null } } } }, 'payload.dispute.entity.respond_by'],
      [{ ...sample, payload: { ...sample.payload, dispute: undefined } }, 'payload.dispute.entity'],
      [
        { ...sample, payload: { ...sample.payload, payment: { entity: { ...sample.payload.payment.entity, id: 'pay_SomeoneElse01' } } } },
        'payload.payment.entity.id',
      ],
    ];
    expectRefused(read, cases);
  });
});

describe('overdueHold', () => {
  const due = (dueDate: string, amountDue = 100) => ({ dueDate, amountDue });
  it('holds only while an invoice still owing is overdue by more than the group’s days', () => {
    const today = '2027-03-10';
    expect(overdueHold({ overdueHoldDays: 3 }, [due('2027-03-07')], today)).toBe(false);
    expect(overdueHold({ overdueHoldDays: 3 }, [due('2027-03-06')], today)).toBe(true);
    expect(overdueHold({ overdueHoldDays: 0 }, [due('2027-03-10')], today)).toBe(false);
    expect(overdueHold({ overdueHoldDays: 0 }, [due('2027-03-09')], today)).toBe(true);
    expect(overdueHold({ overdueHoldDays: 0 }, [due('2027-01-01', 0)], today)).toBe(false);
    expect(overdueHold({}, [due('2020-01-01')], today)).toBe(false);
    expect(overdueHold({ overdueHoldDays: null }, [due('2020-01-01')], today)).toBe(false);
  });
});
