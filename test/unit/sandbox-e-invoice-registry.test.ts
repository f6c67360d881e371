import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eInvoiceJson, eInvoiceOfRecord, type EInvoicePayload } from '../../domain/invoicing/e-invoice.ts';
import { newDraftInvoice, type Invoice, type InvoiceLine } from '../../domain/invoicing/invoice.ts';
import { EInvoiceRejectedError, EInvoiceUnavailableError } from '../../domain/ports/e-invoice-registry.ts';
import {
  irnOf,
  SandboxEInvoiceRegistry,
  verifySandboxJwt,
  type SandboxIrpMemory,
  type SandboxIrpRecord,
} from '../../infra/einvoice/sandbox-e-invoice-registry.ts';
import { creditNote, intraStateInvoice } from '../support/invoice-documents.ts';

/** The sandbox IRP's memory as a Map: the unit under test is the adapter, not DynamoDB (the integration test uses the table). */
class MapMemory implements SandboxIrpMemory {
  readonly records = new Map<string, SandboxIrpRecord & { cancelledAt?: string }>();
  async keep(record: SandboxIrpRecord) {
    const existing = this.records.get(record.irn);
    if (existing) return { record: existing, existed: true };
    this.records.set(record.irn, record);
    return { record, existed: false };
  }
  async get(irn: string) {
    return this.records.get(irn);
  }
  async cancel(irn: string, at: string) {
    const r = this.records.get(irn);
    if (!r || r.cancelledAt) return false;
    this.records.set(irn, { ...r, cancelledAt: at });
    return true;
  }
}

const key = randomBytes(32);
const at = (iso: string) => ({ now: () => new Date(iso) });
const registry = (memory: SandboxIrpMemory = new MapMemory(), now = '2026-11-02T06:30:00.000Z') => new SandboxEInvoiceRegistry(key, memory, at(now));
const invoiceJson = eInvoiceJson(intraStateInvoice);
const crnJson = eInvoiceJson(creditNote);

describe('Class: SandboxEInvoiceRegistry', () => {
  it('accepts only the registration it keeps for the document (its own record), and holds any other for reconciliation without registering anything', async () => {
    const memory = new MapMemory();
    const r = registry(memory);
    const registered = await r.register(invoiceJson);
    const details = {
      Irn: registered.irn,
      AckNo: registered.ackNo,
      AckDt: registered.ackDate,
      SignedQRCode: registered.signedQrCode,
      SignedInvoice: registered.signedInvoice,
    };
    await expect(r.accept(invoiceJson, details)).resolves.toMatchObject({ irn: registered.irn, signedQrCode: registered.signedQrCode });
    await expect(r.accept(invoiceJson, { ...details, SignedQRCode: `${registered.signedQrCode}x` })).rejects.toMatchObject({
      name: 'EInvoiceHeldError',
      kind: 'RECONCILE',
    });
    const other = { ...invoiceJson, DocDtls: { ...invoiceJson.DocDtls, No: 'OTHER/1' } };
    await expect(r.accept(other, details)).rejects.toMatchObject({ name: 'EInvoiceHeldError', kind: 'RECONCILE' });
    expect(memory.records.size).toBe(1);
  });

  it('computes the IRN as the IRP does: SHA-256 hex of supplier GSTIN, financial year, document type and number', async () => {
    const expected = createHash('sha256').update(`${intraStateInvoice.supplier.gstin}2026-27INV${intraStateInvoice.number}`).digest('hex');
    expect(irnOf(invoiceJson)).toBe(expected);
    const registered = await registry().register(invoiceJson);
    expect(registered.irn).toBe(expected);
    expect(registered.irn).toMatch(/^[0-9a-f]{64}$/);
    expect(registered.ackNo).toMatch(/^1\d{14}$/);
    // 06:30 UTC is 12:00 in India, the time the IRP writes.
    expect(registered.ackDate).toBe('2026-11-02 12:00:00');
    expect(registered.duplicate).toBe(false);
  });

  it('takes the financial year from the document date: a March document is the year before', () => {
    const march: EInvoicePayload = { ...invoiceJson, DocDtls: { ...invoiceJson.DocDtls, Dt: '31/03/2027' } };
    expect(irnOf(march)).toBe(createHash('sha256').update(`${intraStateInvoice.supplier.gstin}2026-27INV${intraStateInvoice.number}`).digest('hex'));
    const april: EInvoicePayload = { ...invoiceJson, DocDtls: { ...invoiceJson.DocDtls, Dt: '01/04/2027' } };
    expect(irnOf(april)).toBe(createHash('sha256').update(`${intraStateInvoice.supplier.gstin}2027-28INV${intraStateInvoice.number}`).digest('hex'));
  });

  it('signs the QR payload and the invoice so that the key verifies them, and another key or a changed byte does not', async () => {
    const registered = await registry().register(invoiceJson);
    const qr = verifySandboxJwt(key, registered.signedQrCode);
    expect(qr).toEqual({
      SellerGstin: intraStateInvoice.supplier.gstin,
      BuyerGstin: intraStateInvoice.recipient.gstin,
      DocNo: intraStateInvoice.number,
      DocTyp: 'INV',
      DocDt: '01/11/2026',
      TotInvVal: intraStateInvoice.totals.total / 100,
      ItemCnt: intraStateInvoice.lines.length,
      MainHsnCode: '996311',
      Irn: registered.irn,
      IrnDt: registered.ackDate,
    });
    const signed = verifySandboxJwt(key, registered.signedInvoice!);
    expect(signed).toMatchObject({
      Irn: registered.irn,
      AckNo: registered.ackNo,
      AckDt: registered.ackDate,
      DocDtls: invoiceJson.DocDtls,
      ValDtls: invoiceJson.ValDtls,
    });
    expect(() => verifySandboxJwt(randomBytes(32), registered.signedQrCode)).toThrow(/signature/);
    const [h, p, s] = registered.signedQrCode.split('.');
    const tampered = JSON.parse(Buffer.from(p!, 'base64url').toString()) as { data: string };
    tampered.data = tampered.data.replace(intraStateInvoice.number, 'GA/2026-27/0043');
    expect(() => verifySandboxJwt(key, `${h}.${Buffer.from(JSON.stringify(tampered)).toString('base64url')}.${s}`)).toThrow(/signature/);
  });

  it("answers a document registered before with that registration (the IRP's 2150 Duplicate IRN), however often it is sent", async () => {
    const memory = new MapMemory();
    const first = await registry(memory, '2026-11-02T06:30:00.000Z').register(invoiceJson);
    const again = await Promise.all(Array.from({ length: 5 }, () => registry(memory, '2026-11-03T09:00:00.000Z').register(invoiceJson)));
    for (const a of again) expect(a).toEqual({ ...first, duplicate: true });
    expect(memory.records.size).toBe(1);
  });

  it('registers a credit note (Typ CRN) under an IRN of its own', async () => {
    const crn = eInvoiceJson(creditNote);
    expect(crn.DocDtls.Typ).toBe('CRN');
    const registered = await registry(new MapMemory(), '2026-11-09T06:30:00.000Z').register(crn);
    expect(registered.irn).toBe(createHash('sha256').update(`${creditNote.supplier.gstin}2026-27CRN${creditNote.number}`).digest('hex'));
    expect(verifySandboxJwt(key, registered.signedQrCode)).toMatchObject({ DocTyp: 'CRN', DocNo: creditNote.number });
  });

  it.each([
    ["a B2B document without the buyer's GSTIN", { ...invoiceJson, BuyerDtls: { ...invoiceJson.BuyerDtls, Gstin: '' } }, '2140', /BuyerDtls.Gstin/],
    [
      "a B2B document with the buyer's GSTIN as URP (unregistered)",
      { ...invoiceJson, BuyerDtls: { ...invoiceJson.BuyerDtls, Gstin: 'URP' } },
      '2140',
      /BuyerDtls.Gstin/,
    ],
    ["a document without the supplier's GSTIN", { ...invoiceJson, SellerDtls: { ...invoiceJson.SellerDtls, Gstin: '' } }, '2155', /Supplier GSTIN is required/],
    [
      'a document number starting with 0 (state codes 01–09 before the I prefix)',
      { ...invoiceJson, DocDtls: { ...invoiceJson.DocDtls, No: '07/26-27/000001' } },
      '2140',
      /DocDtls.No/,
    ],
    ['a document number of 17 characters', { ...invoiceJson, DocDtls: { ...invoiceJson.DocDtls, No: 'I30/2026-27/00001' } }, '2140', /DocDtls.No/],
    ['a lower-case document number', { ...invoiceJson, DocDtls: { ...invoiceJson.DocDtls, No: 'i30/26-27/000001' } }, '2140', /DocDtls.No/],
    ['a buyer name with a double quote', { ...invoiceJson, BuyerDtls: { ...invoiceJson.BuyerDtls, LglNm: 'Agents "North"' } }, '2140', /BuyerDtls.LglNm/],
    ['an address with a backslash', { ...invoiceJson, SellerDtls: { ...invoiceJson.SellerDtls, Addr1: 'Plot 14\\Campal' } }, '2140', /SellerDtls.Addr1/],
    ['a location of 51 characters', { ...invoiceJson, BuyerDtls: { ...invoiceJson.BuyerDtls, Loc: 'L'.repeat(51) } }, '2140', /BuyerDtls.Loc/],
    [
      'EcmGstin null (the schema wants a GSTIN string or nothing)',
      { ...invoiceJson, TranDtls: { ...invoiceJson.TranDtls, EcmGstin: null } },
      '2140',
      /EcmGstin/,
    ],
    ['a document dated tomorrow', { ...invoiceJson, DocDtls: { ...invoiceJson.DocDtls, Dt: '03/11/2026' } }, '2163', /future date/],
    [
      'an intra-state document charging IGST',
      { ...invoiceJson, ItemList: invoiceJson.ItemList.map((i, n) => (n === 0 ? { ...i, IgstAmt: 1 } : i)) },
      '2172',
      /IGST/,
    ],
    ['an inter-state document charging CGST and SGST', { ...invoiceJson, SellerDtls: { ...invoiceJson.SellerDtls, Stcd: '29' } }, '2173', /only IGST/],
    [
      'an item whose AssAmt is not TotAmt − Discount (a reduction declared after tax)',
      { ...invoiceJson, ItemList: invoiceJson.ItemList.map((i, n) => (n === 0 ? { ...i, Discount: 10 } : i)) },
      '2193',
      /AssAmt value should be equal to \(TotAmt - Discount\)/,
    ],
    [
      'an item whose TotItemVal is more than a rupee off AssAmt plus its taxes',
      { ...invoiceJson, ItemList: invoiceJson.ItemList.map((i, n) => (n === 0 ? { ...i, TotItemVal: i.TotItemVal + 2 } : i)) },
      '2194',
      /TotItemVal/,
    ],
    [
      'items whose assessable values do not add up',
      { ...invoiceJson, ValDtls: { ...invoiceJson.ValDtls, AssVal: invoiceJson.ValDtls.AssVal + 1 } },
      '2182',
      /assessable/,
    ],
    [
      'a total more than a rupee off its items',
      { ...invoiceJson, ValDtls: { ...invoiceJson.ValDtls, TotInvVal: invoiceJson.ValDtls.TotInvVal + 1.01 } },
      '2189',
      /total invoice value/,
    ],
    [
      'a credit note naming its invoice by a number of 17 characters (INV-01 3.1.1: at most 16)',
      { ...crnJson, RefDtls: { ...crnJson.RefDtls, PrecDocDtls: [{ InvNo: 'I30/2026-27/00001', InvDt: '01/11/2026' }] } },
      '2140',
      /PrecDocDtls\[0\]\.InvNo/,
    ],
    [
      "a credit note naming its invoice's date other than DD/MM/YYYY (INV-01 3.1.2)",
      { ...crnJson, RefDtls: { ...crnJson.RefDtls, PrecDocDtls: [{ InvNo: 'I30/26-27/000001', InvDt: '2026-11-01' }] } },
      '2140',
      /PrecDocDtls\[0\]\.InvDt/,
    ],
  ] as const)("rejects %s with the IRP's code, and keeps nothing", async (_name, doc, code, message) => {
    const memory = new MapMemory();
    const refusal = await registry(memory)
      .register(doc as EInvoicePayload)
      .catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(EInvoiceRejectedError);
    expect(refusal).toMatchObject({ code, irpMessage: expect.stringMatching(message) });
    expect(memory.records.size).toBe(0);
  });

  it("accepts a total within the IRP's one-rupee tolerance", async () => {
    await expect(
      registry().register({ ...invoiceJson, ValDtls: { ...invoiceJson.ValDtls, TotInvVal: invoiceJson.ValDtls.TotInvVal + 0.99 } }),
    ).resolves.toMatchObject({ duplicate: false });
  });

  it('reports its own storage failing as the IRP being unavailable (retry), not as a rejection', async () => {
    const broken: SandboxIrpMemory = Object.assign(new MapMemory(), { keep: () => Promise.reject(new Error('connection reset')) });
    await expect(registry(broken).register(invoiceJson)).rejects.toBeInstanceOf(EInvoiceUnavailableError);
  });
});

describe('Function: eInvoiceOfRecord', () => {
  const at = '2026-11-09T05:00:00.000Z';
  const parties = {
    supplierGstin: intraStateInvoice.supplier.gstin,
    supplierName: intraStateInvoice.supplier.name,
    supplierAddress: intraStateInvoice.supplier.address,
    supplierStateCode: '30',
    billToGstin: intraStateInvoice.recipient.gstin,
    billToName: intraStateInvoice.recipient.name,
    billToAddress: intraStateInvoice.recipient.address,
    placeOfSupply: 'Goa',
    placeOfSupplyStateCode: '30',
  };
  // A DRAFT holding a reserved number, as e-invoicing leaves it before registration.
  const record: Invoice = {
    ...newDraftInvoice({ id: 'inv-1', agentGroupId: 'g', runId: 'run', period: { from: '2026-10-01', to: '2026-10-31' }, parties, at }),
    invoiceNumber: '30/26-27/000003',
    issueDate: '2026-11-09',
    dueDate: '2026-11-24',
    bookingRefs: ['b1'],
    subtotal: 500_000,
    cgst: 12_500,
    sgst: 12_500,
    total: 525_000,
    lineCount: 1,
  };
  const lines: InvoiceLine[] = [
    {
      id: 'l1',
      invoiceId: 'inv-1',
      agentGroupId: 'g',
      key: 'STAY#p1#2026-10-03',
      lineKind: 'STAY',
      sac: '996311',
      description: 'Villa stay',
      propertyName: 'Casa Azul',
      bookingRef: 'b1',
      bookingId: 'PS-1',
      ledgerEntryId: 'e1',
      itemRef: 'p1#2026-10-03',
      nightDate: '2026-10-03',
      checkIn: '2026-10-03',
      checkOut: '2026-10-04',
      quantity: 1,
      unitBase: 500_000,
      discount: 0,
      taxableValue: 500_000,
      gstRate: 5,
      cgst: 12_500,
      sgst: 12_500,
      igst: 0,
      lineTotal: 525_000,
    },
  ];

  it('renders a numbered DRAFT (the document sent for registration) as Typ INV', () => {
    expect(eInvoiceOfRecord(record, lines).DocDtls).toEqual({ Typ: 'INV', No: '30/26-27/000003', Dt: '09/11/2026' });
  });

  it('renders a credit note record as Typ CRN naming the invoice it corrects, and refuses one without it', () => {
    const crn = eInvoiceOfRecord({ ...record, creditNoteFor: 'inv-0', dueDate: null }, lines, { number: '30/26-27/000001', date: '2026-11-01' });
    expect(crn.DocDtls.Typ).toBe('CRN');
    expect(crn.RefDtls.PrecDocDtls).toEqual([{ InvNo: '30/26-27/000001', InvDt: '01/11/2026' }]);
    expect(() => eInvoiceOfRecord({ ...record, creditNoteFor: 'inv-0' }, lines)).toThrow(/needs the number and date of invoice inv-0/);
  });

  it('refuses a record without a number: there is no document to register', () => {
    expect(() => eInvoiceOfRecord({ ...record, invoiceNumber: null }, lines)).toThrow(/has no number/);
  });
});

describe('Class: SandboxEInvoiceRegistry, cancel and taxpayer', () => {
  it('cancels within 24 hours of the acknowledgement, then answers 9999; after 24 hours 2270; an unknown IRN 2148', async () => {
    const memory = new MapMemory();
    const registered = await registry(memory, '2026-11-02T06:30:00.000Z').register(invoiceJson);
    const late = registry(memory, '2026-11-03T06:31:00.000Z');
    await expect(
      late.cancel({ supplierGstin: invoiceJson.SellerDtls.Gstin, irn: registered.irn, reason: '2', remark: 'Data entry mistake' }),
    ).rejects.toMatchObject({ code: '2270' });
    const inTime = registry(memory, '2026-11-03T06:29:00.000Z');
    await expect(inTime.cancel({ supplierGstin: invoiceJson.SellerDtls.Gstin, irn: registered.irn, reason: '2', remark: 'x' })).resolves.toEqual({
      irn: registered.irn,
      cancelDate: '2026-11-03 11:59:00',
    });
    await expect(inTime.cancel({ supplierGstin: invoiceJson.SellerDtls.Gstin, irn: registered.irn, reason: '2', remark: 'x' })).rejects.toMatchObject({
      code: '9999',
      irpMessage: 'Invoice is not active',
    });
    await expect(inTime.cancel({ supplierGstin: invoiceJson.SellerDtls.Gstin, irn: '0'.repeat(64), reason: '1', remark: 'x' })).rejects.toMatchObject({
      code: '2148',
    });
  });

  it('answers Get GSTIN details from its list: names and addresses it knows, cancelled/inactive/blocked as listed, 3001 for an unknown or malformed GSTIN', async () => {
    await expect(registry().taxpayer('27AAPFU0939F1ZV')).resolves.toMatchObject({
      legalName: 'Test Agents Pvt Ltd',
      status: 'ACT',
      blocked: false,
      address: { city: 'Mumbai', postalCode: '400001' },
    });
    await expect(registry().taxpayer('29AABCC1111C1Z9')).resolves.toMatchObject({ status: 'CNL' });
    await expect(registry().taxpayer('33AABCB3333B1Z2')).resolves.toMatchObject({ status: 'ACT', blocked: true });
    await expect(registry().taxpayer('24AAACU4444U1Z1')).rejects.toMatchObject({ code: '3001' });
    await expect(registry().taxpayer('NOT-A-GSTIN')).rejects.toBeInstanceOf(EInvoiceRejectedError);
    await expect(registry().taxpayer('06AAACR5055K1Z7')).resolves.toEqual({
      gstin: '06AAACR5055K1Z7',
      legalName: null,
      tradeName: null,
      address: null,
      status: 'ACT',
      blocked: false,
    });
  });
});
