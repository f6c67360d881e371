import { TEST_OPERATOR, testOrigin } from '../support/audit-origin.ts';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { ConflictError } from '../../domain/errors.ts';
import { financialYearOf } from '../../domain/invoicing/billing-period.ts';
import type { Invoice } from '../../domain/invoicing/invoice.ts';
import { raiseOperatorCreditNote } from '../../domain/invoicing/raise-credit-note.ts';
import { issueOperatorCreditNote } from '../../domain/invoicing/operator-credit-note.ts';
import { recordBankTransfer } from '../../domain/receivables/record-payment.ts';
import { runBilling } from '../../domain/invoicing/run-billing.ts';
import { paymentDeps } from '../../infra/container.ts';
import { parseConfig } from '../../infra/config.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { keys } from '../../infra/dynamo/keys.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { cancelStay } from '../support/booking-world.ts';
import { billGroup, deps, request, today } from '../support/billing-run-kit.ts';
import { newAgentGroup, stack, testServices, type GroupFixture } from '../support/stack.ts';

const sequenceOf = (number: string) => Number(number.slice(-6));

/** A group with one booking of `nights` nights, billed: its invoice. */
async function billedGroup(world: InvoiceWorld, checkIn: string, nights: number): Promise<{ g: GroupFixture; invoice: Invoice }> {
  const g = await newAgentGroup({ channelId: world.channelId });
  await bookStay(g, world.registered, checkIn, addDays(checkIn, nights));
  return { g, invoice: (await billGroup(g)).invoice };
}

let world: InvoiceWorld;
beforeAll(async () => {
  world = await seedInvoiceWorld();
}, 120_000);

describe('credit notes under concurrency (real DynamoDB Local)', () => {
  it('numbers 12 credit notes raised at once over 3 invoices gaplessly from their own series, beside the invoice series', async () => {
    const billed = await Promise.all([0, 1, 2].map(() => billedGroup(world, '2027-03-01', 4)));
    const jobs = await Promise.all(
      billed.map(async ({ g, invoice }) =>
        (await deps().invoices.lines(g.agentGroupId, invoice.id)).map(
          (l) => () => raiseOperatorCreditNote(deps(), g.agentGroupId, invoice.id, [{ lineId: l.id }], 'Concurrency test', TEST_OPERATOR),
        ),
      ),
    );
    expect(jobs.flat()).toHaveLength(12);
    const notes = await Promise.all(jobs.flat().map((job) => job()));
    const numbers = notes.map((n) => n.invoiceNumber!).sort();
    const fy = financialYearOf(today());
    for (const n of numbers) expect(n).toMatch(new RegExp(`^CN30/${fy.slice(2, 4)}${fy.slice(5, 7)}/\\d{6}$`));
    const sequences = numbers.map(sequenceOf);
    expect(new Set(sequences).size).toBe(12);
    expect(sequences.at(-1)! - sequences[0]!).toBe(11);
    const db = createDocumentClient(parseConfig(stack().env));
    const series = await db.send(
      new GetCommand({ TableName: stack().env.TABLE_NAME!, Key: keys.creditNoteSeries(world.supplierGstin, fy), ConsistentRead: true }),
    );
    expect(series.Item?.last).toBe(sequences.at(-1));
    // The invoice series is untouched by credit notes: the three invoices took 1–3 of theirs.
    for (const { g, invoice } of billed) {
      const after = (await deps().invoices.get(g.agentGroupId, invoice.id))!;
      expect(after).toMatchObject({ total: invoice.total, creditedAmount: invoice.total, amountPaid: 0 });
      expect(after.creditNoteIds).toHaveLength(4);
    }
  }, 240_000);

  it('lets only as many racing credit notes for one line through as fit what was invoiced', async () => {
    const { g, invoice } = await billedGroup(world, '2027-03-06', 1);
    const [line] = await deps().invoices.lines(g.agentGroupId, invoice.id);
    const part = Math.floor((line!.lineTotal * 40) / 100);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, () => raiseOperatorCreditNote(deps(), g.agentGroupId, invoice.id, [{ lineId: line!.id, amount: part }], 'Race', TEST_OPERATOR)),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(refused).toHaveLength(3);
    for (const r of refused) expect(r.reason).toBeInstanceOf(ConflictError);
    const [after] = await deps().invoices.lines(g.agentGroupId, invoice.id);
    expect(after!.creditedTotal).toBe(2 * part);
    expect((await deps().invoices.get(g.agentGroupId, invoice.id))!.creditedAmount).toBe(2 * part);
  }, 180_000);

  it('releases a credit beyond what a paid invoice still owed to the unallocated credit, and the next invoice is paid from it; the invoice stays PAID', async () => {
    const { g, invoice } = await billedGroup(world, '2027-03-08', 2);
    const svc = testServices();
    await recordBankTransfer(paymentDeps(svc), { agentGroupId: g.agentGroupId, reference: `UTR${Date.now()}`, amount: invoice.total }, TEST_OPERATOR);
    expect((await deps().invoices.get(g.agentGroupId, invoice.id))!).toMatchObject({ status: 'PAID', amountPaid: invoice.total });
    const [first] = await deps().invoices.lines(g.agentGroupId, invoice.id);
    const before = (await svc.ledger.creditPosition(g.agentGroupId))!;
    const { creditNote, invoice: after } = await issueOperatorCreditNote(
      deps(),
      g.agentGroupId,
      invoice.id,
      [{ lineId: first!.id }],
      'Goodwill',
      TEST_OPERATOR,
    );
    expect(creditNote.total).toBe(first!.lineTotal);
    expect(after).toMatchObject({ status: 'PAID', amountPaid: invoice.total - first!.lineTotal, creditedAmount: first!.lineTotal });
    expect(await svc.receivables.unallocatedCredit(g.agentGroupId)).toBe(first!.lineTotal);
    expect((await svc.ledger.creditPosition(g.agentGroupId))!.exposure).toBe(before.exposure - first!.lineTotal);

    // The next invoice is paid from the released credit as the run issues it.
    await bookStay(g, world.registered, '2027-03-01', '2027-03-02');
    const group = (await svc.tenants.getAgentGroup(g.agentGroupId))!;
    const next = await runBilling(deps(), group, request(), testOrigin());
    const issued = (await deps().invoices.get(g.agentGroupId, next.invoiceIds[0]!))!;
    expect(issued.amountPaid).toBe(Math.min(issued.total, first!.lineTotal));
    expect(await svc.receivables.unallocatedCredit(g.agentGroupId)).toBe(Math.max(0, first!.lineTotal - issued.total));
  }, 180_000);

  it('raises the credit note for a cancelled invoiced booking once when two billing runs race', async () => {
    const { g, invoice } = await billedGroup(world, '2027-03-06', 3);
    const bookingId = (await deps().invoices.lines(g.agentGroupId, invoice.id))[0]!.bookingId;
    expect((await cancelStay(g, bookingId!)).booking.status).toBe('CANCELLED');
    const group = (await testServices().tenants.getAgentGroup(g.agentGroupId))!;
    const runs = await Promise.all([runBilling(deps(), group, request(), testOrigin()), runBilling(deps(), group, request(), testOrigin())]);
    const noteIds = [...new Set(runs.flatMap((r) => r.invoiceIds))];
    expect(noteIds).toHaveLength(1);
    const after = (await deps().invoices.get(g.agentGroupId, invoice.id))!;
    expect(after).toMatchObject({ creditedAmount: invoice.total, creditNoteIds: noteIds });
    const note = (await deps().invoices.get(g.agentGroupId, noteIds[0]!))!;
    expect(note).toMatchObject({ creditNoteFor: invoice.id, total: invoice.total, status: 'ISSUED' });
    expect(note.pdfKey).not.toBeNull();
    expect((await runBilling(deps(), group, request(), testOrigin())).invoiceIds).toEqual([]);
  }, 180_000);
});
