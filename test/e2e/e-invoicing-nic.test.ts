import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { verifyIrpJws } from '../../infra/einvoice/irp-crypto.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { fakeIrpAt } from '../support/fake-irp.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { pdfText, scanQr } from '../support/pdf-scan.ts';
import { basicAuth, call, newAgentGroup, stack, testServices, type GroupFixture } from '../support/stack.ts';

/**
 * The shared test stack with the real portal adapter in the path: the world's registration is
 * the one GSTIN whose credentials the stack's IRP_CREDENTIALS holds, so its documents go over
 * HTTP to the fake IRP the global setup started (encrypted payloads, signed answers, sessions
 * sealed in DynamoDB Local); every other test's registrations stay on the sandbox IRP.
 */
const today = () => indiaToday(new Date());
const run = (g: GroupFixture) => call<{ invoiceIds: string[] }>('POST', '/v1/invoices', { key: g.apiKey, body: { from: addDays(today(), -30), to: today() } });
const stored = async (g: GroupFixture, id: string) => (await testServices().invoices.get(g.agentGroupId, id))!;
const irp = () => fakeIrpAt(stack().irp.url);
const dir = mkdtempSync(join(tmpdir(), 'e-invoicing-nic-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let world: InvoiceWorld;
beforeAll(async () => {
  world = await seedInvoiceWorld({ eInvoicing: true, supplierGstin: stack().irp.gstin });
}, 120_000);

async function billed(checkIn: string, gstin?: string): Promise<{ g: GroupFixture; bookingId: string }> {
  const g = await newAgentGroup({ channelId: world.channelId, ...(gstin ? { gstin } : {}) });
  return { g, bookingId: await bookStay(g, world.registered, checkIn, addDays(checkIn, 1)) };
}

describe('POST /v1/invoices on a registration whose IRP is the portal (the NIC adapter against the fake IRP over HTTP)', () => {
  it("registers the invoice and then the cancellation's credit note (the portal's IRN and signed QR, verified under its key, on the PDF); a void of that billing-raised note is refused, nothing changed", async () => {
    const { g, bookingId } = await billed('2027-03-01');
    const first = await run(g);
    expect(first.status, first.text).toBe(200);
    const id = first.body.invoiceIds[0]!;
    const issued = (await call<{ invoice: Record<string, unknown> }>('GET', `/v1/invoices/${id}`, { key: g.apiKey })).body.invoice;
    expect(issued).toMatchObject({ status: 'ISSUED', invoiceNumber: expect.stringMatching(/^I30\//) });
    const e = (await stored(g, id)).eInvoice!;
    expect(await irp().registrationOf(e.irn)).toMatchObject({ Irn: e.irn, AckDt: e.ackDate, AckNo: Number(e.ackNo), SignedQRCode: e.signedQr, Status: 'ACT' });
    expect(verifyIrpJws(stack().irp.signingPublicKeyPem, e.signedQr)).toMatchObject({
      Irn: e.irn,
      DocTyp: 'INV',
      DocNo: issued.invoiceNumber,
      SellerGstin: stack().irp.gstin,
    });
    const res = await fetch(`${stack().baseUrl}/v1/invoices/${id}/pdf`, { headers: { authorization: basicAuth(g.apiKey) } });
    expect(res.status).toBe(200);
    const path = join(dir, 'invoice.pdf');
    writeFileSync(path, Buffer.from(await res.arrayBuffer()));
    expect(pdfText(path).replace(/\s+/g, '')).toContain(e.irn);
    expect(scanQr(path)).toBe(e.signedQr);

    expect((await call('POST', `/v1/bookings/${bookingId}/cancel`, { key: g.apiKey, body: { reason: 'Guest changed plans' } })).status).toBe(200);
    expect((await run(g)).status).toBe(200);
    const list = (await call<{ data: { id: string; creditNoteFor: string | null }[] }>('GET', '/v1/invoices', { key: g.apiKey })).body.data;
    const note = await stored(g, list.find((i) => i.creditNoteFor === id)!.id);
    expect(note.eInvoice?.irn).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyIrpJws(stack().irp.signingPublicKeyPem, note.eInvoice!.signedQr)).toMatchObject({ DocTyp: 'CRN', DocNo: note.invoiceNumber });
    expect(await irp().registrationOf(note.eInvoice!.irn)).toMatchObject({ Status: 'ACT' });

    // A billing run's note carries the cancellation's refund, which the group is owed: no void, at the portal or here.
    const refused = await runAdminTool(['invoices', 'void', note.id, '--group', g.agentGroupId, '--reason', '3', '--json']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/raised by a billing run/);
    expect(await irp().registrationOf(note.eInvoice!.irn)).toMatchObject({ Status: 'ACT' });
    expect((await stored(g, note.id)).status).toBe('ISSUED');
  }, 180_000);

  it('a lost answer leaves the invoice DRAFT and the next run gets the registration as the duplicate (same IRN); the admin tool then voids it at the portal', async () => {
    const { g } = await billed('2027-03-02');
    await irp().loseAnswers(1);
    const first = await run(g);
    expect(first.status, first.text).toBe(200);
    const id = first.body.invoiceIds[0]!;
    expect(await stored(g, id)).toMatchObject({ status: 'DRAFT', lastError: expect.stringMatching(/the IRP is unavailable: no answer/) });
    expect((await run(g)).body.invoiceIds).toEqual([id]);
    const issued = await stored(g, id);
    expect(issued.status).toBe('ISSUED');
    expect(await irp().registrationOf(issued.eInvoice!.irn)).toMatchObject({ AckNo: Number(issued.eInvoice!.ackNo), SignedQRCode: issued.eInvoice!.signedQr });

    const voided = await runAdminTool(['invoices', 'void', id, '--group', g.agentGroupId, '--reason', '2', '--json']);
    expect(voided.code, voided.stderr).toBe(0);
    expect(JSON.parse(voided.stdout)).toMatchObject({
      status: 'CANCELLED',
      invoiceNumber: issued.invoiceNumber,
      eInvoice: { irn: issued.eInvoice!.irn, cancelReason: '2' },
    });
    expect(await irp().registrationOf(issued.eInvoice!.irn)).toMatchObject({ Status: 'CNL' });
  }, 180_000);

  it("a duplicate the portal no longer serves (2283) is held NEEDS_RECONCILIATION: listed, never sent again, and issued with the portal's record an operator gives `invoices reconcile`", async () => {
    const { g } = await billed('2027-03-04');
    await irp().loseAnswers(1);
    const id = (await run(g)).body.invoiceIds[0]!;
    const draft = await stored(g, id);
    expect(draft).toMatchObject({ status: 'DRAFT', invoiceNumber: expect.stringMatching(/^I30\//) });
    await irp().age(2 * 24 * 3600_000 + 60_000, draft.invoiceNumber!);
    await run(g);
    const held = await stored(g, id);
    expect(held).toMatchObject({
      status: 'DRAFT',
      eInvoiceHold: { kind: 'RECONCILE', irn: expect.stringMatching(/^[0-9a-f]{64}$/) },
      lastError: expect.stringContaining('needs reconciliation: 2150 Duplicate IRN'),
    });
    expect(held.lastError).toContain('2283');
    const irn = held.eInvoiceHold!.irn;
    const record = (await irp().registrationOf(irn))!;
    expect(held.eInvoiceHold).toMatchObject({ ackNo: String(record.AckNo), ackDate: record.AckDt });

    const list = await runAdminTool(['invoices', 'held', '--json']);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ agentGroupId: g.agentGroupId, invoiceId: id, invoiceNumber: draft.invoiceNumber, kind: 'RECONCILE', irn }),
      ]),
    );
    const state = await runAdminTool(['invoices', 'einvoice', id, '--group', g.agentGroupId, '--json']);
    expect(JSON.parse(state.stdout)).toMatchObject({ state: 'NEEDS_RECONCILIATION', hold: { kind: 'RECONCILE', irn, portalRecordGiven: false } });

    // Another run (the admin tool's: the partner's runs are throttled to two a minute) leaves it DRAFT, not sent again: the hold and its first time stay as they were.
    const adminRun = () => runAdminTool(['billing', 'run', '--group', g.agentGroupId, '--from', addDays(today(), -30), '--to', today(), '--json']);
    const third = await adminRun();
    expect(third.code, third.stderr).toBe(0);
    expect(JSON.parse(third.stdout)).toMatchObject({ invoiceIds: [id], draftsLeft: 1 });
    expect(await stored(g, id)).toMatchObject({ status: 'DRAFT', eInvoiceHold: held.eInvoiceHold, lastError: held.lastError });

    // A record of another document is refused, nothing changed; the portal's own record settles it.
    const wrong = join(dir, 'wrong.json');
    writeFileSync(wrong, JSON.stringify({ ...record, SignedQRCode: `${record.SignedQRCode.slice(0, -4)}AAAA` }));
    const refused = await runAdminTool(['invoices', 'reconcile', id, '--group', g.agentGroupId, '--file', wrong]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/does not settle/);
    const file = join(dir, 'irn.json');
    writeFileSync(file, JSON.stringify({ Data: record }));
    const settled = await runAdminTool(['invoices', 'reconcile', id, '--group', g.agentGroupId, '--file', file, '--json']);
    expect(settled.code, settled.stderr).toBe(0);
    expect(JSON.parse(settled.stdout)).toMatchObject({ hold: { irn, portalRecordGiven: true } });
    expect((await adminRun()).code).toBe(0);
    const issued = await stored(g, id);
    expect(issued).toMatchObject({
      status: 'ISSUED',
      invoiceNumber: draft.invoiceNumber,
      eInvoice: { irn, ackNo: String(record.AckNo), ackDate: record.AckDt, signedQr: record.SignedQRCode },
      lastError: null,
    });
    expect(issued.eInvoiceHold).toBeUndefined();
    expect(JSON.parse((await runAdminTool(['invoices', 'held', '--json'])).stdout)).not.toEqual(
      expect.arrayContaining([expect.objectContaining({ invoiceId: id })]),
    );
    expect((await runAdminTool(['invoices', 'reconcile', id, '--group', g.agentGroupId, '--send-again'])).code).not.toBe(0);
  }, 240_000);

  it("a registration whose signature does not verify under the stage's key (the portal rotated its certificate) is held SIGNATURE_UNVERIFIED with its IRN and acknowledgement, never sent again, and --send-again is refused", async () => {
    const { g } = await billed('2027-03-02');
    await irp().rotateSigningKey();
    try {
      const id = (await run(g)).body.invoiceIds[0]!;
      const held = await stored(g, id);
      expect(held).toMatchObject({
        status: 'DRAFT',
        eInvoiceHold: { kind: 'SIGNATURE', irn: expect.stringMatching(/^[0-9a-f]{64}$/) },
        lastError: expect.stringContaining("the IRP's signature does not verify"),
      });
      expect(held.eInvoice).toBeUndefined();
      const record = (await irp().registrationOf(held.eInvoiceHold!.irn))!;
      expect(held.eInvoiceHold).toMatchObject({
        ackNo: String(record.AckNo),
        ackDate: record.AckDt,
        signedQrCode: record.SignedQRCode,
        signedInvoice: record.SignedInvoice,
      });
      const state = await runAdminTool(['invoices', 'einvoice', id, '--group', g.agentGroupId, '--json']);
      expect(JSON.parse(state.stdout)).toMatchObject({ state: 'SIGNATURE_UNVERIFIED', registration: null });
      const again = await runAdminTool(['invoices', 'reconcile', id, '--group', g.agentGroupId, '--send-again']);
      expect(again.code).not.toBe(0);
      expect(again.stderr).toMatch(/never sent again/);
      // The next run verifies the kept tokens again (the stage still holds only the old key: held as before, its first time kept); the portal's registration is unchanged.
      const next = await runAdminTool(['billing', 'run', '--group', g.agentGroupId, '--from', addDays(today(), -30), '--to', today(), '--json']);
      expect(JSON.parse(next.stdout)).toMatchObject({ invoiceIds: [id], draftsLeft: 1 });
      expect(await stored(g, id)).toMatchObject({
        status: 'DRAFT',
        eInvoiceHold: { kind: 'SIGNATURE', since: held.eInvoiceHold!.since, irn: held.eInvoiceHold!.irn },
      });
      expect(await irp().registrationOf(held.eInvoiceHold!.irn)).toMatchObject({ AckNo: record.AckNo, SignedQRCode: record.SignedQRCode });
    } finally {
      await irp().restoreSigningKey();
    }
  }, 240_000);

  it("a document the portal rejects stays DRAFT with the portal's code; the portal down leaves one DRAFT and the next run registers it", async () => {
    const rejected = await billed('2027-03-03', '27AAACR1234R1Z5');
    await irp().refuse('27AAACR1234R1Z5', '2176', 'HSN code(s)-996311 is invalid');
    const r = await run(rejected.g);
    expect(r.status, r.text).toBe(200);
    expect(await stored(rejected.g, r.body.invoiceIds[0]!)).toMatchObject({
      status: 'DRAFT',
      lastError: expect.stringContaining('rejected by the IRP (2176): HSN code(s)-996311 is invalid'),
    });

    const down = await billed('2027-03-04');
    await irp().fault('down');
    let id: string;
    try {
      const d = await run(down.g);
      expect(d.status, d.text).toBe(200);
      id = d.body.invoiceIds[0]!;
      expect(await stored(down.g, id)).toMatchObject({ status: 'DRAFT', lastError: expect.stringContaining('HTTP 503') });
    } finally {
      await irp().fault(undefined);
    }
    expect((await run(down.g)).body.invoiceIds).toEqual([id]);
    const issued = await stored(down.g, id);
    expect(issued.status).toBe('ISSUED');
    expect(await irp().registrationOf(issued.eInvoice!.irn)).toMatchObject({ Status: 'ACT' });
  }, 180_000);
});
