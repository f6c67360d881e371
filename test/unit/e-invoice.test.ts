import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { financialYearOf, invoiceNumberOf } from '../../domain/invoicing/billing-period.ts';
import { creditNoteNumberOf } from '../../domain/invoicing/credit-notes.ts';
import { eInvoiceJson, eInvoiceOfRecord, EInvoiceError, IRP_DOCUMENT_NUMBER, IRP_MAX_ITEMS, type EInvoicePayload } from '../../domain/invoicing/e-invoice.ts';
import { GST_STATE_CODES } from '../../domain/invoicing/gst-state-codes.ts';
import { newDraftInvoice, type Invoice, type InvoiceLine } from '../../domain/invoicing/invoice.ts';
import { splitInclusive, splitTax } from '../../domain/invoicing/tax.ts';
import { gstr1Of } from '../../domain/receivables/gstr1.ts';
import type { InvoiceDocument } from '../../domain/invoicing/invoice-document.ts';
import { creditNote, interStateInvoice, intraStateInvoice, line, manyLineInvoice, MUMBAI_AGENCY as MUMBAI, totalsOf } from '../support/invoice-documents.ts';

/**
 * The e-invoice schema INV-01 v1.1 as the IRP publishes it, for the parts our documents
 * fill: every object and field the schema marks required, with its type and pattern or
 * range. Unknown fields are refused (strictObject), so a typo in a field name fails here.
 */
const rupees = v.pipe(
  v.number(),
  v.minValue(0),
  v.check((n) => Number.isInteger(Math.round(n * 100)) && Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, 'at most two decimals'),
);
const irpDate = v.pipe(v.string(), v.regex(/^(0[1-9]|[12][0-9]|3[01])\/(0[1-9]|1[0-2])\/20[0-9]{2}$/));
const stateCode = v.pipe(v.string(), v.regex(/^(?!0+$)([0-9]{1,2})$/));
/** INV-01's free text: `^([^\"])*$`, no double quote and no backslash. */
const text = (min: number, max: number) => v.pipe(v.string(), v.minLength(min), v.maxLength(max), v.regex(/^([^\\"])*$/));
const party = {
  Gstin: v.pipe(v.string(), v.regex(/^([0-9]{2}[0-9A-Z]{13})$/)),
  LglNm: text(3, 100),
  Addr1: text(1, 100),
  Addr2: v.optional(text(3, 100)),
  Loc: text(3, 50),
  Pin: v.pipe(v.number(), v.integer(), v.minValue(100000), v.maxValue(999999)),
  Stcd: stateCode,
};
const Inv01 = v.strictObject({
  Version: v.literal('1.1'),
  TranDtls: v.strictObject({
    TaxSch: v.literal('GST'),
    SupTyp: v.picklist(['B2B', 'SEZWP', 'SEZWOP', 'EXPWP', 'EXPWOP', 'DEXP']),
    RegRev: v.picklist(['Y', 'N']),
    EcmGstin: v.optional(v.pipe(v.string(), v.regex(/^([0-9]{2}[0-9A-Z]{13})$/))),
    IgstOnIntra: v.picklist(['Y', 'N']),
  }),
  DocDtls: v.strictObject({ Typ: v.picklist(['INV', 'CRN', 'DBN']), No: v.pipe(v.string(), v.regex(/^([A-Z1-9]{1}[A-Z0-9/-]{0,15})$/)), Dt: irpDate }),
  SellerDtls: v.strictObject(party),
  BuyerDtls: v.strictObject({ ...party, Pos: stateCode }),
  ItemList: v.pipe(
    v.array(
      v.strictObject({
        SlNo: v.pipe(v.string(), v.regex(/^[0-9]{1,6}$/)),
        PrdDesc: text(3, 300),
        IsServc: v.picklist(['Y', 'N']),
        HsnCd: v.pipe(v.string(), v.regex(/^[0-9]{4,8}$/)),
        Qty: v.pipe(v.number(), v.minValue(0)),
        Unit: v.pipe(v.string(), v.minLength(3), v.maxLength(8)),
        UnitPrice: v.pipe(v.number(), v.minValue(0)),
        TotAmt: rupees,
        Discount: rupees,
        AssAmt: rupees,
        GstRt: v.picklist([0, 0.1, 0.25, 1, 1.5, 3, 5, 6, 7.5, 12, 18, 28, 40]),
        IgstAmt: rupees,
        CgstAmt: rupees,
        SgstAmt: rupees,
        CesRt: v.number(),
        CesAmt: rupees,
        TotItemVal: rupees,
      }),
    ),
    v.minLength(1),
    v.maxLength(1000),
  ),
  ValDtls: v.strictObject({
    AssVal: rupees,
    CgstVal: rupees,
    SgstVal: rupees,
    IgstVal: rupees,
    CesVal: rupees,
    StCesVal: rupees,
    Discount: rupees,
    OthChrg: rupees,
    RndOffAmt: v.number(),
    TotInvVal: rupees,
  }),
  RefDtls: v.strictObject({
    InvRm: v.optional(text(3, 100)),
    DocPerdDtls: v.strictObject({ InvStDt: irpDate, InvEndDt: irpDate }),
    PrecDocDtls: v.optional(v.array(v.strictObject({ InvNo: v.pipe(v.string(), v.minLength(1), v.maxLength(16)), InvDt: irpDate }))),
  }),
});

const paise = (rupeesValue: number) => Math.round(rupeesValue * 100);

/** The IRP's arithmetic checks: item values and the document's totals agree. */
function expectConsistent(json: EInvoicePayload): void {
  const sum = (pick: (i: EInvoicePayload['ItemList'][number]) => number) => json.ItemList.reduce((s, i) => s + paise(pick(i)), 0);
  for (const item of json.ItemList) {
    expect(paise(item.TotItemVal)).toBe(paise(item.AssAmt) + paise(item.CgstAmt) + paise(item.SgstAmt) + paise(item.IgstAmt));
    expect(paise(item.AssAmt)).toBe(paise(item.TotAmt) - paise(item.Discount));
    expect(Math.abs(item.UnitPrice * item.Qty - item.TotAmt)).toBeLessThanOrEqual(0.01 * item.Qty);
  }
  const val = json.ValDtls;
  expect(paise(val.AssVal)).toBe(sum((i) => i.AssAmt));
  expect(paise(val.CgstVal)).toBe(sum((i) => i.CgstAmt));
  expect(paise(val.SgstVal)).toBe(sum((i) => i.SgstAmt));
  expect(paise(val.IgstVal)).toBe(sum((i) => i.IgstAmt));
  expect(paise(val.TotInvVal)).toBe(paise(val.AssVal) + paise(val.CgstVal) + paise(val.SgstVal) + paise(val.IgstVal) - paise(val.Discount));
}

const parse = (doc: InvoiceDocument) => {
  const json = eInvoiceJson(doc);
  const result = v.safeParse(Inv01, JSON.parse(JSON.stringify(json)));
  if (!result.success) throw new Error(result.issues.map((i) => `${v.getDotPath(i)}: ${i.message}`).join('; '));
  return json;
};

type BookingSpec = { items: { taxableValue: number; gstRate: number; quantity: number }[]; lowering: number };

/**
 * A stored intra- or inter-state invoice as billing writes it: per booking its charge lines,
 * and, for an amendment that lowered the price, one negative ADJUSTMENT line at the booking's
 * top rate (tax-inclusive, split as the engine splits it). `fixedDrift`: that line's amount
 * for the first booking instead of a share.
 */
function storedInvoice(bookings: readonly BookingSpec[], intra: boolean, fixedDrift?: number): { record: Invoice; lines: InvoiceLine[] } {
  const supplier = intra ? intraStateInvoice.supplier : interStateInvoice.supplier;
  const lines: InvoiceLine[] = [];
  const lineOf = (b: number, n: number, over: Partial<InvoiceLine> & Pick<InvoiceLine, 'taxableValue' | 'gstRate' | 'quantity'>, gst: number): InvoiceLine => {
    const tax = splitTax(gst, supplier.stateCode, '30');
    return {
      id: `l${b}-${n}`,
      invoiceId: 'inv',
      agentGroupId: 'g',
      key: `STAY#p#${b}-${n}`,
      lineKind: 'STAY',
      sac: '996311',
      description: 'Villa stay',
      propertyName: 'Casa Azul',
      bookingRef: `ref-${b}`,
      bookingId: `PS-${b}`,
      ledgerEntryId: `e${b}`,
      itemRef: `p#${n}`,
      nightDate: `2026-10-${String(n + 1).padStart(2, '0')}`,
      checkIn: '2026-10-01',
      checkOut: '2026-10-09',
      unitBase: over.taxableValue,
      discount: 0,
      ...over,
      ...tax,
      lineTotal: over.taxableValue + gst,
    };
  };
  bookings.forEach((bk, b) => {
    bk.items.forEach((it, n) => lines.push(lineOf(b, n, it, Math.floor((it.taxableValue * it.gstRate + 50) / 100))));
    const top = Math.max(...bk.items.map((i) => i.gstRate));
    const atTop = lines.filter((l) => l.bookingId === `PS-${b}` && l.gstRate === top).reduce((s, l) => s + l.lineTotal, 0);
    const drift = b === 0 && fixedDrift !== undefined ? fixedDrift : Math.floor((atTop * bk.lowering) / 100);
    if (drift > 0) {
      const { taxableValue, gst } = splitInclusive(-drift, top);
      lines.push({
        ...lineOf(b, 99, { taxableValue, gstRate: top, quantity: 1 }, gst),
        key: 'ADJUSTMENT',
        lineKind: 'ADJUSTMENT',
        itemRef: 'ADJUSTMENT',
        nightDate: null,
        description: 'Price difference absorbed by amendment',
      });
    }
  });
  const sum = (k: 'taxableValue' | 'cgst' | 'sgst' | 'igst' | 'lineTotal') => lines.reduce((s, l) => s + l[k], 0);
  const parties = {
    supplierGstin: supplier.gstin,
    supplierName: supplier.name,
    supplierAddress: supplier.address,
    supplierStateCode: supplier.stateCode,
    billToGstin: MUMBAI.gstin,
    billToName: MUMBAI.name,
    billToAddress: MUMBAI.address,
    placeOfSupply: 'Goa',
    placeOfSupplyStateCode: '30',
  };
  const record: Invoice = {
    ...newDraftInvoice({
      id: 'inv',
      agentGroupId: 'g',
      runId: 'run',
      period: { from: '2026-10-01', to: '2026-10-31' },
      parties,
      at: '2026-11-01T06:30:00.000Z',
    }),
    invoiceNumber: 'I30/26-27/000001',
    issueDate: '2026-11-01',
    dueDate: '2026-11-16',
    subtotal: sum('taxableValue'),
    cgst: sum('cgst'),
    sgst: sum('sgst'),
    igst: sum('igst'),
    total: sum('lineTotal'),
    lineCount: lines.length,
  };
  return { record, lines };
}

describe('e-invoice JSON (INV-01)', () => {
  it('renders an intra-state tax invoice with every required field', () => {
    const json = parse(intraStateInvoice);
    expect(json.DocDtls).toEqual({ Typ: 'INV', No: 'GA/2026-27/0042', Dt: '01/11/2026' });
    expect(json.SellerDtls).toEqual({
      Gstin: '30AAICK4821M1ZQ',
      LglNm: 'Konkan Villa Stays Private Limited',
      Addr1: 'Plot 14, Campal Trade Centre, Panaji',
      Loc: 'North Goa',
      Pin: 403001,
      Stcd: '30',
    });
    expect(json.BuyerDtls).toMatchObject({ Gstin: '27AAPFU0939F1ZV', Pos: '30', Stcd: '27', Pin: 400013, Loc: 'Mumbai' });
    expect(json.ItemList[2]).toMatchObject({
      SlNo: '3',
      HsnCd: '996311',
      IsServc: 'Y',
      AssAmt: 12450.5,
      GstRt: 18,
      CgstAmt: 1120.55,
      SgstAmt: 1120.54,
      IgstAmt: 0,
      TotItemVal: 14691.59,
    });
    expect(json.ItemList[3]).toMatchObject({ Qty: 2, UnitPrice: 1900, TotAmt: 3800 });
    expect(json.ValDtls).toMatchObject({ AssVal: 30450.5, CgstVal: 1648.55, SgstVal: 1648.54, IgstVal: 0, TotInvVal: 33747.59 });
    expect(json.RefDtls).toEqual({ DocPerdDtls: { InvStDt: '01/10/2026', InvEndDt: '31/10/2026' } });
    expectConsistent(json);
  });

  it('renders an inter-state invoice with IGST, and refuses a discount after tax (the books and GSTR-1 have none)', () => {
    expect(() => eInvoiceJson(interStateInvoice)).toThrow(/price-lowering line of 500 INR/);
    const json = parse({ ...interStateInvoice, totals: totalsOf(interStateInvoice.lines) });
    expect(json.ValDtls).toMatchObject({ AssVal: 21800, IgstVal: 3222, CgstVal: 0, SgstVal: 0, Discount: 0, TotInvVal: 25022 });
    expect(json.BuyerDtls.Pos).toBe('30');
    expect(json.SellerDtls.Stcd).toBe('29');
    expectConsistent(json);
  });

  it('renders a credit note as CRN naming the invoice it corrects', () => {
    const json = parse(creditNote);
    expect(json.DocDtls).toEqual({ Typ: 'CRN', No: 'GA-CN/2627/0003', Dt: '09/11/2026' });
    expect(json.RefDtls.PrecDocDtls).toEqual([{ InvNo: 'GA/2026-27/0042', InvDt: '01/11/2026' }]);
    expect(json.RefDtls.InvRm).toMatch(/cancelled/);
    expectConsistent(json);
  });

  it('meets the schema and adds up for any document of valid figures', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            taxableValue: fc.integer({ min: 0, max: 100_000_000 }),
            gstRate: fc.constantFrom(5, 12, 18, 28),
            quantity: fc.integer({ min: 1, max: 9 }),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        fc.boolean(),
        (specs, intra) => {
          const lines = specs.map((s, i) => line({ night: `2026-10-${String((i % 28) + 1).padStart(2, '0')}`, intra, ...s }));
          const doc: InvoiceDocument = { ...(intra ? intraStateInvoice : interStateInvoice), lines, totals: totalsOf(lines) };
          expectConsistent(parse(doc));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps to 1,000 items, the IRP limit', () => {
    expect(parse(manyLineInvoice(IRP_MAX_ITEMS)).ItemList).toHaveLength(IRP_MAX_ITEMS);
    expect(() => eInvoiceJson(manyLineInvoice(IRP_MAX_ITEMS + 1))).toThrow(EInvoiceError);
  });

  it.each([
    ['a lower-case number', { number: 'ga/2026-27/0042' }, /IRP's rule/],
    ['a number starting with 0', { number: '0042/2026' }, /IRP's rule/],
    [
      'an address without a PIN',
      { supplier: { ...intraStateInvoice.supplier, address: 'Campal Trade Centre, Panaji, Goa' } },
      /supplier\.address has no six-digit PIN/,
    ],
  ] as const)('refuses %s', (_what, change, message) => {
    expect(() => eInvoiceJson({ ...intraStateInvoice, ...change } as InvoiceDocument)).toThrow(message);
  });

  it("nets a price-lowering amendment line into its booking's items before tax: e-invoice ValDtls = stored totals = GSTR-1, for any invoice", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            items: fc.array(
              fc.record({
                taxableValue: fc.integer({ min: 100, max: 5_000_000 }),
                gstRate: fc.constantFrom(5, 12, 18),
                quantity: fc.integer({ min: 1, max: 4 }),
              }),
              { minLength: 1, maxLength: 4 },
            ),
            // The share of the booking's items at its top rate an amendment's absorbed drift lowers (0: no amendment).
            lowering: fc.integer({ min: 0, max: 90 }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        fc.boolean(),
        (bookings, intra) => {
          const { record, lines } = storedInvoice(bookings, intra);
          const json = eInvoiceOfRecord(record, lines);
          const stored = (k: 'taxableValue' | 'cgst' | 'sgst' | 'igst') => lines.reduce((s, l) => s + l[k], 0);
          const gstr1 = (
            gstr1Of(record.supplierGstin, '2026-11', [{ invoice: record, lines }]).json as {
              b2b: { inv: { val: number; itms: { itm_det: { txval: number; iamt: number; camt: number; samt: number } }[] }[] }[];
            }
          ).b2b[0]!.inv[0]!;
          const g = (k: 'txval' | 'iamt' | 'camt' | 'samt') => gstr1.itms.reduce((s, i) => s + paise(i.itm_det[k]), 0);
          const val = json.ValDtls;
          expect([paise(val.AssVal), paise(val.CgstVal), paise(val.SgstVal), paise(val.IgstVal), paise(val.TotInvVal), paise(val.Discount)]).toEqual([
            stored('taxableValue'),
            stored('cgst'),
            stored('sgst'),
            stored('igst'),
            record.total,
            0,
          ]);
          expect([g('txval'), g('camt'), g('samt'), g('iamt'), paise(gstr1.val)]).toEqual([
            stored('taxableValue'),
            stored('cgst'),
            stored('sgst'),
            stored('igst'),
            record.total,
          ]);
          expect(json.ItemList.every((i) => i.AssAmt >= 0 && i.Discount >= 0)).toBe(true);
          expectConsistent(JSON.parse(JSON.stringify(json)) as EInvoicePayload);
          const checked = v.safeParse(Inv01, JSON.parse(JSON.stringify(json)));
          expect(checked.success).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("takes 7,500 / 450 / 450 from the issue's example: items 8,000 at 12 % lowered by 500 taxable and 30 + 30 tax, never ValDtls.Discount", () => {
    const { record, lines } = storedInvoice([{ items: [{ taxableValue: 800_000, gstRate: 12, quantity: 2 }], lowering: 0 }], true, 56_000);
    const json = eInvoiceOfRecord(record, lines);
    expect(json.ItemList).toHaveLength(1);
    expect(json.ItemList[0]).toMatchObject({ TotAmt: 8000, Discount: 500, AssAmt: 7500, CgstAmt: 450, SgstAmt: 450, TotItemVal: 8400, UnitPrice: 4000 });
    expect(json.ValDtls).toMatchObject({ AssVal: 7500, CgstVal: 450, SgstVal: 450, Discount: 0, TotInvVal: 8400 });
  });

  it("numbers every series (invoices, credit notes) of every state code 01–38 in the IRP's document-number form, and the document is built", () => {
    const codes = GST_STATE_CODES.map((s) => s.code).filter((c) => c <= '38');
    expect(codes).toContain('01');
    fc.assert(
      fc.property(
        fc.constantFrom(...codes),
        fc.date({ min: new Date('2020-04-01T00:00:00Z'), max: new Date('2099-03-31T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: 1, max: 999_999 }),
        fc.boolean(),
        (code, day, sequence, credit) => {
          const fy = financialYearOf(day.toISOString().slice(0, 10));
          const number = credit ? creditNoteNumberOf(code, fy, sequence) : invoiceNumberOf(code, fy, sequence);
          // NIC's rule: at most 16, upper-case letters, digits, "/" and "-", never starting with 0, "/" or "-".
          expect(number.length).toBeLessThanOrEqual(16);
          expect(number).toMatch(IRP_DOCUMENT_NUMBER);
          expect(number).not.toMatch(/^[0/-]/);
          const doc = credit ? { ...creditNote, number } : { ...intraStateInvoice, number };
          expect(parse(doc).DocDtls.No).toBe(number);
        },
      ),
      { numRuns: 400 },
    );
    for (const code of codes) expect(invoiceNumberOf(code, '2026-27', 1)).toMatch(IRP_DOCUMENT_NUMBER);
  });

  it('cleans names, addresses and descriptions to the schema (no double quote, no backslash, lengths) and sends no EcmGstin; the printed document keeps the text', () => {
    const recipient = {
      ...intraStateInvoice.recipient,
      name: `Agents "North" \\ Sons ${'Travel '.repeat(20)}`,
      address: 'Shop 3, "Sea Breeze"\\Annexe, Lower Parel, Mumbai, Maharashtra 400013',
    };
    const lines = intraStateInvoice.lines.map((l, i) => (i === 0 ? { ...l, propertyName: 'Casa "Azul"\\North' } : l));
    const doc = { ...intraStateInvoice, recipient, lines };
    const json = parse(doc);
    expect(json.BuyerDtls.LglNm).toMatch(/^Agents 'North' \/ Sons Travel/);
    expect(json.BuyerDtls.LglNm.length).toBeLessThanOrEqual(100);
    expect(json.BuyerDtls.Addr1).toBe("Shop 3, 'Sea Breeze'/Annexe, Lower Parel");
    expect(json.ItemList[0]!.PrdDesc).toContain("Casa 'Azul'/North");
    expect(json.TranDtls).not.toHaveProperty('EcmGstin');
    expect(JSON.stringify(json)).not.toMatch(/\\"|\\\\/);
    expect(doc.recipient.name).toContain('"North"');
  });

  it('splits a long address into two lines at a comma', () => {
    const address = `${'Unit 4, Block B, '.repeat(6)}Sector 18, Noida, Uttar Pradesh 201301`;
    const json = parse({
      ...intraStateInvoice,
      recipient: { ...intraStateInvoice.recipient, address, gstin: '09AAPFU0939F1ZV', state: 'Uttar Pradesh', stateCode: '09' },
    });
    expect(json.BuyerDtls.Addr1.length).toBeLessThanOrEqual(100);
    expect(json.BuyerDtls.Addr2).toBeDefined();
    expect(`${json.BuyerDtls.Addr1}, ${json.BuyerDtls.Addr2}`).toBe(address.split(', ').slice(0, -2).join(', '));
    expect(json.BuyerDtls).toMatchObject({ Loc: 'Noida', Pin: 201301 });
  });
});
