import { TEST_OPERATOR, testOrigin } from '../support/audit-origin.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { amountDueOf } from '../../domain/invoicing/invoice.ts';
import { billingRequestOf } from '../../domain/invoicing/request-billing-run.ts';
import { runBilling } from '../../domain/invoicing/run-billing.ts';
import { recordBankTransfer } from '../../domain/receivables/record-payment.ts';
import { billingDeps, paymentDeps } from '../../infra/container.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { bookStay, seedInvoiceWorld } from '../support/invoice-world.ts';
import { newAgentGroup, testServices, type GroupFixture } from '../support/stack.ts';

const svc = () => testServices();
const payDeps = () => paymentDeps(svc());

let g: GroupFixture;
let invoiceIds: string[];
beforeAll(async () => {
  const world = await seedInvoiceWorld();
  g = await newAgentGroup({ channelId: world.channelId, paymentTermsDays: 15 });
  const group = (await svc().tenants.getAgentGroup(g.agentGroupId))!;
  const deps = billingDeps(svc(), new PdfInvoiceRenderer());
  invoiceIds = [];
  // Three invoices, one booking each (5,250 a night): 10,500, 5,250, 5,250.
  for (const [checkIn, checkOut] of [
    ['2027-03-01', '2027-03-03'],
    ['2027-03-06', '2027-03-07'],
    ['2027-03-01', '2027-03-02'],
  ] as const) {
    const bookingId = await bookStay(g, world.registered, checkIn, checkOut);
    const result = await runBilling(deps, group, billingRequestOf({ bookingIds: [bookingId] }, group, new Date(), 'ADMIN'), testOrigin());
    invoiceIds.push(...result.invoiceIds);
  }
  expect(invoiceIds).toHaveLength(3);
}, 180_000);

describe('payments racing each other', () => {
  it('allocates 12 different payments and 8 duplicates racing, exactly: every paisa once, no invoice over-paid', async () => {
    const amounts = [1_234_56, 2_000_00, 99, 3_500_00, 1_00, 4_321_00, 2_500_00, 50_00, 1_750_00, 3_000_00, 1_200_00, 2_222_22];
    const received = amounts.reduce((s, a) => s + a, 0);
    const results = await Promise.all([
      ...amounts.map((amount, i) =>
        recordBankTransfer(payDeps(), { agentGroupId: g.agentGroupId, reference: `RACE-${g.agentGroupId}-${i}`, amount }, TEST_OPERATOR),
      ),
      ...Array.from({ length: 8 }, () =>
        recordBankTransfer(payDeps(), { agentGroupId: g.agentGroupId, reference: `RACE-${g.agentGroupId}-0`, amount: amounts[0]! }, TEST_OPERATOR),
      ),
    ]);
    expect(results.filter((r) => r.recorded)).toHaveLength(amounts.length);

    const invoices = await Promise.all(invoiceIds.map((id) => svc().invoices.get(g.agentGroupId, id)));
    const totals = invoices.map((i) => i!.total);
    const paid = invoices.map((i) => i!.amountPaid ?? 0);
    const unallocated = await svc().receivables.unallocatedCredit(g.agentGroupId);
    expect(paid.reduce((s, p) => s + p, 0) + unallocated).toBe(received);
    for (const i of invoices) {
      expect(amountDueOf(i!)).toBeGreaterThanOrEqual(0);
      expect(i!.status).toBe(amountDueOf(i!) === 0 ? 'PAID' : 'ISSUED');
    }
    // 22,277.77 received against 21,000 owed: everything PAID and 1,277.77 kept for the next invoice.
    expect(totals.reduce((s, t) => s + t, 0)).toBe(21_000_00);
    expect(unallocated).toBe(received - 21_000_00);

    const audit = await svc().ledger.audit(g.agentGroupId);
    const paymentsInLedger = audit.entries.filter((e) => e.type === 'PAYMENT');
    expect(paymentsInLedger).toHaveLength(amounts.length);
    expect(paymentsInLedger.reduce((s, e) => s + e.amount, 0)).toBe(-received);
    expect(audit.exposureCounter).toBe(audit.entries.reduce((s, e) => (e.status === 'RELEASED' ? s : s + e.amount), 0));
  }, 120_000);
});
