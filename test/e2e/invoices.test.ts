import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { expectContract } from '../support/contract.ts';
import { pollUntil } from '../support/poll.ts';
import { call, newAgentGroup, type GroupFixture } from '../support/stack.ts';

interface RunResult {
  periodFrom: string;
  periodTo: string;
  cutoff: string;
  invoiceIds: string[];
  linesWritten: number;
  blockedStates: { state: string; lineCount: number; taxableValue: number }[];
  skippedEntries: unknown[];
  unreconciledEntries: unknown[];
}

const today = () => indiaToday(new Date());
const period = () => ({ from: addDays(today(), -30), to: today() });
const run = (g: GroupFixture, body?: unknown, headers: Record<string, string> = {}) =>
  call<RunResult>('POST', '/v1/invoices', { key: g.apiKey, ...(body === undefined ? {} : { body }), headers });
const paise = (r: number) => Math.round(r * 100);

let world: InvoiceWorld;
beforeAll(async () => {
  world = await seedInvoiceWorld();
}, 120_000);

describe('POST /v1/invoices, GET /v1/invoices(/{id})', () => {
  let g: GroupFixture;
  let first: RunResult;
  beforeAll(async () => {
    g = await newAgentGroup({ channelId: world.channelId, paymentTermsDays: 30 });
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    await bookStay(g, world.registered, '2027-03-06', '2027-03-07');
    await bookStay(g, world.unregistered, '2027-03-01', '2027-03-02');
    const res = await run(g, period());
    expect(res.status).toBe(200);
    expectContract(res, 'runBilling');
    first = res.body;
  }, 120_000);

  it("bills the registered state's stays on one ISSUED invoice and holds the unregistered state back", async () => {
    expect(first.invoiceIds).toHaveLength(1);
    expect(first.linesWritten).toBe(3);
    expect(first.blockedStates).toEqual([{ state: world.unregisteredState, lineCount: 1, taxableValue: 5_000 }]);
    expect(first.skippedEntries).toEqual([]);
    expect(first.unreconciledEntries).toEqual([]);
    expect(first.cutoff).toBe(new Date(`${today()}T23:59:59.999+05:30`).toISOString());

    const detail = await call('GET', `/v1/invoices/${first.invoiceIds[0]}`, { key: g.apiKey });
    expect(detail.status).toBe(200);
    expectContract(detail, 'getInvoice');
    const { invoice, lines, creditNotes, creditNoteForNumber } = detail.body;
    expect(invoice).toMatchObject({
      status: 'ISSUED',
      issueDate: today(),
      dueDate: addDays(today(), 30),
      supplierGstin: world.supplierGstin,
      billToGstin: '27AAPFU0939F1ZV',
      placeOfSupply: `${world.registeredState} (30)`,
      subtotal: 15_000,
      cgst: 375,
      sgst: 375,
      igst: 0,
      total: 15_750,
      amountPaid: 0,
      amountDue: 15_750,
      creditNoteFor: null,
    });
    expect(invoice.invoiceNumber).toMatch(/^I30\/\d\d-\d\d\/\d{6}$/);
    expect(invoice.gatewayOrderId).toMatch(/^order_[0-9A-Za-z]{14}$/);
    expect(lines).toHaveLength(3);
    for (const l of lines)
      expect(l).toMatchObject({
        lineKind: 'STAY',
        sac: '996311',
        quantity: 1,
        taxableValue: 5_000,
        gstRate: 5,
        cgst: 125,
        sgst: 125,
        igst: 0,
        lineTotal: 5_250,
      });
    const sum = (k: string) => lines.reduce((s: number, l: Record<string, number>) => s + paise(l[k]!), 0);
    expect([sum('taxableValue'), sum('cgst'), sum('sgst'), sum('igst'), sum('lineTotal')]).toEqual(
      [invoice.subtotal, invoice.cgst, invoice.sgst, invoice.igst, invoice.total].map(paise),
    );
    expect(lines.map((l: { nightDate: string }) => l.nightDate)).toEqual(['2027-03-01', '2027-03-02', '2027-03-06']);
    expect(creditNotes).toEqual([]);
    expect(creditNoteForNumber).toBeNull();
  });

  it('lists the issued invoice at once, with what is outstanding', async () => {
    const res = await call('GET', '/v1/invoices', { key: g.apiKey });
    expect(res.status).toBe(200);
    expectContract(res, 'listInvoices');
    expect(res.body.data.map((i: { id: string }) => i.id)).toEqual(first.invoiceIds);
    expect(res.body).toMatchObject({ nextCursor: null, outstanding: 15_750, oldestDueDate: addDays(today(), 30), outstandingInvoiceCount: 1 });
    const window = await call('GET', `/v1/invoices?status=ISSUED&from=${addDays(today(), 1)}`, { key: g.apiKey });
    expect(window.body.data).toEqual([]);
  });

  it('bills nothing twice when run again', async () => {
    const again = await run(g, period());
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ invoiceIds: [], linesWritten: 0 });
    expect(again.body.blockedStates).toEqual([{ state: world.unregisteredState, lineCount: 1, taxableValue: 5_000 }]);
  });

  it('refuses a booking id list with dates, too many ids, or half a period, naming the parameter', async () => {
    const cases: [unknown, string][] = [
      [{ from: '2026-11-01' }, 'to'],
      [{ to: '2026-11-01' }, 'from'],
      [{ from: '2026-11-02', to: '2026-11-01' }, 'to'],
      [{ from: '2025-01-01', to: '2026-01-01' }, 'to'],
      [{ from: '2026-11-01', to: addDays(today(), 1) }, 'to'],
      [{ from: '2026-02-30', to: '2026-03-01' }, 'from'],
      [{ bookingIds: ['PS-1'], from: '2026-11-01', to: '2026-11-02' }, 'bookingIds'],
      [{ bookingIds: Array.from({ length: 101 }, (_, i) => `PS-${i}`) }, 'bookingIds'],
      [{ cutoff: '2026-11-01' }, 'cutoff'],
    ];
    for (const [body, param] of cases) {
      const res = await call('POST', '/v1/invoices', { key: g.apiKey, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.param, JSON.stringify(body)).toBe(param);
    }
  });

  it('refuses DRAFT, CANCELLED and unknown status filters, a tampered cursor and an oversized page', async () => {
    for (const [query, param] of [
      ['status=DRAFT', 'status'],
      ['status=ISSUED,CANCELLED', 'status'],
      ['status=OPEN', 'status'],
      ['cursor=abc', 'cursor'],
      ['size=101', 'size'],
      ['from=2026-13-01', 'from'],
      ['from=2026-11-02&to=2026-11-01', 'from'],
    ]) {
      const res = await call('GET', `/v1/invoices?${query}`, { key: g.apiKey });
      expect(res.status, query).toBe(400);
      expect(res.body.param, query).toBe(param);
    }
    expect((await call('GET', '/v1/invoices/not-a-uuid', { key: g.apiKey })).body.param).toBe('id');
  });

  it("answers another group's invoice exactly like an unknown one", async () => {
    const other = await newAgentGroup({ channelId: world.channelId });
    const theirs = await call('GET', `/v1/invoices/${first.invoiceIds[0]}`, { key: other.apiKey });
    const unknown = await call('GET', '/v1/invoices/6a1c3a63-2f9e-4b7e-9a55-0d3c1f0b9e11', { key: other.apiKey });
    const pdf = await call('GET', `/v1/invoices/${first.invoiceIds[0]}/pdf`, { key: other.apiKey });
    expect(theirs.status).toBe(404);
    expect(pdf.status).toBe(404);
    const comparable = (b: Record<string, unknown>) => ({ ...b, timestamp: undefined, path: undefined });
    expect(comparable(theirs.body)).toEqual(comparable(unknown.body));
    expect(comparable(pdf.body)).toEqual(comparable(unknown.body));
    expect((await call('GET', '/v1/invoices', { key: other.apiKey })).body).toMatchObject({
      data: [],
      outstanding: 0,
      outstandingInvoiceCount: 0,
      oldestDueDate: null,
    });
  });

  it('needs a key', async () => {
    expect((await call('GET', '/v1/invoices')).status).toBe(401);
    expect((await call('POST', '/v1/invoices', { body: {} })).status).toBe(401);
  });
});

describe('Billing run throttle and named bookings', () => {
  it('bills only the named bookings of the caller, then refuses a third run within the minute with 429 naming the wait', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    const named = await bookStay(g, world.registered, '2027-03-08', '2027-03-09');
    await bookStay(g, world.registered, '2027-03-09', '2027-03-10');
    const res = await run(g, { bookingIds: [named, 'PS-not-ours'] });
    expect(res.status).toBe(200);
    expect(res.body.linesWritten).toBe(1);
    const detail = await call('GET', `/v1/invoices/${res.body.invoiceIds[0]}`, { key: g.apiKey });
    expect(detail.body.lines.map((l: { bookingId: string }) => l.bookingId)).toEqual([named]);
    // The line carries the partner's own reference, the one its charge in the ledger has.
    const charge = (await call('GET', '/v1/ledger', { key: g.apiKey })).body.data.find(
      (e: { type: string; bookingId: string | null }) => e.type === 'CHARGE' && e.bookingId === named,
    );
    expect(charge?.externalBookingId).toEqual(expect.any(String));
    expect(detail.body.lines[0].externalBookingId).toBe(charge.externalBookingId);

    expect((await run(g)).status).toBe(200);
    const third = await run(g);
    expect(third.status).toBe(429);
    const wait = Number(third.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect((third.body as unknown as { message: string }).message).toContain(`try again in ${wait} second`);
  }, 120_000);
});

describe('POST /v1/invoices handed off to the billing worker', () => {
  it('answers with the DRAFT when its time is up, and the billing worker issues that same invoice with every line', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    await bookStay(g, world.registered, '2027-03-06', '2027-03-07');

    const handedOff = await run(g, period(), { 'X-Test-Scenario': 'billing-hands-off' });

    expect(handedOff.status).toBe(200);
    expect(handedOff.body).toMatchObject({ linesWritten: 0, blockedStates: [], skippedEntries: [] });
    expect(handedOff.body.invoiceIds).toHaveLength(1);
    const id = handedOff.body.invoiceIds[0]!;
    const issued = await pollUntil('the billing worker to issue the handed-off invoice', async () => {
      const detail = await call('GET', `/v1/invoices/${id}`, { key: g.apiKey });
      return detail.body.invoice.status === 'ISSUED' ? detail.body : undefined;
    });
    expect(issued.lines).toHaveLength(3);
    expect(issued.invoice).toMatchObject({ invoiceNumber: expect.any(String), issueDate: today(), total: 15_750 });
    expect((await call('GET', '/v1/invoices', { key: g.apiKey })).body.data.map((i: { id: string }) => i.id)).toEqual([id]);
    // The worker issues the invoice before it settles the index and lets go of the group's
    // lock, so a run right after can be told 429 (in progress); a partner waits as told and retries.
    let again = await run(g, period());
    for (let retries = 0; again.status === 429 && retries < 5; retries++) {
      await new Promise((r) => setTimeout(r, Number(again.headers.get('retry-after')) * 1000));
      again = await run(g, period());
    }
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ invoiceIds: [], linesWritten: 0 });
  }, 120_000);
});

describe('DRAFT left by a failed issue, GET /v1/invoices/{id}/pdf', () => {
  it('keeps the DRAFT id in the result (409 for its PDF), issues it on the next run, and serves a PDF that reads as a GST tax invoice', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-02', '2027-03-04');
    const failed = await run(g, period(), { 'X-Test-Scenario': 'invoice-issue-fails' });
    expect(failed.status).toBe(200);
    expect(failed.body.invoiceIds).toHaveLength(1);
    const id = failed.body.invoiceIds[0]!;
    const draft = await call('GET', `/v1/invoices/${id}`, { key: g.apiKey });
    expect(draft.body.invoice).toMatchObject({ status: 'DRAFT', invoiceNumber: null, issueDate: null });
    expect((await call('GET', '/v1/invoices', { key: g.apiKey })).body.data).toEqual([]);
    const pdfOfDraft = await call('GET', `/v1/invoices/${id}/pdf`, { key: g.apiKey });
    expect(pdfOfDraft.status).toBe(409);

    const retried = await run(g, period());
    expect(retried.body).toMatchObject({ invoiceIds: [id], linesWritten: 0 });
    const issued = (await call('GET', `/v1/invoices/${id}`, { key: g.apiKey })).body.invoice;
    expect(issued.status).toBe('ISSUED');

    const res = await fetch(`${(await import('../support/stack.ts')).stack().baseUrl}/v1/invoices/${id}/pdf`, {
      headers: { authorization: `Basic ${Buffer.from(`${g.apiKey}:`).toString('base64')}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const dir = mkdtempSync(join(tmpdir(), 'invoice-pdf-'));
    writeFileSync(join(dir, 'invoice.pdf'), bytes);
    const text = execFileSync('pdftotext', ['-layout', join(dir, 'invoice.pdf'), '-'], { encoding: 'utf8' });
    for (const expected of [
      'Tax Invoice',
      issued.invoiceNumber,
      world.supplierGstin,
      '27AAPFU0939F1ZV',
      'Test Agents Pvt Ltd',
      '996311',
      '₹10,500.00',
      'Ten Thousand Five Hundred',
    ])
      expect(text).toContain(expected);
    execFileSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', join(dir, 'invoice.pdf'), join(dir, 'page')]);
  }, 120_000);
});

describe('GET /v1/invoices pages; two runs racing over HTTP', () => {
  it('writes one invoice per supplier registration and pages them with a cursor bound to the query', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-03', '2027-03-04');
    await bookStay(g, world.second, '2027-03-03', '2027-03-04');
    const res = await run(g, period());
    expect(res.body.invoiceIds).toHaveLength(2);

    const first = await call('GET', '/v1/invoices?size=1', { key: g.apiKey });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(1);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    expect(first.body).toMatchObject({ outstanding: 10_500, outstandingInvoiceCount: 2 });
    const next = await call('GET', `/v1/invoices?size=1&cursor=${encodeURIComponent(first.body.nextCursor)}`, { key: g.apiKey });
    expect(next.status).toBe(200);
    expect(next.body.nextCursor).toBeNull();
    expect([first.body.data[0].id, next.body.data[0].id].sort()).toEqual([...res.body.invoiceIds].sort());
    expect(new Set([first.body.data[0].supplierGstin, next.body.data[0].supplierGstin])).toEqual(new Set([world.supplierGstin, world.secondGstin]));
    const otherQuery = await call('GET', `/v1/invoices?size=1&status=PAID&cursor=${encodeURIComponent(first.body.nextCursor)}`, { key: g.apiKey });
    expect(otherQuery.status).toBe(400);
    expect(otherQuery.body.param).toBe('cursor');
  }, 120_000);

  it('bills each charge once when two runs race: the lock admits one at a time', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-07', '2027-03-09');
    const raced = await Promise.all([run(g, period()), run(g, period())]);
    for (const r of raced) expect([200, 429]).toContain(r.status);
    expect(raced.filter((r) => r.status === 200).reduce((s, r) => s + r.body.linesWritten, 0)).toBe(2);
    const listed = await call('GET', '/v1/invoices', { key: g.apiKey });
    expect(listed.body).toMatchObject({ outstanding: 10_500, outstandingInvoiceCount: 1 });
  }, 120_000);

  it('needs a key on every invoice route, and a UUID for an invoice id', async () => {
    const id = '6a1c3a63-2f9e-4b7e-9a55-0d3c1f0b9e11';
    expect((await call('GET', `/v1/invoices/${id}`)).status).toBe(401);
    expect((await call('GET', `/v1/invoices/${id}/pdf`)).status).toBe(401);
    const g = await newAgentGroup({ channelId: world.channelId });
    const bad = await call('GET', '/v1/invoices/123/pdf', { key: g.apiKey });
    expect(bad.status).toBe(400);
    expect(bad.body.param).toBe('id');
  });
});
