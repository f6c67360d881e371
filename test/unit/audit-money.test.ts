import { describe, expect, it } from 'vitest';
import { auditDetails } from '../../bin/admin/audit-commands.ts';
import { groupFigures, keyFigures } from '../../domain/admin.ts';
import type { ApiKeyRecord } from '../../domain/api-key.ts';
import type { AuditFields } from '../../domain/audit/audit-event.ts';
import { AUDIT_MONEY_FIELDS } from '../../domain/audit/audit-money.ts';
import type { Amendment } from '../../domain/bookings/amendment.ts';
import type { Booking } from '../../domain/bookings/booking.ts';
import { amendmentAudit, bookingFigures } from '../../domain/bookings/booking-audit.ts';
import { creditNoteFigures, owedFigures, paymentAudit, refundAudit } from '../../domain/invoicing/invoice-audit.ts';
import type { Payment, PaymentRefund } from '../../domain/receivables/payment.ts';
import type { AgentGroup } from '../../domain/tenants.ts';
import { operatorOrigin } from '../../domain/audit/audit-event.ts';

/** Number fields of events that are not money: counts, days, percentages, rates. */
const NOT_MONEY = new Set([
  'billingAnchorDay',
  'paymentTermsDays',
  'overdueHoldDays',
  'ratePerMinute',
  'rateBurst',
  'refundPercentage',
  'linesWritten',
  'draftsLeft',
]);

const origin = operatorOrigin('olga', 'req-1');
const deps = { ids: { uuid: () => 'id-1' }, clock: { now: () => new Date('2026-11-28T06:00:00Z') } } as never;
const group = {
  agentGroupId: 'g1',
  partnerId: 'p1',
  name: 'Acme',
  channelId: 'c1',
  creditLimit: 5_00_000_00,
  onHold: false,
  billingCycle: 'MONTHLY',
  billingAnchorDay: 1,
  paymentTermsDays: 15,
  overdueHoldDays: 30,
  gstin: null,
  legalName: 'Acme Pvt Ltd',
  address: { line1: '1 Road', city: 'Mumbai', state: 'Maharashtra', postalCode: '400001', country: 'IN' },
} as unknown as AgentGroup;
const booking = {
  status: 'CANCELLED',
  bookingId: 'SIM-1',
  externalBookingId: 'x-1',
  listingId: 'l1',
  checkIn: '2027-03-01',
  checkOut: '2027-03-02',
  chargedTotal: 12_345_00,
  ledgerEntryId: 'e1',
  cancellation: { refundAmount: 6_000_00, refundPercentage: 50 },
} as unknown as Booking;
const amendment = {
  amendmentId: 'a1',
  bookingRef: 'r1',
  agentGroupId: 'g1',
  createdAt: '2026-11-28T06:00:00Z',
  before: { checkIn: '2027-03-01', checkOut: '2027-03-02' },
  after: { checkIn: '2027-03-01', checkOut: '2027-03-03' },
  money: { previousTotal: 10_000_00, newTotal: 20_000_00, delta: 10_000_00 },
} as unknown as Amendment;

/** Every figure set the trail writes, as its events carry it. */
const written: AuditFields[] = [
  groupFigures(group),
  keyFigures({
    keyId: 'k',
    keyPrefix: 'pk',
    owner: { kind: 'partner', id: 'p1' },
    status: 'ACTIVE',
    label: null,
    rateLimit: { perMinute: 60, burst: 10 },
  } as unknown as ApiKeyRecord),
  bookingFigures(booking),
  amendmentAudit(origin, 'id', amendment).after!,
  owedFigures({ amountPaid: 100, creditedAmount: 200 }),
  creditNoteFigures('raised', { id: 'n', invoiceNumber: 'CN-1', total: 100 }),
  creditNoteFigures('voided', { id: 'n', invoiceNumber: 'CN-1', total: 100 }),
  paymentAudit(deps, origin, { amount: 1500_50, recordedAt: 'x', ledgerEntryId: 'e' } as Payment).after!,
  refundAudit(deps, origin, { amount: 100, recordedAt: 'x', ledgerEntryId: 'e' } as PaymentRefund).after!,
  { status: 'DRAFT', total: 100 },
  { invoiceNumber: 'INV-1', reminder: 'due-soon', amountDue: 100 },
];

describe('Audit money fields', () => {
  it('every number field an event carries is money or a count, named once', () => {
    const numbers = written.flatMap((f) =>
      Object.entries(f)
        .filter(([, v]) => typeof v === 'number')
        .map(([k]) => k),
    );
    expect(numbers.filter((k) => !AUDIT_MONEY_FIELDS.has(k) && !NOT_MONEY.has(k))).toEqual([]);
    expect([...NOT_MONEY].filter((k) => AUDIT_MONEY_FIELDS.has(k))).toEqual([]);
  });
});

describe('Function: auditDetails', () => {
  it('lists only what moved in a change, money in rupees with Indian grouping', () => {
    const before = groupFigures(group);
    const after = groupFigures({ ...group, creditLimit: 12_50_000_00, onHold: true });

    expect(auditDetails({ before, after })).toBe('creditLimit: ₹5,00,000.00 → ₹12,50,000.00, onHold: false → true');
  });

  it("prints a new record's fields, counts as numbers and nulls as a dash", () => {
    expect(auditDetails({ before: null, after: { amount: 1500_50, reference: 'UTR1', invoiceId: null, linesWritten: 3 } })).toBe(
      'amount: ₹1,500.50, reference: UTR1, invoiceId: -, linesWritten: 3',
    );
    expect(auditDetails({ before: { delta: -2_50_000_00 }, after: null })).toBe('delta: -₹2,50,000.00');
    expect(auditDetails({ before: null, after: { command: 'groups update', options: ['--credit-limit=5,00,000', '--as=olga'] } })).toBe(
      'command: groups update, options: [--credit-limit=5,00,000, --as=olga]',
    );
  });
});
