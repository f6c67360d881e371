import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { pdfText, scanQr } from '../support/pdf-scan.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { call, newAgentGroup, stack, testServices, type GroupFixture } from '../support/stack.ts';

const today = () => indiaToday(new Date());
const run = (g: GroupFixture, headers: Record<string, string> = {}) =>
  call<{ invoiceIds: string[] }>('POST', '/v1/invoices', { key: g.apiKey, body: { from: addDays(today(), -30), to: today() }, headers });
const dir = mkdtempSync(join(tmpdir(), 'e-invoicing-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let world: InvoiceWorld;
beforeAll(async () => {
  world = await seedInvoiceWorld({ eInvoicing: true });
}, 120_000);

describe('POST /v1/invoices over a registration marked for e-invoicing, X-Test-Scenario: einvoice-irp-unavailable', () => {
  it('keeps the invoice DRAFT (no number shown, PDF 409) while the IRP is down; the next run issues it with the number it reserved, the PDF printing the IRN and the signed QR', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-03', '2027-03-04');

    const failed = await run(g, { 'X-Test-Scenario': 'einvoice-irp-unavailable' });
    expect(failed.status, failed.text).toBe(200);
    const id = failed.body.invoiceIds[0]!;
    const draft = (await call<{ invoice: Record<string, unknown> }>('GET', `/v1/invoices/${id}`, { key: g.apiKey })).body.invoice;
    expect(draft).toMatchObject({ status: 'DRAFT', invoiceNumber: null, issueDate: null, dueDate: null });
    expect((await call<{ data: unknown[] }>('GET', '/v1/invoices', { key: g.apiKey })).body.data).toEqual([]);
    expect((await call('GET', `/v1/invoices/${id}/pdf`, { key: g.apiKey })).status).toBe(409);
    const reserved = (await testServices().invoices.get(g.agentGroupId, id))!;
    expect(reserved.invoiceNumber).toMatch(/^I30\//);

    const retried = await run(g);
    expect(retried.body.invoiceIds).toEqual([id]);
    const issued = (await call<{ invoice: Record<string, unknown> }>('GET', `/v1/invoices/${id}`, { key: g.apiKey })).body.invoice;
    expect(issued).toMatchObject({ status: 'ISSUED', invoiceNumber: reserved.invoiceNumber, issueDate: reserved.issueDate, dueDate: reserved.dueDate });
    // The Invoice record is the partner contract's: the registration is on the PDF, not in the JSON.
    expect(Object.keys(issued).filter((k) => /irn|ack|einvoice|qr/i.test(k))).toEqual([]);

    const e = (await testServices().invoices.get(g.agentGroupId, id))!.eInvoice!;
    const res = await fetch(`${stack().baseUrl}/v1/invoices/${id}/pdf`, {
      headers: { authorization: `Basic ${Buffer.from(`${g.apiKey}:`).toString('base64')}` },
    });
    expect(res.status).toBe(200);
    // Saved under the number finance files it by, not the id only the API knows.
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="invoice-${String(reserved.invoiceNumber).replaceAll('/', '-')}.pdf"`);
    const path = join(dir, 'registered.pdf');
    writeFileSync(path, Buffer.from(await res.arrayBuffer()));
    expect(pdfText(path).replace(/\s+/g, '')).toContain(e.irn);
    expect(pdfText(path).replace(/\s+/g, ' ')).toContain(`Ack. No: ${e.ackNo}`);
    expect(scanQr(path)).toBe(e.signedQr);
  }, 120_000);
});

describe('a credit note over a registration marked for e-invoicing (bill → cancel → POST /v1/invoices while the IRP is down → again)', () => {
  it('lists the credit note at once, holds its PDF (409) until the next run registers it, then prints its own IRN and signed QR', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    const bookingId = await bookStay(g, world.registered, '2027-03-06', '2027-03-07');
    // The first bill goes through the admin tool: the partner's throttle allows two runs a minute and this test needs two after it.
    const billed = await runAdminTool(['billing', 'run', '--group', g.agentGroupId, '--from', addDays(today(), -30), '--to', today(), '--json']);
    expect(billed.code, billed.stderr).toBe(0);
    const [invoiceId] = JSON.parse(billed.stdout).invoiceIds as string[];
    expect((await call('POST', `/v1/bookings/${bookingId}/cancel`, { key: g.apiKey, body: { reason: 'Guest changed plans' } })).status).toBe(200);

    const down = await run(g, { 'X-Test-Scenario': 'einvoice-irp-unavailable' });
    expect(down.status, down.text).toBe(200);
    const list = (
      await call<{ data: { id: string; creditNoteFor: string | null; amountDue: number; invoiceNumber: string }[] }>('GET', '/v1/invoices', { key: g.apiKey })
    ).body.data;
    const note = list.find((i) => i.creditNoteFor === invoiceId)!;
    expect(note, 'the credit note is listed while it waits for its IRN').toMatchObject({ amountDue: 0, invoiceNumber: expect.stringMatching(/^CN30\//) });
    expect((await call('GET', `/v1/invoices/${note.id}/pdf`, { key: g.apiKey })).status).toBe(409);
    expect((await testServices().invoices.get(g.agentGroupId, note.id))!.eInvoice?.irn).toBeUndefined();

    expect((await run(g)).status).toBe(200);
    const e = (await testServices().invoices.get(g.agentGroupId, note.id))!.eInvoice!;
    expect(e.irn).toMatch(/^[0-9a-f]{64}$/);
    expect(e.irn).not.toBe((await testServices().invoices.get(g.agentGroupId, invoiceId!))!.eInvoice!.irn);
    const res = await fetch(`${stack().baseUrl}/v1/invoices/${note.id}/pdf`, {
      headers: { authorization: `Basic ${Buffer.from(`${g.apiKey}:`).toString('base64')}` },
    });
    expect(res.status).toBe(200);
    const path = join(dir, 'credit-note.pdf');
    writeFileSync(path, Buffer.from(await res.arrayBuffer()));
    const text = pdfText(path);
    expect(text).toContain('Credit Note');
    expect(text.replace(/\s+/g, '')).toContain(e.irn);
    expect(scanQr(path)).toBe(e.signedQr);
  }, 180_000);
});

describe('the admin tool over the sandbox IRP: invoices void and GSTIN checks', () => {
  it('voids a registered invoice within 24 hours (CANCELLED, number kept, off the list) and refuses a GSTIN the IRP has cancelled, changing nothing', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-09', '2027-03-10');
    const billed = await runAdminTool(['billing', 'run', '--group', g.agentGroupId, '--from', addDays(today(), -30), '--to', today(), '--json']);
    expect(billed.code, billed.stderr).toBe(0);
    const [invoiceId] = JSON.parse(billed.stdout).invoiceIds as string[];
    const before = (await testServices().invoices.get(g.agentGroupId, invoiceId!))!;

    const voided = await runAdminTool(['invoices', 'void', invoiceId!, '--group', g.agentGroupId, '--reason', '3', '--json']);
    expect(voided.code, voided.stderr).toBe(0);
    expect(JSON.parse(voided.stdout)).toMatchObject({
      status: 'CANCELLED',
      invoiceNumber: before.invoiceNumber,
      eInvoice: { irn: before.eInvoice!.irn, cancelReason: '3', cancelRemark: 'Order cancelled' },
    });
    expect((await call<{ data: unknown[] }>('GET', '/v1/invoices', { key: g.apiKey })).body.data).toEqual([]);
    const state = await runAdminTool(['invoices', 'einvoice', invoiceId!, '--group', g.agentGroupId, '--json']);
    expect(JSON.parse(state.stdout)).toMatchObject({ state: 'CANCELLED', status: 'CANCELLED', registration: { irn: before.eInvoice!.irn, cancelReason: '3' } });

    const refused = await runAdminTool(['groups', 'update', g.agentGroupId, '--gstin', '29AABCC1111C1Z9']);
    expect(refused.code, 'a validation refusal').toBe(2);
    expect(refused.stderr).toMatch(/the IRP has GSTIN 29AABCC1111C1Z9 \(Closed Travels Pvt Ltd\) as cancelled \(Status CNL\)/);
    expect((await testServices().tenants.getAgentGroup(g.agentGroupId))!.gstin).toBe('27AAPFU0939F1ZV');
  }, 180_000);
});
