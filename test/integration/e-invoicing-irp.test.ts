import { TEST_OPERATOR, testOrigin } from '../support/audit-origin.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyChain } from '../../domain/audit/audit-event.ts';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { ConflictError } from '../../domain/errors.ts';
import { cutoffOf } from '../../domain/invoicing/billing-period.ts';
import type { Invoice, InvoiceLine } from '../../domain/invoicing/invoice.ts';
import { issueOperatorCreditNote } from '../../domain/invoicing/operator-credit-note.ts';
import { eInvoiceStatus, signedEInvoiceKeyOf } from '../../domain/invoicing/register-e-invoice.ts';
import { reissuePastWindow } from '../../domain/invoicing/reissue-past-window.ts';
import { runBilling, type BillingRequest } from '../../domain/invoicing/run-billing.ts';
import { syncCatalogue } from '../../domain/sync/sync-catalogue.ts';
import { voidInvoice } from '../../domain/invoicing/void-invoice.ts';
import { gstr1Of } from '../../domain/receivables/gstr1.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { billingDeps, buildServices, syncDeps, type Services } from '../../infra/container.ts';
import { sha256Hex } from '../../infra/crypto/api-keys.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { DynamoIrpSessions } from '../../infra/dynamo/dynamo-irp-sessions.ts';
import { inParallel } from '../../infra/dynamo/in-parallel.ts';
import { parseConfig } from '../../infra/config.ts';
import { verifyIrpJws } from '../../infra/einvoice/irp-crypto.ts';
import { NicEInvoiceRegistry } from '../../infra/einvoice/nic-e-invoice-registry.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { provisionQueues } from '../../scripts/local-stack.ts';
import { amendStay, cancelStay, placeStay } from '../support/booking-world.ts';
import { expectFiguresAgree, paise } from '../support/e-invoice-figures.ts';
import { startFakeIrp, type FakeIrp, type FakeIrpUser } from '../support/fake-irp.ts';
import { bookStay, seedInvoiceWorld, testGstin, type InvoiceWorld } from '../support/invoice-world.ts';
import { newAgentGroup, stack, testServices, uniqueId } from '../support/stack.ts';

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
/** A registration no process has signed in for yet (no stored session). */
const firstSignInGstin = testGstin('29');
const credential = (n: string) => ({
  baseUrl: fake.url,
  clientId: `client-${n}`,
  clientSecret: `secret-${n}`,
  userName: `api_${n}`,
  password: `Pass@${n}`,
  publicKeyPem: fake.encryptionPublicKeyPem,
  signingKeyPem: fake.signingPublicKeyPem,
});
/**
 * One process's adapter (a Lambda's): its own instance, the stage's sessions in DynamoDB Local.
 * Its wall-clock limits (a call's 15 s, a waiter's 30 s for another's sign-in) only guard
 * against a hang here: twelve runs rendering their PDFs in this process on a loaded machine
 * held the fake portal's answers past 15 s and left an invoice DRAFT, a verdict the machine's
 * speed must not decide. The portal's own time is `irpClock`.
 */
function adapter(credentials: Record<string, ReturnType<typeof credential>>): NicEInvoiceRegistry {
  const cfg = parseConfig(stack().env);
  return new NicEInvoiceRegistry(credentials, new DynamoIrpSessions(createDocumentClient(cfg), cfg.tableName, testServices().secrets), irpClock, {
    timeoutMs: 180_000,
    leaseMs: 180_000,
  });
}
let fake: FakeIrp;
let nic: NicEInvoiceRegistry;
const deps = () => ({ ...billingDeps(testServices(), renderer), eInvoices: nic });
const voidDeps = () => ({
  invoices: testServices().invoices,
  creditNotes: testServices().creditNotes,
  eInvoices: nic,
  clock: irpClock,
  ids: testServices().ids,
});
let workerServices: Services | undefined;
/**
 * The billing worker's wiring (scheduled runs and their fan-out, POST /v1/billing-runs): issued
 * documents' PDFs go to the PDF queue, here a fauxqs queue of this file's own that nothing
 * polls, instead of being rendered in this process as the admin tool does (`deps`). For the
 * tests of many runs that assert nothing of the PDF: rendering was a third of their billing time.
 */
async function workerDeps() {
  if (!workerServices) {
    const name = uniqueId('irp-pdf');
    const queueUrl = (await provisionQueues(stack().env.SQS_ENDPOINT!, [name]))[name]!;
    workerServices = buildServices(parseConfig({ ...stack().env, PDF_QUEUE_URL: queueUrl }));
  }
  return { ...billingDeps(workerServices), eInvoices: nic };
}
const invoice = async (g: string, id: string): Promise<Invoice> => (await testServices().invoices.get(g, id))!;
const trail = (target: string) => testServices().auditTrail.listTarget(target);
const tokens = () => fake.tokensIssued();

/**
 * A fresh lean world (the registered state's listing only: no test here books another) whose
 * registration (`tag`) is onboarded at the portal, and billing deps reaching the portal with its credentials.
 */
async function onboarded(tag: string, opts: Parameters<typeof seedInvoiceWorld>[0] = {}) {
  const w = await seedInvoiceWorld({ eInvoicing: true, lean: true, ...opts });
  irpUsers.push({
    gstin: w.supplierGstin,
    clientId: `client-${tag}`,
    clientSecret: `secret-${tag}`,
    userName: `api_${tag}`,
    password: `Pass@${tag}`,
    ...(opts.irpReportingWindow ? { reportingWindow: true } : {}),
  });
  return { w, irp: { ...deps(), eInvoices: adapter({ [w.supplierGstin]: credential(tag) }) } };
}

const ddmmyyyy = (iso: string) => iso.split('-').reverse().join('/');

/**
 * A credit note registered at the portal: Typ CRN under its own number and date, naming the
 * invoice it corrects by number and date (INV-01 3.1, `RefDtls.PrecDocDtls`), its signed QR
 * verified, and its figures equal three ways (e-invoice, stored note, GSTR-1 cdnr).
 */
function expectCreditNoteRegistered(note: Invoice, corrected: Invoice, lines: readonly InvoiceLine[]): void {
  const registration = fake.registrationOf(note.eInvoice!.irn)!;
  expect(registration.doc.DocDtls).toEqual({ Typ: 'CRN', No: note.invoiceNumber, Dt: ddmmyyyy(note.issueDate!) });
  expect(registration.doc.RefDtls.PrecDocDtls).toEqual([{ InvNo: corrected.invoiceNumber, InvDt: ddmmyyyy(corrected.issueDate!) }]);
  expect(verifyIrpJws(fake.signingPublicKeyPem, note.eInvoice!.signedQr)).toMatchObject({ DocTyp: 'CRN', DocNo: note.invoiceNumber, Irn: note.eInvoice!.irn });
  expectFiguresAgree(note, lines, registration.doc, 'cdnr');
  // Nothing is netted on a credit note: each item is one stored line, to the paisa.
  const figures = (rows: (readonly number[])[]) => rows.map((r) => r.join('/')).sort();
  expect(
    figures(registration.doc.ItemList.map((i) => [i.GstRt, paise(i.AssAmt), paise(i.CgstAmt), paise(i.SgstAmt), paise(i.IgstAmt), paise(i.TotItemVal)])),
  ).toEqual(figures(lines.map((l) => [l.gstRate, l.taxableValue, l.cgst, l.sgst, l.igst, l.lineTotal])));
}

/** The portal's API users; a test adds the registrations it onboards. */
const irpUsers: FakeIrpUser[] = [];
beforeAll(async () => {
  world = await seedInvoiceWorld({ eInvoicing: true, lean: true });
  irpUsers.push(
    { gstin: world.supplierGstin, clientId: 'client-30', clientSecret: 'secret-30', userName: 'api_30', password: 'Pass@30' },
    { gstin: firstSignInGstin, clientId: 'client-29', clientSecret: 'secret-29', userName: 'api_29', password: 'Pass@29' },
  );
  fake = await startFakeIrp({
    clock: irpClock,
    users: irpUsers,
    taxpayers: [
      {
        Gstin: '27AAPFU0939F1ZV',
        TradeName: 'Test Agents',
        LegalName: 'Test Agents Pvt Ltd',
        AddrBnm: null,
        AddrBno: '1',
        AddrFlno: null,
        AddrSt: 'Test Road',
        AddrLoc: 'Mumbai',
        StateCode: 27,
        AddrPncd: 400001,
        TxpType: 'REG',
        Status: 'ACT',
        BlkStatus: 'U',
      },
    ],
  });
  nic = adapter({ [world.supplierGstin]: credential('30') });
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
    expect(verifyIrpJws(fake.signingPublicKeyPem, e.signedQr)).toMatchObject({
      Irn: e.irn,
      DocNo: issued.invoiceNumber,
      DocTyp: 'INV',
      SellerGstin: world.supplierGstin,
    });
    expect(fake.registrationOf(e.irn)).toMatchObject({ AckDt: e.ackDate, SignedQRCode: e.signedQr });
    const signed = await testServices().documents.get(signedEInvoiceKeyOf(issued));
    expect(new TextDecoder().decode(signed!)).toBe(fake.registrationOf(e.irn)!.SignedInvoice);

    const lines = await testServices().invoices.lines(g, issued.id);
    const outcome = await issueOperatorCreditNote(
      { ...deps(), tenants: testServices().tenants },
      g,
      issued.id,
      [{ lineId: lines[0]!.id }],
      'Pool closed',
      TEST_OPERATOR,
    );
    const note = await invoice(g, outcome.creditNote.id);
    expect(verifyIrpJws(fake.signingPublicKeyPem, note.eInvoice!.signedQr)).toMatchObject({ DocTyp: 'CRN', DocNo: note.invoiceNumber });
    expectCreditNoteRegistered(note, issued, await testServices().invoices.lines(g, note.id));
  }, 120_000);

  it("a billing run's credit note for an invoiced booking whose price fell (cancelled, 60 % refunded, the rest stays billed): registered as CRN naming the invoice; e-invoice = stored credit note = GSTR-1 cdnr, to the paisa", async () => {
    const { w, irp } = await onboarded('r60', { refundPercentage: 60 });
    const fixture = await newAgentGroup({ channelId: w.channelId });
    const bookingId = await bookStay(fixture, w.registered, '2027-03-06', '2027-03-08');
    const group = (await testServices().tenants.getAgentGroup(fixture.agentGroupId))!;
    const g = fixture.agentGroupId;
    const issued = await invoice(g, (await runBilling(irp, group, request(), testOrigin())).invoiceIds[0]!);
    expect(issued.status).toBe('ISSUED');
    const invoiceLines = await testServices().invoices.lines(g, issued.id);
    expectFiguresAgree(issued, invoiceLines, fake.registrationOf(issued.eInvoice!.irn)!.doc, 'b2b');

    expect((await cancelStay(fixture, bookingId)).booking.status).toBe('CANCELLED');
    const run = await runBilling(irp, group, request(), testOrigin());
    const note = await invoice(g, run.invoiceIds[0]!);
    expect(note, note.lastError ?? '').toMatchObject({ status: 'ISSUED', creditNoteFor: issued.id, lastError: null });
    // 60 % of what was paid comes back; what stays billed is the retained 40 %, exactly.
    expect(note.total).toBe(Math.round((issued.total * 60) / 100));
    const noteLines = await testServices().invoices.lines(g, note.id);
    expect(noteLines.length).toBe(invoiceLines.length);
    expectCreditNoteRegistered(note, issued, noteLines);
  }, 180_000);

  it("an amendment that lowered the price (rates rose since booking, a night taken off: the drift absorbed is a negative ADJUSTMENT line) is registered with that line netted into its booking's items before tax: ItemList and ValDtls = stored invoice = GSTR-1 b2b, no discount after tax", async () => {
    const { w, irp } = await onboarded('amend');
    const fixture = await newAgentGroup({ channelId: w.channelId });
    const booked = await placeStay(fixture, w.registered, '2027-03-06', '2027-03-09');
    expect(booked.status).toBe('CONFIRMED');
    const propertyId = booked.chargeLines![0]!.propertyId;
    await syncCatalogue(syncDeps(testServices()), {
      version: 1,
      catalogue: { rates: [{ propertyId, from: '2027-03-06', to: '2027-03-09', mealPlan: 'EP', adults: { '1': 4_000, '2': 5_200 } }] },
    });
    const amended = await amendStay(fixture, booked.bookingId!, { checkOut: '2027-03-08' });
    // Three nights charged 15,750; at today's 5,200 they would be 16,380 (630 of drift absorbed); one night off at today's rate, 5,460.
    expect(amended.amendment.money).toMatchObject({ previousTotal: 15_750_00, amendmentDelta: -5_460_00, rateDriftAbsorbed: 630_00, newTotal: 10_290_00 });

    const group = (await testServices().tenants.getAgentGroup(fixture.agentGroupId))!;
    const run = await runBilling(irp, group, request(), testOrigin());
    const issued = await invoice(fixture.agentGroupId, run.invoiceIds[0]!);
    expect(issued, issued.lastError ?? '').toMatchObject({ status: 'ISSUED', total: 10_290_00, lastError: null });
    const lines = await testServices().invoices.lines(fixture.agentGroupId, issued.id);
    const lowering = lines.filter((l) => l.lineTotal < 0);
    expect(lowering.map((l) => [l.lineKind, l.taxableValue, l.cgst + l.sgst + l.igst])).toEqual([['ADJUSTMENT', -600_00, -30_00]]);

    const sent = fake.registrationOf(issued.eInvoice!.irn)!.doc;
    // The portal sees the stay's items lowered before tax (TotAmt − Discount = AssAmt), never a negative item or a discount after tax.
    expect(sent.ItemList.every((i) => i.AssAmt > 0 && i.Discount >= 0 && i.TotItemVal > 0)).toBe(true);
    expect(sent.ItemList.reduce((t, i) => t + Math.round(i.Discount * 100), 0)).toBe(600_00);
    expect(sent.ItemList).toHaveLength(lines.length - lowering.length);
    expect(sent.ValDtls).toMatchObject({ AssVal: 9_800, Discount: 0, TotInvVal: 10_290 });
    expectFiguresAgree(issued, lines, sent, 'b2b');
    // Invoiced, the booking's price can no longer be lowered by an amendment: a credit note is the way (the tests above).
    await expect(amendStay(fixture, booked.bookingId!, { checkOut: '2027-03-07' })).rejects.toMatchObject({ code: 'BOOKING_INVOICED' });
  }, 180_000);

  it('registers an invoice of a registration in every state code 01–38 (numbers the portal accepts), one to a name with quotes; e-invoice ValDtls = stored figures = GSTR-1, the name cleaned only in the e-invoice', async () => {
    const codes = Array.from({ length: 38 }, (_, i) => String(i + 1).padStart(2, '0'));
    const worker = await workerDeps();
    // Each state is its own lean world (one listing, its registration), group and adapter:
    // independent, so a few run at once and the file waits on DynamoDB Local and the fake portal
    // for several at a time.
    await inParallel(codes, 4, async (code) => {
      const { w, irp: onboard } = await onboarded(`s${code}`, { stateCode: code });
      const irp = { ...worker, eInvoices: onboard.eInvoices };
      const quoted = code === '07';
      const fixture = await newAgentGroup({ channelId: w.channelId, ...(quoted ? { legalName: 'Sea "Breeze" Travels \\ Co' } : {}) });
      await bookStay(fixture, w.registered, '2027-03-02', '2027-03-03');
      const group = (await testServices().tenants.getAgentGroup(fixture.agentGroupId))!;
      const run = await runBilling(irp, group, request(), testOrigin());
      const issued = await invoice(fixture.agentGroupId, run.invoiceIds[0]!);
      expect(issued, `state ${code}: ${issued.lastError}`).toMatchObject({ status: 'ISSUED', supplierStateCode: code });
      expect(issued.invoiceNumber).toMatch(new RegExp(`^I${code}/\\d\\d-\\d\\d/\\d{6}$`));
      const sent = fake.registrationOf(issued.eInvoice!.irn)!.doc;
      expect(sent.DocDtls.No).toBe(issued.invoiceNumber);
      expectFiguresAgree(issued, await testServices().invoices.lines(fixture.agentGroupId, issued.id), sent, 'b2b');
      if (quoted) {
        expect(issued.billToName).toBe('Sea "Breeze" Travels \\ Co');
        expect(sent.BuyerDtls.LglNm).toBe("Sea 'Breeze' Travels / Co");
      }
    });
  }, 900_000);

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
      invoiceNumber: expect.stringMatching(/^I30\//),
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

  it('with no stored session, 12 processes asking at once sign in exactly once and all use that session', async () => {
    const processes = Array.from({ length: 12 }, () => adapter({ [firstSignInGstin]: credential('29') }));
    const signIns = () => fake.calls.filter((c) => c.path === '/eivital/v1.04/auth' && c.gstin === firstSignInGstin).length;
    expect(signIns()).toBe(0);
    const answers = await Promise.all(processes.map((p) => p.taxpayer('27AAPFU0939F1ZV')));
    expect(answers.every((a) => a.legalName === 'Test Agents Pvt Ltd' && a.status === 'ACT')).toBe(true);
    expect(signIns()).toBe(1);
    const looked = fake.calls.filter((c) => c.path === '/eivital/v1.03/Master/gstin/27AAPFU0939F1ZV' && c.gstin === firstSignInGstin);
    expect(looked).toHaveLength(12);
  }, 120_000);

  it('12 concurrent runs of different groups, the session expired, share one sign-in (no refresh storm)', async () => {
    const groups = await Promise.all(Array.from({ length: 12 }, () => billedGroup('2027-03-08')));
    advance(361 * 60_000);
    const before = tokens();
    const authBefore = fake.calls.filter((c) => c.path === '/eivital/v1.04/auth').length;
    const worker = await workerDeps();
    const results = await Promise.all(groups.map((g) => runBilling(worker, g.group, request(), testOrigin())));
    for (const [i, r] of results.entries())
      expect((await invoice(groups[i]!.agentGroupId, r.invoiceIds[0]!)).status, `run ${i}: ${JSON.stringify(r)}`).toBe('ISSUED');
    expect(tokens() - before).toBe(1);
    expect(fake.calls.filter((c) => c.path === '/eivital/v1.04/auth').length - authBefore).toBe(1);
  }, 240_000);

  it('voids within 24 hours: IRN cancelled at the portal, CANCELLED keeping its number, bookings billed again on the next number, GSTR-1 counts it cancelled; after 24 hours refused, nothing changed', async () => {
    const { agentGroupId: g, group } = await billedGroup('2027-03-09');
    const first = await runBilling(deps(), group, request(), testOrigin());
    const issued = await invoice(g, first.invoiceIds[0]!);
    advance(3600_000);
    const voided = await voidInvoice(voidDeps(), g, issued.id, '2', 'Wrong GSTIN on the bill-to', TEST_OPERATOR);
    expect(voided).toMatchObject({
      status: 'CANCELLED',
      invoiceNumber: issued.invoiceNumber,
      eInvoice: { irn: issued.eInvoice!.irn, cancelReason: '2', cancelRemark: 'Wrong GSTIN on the bill-to' },
    });
    // The operator's event, in the status change's transaction: only what moved, the reason code and never the remark.
    expect((await trail(`invoice:${issued.id}`)).map((e) => [e.action, e.actor, e.before, e.after])).toEqual([
      [
        'invoice.voided',
        TEST_OPERATOR.actor,
        { status: 'ISSUED', irpCancelDate: null, irpCancelReason: null },
        { status: 'CANCELLED', irpCancelDate: voided.eInvoice!.cancelledAt, irpCancelReason: '2' },
      ],
    ]);
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
    const late = await voidInvoice(voidDeps(), g, fresh.id, '2', 'too late', TEST_OPERATOR).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(ConflictError);
    expect((late as Error).message).toMatch(/24-hour window .* closed .* A credit note is the only way/);
    expect(await invoice(g, fresh.id)).toMatchObject({ status: 'ISSUED', eInvoice: { irn: fresh.eInvoice!.irn } });
    expect(fake.registrationOf(fresh.eInvoice!.irn)!.Status).toBe('ACT');
    expect(await trail(`invoice:${fresh.id}`)).toEqual([]);
  }, 180_000);

  it("voids an operator's credit note within 24 hours: its IRN cancelled, CANCELLED keeping its number, its credit back on the invoice and the line creditable again; after 24 hours refused, nothing changed", async () => {
    const { agentGroupId: g, group } = await billedGroup('2027-03-03');
    const billed = await runBilling(deps(), group, request(), testOrigin());
    const issued = await invoice(g, billed.invoiceIds[0]!);
    const [line] = await testServices().invoices.lines(g, issued.id);
    const raise = async (reason: string) =>
      (await issueOperatorCreditNote({ ...deps(), tenants: testServices().tenants }, g, issued.id, [{ lineId: line!.id }], reason, TEST_OPERATOR)).creditNote;
    const note = await invoice(g, (await raise('Pool closed')).id);
    expect(note).toMatchObject({ status: 'ISSUED', creditNoteFor: issued.id, creditReleased: 0, eInvoice: { irn: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect((await invoice(g, issued.id)).creditedAmount).toBe(note.total);

    advance(3600_000);
    const voided = await voidInvoice(voidDeps(), g, note.id, '1', 'Raised twice', TEST_OPERATOR);
    expect(voided).toMatchObject({
      status: 'CANCELLED',
      invoiceNumber: note.invoiceNumber,
      eInvoice: { irn: note.eInvoice!.irn, cancelReason: '1', cancelRemark: 'Raised twice' },
    });
    expect(fake.registrationOf(note.eInvoice!.irn)!.Status).toBe('CNL');
    expect(await invoice(g, issued.id)).toMatchObject({ status: 'ISSUED', creditedAmount: 0 });
    const cancelled = await testServices().invoices.cancelledDocuments(world.supplierGstin, note.issueDate!, note.issueDate!);
    expect(cancelled.map((i) => i.invoiceNumber)).toContain(note.invoiceNumber);
    expect((await testServices().invoices.list(g, { statuses: ['ISSUED', 'PAID'], limit: 10 })).invoices.map((i) => i.id)).toEqual([issued.id]);

    // The whole line is creditable again: a second note takes all of it, on the next number of the series.
    const again = await invoice(g, (await raise('Pool closed, raised once')).id);
    expect(again.total).toBe(note.total);
    expect(again.invoiceNumber! > note.invoiceNumber!).toBe(true);
    advance(25 * 3600_000);
    const late = await voidInvoice(voidDeps(), g, again.id, '1', 'too late', TEST_OPERATOR).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(ConflictError);
    expect((late as Error).message).toMatch(/24-hour window .* closed .* Raise a fresh invoice/);
    expect(await invoice(g, again.id)).toMatchObject({ status: 'ISSUED' });
    expect(await invoice(g, issued.id)).toMatchObject({ creditedAmount: again.total });
    expect(fake.registrationOf(again.eInvoice!.irn)!.Status).toBe('ACT');
    // The invoice's chain: each note raised and the one voided, what it owed before and after; the refused void wrote nothing.
    const events = await trail(`invoice:${issued.id}`);
    expect(events.map((e) => [e.action, e.before, e.after])).toEqual([
      [
        'credit-note.raised',
        { creditedAmount: 0, raisedCreditNoteId: null, raisedCreditNoteNumber: null, raisedCreditNoteTotal: null },
        { creditedAmount: note.total, raisedCreditNoteId: note.id, raisedCreditNoteNumber: note.invoiceNumber, raisedCreditNoteTotal: note.total },
      ],
      [
        'credit-note.voided',
        {
          creditedAmount: note.total,
          voidedCreditNoteId: null,
          voidedCreditNoteNumber: null,
          voidedCreditNoteTotal: null,
          irpCancelDate: null,
          irpCancelReason: null,
        },
        {
          creditedAmount: 0,
          voidedCreditNoteId: note.id,
          voidedCreditNoteNumber: note.invoiceNumber,
          voidedCreditNoteTotal: note.total,
          irpCancelDate: voided.eInvoice!.cancelledAt,
          irpCancelReason: '1',
        },
      ],
      [
        'credit-note.raised',
        { creditedAmount: 0, raisedCreditNoteId: null, raisedCreditNoteNumber: null, raisedCreditNoteTotal: null },
        { creditedAmount: again.total, raisedCreditNoteId: again.id, raisedCreditNoteNumber: again.invoiceNumber, raisedCreditNoteTotal: again.total },
      ],
    ]);
    expect(JSON.stringify(events)).not.toContain('Pool closed');
    const chain = await testServices().auditTrail.readChain(`invoice:${issued.id}`);
    expect(verifyChain(`invoice:${issued.id}`, chain.events, chain.head, sha256Hex)).toBeNull();
  }, 180_000);
  it('reissues an invoice past its 30-day reporting window: its number CANCELLED (kept, GSTR-1 table 13), its charges billed at once on a new number dated the day it is reported and registered at the portal; audited; refused, changing nothing, for a document not past the window', async () => {
    const { w, irp } = await onboarded('window', { irpReportingWindow: true });
    const billed = async (checkIn: string) => {
      const fixture = await newAgentGroup({ channelId: w.channelId });
      await bookStay(fixture, w.registered, checkIn, addDays(checkIn, 1));
      return { g: fixture.agentGroupId, group: (await testServices().tenants.getAgentGroup(fixture.agentGroupId))! };
    };
    const registered = await billed('2027-03-01');
    const issued = await invoice(registered.g, (await runBilling(irp, registered.group, request(), testOrigin())).invoiceIds[0]!);
    expect(issued.status).toBe('ISSUED');
    const { g, group } = await billed('2027-03-02');
    fake.fault = 'down';
    let draft: Invoice;
    try {
      draft = await invoice(g, (await runBilling(irp, group, request(), testOrigin())).invoiceIds[0]!);
    } finally {
      fake.fault = undefined;
    }
    expect(draft).toMatchObject({ status: 'DRAFT', invoiceNumber: expect.stringMatching(/^I30\//), issueDate: today() });
    const refused = async (d: typeof irp, grp: typeof group, id: string, state: string) => {
      const [before, events] = [await invoice(grp.agentGroupId, id), await trail(`invoice:${id}`)];
      const err = await reissuePastWindow(d, grp, id, TEST_OPERATOR).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConflictError);
      expect((err as Error).message).toContain(`is ${state}, not PAST_REPORTING_WINDOW`);
      expect(await invoice(grp.agentGroupId, id)).toEqual(before);
      expect(await trail(`invoice:${id}`)).toEqual(events);
    };
    // Inside its window it is only waiting for the portal.
    await refused(irp, group, draft.id, 'PENDING');

    // 31 days later, for the billing run and the portal alike.
    const later = 31 * 86_400_000;
    irpNow = Math.max(irpNow, Date.now() + later);
    const late = { ...irp, clock: { now: () => new Date(Date.now() + later) } };
    const reportedOn = indiaToday(late.clock.now());
    await refused(late, registered.group, issued.id, 'REGISTERED');
    expect(await eInvoiceStatus(late, g, draft.id)).toMatchObject({
      state: 'PAST_REPORTING_WINDOW',
      reportingWindow: { lastDay: addDays(draft.issueDate!, 29) },
    });
    const sentBefore = fake.calls.filter((c) => c.path === '/eicore/v1.03/Invoice').length;

    const out = await reissuePastWindow(late, group, draft.id, TEST_OPERATOR);
    expect(out.retired).toMatchObject({
      status: 'CANCELLED',
      invoiceNumber: draft.invoiceNumber,
      issueDate: draft.issueDate,
      retired: { reason: 'PAST_REPORTING_WINDOW', lastDay: addDays(draft.issueDate!, 29) },
    });
    expect(out.retired.eInvoice).toBeUndefined();
    expect(out.reissued).toHaveLength(1);
    const fresh = out.reissued[0]!;
    expect(fresh, fresh.lastError ?? '').toMatchObject({
      status: 'ISSUED',
      issueDate: reportedOn,
      total: draft.total,
      bookingRefs: draft.bookingRefs,
      lastError: null,
    });
    expect(fresh.invoiceNumber! > draft.invoiceNumber!).toBe(true);
    // Only the new document went to the portal, dated the day it is reported.
    expect(fake.calls.filter((c) => c.path === '/eicore/v1.03/Invoice').length - sentBefore).toBe(1);
    const sent = fake.registrationOf(fresh.eInvoice!.irn)!.doc;
    expect(sent.DocDtls).toEqual({ Typ: 'INV', No: fresh.invoiceNumber, Dt: ddmmyyyy(reportedOn) });
    expectFiguresAgree(fresh, await testServices().invoices.lines(g, fresh.id), sent, 'b2b');
    expect(await testServices().invoices.lines(g, draft.id)).toEqual([]);

    // GSTR-1 of the old number's month reports it cancelled in table 13.
    const cancelled = await testServices().invoices.cancelledDocuments(w.supplierGstin, draft.issueDate!, draft.issueDate!);
    expect(cancelled.map((i) => i.invoiceNumber)).toEqual([draft.invoiceNumber]);
    const gstr1 = gstr1Of(
      w.supplierGstin,
      draft.issueDate!.slice(0, 7),
      [{ invoice: issued, lines: await testServices().invoices.lines(registered.g, issued.id) }],
      cancelled,
    );
    expect(gstr1.cancelled).toEqual([draft.invoiceNumber]);
    expect(JSON.stringify(gstr1.json)).toContain('"cancel":1');

    // The operator's event, in the status change's transaction.
    expect((await trail(`invoice:${draft.id}`)).map((e) => [e.action, e.actor, e.before, e.after])).toEqual([
      ['invoice.reissued', TEST_OPERATOR.actor, { status: 'DRAFT', retiredReason: null }, { status: 'CANCELLED', retiredReason: 'PAST_REPORTING_WINDOW' }],
    ]);
    // Done once: the retired number is CANCELLED now, and the new invoice registered.
    await refused(late, group, draft.id, 'CANCELLED');
    await refused(late, group, fresh.id, 'REGISTERED');
  }, 240_000);
});
