import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { pdfText, scanQr } from '../support/pdf-scan.ts';
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
    expect(reserved.invoiceNumber).toMatch(/^30\//);

    const retried = await run(g);
    expect(retried.body.invoiceIds).toEqual([id]);
    const issued = (await call<{ invoice: Record<string, unknown> }>('GET', `/v1/invoices/${id}`, { key: g.apiKey })).body.invoice;
    expect(issued).toMatchObject({ status: 'ISSUED', invoiceNumber: reserved.invoiceNumber, issueDate: reserved.issueDate, dueDate: reserved.dueDate });
    // The contract's Invoice record is the spec's: the registration is on the PDF, not in the JSON.
    expect(Object.keys(issued).filter((k) => /irn|ack|einvoice|qr/i.test(k))).toEqual([]);

    const e = (await testServices().invoices.get(g.agentGroupId, id))!.eInvoice!;
    const res = await fetch(`${stack().baseUrl}/v1/invoices/${id}/pdf`, { headers: { authorization: `Basic ${Buffer.from(`${g.apiKey}:`).toString('base64')}` } });
    expect(res.status).toBe(200);
    const path = join(dir, 'registered.pdf');
    writeFileSync(path, Buffer.from(await res.arrayBuffer()));
    expect(pdfText(path).replace(/\s+/g, '')).toContain(e.irn);
    expect(pdfText(path).replace(/\s+/g, ' ')).toContain(`Ack. No: ${e.ackNo}`);
    expect(scanQr(path)).toBe(e.signedQr);
  }, 120_000);
});
