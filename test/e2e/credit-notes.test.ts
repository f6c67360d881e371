import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { call, newAgentGroup, stack, type GroupFixture } from '../support/stack.ts';

const today = () => indiaToday(new Date());
const period = () => ({ from: addDays(today(), -30), to: today() });
const printed = (d: string) => `${d.slice(8, 10)}-${d.slice(5, 7)}-${d.slice(0, 4)}`;
const CREDIT_NOTE_NUMBER = /^CN30\/\d{4}\/\d{6}$/;

async function bill(g: GroupFixture): Promise<string[]> {
  const res = await call<{ invoiceIds: string[] }>('POST', '/v1/invoices', { key: g.apiKey, body: period() });
  expect(res.status, res.text).toBe(200);
  return res.body.invoiceIds;
}
/** A run through the admin tool: the same engine without the partner's throttle of 2 runs a minute. */
async function billByAdmin(g: GroupFixture): Promise<string[]> {
  const res = await runAdminTool(['billing', 'run', '--group', g.agentGroupId, '--from', period().from, '--to', period().to, '--json']);
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout).invoiceIds;
}
const detail = async (g: GroupFixture, id: string) => (await call('GET', `/v1/invoices/${id}`, { key: g.apiKey })).body;
const ledger = async (g: GroupFixture) => (await call('GET', '/v1/ledger?size=100', { key: g.apiKey })).body;

/** The PDF over HTTP, as text (pdftotext), and its first page as a PNG next to it for a person to look at. */
async function pdfText(g: GroupFixture, id: string): Promise<string> {
  const res = await fetch(`${stack().baseUrl}/v1/invoices/${id}/pdf`, {
    headers: { authorization: `Basic ${Buffer.from(`${g.apiKey}:`).toString('base64')}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  const dir = mkdtempSync(join(tmpdir(), 'credit-note-pdf-'));
  writeFileSync(join(dir, 'note.pdf'), Buffer.from(await res.arrayBuffer()));
  execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', join(dir, 'note.pdf'), join(dir, 'page')]);
  return execFileSync('pdftotext', ['-layout', join(dir, 'note.pdf'), '-'], { encoding: 'utf8' });
}

let world: InvoiceWorld;
beforeAll(async () => {
  world = await seedInvoiceWorld();
}, 120_000);

describe('credit notes raised by the billing run (book → bill → cancel → bill again)', () => {
  let g: GroupFixture;
  let invoiceId: string;
  let kept: string;
  let cancelled: string;
  let noteId: string;
  beforeAll(async () => {
    g = await newAgentGroup({ channelId: world.channelId, paymentTermsDays: 30 });
    kept = await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    cancelled = await bookStay(g, world.registered, '2027-03-06', '2027-03-08');
    [invoiceId] = (await bill(g)) as [string];
    const cancel = await call('POST', `/v1/bookings/${cancelled}/cancel`, { key: g.apiKey, body: { reason: 'Guest changed plans' } });
    expect(cancel.status, cancel.text).toBe(200);
    const ids = await bill(g);
    expect(ids).toHaveLength(1);
    noteId = ids[0]!;
  }, 240_000);

  it('raises one credit note for the refunded booking: its own series, creditNoteFor the invoice, lines crediting the invoiced lines in their tax split', async () => {
    const refund = (await ledger(g)).data.find((e: { type: string; bookingId: string }) => e.type === 'REFUND' && e.bookingId === cancelled);
    expect(refund).toMatchObject({ status: 'POSTED', amount: -10_500 });
    const invoice = await detail(g, invoiceId);
    const note = await detail(g, noteId);
    expect(note.invoice).toMatchObject({
      status: 'ISSUED',
      creditNoteFor: invoiceId,
      total: 10_500,
      subtotal: 10_000,
      cgst: 250,
      sgst: 250,
      igst: 0,
      amountPaid: 0,
      creditedAmount: 0,
      amountDue: 0,
      dueDate: null,
      overdueSince: null,
      issueDate: today(),
      gatewayOrderId: null,
      supplierGstin: world.supplierGstin,
    });
    expect(note.invoice.invoiceNumber).toMatch(CREDIT_NOTE_NUMBER);
    expect(note.creditNoteForNumber).toBe(invoice.invoice.invoiceNumber);
    expect(note.creditNotes).toEqual([]);
    const credited = invoice.lines.filter((l: { bookingId: string }) => l.bookingId === cancelled);
    expect(note.lines).toHaveLength(credited.length);
    for (const l of note.lines) {
      const original = credited.find((o: { id: string }) => o.id === l.creditNoteForLine);
      expect(original, 'each line credits a line of the cancelled booking').toBeDefined();
      expect(l).toMatchObject({
        lineTotal: original.lineTotal,
        taxableValue: original.taxableValue,
        cgst: original.cgst,
        sgst: original.sgst,
        igst: 0,
        gstRate: original.gstRate,
        nightDate: original.nightDate,
        bookingId: cancelled,
      });
    }
    expect(invoice.lines.every((l: { creditNoteForLine: null }) => l.creditNoteForLine === null)).toBe(true);
  });

  it("leaves the invoice's own figures as they were and raises its creditedAmount; the detail names its credit notes", async () => {
    const { invoice, creditNotes, creditNoteForNumber } = await detail(g, invoiceId);
    const note = (await detail(g, noteId)).invoice;
    expect(invoice).toMatchObject({
      status: 'ISSUED',
      total: 21_000,
      subtotal: 20_000,
      cgst: 500,
      sgst: 500,
      creditedAmount: 10_500,
      amountPaid: 0,
      amountDue: 10_500,
      creditNoteFor: null,
    });
    expect(creditNotes).toEqual([{ id: noteId, invoiceNumber: note.invoiceNumber, issueDate: today(), total: 10_500 }]);
    expect(creditNoteForNumber).toBeNull();
  });

  it('lists the credit note as an ordinary row with amountDue 0; outstanding is issued totals less credit notes', async () => {
    const list = (await call('GET', '/v1/invoices', { key: g.apiKey })).body;
    expect(list.data.map((i: { id: string }) => i.id).sort()).toEqual([invoiceId, noteId].sort());
    expect(list.data.find((i: { id: string }) => i.id === noteId)).toMatchObject({ creditNoteFor: invoiceId, amountDue: 0 });
    expect(list).toMatchObject({ outstanding: 10_500, outstandingInvoiceCount: 1, oldestDueDate: addDays(today(), 30) });
    // The ledger tells the same story: the REFUND already lowered exposure; the credit note posted nothing.
    const l = await ledger(g);
    expect(l.data.filter((e: { type: string }) => e.type === 'ADJUSTMENT')).toEqual([]);
    expect(l.exposure).toBe(10_500);
  });

  it('raises it once: later runs find the booking reconciled', async () => {
    expect(await billByAdmin(g)).toEqual([]);
    const list = (await call('GET', '/v1/invoices', { key: g.apiKey })).body;
    expect(list.data).toHaveLength(2);
    expect((await detail(g, invoiceId)).invoice.creditedAmount).toBe(10_500);
    expect((await call('GET', `/v1/bookings/${kept}`, { key: g.apiKey })).body).toMatchObject({ status: 'CONFIRMED', outstandingAmount: 10_500 });
  }, 120_000);

  it('prints a PDF titled Credit Note naming the original invoice, its date and the reason', async () => {
    const note = (await detail(g, noteId)).invoice;
    const invoice = (await detail(g, invoiceId)).invoice;
    const text = await pdfText(g, noteId);
    for (const expected of [
      'Credit Note',
      note.invoiceNumber,
      invoice.invoiceNumber,
      printed(invoice.issueDate),
      `Booking ${cancelled}`,
      'cancelled',
      world.supplierGstin,
      '₹10,500.00',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('Tax Invoice');
  }, 60_000);
});

describe('credit notes raised by an operator (admin tool)', () => {
  let g: GroupFixture;
  let invoiceId: string;
  let lineIds: string[];
  const creditNote = (args: string[]) => runAdminTool(['invoices', 'credit-note', invoiceId, '--group', g.agentGroupId, ...args, '--json']);
  beforeAll(async () => {
    g = await newAgentGroup({ channelId: world.channelId, paymentTermsDays: 30 });
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    [invoiceId] = (await bill(g)) as [string];
    lineIds = (await detail(g, invoiceId)).lines.map((l: { id: string }) => l.id);
    expect(lineIds).toHaveLength(2);
  }, 180_000);

  it('credits part of one line and the whole of another with a reason, posts a matching ADJUSTMENT, and prints it', async () => {
    const before = await ledger(g);
    const res = await creditNote(['--lines', `${lineIds[0]}:1050,${lineIds[1]}`, '--reason', 'Pool closed during the stay']);
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out.creditNote).toMatchObject({
      creditNoteFor: invoiceId,
      reason: 'Pool closed during the stay',
      subtotal: 6_000,
      cgst: 150,
      sgst: 150,
      igst: 0,
      total: 6_300,
      lineCount: 2,
      pdfStored: true,
    });
    expect(out.creditNote.invoiceNumber).toMatch(CREDIT_NOTE_NUMBER);
    expect(out.invoice).toMatchObject({ total: 10_500, creditedAmount: 6_300, amountDue: 4_200 });

    const note = await detail(g, out.creditNote.id);
    expect(
      note.lines.map((l: { creditNoteForLine: string; lineTotal: number; taxableValue: number }) => [l.creditNoteForLine, l.lineTotal, l.taxableValue]).sort(),
    ).toEqual(
      [
        [lineIds[0], 1_050, 1_000],
        [lineIds[1], 5_250, 5_000],
      ].sort(),
    );
    const after = await ledger(g);
    const adjustments = after.data.filter((e: { type: string }) => e.type === 'ADJUSTMENT');
    expect(adjustments).toHaveLength(1);
    expect(adjustments[0]).toMatchObject({ status: 'POSTED', amount: -6_300 });
    expect(adjustments[0].description).toContain('Pool closed during the stay');
    expect(after.exposure).toBe(before.exposure - 6_300);
    expect((await call('GET', '/v1/invoices', { key: g.apiKey })).body).toMatchObject({ outstanding: 4_200, outstandingInvoiceCount: 1 });

    const text = await pdfText(g, out.creditNote.id);
    for (const expected of ['Credit Note', out.creditNote.invoiceNumber, out.invoice.invoiceNumber, 'Pool closed during the stay', '₹6,300.00'])
      expect(text).toContain(expected);
    // Ledger and invoices agree, so a run afterwards has nothing to bill or credit.
    expect(await billByAdmin(g)).toEqual([]);
  }, 180_000);

  it('refuses to credit more than is left of a line, also when two credit notes race for it, and changes nothing', async () => {
    // 4,200 is left on the first line (5,250 − 1,050); the second is credited whole.
    const over = await creditNote(['--lines', `${lineIds[0]}:4200.01`, '--reason', 'Too much']);
    expect(over.code).not.toBe(0);
    expect(over.stderr).toContain('₹4,200.00 left to credit');
    const whole = await creditNote(['--lines', lineIds[1]!, '--reason', 'Again']);
    expect(whole.code).not.toBe(0);
    expect(whole.stderr).toContain('₹0.00 left to credit');

    const racing = await Promise.all([
      creditNote(['--lines', `${lineIds[0]}:3000`, '--reason', 'First']),
      creditNote(['--lines', `${lineIds[0]}:3000`, '--reason', 'Second']),
    ]);
    expect(racing.map((r) => r.code === 0).sort()).toEqual([false, true]);
    expect(racing.find((r) => r.code !== 0)!.stderr).toContain('₹1,200.00 left to credit');
    const { invoice, creditNotes } = await detail(g, invoiceId);
    expect(invoice).toMatchObject({ creditedAmount: 9_300, amountDue: 1_200 });
    expect(creditNotes).toHaveLength(2);
  }, 180_000);
});

describe('a credit note on a paid invoice (pay → cancel the first booking → bill again)', () => {
  it('releases the paid part of the credit to the account, keeps the invoice PAID, and booking rows follow what is still billed', async () => {
    const g = await newAgentGroup({ channelId: world.channelId, paymentTermsDays: 30 });
    const first = await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    const second = await bookStay(g, world.registered, '2027-03-08', '2027-03-10');
    const [invoiceId] = (await bill(g)) as [string];
    const paid = await runAdminTool(['payments', 'record', '--group', g.agentGroupId, '--amount', '21000', '--reference', `UTR${Date.now()}`, '--json']);
    expect(paid.code, paid.stderr).toBe(0);
    expect((await call('POST', `/v1/bookings/${first}/cancel`, { key: g.apiKey })).status).toBe(200);
    const [noteId] = await billByAdmin(g);

    expect((await detail(g, invoiceId)).invoice).toMatchObject({ status: 'PAID', total: 21_000, amountPaid: 10_500, creditedAmount: 10_500, amountDue: 0 });
    expect((await detail(g, noteId!)).invoice).toMatchObject({ creditNoteFor: invoiceId, total: 10_500, amountDue: 0 });
    const payments = JSON.parse((await runAdminTool(['payments', 'list', '--group', g.agentGroupId, '--json'])).stdout);
    expect(payments.unallocated).toBe(10_500);
    const row = async (id: string) => (await call('GET', `/v1/bookings/${id}`, { key: g.apiKey })).body;
    expect(await row(first)).toMatchObject({ status: 'CANCELLED', paidAmount: 0, outstandingAmount: 0 });
    expect(await row(second)).toMatchObject({ status: 'CONFIRMED', paidAmount: 10_500, outstandingAmount: 0 });
    // One story: nothing outstanding on invoices; the ledger owes the partner the released 10,500.
    expect((await call('GET', '/v1/invoices', { key: g.apiKey })).body).toMatchObject({ outstanding: 0, outstandingInvoiceCount: 0 });
    expect((await ledger(g)).exposure).toBe(-10_500);
  }, 240_000);
});

describe('a credit note for a partly refunded cancellation (50 % refund): the retained part stays billed', () => {
  it('credits the refund over the invoiced nights in their tax split, leaves the retained half owing on the same lines, and a payment settles it', async () => {
    const halfRefund = await seedInvoiceWorld({ refundPercentage: 50 });
    const g = await newAgentGroup({ channelId: halfRefund.channelId, paymentTermsDays: 30 });
    const bookingId = await bookStay(g, halfRefund.registered, '2027-03-01', '2027-03-03');
    const [invoiceId] = (await bill(g)) as [string];
    const invoiced = (await detail(g, invoiceId)).lines;
    expect(invoiced.map((l: { lineTotal: number }) => l.lineTotal)).toEqual([5_250, 5_250]);

    const cancel = await call('POST', `/v1/bookings/${bookingId}/cancel`, { key: g.apiKey, body: { reason: 'Half refund' } });
    expect(cancel.status, cancel.text).toBe(200);
    expect(cancel.body.cancellation).toMatchObject({ refundPercentage: 50, refundAmount: 5_250 });
    const [noteId] = await billByAdmin(g);

    const note = await detail(g, noteId!);
    expect(note.invoice).toMatchObject({ creditNoteFor: invoiceId, total: 5_250, subtotal: 5_000, cgst: 125, sgst: 125, igst: 0, amountDue: 0 });
    // Each night loses half: 2,500 taxable + 62.50 CGST + 62.50 SGST, crediting its own invoiced line.
    expect(
      note.lines
        .map((l: { creditNoteForLine: string; taxableValue: number; cgst: number; sgst: number; lineTotal: number }) => [
          l.creditNoteForLine,
          l.taxableValue,
          l.cgst,
          l.sgst,
          l.lineTotal,
        ])
        .sort(),
    ).toEqual(invoiced.map((l: { id: string }) => [l.id, 2_500, 62.5, 62.5, 2_625]).sort());
    const { invoice } = await detail(g, invoiceId);
    expect(invoice).toMatchObject({ status: 'ISSUED', total: 10_500, creditedAmount: 5_250, amountPaid: 0, amountDue: 5_250 });
    expect((await call('GET', '/v1/invoices', { key: g.apiKey })).body).toMatchObject({ outstanding: 5_250, outstandingInvoiceCount: 1 });
    expect(await billByAdmin(g)).toEqual([]);
    // The retained 5,250 is what the ledger still holds against the booking and what its row still owes.
    expect((await ledger(g)).exposure).toBe(5_250);
    expect((await call('GET', `/v1/bookings/${bookingId}`, { key: g.apiKey })).body).toMatchObject({
      status: 'CANCELLED',
      paidAmount: 0,
      outstandingAmount: 5_250,
    });

    const paid = await runAdminTool(['gateway', 'pay', invoiceId, '--group', g.agentGroupId, '--url', stack().baseUrl, '--json']);
    expect(paid.code, paid.stderr).toBe(0);
    expect(JSON.parse(paid.stdout)).toMatchObject({ notification: { event: 'payment.captured', payload: { payment: { entity: { amount: 5_250_00 } } } } });
    expect((await detail(g, invoiceId)).invoice).toMatchObject({ status: 'PAID', amountPaid: 5_250, creditedAmount: 5_250, amountDue: 0 });
    expect((await call('GET', `/v1/bookings/${bookingId}`, { key: g.apiKey })).body).toMatchObject({ paidAmount: 5_250, outstandingAmount: 0 });
    expect((await ledger(g)).exposure).toBe(0);
  }, 300_000);
});
