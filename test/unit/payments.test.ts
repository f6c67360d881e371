import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NotificationSignatureError, ValidationError } from '../../domain/errors.ts';
import { allocate, bookingSpansOf, paidOfSpan, type OpenInvoice } from '../../domain/receivables/allocation.ts';
import { overdueHold } from '../../domain/receivables/credit-control.ts';
import { paymentEntryId } from '../../domain/receivables/payment.ts';
import { SandboxPaymentGateway } from '../../infra/payments/sandbox-payment-gateway.ts';

const inv = (id: string, dueDate: string, amountDue: number, issueDate = '2027-01-01', invoiceNumber = id): OpenInvoice => ({ id, dueDate, issueDate, invoiceNumber, amountDue });

describe('allocate', () => {
  it('pays the oldest due date first, each up to what it owes, and keeps the rest unallocated', () => {
    const open = [inv('b', '2027-02-10', 300), inv('a', '2027-02-01', 500), inv('c', '2027-03-01', 200)];
    expect(allocate(700, open)).toEqual({ allocations: [{ invoiceId: 'a', amount: 500 }, { invoiceId: 'b', amount: 200 }], unallocated: 0 });
    expect(allocate(1_100, open)).toEqual({ allocations: [{ invoiceId: 'a', amount: 500 }, { invoiceId: 'b', amount: 300 }, { invoiceId: 'c', amount: 200 }], unallocated: 100 });
  });

  it("pays the paid order's invoice first, then the rest oldest first", () => {
    const open = [inv('a', '2027-02-01', 500), inv('b', '2027-02-10', 300)];
    expect(allocate(400, open, 'b')).toEqual({ allocations: [{ invoiceId: 'b', amount: 300 }, { invoiceId: 'a', amount: 100 }], unallocated: 0 });
  });

  it('breaks due-date ties by issue date, then number', () => {
    const open = [inv('x', '2027-02-01', 100, '2027-01-02', 'N/2'), inv('y', '2027-02-01', 100, '2027-01-02', 'N/1'), inv('z', '2027-02-01', 100, '2027-01-01', 'N/9')];
    expect(allocate(300, open).allocations.map((a) => a.invoiceId)).toEqual(['z', 'y', 'x']);
  });

  it('never allocates more than is owed or than was received, and loses no paisa', () => {
    fc.assert(
      fc.property(fc.nat(10_000_000), fc.array(fc.record({ due: fc.integer({ min: 1, max: 28 }), amount: fc.integer({ min: 1, max: 5_000_000 }) }), { maxLength: 30 }), (credit, rows) => {
        const open = rows.map((r, i) => inv(`i${i}`, `2027-02-${String(r.due).padStart(2, '0')}`, r.amount));
        const { allocations, unallocated } = allocate(credit, open);
        const owed = open.reduce((s, o) => s + o.amountDue, 0);
        expect(allocations.reduce((s, a) => s + a.amount, 0) + unallocated).toBe(credit);
        expect(unallocated).toBe(Math.max(0, credit - owed));
        for (const a of allocations) expect(a.amount).toBeLessThanOrEqual(open.find((o) => o.id === a.invoiceId)!.amountDue);
        // Oldest first: an invoice is touched only when every earlier-due one is fully paid.
        const paidFully = new Set(allocations.filter((a) => a.amount === open.find((o) => o.id === a.invoiceId)!.amountDue).map((a) => a.invoiceId));
        allocations.slice(0, -1).forEach((a) => expect(paidFully.has(a.invoiceId)).toBe(true));
      }),
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
    expect(new Set([id, paymentEntryId('g2', 'GATEWAY', 'pay_1'), paymentEntryId('g1', 'BANK_TRANSFER', 'pay_1'), paymentEntryId('g1', 'GATEWAY', 'pay_2')]).size).toBe(4);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('SandboxPaymentGateway notifications', () => {
  const secret = Buffer.alloc(32, 1);
  const gw = new SandboxPaymentGateway(secret);
  const at = new Date('2027-03-12T05:00:00.000Z');

  it('signs the raw body with HMAC-SHA256 under the webhook secret and reads back what it sent', () => {
    const n = gw.capture('order_sbx_1', 12_345, at, 'pay_1');
    expect(n.signature).toBe(createHmac('sha256', secret).update(n.body).digest('hex'));
    expect(gw.readNotification(n.body, n.signature)).toEqual({ paymentId: 'pay_1', orderId: 'order_sbx_1', amount: 12_345, capturedAt: at.toISOString() });
    expect(gw.readNotification(n.body, n.signature.toUpperCase()).paymentId).toBe('pay_1');
  });

  it('refuses a missing, short, foreign or tampered signature before reading the body', () => {
    const n = gw.capture('order_sbx_1', 12_345, at, 'pay_1');
    for (const sig of [undefined, '', 'abc', n.signature.slice(0, 62), new SandboxPaymentGateway(Buffer.alloc(32, 2)).capture('order_sbx_1', 12_345, at, 'pay_1').signature]) {
      expect(() => gw.readNotification(n.body, sig)).toThrow(NotificationSignatureError);
    }
    expect(() => gw.readNotification(`${n.body} `, n.signature)).toThrow(NotificationSignatureError);
    expect(() => gw.readNotification('not json', n.signature)).toThrow(NotificationSignatureError);
  });

  it('names the field of a signed body that is not a captured payment', () => {
    const sign = (body: unknown) => {
      const raw = JSON.stringify(body);
      return [raw, createHmac('sha256', secret).update(raw).digest('hex')] as const;
    };
    const good = JSON.parse(gw.capture('order_sbx_1', 100, at, 'pay_1').body);
    const cases: [unknown, string][] = [
      [{ ...good, event: 'order.paid' }, 'event'],
      [{ event: good.event }, 'payment'],
      [{ ...good, payment: { ...good.payment, orderId: 'has space' } }, 'payment.orderId'],
      [{ ...good, payment: { ...good.payment, amount: -5 } }, 'payment.amount'],
      [{ ...good, payment: { ...good.payment, amount: '100' } }, 'payment.amount'],
      [{ ...good, payment: { ...good.payment, capturedAt: '2027-02-30T00:00:00Z' } }, 'payment.capturedAt'],
    ];
    for (const [body, param] of cases) {
      const [raw, sig] = sign(body);
      let caught: unknown;
      try {
        gw.readNotification(raw, sig);
      } catch (err) {
        caught = err;
      }
      expect(caught, JSON.stringify(body)).toBeInstanceOf(ValidationError);
      expect((caught as ValidationError).details.param).toBe(param);
    }
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
