import { TEST_OPERATOR, testOrigin } from '../support/audit-origin.ts';
import { IRP_OUTAGE, withBillingScenario } from '../../domain/sandbox/billing-scenarios.ts';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { ConflictError } from '../../domain/errors.ts';
import { cutoffOf, financialYearOf } from '../../domain/invoicing/billing-period.ts';
import type { Invoice } from '../../domain/invoicing/invoice.ts';
import { abandonDraft } from '../../domain/invoicing/manage-invoices.ts';
import { invoiceView } from '../../domain/invoicing/read-invoices.ts';
import { invoicePdf } from '../../domain/invoicing/invoice-pdf.ts';
import { issueOperatorCreditNote } from '../../domain/invoicing/operator-credit-note.ts';
import { eInvoicePayloadOf, eInvoiceStatus, signedEInvoiceKeyOf } from '../../domain/invoicing/register-e-invoice.ts';
import { advanceInvoice, runBilling, type BillingRequest } from '../../domain/invoicing/run-billing.ts';
import { EInvoiceRejectedError } from '../../domain/ports/e-invoice-registry.ts';
import type { AgentGroupPrincipal } from '../../domain/principal.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { updateAgentGroup, type NewAgentGroup } from '../../domain/admin.ts';
import { adminDeps, billingDeps } from '../../infra/container.ts';
import { parseConfig } from '../../infra/config.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { keys } from '../../infra/dynamo/keys.ts';
import { verifySandboxJwt } from '../../infra/einvoice/sandbox-e-invoice-registry.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { cancelStay } from '../support/booking-world.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { pdfText, scanQr } from '../support/pdf-scan.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { newAgentGroup, stack, testServices } from '../support/stack.ts';

/**
 * Billing runs over a supplier registration marked for e-invoicing, against DynamoDB Local,
 * fauxqs S3 and the sandbox IRP (its registrations in the same table): the number is taken,
 * the document registered, and only then is the invoice ISSUED.
 */
const renderer = new PdfInvoiceRenderer();
const deps = () => billingDeps(testServices(), renderer);
const today = () => indiaToday(new Date());
const request = (): BillingRequest => ({ period: { from: addDays(today(), -30), to: today() }, cutoff: cutoffOf(today()), trigger: 'ADMIN' });
const db = () => createDocumentClient(parseConfig(stack().env));
const signingKey = () => testServices().config.irpSigningKey;
const dir = mkdtempSync(join(tmpdir(), 'e-invoicing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let world: InvoiceWorld;
beforeAll(async () => {
  world = await seedInvoiceWorld({ eInvoicing: true });
}, 120_000);

/** A group with one stay booked in a state, ready to bill. */
async function groupWithStay(listing: (w: InvoiceWorld) => string, checkIn: string, overrides: Partial<NewAgentGroup> = {}) {
  const g = await newAgentGroup({ channelId: world.channelId, ...overrides });
  await bookStay(g, listing(world), checkIn, addDays(checkIn, 1));
  return { agentGroupId: g.agentGroupId, group: (await testServices().tenants.getAgentGroup(g.agentGroupId))! };
}

const invoice = async (g: string, id: string): Promise<Invoice> => (await testServices().invoices.get(g, id))!;
/** The last number taken from the world's series this financial year. */
const seriesLast = async (): Promise<number> =>
  (
    await db().send(
      new GetCommand({ TableName: stack().env.TABLE_NAME!, Key: keys.invoiceSeries(world.supplierGstin, financialYearOf(today())), ConsistentRead: true }),
    )
  ).Item!.last as number;
const sequenceOf = (number: string): number => Number(number.slice(-6));
const irnOf = (i: Invoice): string =>
  createHash('sha256')
    .update(`${i.supplierGstin}${financialYearOf(i.issueDate!)}INV${i.invoiceNumber}`)
    .digest('hex');

describe('Billing over a registration marked for e-invoicing', () => {
  it('registers the numbered invoice before issuing it: ISSUED with the IRN, acknowledgement and a signed QR that the key verifies, all printed on the PDF', async () => {
    const { agentGroupId: g, group } = await groupWithStay((w) => w.registered, '2027-03-01');
    const result = await runBilling(deps(), group, request(), testOrigin());
    expect(result.draftsLeft).toBe(0);
    const issued = await invoice(g, result.invoiceIds[0]!);
    expect(issued.status).toBe('ISSUED');
    expect(issued.lastError).toBeNull();
    const e = issued.eInvoice!;
    expect(e.irn).toBe(irnOf(issued));
    expect(e.ackNo).toMatch(/^1\d{14}$/);
    expect(e.ackDate).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(verifySandboxJwt(signingKey(), e.signedQr)).toMatchObject({
      Irn: e.irn,
      DocNo: issued.invoiceNumber,
      DocTyp: 'INV',
      SellerGstin: world.supplierGstin,
      TotInvVal: issued.total / 100,
    });
    // The IRP's signed document is kept beside the PDF.
    const signed = await testServices().documents.get(signedEInvoiceKeyOf(issued));
    expect(verifySandboxJwt(signingKey(), new TextDecoder().decode(signed))).toMatchObject({ Irn: e.irn, AckNo: e.ackNo });

    const path = join(dir, `${issued.id}.pdf`);
    writeFileSync(path, (await testServices().documents.get(issued.pdfKey!))!);
    const text = pdfText(path);
    // The 64-character IRN wraps inside its column; read without the line breaks.
    expect(text.replace(/\s+/g, '')).toContain(e.irn);
    expect(text.replace(/\s+/g, ' ')).toContain(`Ack. No: ${e.ackNo}`);
    expect(scanQr(path)).toBe(e.signedQr);
  }, 120_000);

  it('keeps the invoice DRAFT with its reserved number while the IRP is unavailable; the next run registers and issues it with that number, and the series has no gap', async () => {
    const { agentGroupId: g, group } = await groupWithStay((w) => w.registered, '2027-03-02');
    const failed = await runBilling(withBillingScenario(deps(), 'einvoice-irp-unavailable'), group, request(), testOrigin());
    expect(failed.draftsLeft).toBe(1);
    const draft = await invoice(g, failed.invoiceIds[0]!);
    expect(draft.status).toBe('DRAFT');
    expect(draft.invoiceNumber).toMatch(/^I30\/\d\d-\d\d\/\d{6}$/);
    expect(draft.eInvoice).toBeUndefined();
    expect(draft.lastError).toMatch(/^issue: e-invoice registration of I30\/.+: the IRP is unavailable/);
    const reserved = sequenceOf(draft.invoiceNumber!);
    expect(await seriesLast()).toBe(reserved);
    // Not the partner's invoice yet: no number shown, not listed, and an operator cannot abandon it (a gap).
    expect(invoiceView(draft, today(), new Date())).toMatchObject({ status: 'DRAFT', invoiceNumber: null, issueDate: null, dueDate: null });
    expect((await testServices().invoices.list(g, { statuses: ['ISSUED', 'PAID'], limit: 10 })).invoices).toEqual([]);
    await expect(abandonDraft(deps(), g, draft.id, TEST_OPERATOR)).rejects.toThrow(ConflictError);
    await expect(abandonDraft(deps(), g, draft.id, TEST_OPERATOR)).rejects.toThrow(/reserved while it is registered for e-invoicing/);

    const again = await runBilling(deps(), group, request(), testOrigin());
    expect(again.invoiceIds).toEqual([draft.id]);
    const issued = await invoice(g, draft.id);
    expect(issued).toMatchObject({ status: 'ISSUED', invoiceNumber: draft.invoiceNumber, issueDate: draft.issueDate, dueDate: draft.dueDate, lastError: null });
    expect(issued.eInvoice!.irn).toBe(irnOf(issued));
    expect(await seriesLast()).toBe(reserved);
    expect((await testServices().invoices.list(g, { statuses: ['ISSUED'], limit: 10 })).invoices.map((i) => i.id)).toEqual([draft.id]);
  }, 120_000);

  it("takes the IRP's earlier registration when its answer was lost (duplicate IRN): the same IRN and acknowledgement", async () => {
    const { agentGroupId: g, group } = await groupWithStay((w) => w.registered, '2027-03-03');
    const failed = await runBilling(withBillingScenario(deps(), 'einvoice-irp-unavailable'), group, request(), testOrigin());
    const draft = await invoice(g, failed.invoiceIds[0]!);
    // The IRP registered it, but the run died before the answer was stored.
    const lost = await testServices().eInvoices.register(await eInvoicePayloadOf(deps(), draft));
    expect(lost.duplicate).toBe(false);

    await runBilling(deps(), group, request(), testOrigin());
    const issued = await invoice(g, draft.id);
    expect(issued.status).toBe('ISSUED');
    expect(issued.eInvoice).toEqual({ irn: lost.irn, ackNo: lost.ackNo, ackDate: lost.ackDate, signedQr: lost.signedQrCode });
  }, 120_000);

  it("records the IRP's rejection (code and message) as lastError; once the operator corrects the data, the next run registers the same number with it", async () => {
    const { agentGroupId: g, group } = await groupWithStay((w) => w.registered, '2027-03-04');
    const refusing = {
      ...deps(),
      eInvoices: {
        ...IRP_OUTAGE,
        register: () => Promise.reject(new EInvoiceRejectedError('3028', 'GSTIN - 27AAPFU0939F1ZV is not present in invoice registration portal')),
      },
    };
    const failed = await runBilling(refusing, group, request(), testOrigin());
    const draft = await invoice(g, failed.invoiceIds[0]!);
    expect(draft.status).toBe('DRAFT');
    expect(draft.lastError).toContain('rejected by the IRP (3028): GSTIN - 27AAPFU0939F1ZV is not present in invoice registration portal');

    // The operator corrects the group's GSTIN; the DRAFT takes it before it is sent again.
    const corrected = await updateAgentGroup(adminDeps(testServices(), TEST_OPERATOR), g, {
      gstin: '27AAACT2727Q1ZW',
      legalName: 'Test Agents (Mumbai) Pvt Ltd',
    });
    await runBilling(deps(), corrected, request(), testOrigin());
    const issued = await invoice(g, draft.id);
    expect(issued).toMatchObject({
      status: 'ISSUED',
      invoiceNumber: draft.invoiceNumber,
      billToGstin: '27AAACT2727Q1ZW',
      billToName: 'Test Agents (Mumbai) Pvt Ltd',
      lastError: null,
    });
    expect(verifySandboxJwt(signingKey(), issued.eInvoice!.signedQr)).toMatchObject({ BuyerGstin: '27AAACT2727Q1ZW', DocNo: draft.invoiceNumber });
  }, 120_000);

  it('spends no number on a document it would refuse itself (an address without a PIN code): the DRAFT stays unnumbered, saying why', async () => {
    const before = await seriesLast();
    const { agentGroupId: g, group } = await groupWithStay((w) => w.registered, '2027-03-06', {
      address: { line1: '1 Test Road', city: 'Mumbai', state: 'Maharashtra', postalCode: 'N/A', country: 'IN' },
    });
    const failed = await runBilling(deps(), group, request(), testOrigin());
    const draft = await invoice(g, failed.invoiceIds[0]!);
    expect(draft).toMatchObject({ status: 'DRAFT', invoiceNumber: null });
    expect(draft.lastError).toMatch(/^issue: e-invoice document \(no number taken\): recipient.address has no six-digit PIN code/);
    expect(await seriesLast()).toBe(before);
  }, 120_000);

  it('takes one number and one registration when two runs advance the same DRAFT at once', async () => {
    const { agentGroupId: g, group } = await groupWithStay((w) => w.registered, '2027-03-06');
    const failed = await runBilling(withBillingScenario(deps(), 'invoice-issue-fails'), group, request(), testOrigin());
    const draft = await invoice(g, failed.invoiceIds[0]!);
    expect(draft.invoiceNumber).toBeNull();
    const before = await seriesLast();

    const [a, b] = await Promise.all([advanceInvoice(deps(), group, draft), advanceInvoice(deps(), group, draft)]);

    const issued = await invoice(g, draft.id);
    expect(issued.status).toBe('ISSUED');
    expect(await seriesLast()).toBe(before + 1);
    expect(sequenceOf(issued.invoiceNumber!)).toBe(before + 1);
    for (const r of [a, b]) expect(r).toMatchObject({ status: 'ISSUED', invoiceNumber: issued.invoiceNumber });
    expect(issued.eInvoice!.irn).toBe(irnOf(issued));
  }, 120_000);

  it('shows an operator the e-invoice with the admin tool: PENDING with the last error and the INV-01 JSON, then REGISTERED with the IRN', async () => {
    const { agentGroupId: g, group } = await groupWithStay((w) => w.registered, '2027-03-08');
    const failed = await runBilling(withBillingScenario(deps(), 'einvoice-irp-unavailable'), group, request(), testOrigin());
    const id = failed.invoiceIds[0]!;
    const pending = await runAdminTool(['invoices', 'einvoice', id, '--group', g, '--json']);
    expect(pending.code, pending.stderr).toBe(0);
    const p = JSON.parse(pending.stdout);
    expect(p).toMatchObject({
      invoiceId: id,
      status: 'DRAFT',
      state: 'PENDING',
      markedForEInvoicing: true,
      registration: null,
      lastError: expect.stringContaining('the IRP is unavailable'),
    });
    expect(p.document).toMatchObject({
      Version: '1.1',
      DocDtls: { Typ: 'INV', No: p.invoiceNumber },
      SellerDtls: { Gstin: world.supplierGstin },
      BuyerDtls: { Gstin: '27AAPFU0939F1ZV' },
    });

    await runBilling(deps(), group, request(), testOrigin());
    const registered = await runAdminTool(['invoices', 'einvoice', id, '--group', g]);
    expect(registered.code, registered.stderr).toBe(0);
    const issued = await invoice(g, id);
    expect(registered.stdout).toContain(`Invoice ${id} (${issued.invoiceNumber}, ISSUED): REGISTERED`);
    expect(registered.stdout).toContain(`IRN: ${issued.eInvoice!.irn}`);
    expect(registered.stdout).toContain('"TotInvVal": ');
  }, 120_000);

  it("alerts on a document waiting for the IRP in the last 7 days of its 30-day reporting window, and past it sends nothing: PAST_REPORTING_WINDOW in the law's words, counted", async () => {
    const { agentGroupId: g, group } = await groupWithStay((w) => w.registered, '2027-03-09');
    const failed = await runBilling(withBillingScenario(deps(), 'einvoice-irp-unavailable'), group, request(), testOrigin());
    const draft = await invoice(g, failed.invoiceIds[0]!);
    expect(draft).toMatchObject({ status: 'DRAFT', issueDate: today() });
    // The registration's turnover brings it under the window (the world file's `irpReportingWindow: true`).
    const svc = testServices();
    const catalogue = Object.assign(Object.create(svc.catalogue), {
      getGstRegistration: async (state: string) => {
        const r = await svc.catalogue.getGstRegistration(state);
        return r && { ...r, irpReportingWindow: true };
      },
    });
    const counted: string[] = [];
    const asked: string[] = [];
    const on = (daysLater: number, eInvoices = IRP_OUTAGE) => ({
      ...deps(),
      catalogue,
      eInvoices,
      metrics: { count: (name: string) => void counted.push(name) },
      clock: { now: () => new Date(Date.now() + daysLater * 86_400_000) },
    });
    const lastDay = addDays(draft.issueDate!, 29);

    await advanceInvoice(on(20), group, await invoice(g, draft.id));
    expect(counted).toEqual([]);
    await advanceInvoice(on(24), group, await invoice(g, draft.id));
    expect(counted).toEqual(['EInvoiceReportingWindowClosing']);
    expect((await invoice(g, draft.id)).lastError).toContain(`5 day(s) to the last day (${lastDay}) of the IRP's 30-day reporting window`);

    const irp = { ...IRP_OUTAGE, register: async (): Promise<never> => (asked.push('register'), Promise.reject(new Error('sent past its window'))) };
    await advanceInvoice(on(30, irp), group, await invoice(g, draft.id));
    expect(asked).toEqual([]);
    expect(counted).toEqual(['EInvoiceReportingWindowClosing', 'EInvoicePastReportingWindow']);
    const past = await invoice(g, draft.id);
    expect(past).toMatchObject({ status: 'DRAFT', invoiceNumber: draft.invoiceNumber });
    expect(past.lastError).toContain(`past the IRP's 30-day reporting window (document dated ${draft.issueDate}, last day ${lastDay}`);
    expect(past.lastError).toContain('"would not be allowed to report e-Invoices older than 30 days from the date of reporting"');
    expect(await eInvoiceStatus(on(30), g, draft.id)).toMatchObject({ state: 'PAST_REPORTING_WINDOW', reportingWindow: { lastDay, daysLeft: -1 } });

    // A registration the setting leaves out but the IRP refuses for the window (2305): the same state, and the operator is told to set it.
    const refusing = {
      ...deps(),
      eInvoices: {
        ...IRP_OUTAGE,
        register: () => Promise.reject(new EInvoiceRejectedError('2305', 'IRN cannot be generated with document date prior to 30 days from today')),
      },
    };
    const other = await groupWithStay((w) => w.registered, '2027-03-10');
    const refused = await invoice(other.agentGroupId, (await runBilling(refusing, other.group, request(), testOrigin())).invoiceIds[0]!);
    expect(refused.lastError).toContain('rejected by the IRP (2305)');
    expect(refused.lastError).toContain('set `irpReportingWindow: true`');
    expect(await eInvoiceStatus(deps(), other.agentGroupId, refused.id)).toMatchObject({ state: 'PAST_REPORTING_WINDOW', reportingWindow: null });
  }, 120_000);

  it('skips registration for a registration not marked, and for a recipient without a GSTIN (B2C): issued as before, without an IRN', async () => {
    const unmarked = await groupWithStay((w) => w.second, '2027-03-07');
    const r1 = await runBilling(deps(), unmarked.group, request(), testOrigin());
    const plain = await invoice(unmarked.agentGroupId, r1.invoiceIds[0]!);
    expect(plain).toMatchObject({ status: 'ISSUED', supplierGstin: world.secondGstin });
    expect(plain.eInvoice).toBeUndefined();

    const before = await seriesLast();
    const b2c = await groupWithStay((w) => w.registered, '2027-03-08', { gstin: null });
    // An IRP that fails the test if asked anything: a supply to an unregistered person is never sent to it.
    const asked: string[] = [];
    const refuse = (call: string) => async (): Promise<never> => {
      asked.push(call);
      throw new Error(`the IRP was asked to ${call} for a B2C invoice`);
    };
    const irp = { register: refuse('register'), cancel: refuse('cancel'), taxpayer: refuse('taxpayer'), accept: refuse('accept') };
    const r2 = await runBilling({ ...deps(), eInvoices: irp }, b2c.group, request(), testOrigin());
    const consumer = await invoice(b2c.agentGroupId, r2.invoiceIds[0]!);
    expect(consumer).toMatchObject({ status: 'ISSUED', billToGstin: null, lastError: null });
    expect(consumer.eInvoice).toBeUndefined();
    expect(sequenceOf(consumer.invoiceNumber!)).toBe(before + 1);
    expect(asked).toEqual([]);
    // Its PDF is a tax invoice to an unregistered person (rule 46(e)), with no IRN.
    const path = join(dir, `${consumer.id}.pdf`);
    writeFileSync(path, (await testServices().documents.get(consumer.pdfKey!))!);
    const text = pdfText(path).replace(/\s+/g, ' ');
    expect(text).toContain('GSTIN: not registered for GST (unregistered person)');
    expect(text).toContain('State: Maharashtra (code 27)');
    expect(text).not.toContain('IRN');
  }, 120_000);
});

describe('Credit notes over a registration marked for e-invoicing', () => {
  const crnIrnOf = (i: Invoice): string =>
    createHash('sha256')
      .update(`${i.supplierGstin}${financialYearOf(i.issueDate!)}CRN${i.invoiceNumber}`)
      .digest('hex');
  const principalOf = (g: string): AgentGroupPrincipal => ({
    kind: 'agent-group',
    agentGroupId: g,
    partnerId: 'p',
    channelId: world.channelId,
    keyId: 'k',
    keyPrefix: 'k',
  });
  /** A group with one night billed on an issued invoice, and that invoice's first line. */
  const billedWithLine = async (listing: (w: InvoiceWorld) => string, checkIn: string) => {
    const { agentGroupId: g, group } = await groupWithStay(listing, checkIn);
    const issued = await invoice(g, (await runBilling(deps(), group, request(), testOrigin())).invoiceIds[0]!);
    const [line] = await testServices().invoices.lines(g, issued.id);
    return { g, group, issued, line };
  };
  const printedText = async (record: Invoice): Promise<string> => {
    const path = join(dir, `${record.id}.pdf`);
    writeFileSync(path, (await testServices().documents.get(record.pdfKey!))!);
    return pdfText(path);
  };

  it("registers an operator's credit note as a CRN naming the invoice before its PDF, which prints the IRN and the signed QR (admin tool)", async () => {
    const { g, issued, line } = await billedWithLine((w) => w.registered, '2027-03-03');
    const res = await runAdminTool(['invoices', 'credit-note', issued.id, '--group', g, '--lines', `${line!.id}:1050`, '--reason', 'Late check-in', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout).creditNote;
    const note = await invoice(g, out.id);
    expect(out).toMatchObject({ pdfStored: true, irn: crnIrnOf(note), lastError: null });
    expect(verifySandboxJwt(signingKey(), note.eInvoice!.signedQr)).toMatchObject({
      Irn: crnIrnOf(note),
      DocNo: note.invoiceNumber,
      DocTyp: 'CRN',
      SellerGstin: world.supplierGstin,
      TotInvVal: 1_050,
    });
    const signed = await testServices().documents.get(signedEInvoiceKeyOf(note));
    expect(verifySandboxJwt(signingKey(), new TextDecoder().decode(signed))).toMatchObject({ Irn: note.eInvoice!.irn });
    const text = await printedText(note);
    expect(text).toContain('Credit Note');
    expect(text.replace(/\s+/g, '')).toContain(note.eInvoice!.irn);
    expect(scanQr(join(dir, `${note.id}.pdf`))).toBe(note.eInvoice!.signedQr);
    expect(await eInvoiceStatus(deps(), g, note.id)).toMatchObject({ state: 'REGISTERED', document: { DocDtls: { Typ: 'CRN', No: note.invoiceNumber } } });
  }, 180_000);

  it('keeps a credit note raised while the IRP is down without a document (PDF 409, PENDING); the next billing run registers it and stores its PDF with the IRN', async () => {
    const { g, group, issued, line } = await billedWithLine((w) => w.registered, '2027-03-04');
    const outcome = await issueOperatorCreditNote(
      { ...deps(), eInvoices: IRP_OUTAGE, tenants: testServices().tenants },
      g,
      issued.id,
      [{ lineId: line!.id }],
      'Pool closed',
      TEST_OPERATOR,
    );
    expect(outcome.pdfStored).toBe(false);
    // Issued with its number (it moved the invoice's figures), listed, and waiting for the IRP.
    const pending = await invoice(g, outcome.creditNote.id);
    expect(pending).toMatchObject({ status: 'ISSUED', creditNoteFor: issued.id, pdfKey: null });
    expect(pending.invoiceNumber).toMatch(/^CN30\/\d{4}\/\d{6}$/);
    expect(pending.eInvoice).toBeUndefined();
    expect(pending.lastError).toMatch(/^issue: e-invoice registration of CN30\/.+: the IRP is unavailable/);
    expect((await invoice(g, issued.id)).creditedAmount).toBe(line!.lineTotal);
    await expect(invoicePdf(deps(), principalOf(g), pending.id)).rejects.toBeInstanceOf(ConflictError);
    expect(await eInvoiceStatus(deps(), g, pending.id)).toMatchObject({ state: 'PENDING', lastError: pending.lastError });

    await runBilling(deps(), group, request(), testOrigin());
    const registered = await invoice(g, pending.id);
    expect(registered).toMatchObject({ status: 'ISSUED', invoiceNumber: pending.invoiceNumber, lastError: null });
    expect(registered.eInvoice!.irn).toBe(crnIrnOf(registered));
    expect(registered.pdfKey).not.toBeNull();
    expect((await printedText(registered)).replace(/\s+/g, '')).toContain(registered.eInvoice!.irn);
    const { pdf, fileName } = await invoicePdf(deps(), principalOf(g), registered.id);
    expect(new TextDecoder().decode(pdf).slice(0, 5)).toBe('%PDF-');
    expect(fileName).toBe(`invoice-${registered.invoiceNumber!.replaceAll('/', '-')}.pdf`);
  }, 180_000);

  it("registers the billing run's credit note for a cancelled invoiced booking before its PDF", async () => {
    const fixture = await newAgentGroup({ channelId: world.channelId });
    const bookingId = await bookStay(fixture, world.registered, '2027-03-06', '2027-03-07');
    const group = (await testServices().tenants.getAgentGroup(fixture.agentGroupId))!;
    const g = fixture.agentGroupId;
    const issued = await invoice(g, (await runBilling(deps(), group, request(), testOrigin())).invoiceIds[0]!);
    expect((await cancelStay(fixture, bookingId)).booking.status).toBe('CANCELLED');
    const run = await runBilling(deps(), group, request(), testOrigin());
    const note = await invoice(g, run.invoiceIds[0]!);
    expect(note).toMatchObject({ status: 'ISSUED', creditNoteFor: issued.id, total: issued.total, lastError: null });
    expect(note.eInvoice!.irn).toBe(crnIrnOf(note));
    expect((await printedText(note)).replace(/\s+/g, '')).toContain(note.eInvoice!.irn);
  }, 120_000);

  it('leaves a credit note of a registration not marked as it was: no registration, its PDF at once', async () => {
    const { g, issued, line } = await billedWithLine((w) => w.second, '2027-03-04');
    const outcome = await issueOperatorCreditNote(
      { ...deps(), eInvoices: IRP_OUTAGE, tenants: testServices().tenants },
      g,
      issued.id,
      [{ lineId: line!.id }],
      'Goodwill',
      TEST_OPERATOR,
    );
    expect(outcome).toMatchObject({ pdfStored: true, creditNote: { lastError: null } });
    expect(outcome.creditNote.eInvoice).toBeUndefined();
    expect(await eInvoiceStatus(deps(), g, outcome.creditNote.id)).toMatchObject({ state: 'NOT_REQUIRED' });
  }, 120_000);
});
