import { testOrigin } from '../support/audit-origin.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { ConflictError } from '../../domain/errors.ts';
import { cutoffOf } from '../../domain/invoicing/billing-period.ts';
import type { Invoice } from '../../domain/invoicing/invoice.ts';
import { issueOperatorCreditNote } from '../../domain/invoicing/operator-credit-note.ts';
import { signedEInvoiceKeyOf } from '../../domain/invoicing/register-e-invoice.ts';
import { runBilling, type BillingRequest } from '../../domain/invoicing/run-billing.ts';
import { voidInvoice } from '../../domain/invoicing/void-invoice.ts';
import { gstr1Of } from '../../domain/receivables/gstr1.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { billingDeps } from '../../infra/container.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { DynamoIrpSessions } from '../../infra/dynamo/dynamo-irp-sessions.ts';
import { parseConfig } from '../../infra/config.ts';
import { verifyIrpJws } from '../../infra/einvoice/irp-crypto.ts';
import { NicEInvoiceRegistry } from '../../infra/einvoice/nic-e-invoice-registry.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { startFakeIrp, type FakeIrp } from '../support/fake-irp.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { newAgentGroup, stack, testServices } from '../support/stack.ts';

/**
 * Billing over a registration marked for e-invoicing with the real IRP adapter in the path:
 * the NIC adapter (infra/einvoice/nic-e-invoice-registry.ts) over HTTP to the fake IRP, its
 * sessions in DynamoDB Local (sealed, leased), invoices in the same table and S3. The IRP's
 * time (token expiry, the 24-hour window) is an injected clock shared by the adapter and the
 * fake; the billing engine runs on the real one.
 */
let irpNow = Date.now();
const irpClock = { now: () => new Date(irpNow) };
const advance = (ms: number) => void (irpNow += ms);
const renderer = new PdfInvoiceRenderer();
const today = () => indiaToday(new Date());
const request = (): BillingRequest => ({ period: { from: addDays(today(), -30), to: today() }, cutoff: cutoffOf(today()), trigger: 'ADMIN' });

let world: InvoiceWorld;
let fake: FakeIrp;
let nic: NicEInvoiceRegistry;
const deps = () => ({ ...billingDeps(testServices(), renderer), eInvoices: nic });
const voidDeps = () => ({ invoices: testServices().invoices, eInvoices: nic, clock: irpClock });
const invoice = async (g: string, id: string): Promise<Invoice> => (await testServices().invoices.get(g, id))!;
const tokens = () => fake.tokensIssued();

beforeAll(async () => {
  world = await seedInvoiceWorld({ eInvoicing: true });
  fake = await startFakeIrp({
    clock: irpClock,
    users: [{ gstin: world.supplierGstin, clientId: 'client-30', clientSecret: 'secret-30', userName: 'api_30', password: 'Pass@30' }],
  });
  const cfg = parseConfig(stack().env);
  nic = new NicEInvoiceRegistry(
    {
      [world.supplierGstin]: {
        baseUrl: fake.url,
        clientId: 'client-30',
        clientSecret: 'secret-30',
        userName: 'api_30',
        password: 'Pass@30',
        publicKeyPem: fake.encryptionPublicKeyPem,
        signingKeyPem: fake.signingPublicKeyPem,
      },
    },
    new DynamoIrpSessions(createDocumentClient(cfg), cfg.tableName, testServices().secrets),
    irpClock,
  );
}, 120_000);
afterAll(() => fake?.close());

async function billedGroup(checkIn: string, overrides: { gstin?: string } = {}) {
  const g = await newAgentGroup({ channelId: world.channelId, ...overrides });
  await bookStay(g, world.registered, checkIn, addDays(checkIn, 1));
  return { agentGroupId: g.agentGroupId, group: (await testServices().tenants.getAgentGroup(g.agentGroupId))! };
}

describe('Billing with the NIC adapter against the fake IRP', () => {
  it("registers the invoice and an operator's credit note: IRN, acknowledgement and signed QR verified under the portal's key, the signed invoice kept beside the PDF", async () => {
    const { agentGroupId: g, group } = await billedGroup('2027-03-01');
    const result = await runBilling(deps(), group, request(), testOrigin());
    const issued = await invoice(g, result.invoiceIds[0]!);
    expect(issued.status).toBe('ISSUED');
    const e = issued.eInvoice!;
    expect(verifyIrpJws(fake.signingPublicKeyPem, e.signedQr)).toMatchObject({ Irn: e.irn, DocNo: issued.invoiceNumber, DocTyp: 'INV', SellerGstin: world.supplierGstin });
    expect(fake.registrationOf(e.irn)).toMatchObject({ AckDt: e.ackDate, SignedQRCode: e.signedQr });
    const signed = await testServices().documents.get(signedEInvoiceKeyOf(issued));
    expect(new TextDecoder().decode(signed!)).toBe(fake.registrationOf(e.irn)!.SignedInvoice);

    const lines = await testServices().invoices.lines(g, issued.id);
    const outcome = await issueOperatorCreditNote({ ...deps(), tenants: testServices().tenants }, g, issued.id, [{ lineId: lines[0]!.id }], 'Pool closed');
    const note = await invoice(g, outcome.creditNote.id);
    expect(verifyIrpJws(fake.signingPublicKeyPem, note.eInvoice!.signedQr)).toMatchObject({ DocTyp: 'CRN', DocNo: note.invoiceNumber });
  }, 120_000);

  it('a lost answer comes back on the next run as the duplicate, with the same IRN and acknowledgement', async () => {
    const { agentGroupId: g, group } = await billedGroup('2027-03-02');
    fake.loseAnswers(1);
    const first = await runBilling(deps(), group, request(), testOrigin());
    const draft = await invoice(g, first.invoiceIds[0]!);
    expect(draft.status).toBe('DRAFT');
    expect(draft.lastError).toMatch(/the IRP is unavailable: no answer/);
    await runBilling(deps(), group, request(), testOrigin());
    const issued = await invoice(g, draft.id);
    expect(issued.status).toBe('ISSUED');
    expect(issued.invoiceNumber).toBe(draft.invoiceNumber);
    expect(fake.registrationOf(issued.eInvoice!.irn)).toMatchObject({ AckNo: Number(issued.eInvoice!.ackNo), SignedQRCode: issued.eInvoice!.signedQr });
  }, 120_000);

  it("a rejected document stays DRAFT with the portal's code; the portal down leaves it DRAFT and the next run registers it", async () => {
    const rejected = await billedGroup('2027-03-03', { gstin: '27AAACR1234R1Z5' });
    fake.refuse('27AAACR1234R1Z5', '2176', 'HSN code(s)-996311 is invalid');
    const r = await runBilling(deps(), rejected.group, request(), testOrigin());
    expect(await invoice(rejected.agentGroupId, r.invoiceIds[0]!)).toMatchObject({
      status: 'DRAFT',
      invoiceNumber: expect.stringMatching(/^30\//),
      lastError: expect.stringContaining('rejected by the IRP (2176): HSN code(s)-996311 is invalid'),
    });

    const down = await billedGroup('2027-03-04');
    fake.fault = 'down';
    try {
      const d = await runBilling(deps(), down.group, request(), testOrigin());
      expect(await invoice(down.agentGroupId, d.invoiceIds[0]!)).toMatchObject({ status: 'DRAFT', lastError: expect.stringContaining('HTTP 503') });
    } finally {
      fake.fault = undefined;
    }
    const next = await runBilling(deps(), down.group, request(), testOrigin());
    expect(next.draftsLeft).toBe(0);
    const [id] = (await testServices().invoices.list(down.agentGroupId, { statuses: ['ISSUED'], limit: 5 })).invoices.map((i) => i.id);
    expect((await invoice(down.agentGroupId, id!)).eInvoice?.irn).toMatch(/^[0-9a-f]{64}$/);
  }, 180_000);

  it('a token refused mid-run (revoked or expired at the portal) signs in again exactly once', async () => {
    const { group } = await billedGroup('2027-03-06');
    await runBilling(deps(), group, request(), testOrigin());
    const before = tokens();
    fake.revokeTokens();
    const second = await billedGroup('2027-03-07');
    const out = await runBilling(deps(), second.group, request(), testOrigin());
    expect(out.draftsLeft).toBe(0);
    expect(tokens() - before).toBe(1);
  }, 120_000);

  it('12 concurrent runs of different groups, the session expired, share one sign-in (no refresh storm)', async () => {
    const groups = await Promise.all(Array.from({ length: 12 }, () => billedGroup('2027-03-08')));
    advance(361 * 60_000);
    const before = tokens();
    const authBefore = fake.calls.filter((c) => c.path === '/eivital/v1.03/auth').length;
    const results = await Promise.all(groups.map((g) => runBilling(deps(), g.group, request(), testOrigin())));
    for (const [i, r] of results.entries()) expect((await invoice(groups[i]!.agentGroupId, r.invoiceIds[0]!)).status).toBe('ISSUED');
    expect(tokens() - before).toBe(1);
    expect(fake.calls.filter((c) => c.path === '/eivital/v1.03/auth').length - authBefore).toBe(1);
  }, 240_000);

  it('voids within 24 hours: IRN cancelled at the portal, CANCELLED keeping its number, bookings billed again on the next number, GSTR-1 counts it cancelled; after 24 hours refused, nothing changed', async () => {
    const { agentGroupId: g, group } = await billedGroup('2027-03-09');
    const first = await runBilling(deps(), group, request(), testOrigin());
    const issued = await invoice(g, first.invoiceIds[0]!);
    advance(3600_000);
    const voided = await voidInvoice(voidDeps(), g, issued.id, '2', 'Wrong GSTIN on the bill-to');
    expect(voided).toMatchObject({ status: 'CANCELLED', invoiceNumber: issued.invoiceNumber, eInvoice: { irn: issued.eInvoice!.irn, cancelReason: '2', cancelRemark: 'Wrong GSTIN on the bill-to' } });
    expect(fake.registrationOf(issued.eInvoice!.irn)!.Status).toBe('CNL');
    expect((await testServices().invoices.list(g, { statuses: ['ISSUED', 'PAID'], limit: 10 })).invoices).toEqual([]);
    const cancelled = await testServices().invoices.cancelledDocuments(world.supplierGstin, issued.issueDate!, issued.issueDate!);
    expect(cancelled.map((i) => i.invoiceNumber)).toContain(issued.invoiceNumber);

    const rebilled = await runBilling(deps(), group, request(), testOrigin());
    const fresh = await invoice(g, rebilled.invoiceIds[0]!);
    expect(fresh.status).toBe('ISSUED');
    expect(fresh.total).toBe(issued.total);
    expect(fresh.invoiceNumber! > issued.invoiceNumber!).toBe(true);
    const gstr1 = gstr1Of(world.supplierGstin, issued.issueDate!.slice(0, 7), [{ invoice: fresh, lines: [] }], cancelled);
    expect(gstr1.cancelled).toContain(issued.invoiceNumber);

    advance(25 * 3600_000);
    const late = await voidInvoice(voidDeps(), g, fresh.id, '2', 'too late').catch((e: unknown) => e);
    expect(late).toBeInstanceOf(ConflictError);
    expect((late as Error).message).toMatch(/24-hour window .* closed .* A credit note is the only way/);
    expect(await invoice(g, fresh.id)).toMatchObject({ status: 'ISSUED', eInvoice: { irn: fresh.eInvoice!.irn } });
    expect(fake.registrationOf(fresh.eInvoice!.irn)!.Status).toBe('ACT');
  }, 180_000);
});
