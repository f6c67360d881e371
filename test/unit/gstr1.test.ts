import { describe, expect, it } from 'vitest';
import type { Invoice, InvoiceLine } from '../../domain/invoicing/invoice.ts';
import { gstr1Of, gstr1Period } from '../../domain/receivables/gstr1.ts';
import { ValidationError } from '../../domain/errors.ts';

const invoice = (over: Partial<Invoice>): Invoice =>
  ({
    invoiceNumber: '27/26-27/000001',
    issueDate: '2027-03-12',
    total: 0,
    billToGstin: '29AAACB1234C1Z5',
    billToName: 'Agents, "North"',
    supplierStateCode: '27',
    placeOfSupply: 'Maharashtra',
    placeOfSupplyStateCode: '27',
    ...over,
  }) as Invoice;
const line = (gstRate: number, taxableValue: number, tax: { igst?: number; cgst?: number; sgst?: number }): InvoiceLine =>
  ({ gstRate, taxableValue, igst: tax.igst ?? 0, cgst: tax.cgst ?? 0, sgst: tax.sgst ?? 0 }) as InvoiceLine;

describe('gstr1Of', () => {
  it('groups B2B invoices by recipient with one item per rate, summed exactly; an invoice without a recipient GSTIN goes to B2CS, not B2B', () => {
    const a = invoice({ total: 5_250_00 + 11_800_00, placeOfSupplyStateCode: '30', placeOfSupply: 'Goa' });
    const aLines = [line(5, 2_500_00, { igst: 125_00 }), line(18, 10_000_00, { igst: 1_800_00 }), line(5, 2_500_00, { igst: 125_00 })];
    const b = invoice({ invoiceNumber: '27/26-27/000002', billToGstin: null, total: 1_05_00 });
    const out = gstr1Of('27AAAAA0000A1Z5', '2027-03', [
      { invoice: a, lines: aLines },
      { invoice: b, lines: [line(5, 1_00_00, { cgst: 2_50, sgst: 2_50 })] },
    ]);
    expect(out.json).toEqual({
      gstin: '27AAAAA0000A1Z5',
      fp: '032027',
      b2b: [
        {
          ctin: '29AAACB1234C1Z5',
          inv: [
            {
              inum: '27/26-27/000001',
              idt: '12-03-2027',
              val: 17_050,
              pos: '30',
              rchrg: 'N',
              inv_typ: 'R',
              itms: [
                { num: 1, itm_det: { rt: 5, txval: 5_000, iamt: 250, camt: 0, samt: 0, csamt: 0 } },
                { num: 2, itm_det: { rt: 18, txval: 10_000, iamt: 1_800, camt: 0, samt: 0, csamt: 0 } },
              ],
            },
          ],
        },
      ],
      cdnr: [],
      b2cs: [{ sply_ty: 'INTRA', pos: '27', typ: 'OE', rt: 5, txval: 100, iamt: 0, camt: 2.5, samt: 2.5, csamt: 0 }],
    });
    expect(out.unregistered).toEqual({ b2cl: [], b2cs: ['27/26-27/000002'], cdnur: [] });
    expect(out.csv.trim().split('\n').slice(1)).toEqual([
      '29AAACB1234C1Z5,"Agents, ""North""",27/26-27/000001,12-Mar-2027,17050.00,30-Goa,N,,Regular B2B,,5,5000.00,0.00',
      '29AAACB1234C1Z5,"Agents, ""North""",27/26-27/000001,12-Mar-2027,17050.00,30-Goa,N,,Regular B2B,,18,10000.00,0.00',
    ]);
  });

  it('puts credit notes to registered recipients in cdnr (table 9B) with ntty C, positive figures per rate, and in the CDNR CSV, not in b2b', () => {
    const inv = invoice({ total: 10_500_00, placeOfSupplyStateCode: '30', placeOfSupply: 'Goa' });
    const note = invoice({
      invoiceNumber: 'CN30/2627/000001',
      issueDate: '2027-03-20',
      total: 5_250_00 + 1_180_00,
      placeOfSupplyStateCode: '30',
      placeOfSupply: 'Goa',
      creditNoteFor: 'x',
    });
    const noteLines = [line(5, 5_000_00, { cgst: 125_00, sgst: 125_00 }), line(18, 1_000_00, { cgst: 90_00, sgst: 90_00 })];
    const out = gstr1Of('30AAAAA0000A1Z5', '2027-03', [
      { invoice: inv, lines: [line(5, 10_000_00, { cgst: 250_00, sgst: 250_00 })] },
      { invoice: note, lines: noteLines },
    ]);
    const json = out.json as { b2b: { inv: { inum: string }[] }[]; cdnr: unknown };
    expect(json.b2b.flatMap((r) => r.inv.map((i) => i.inum))).toEqual(['27/26-27/000001']);
    expect(json.cdnr).toEqual([
      {
        ctin: '29AAACB1234C1Z5',
        nt: [
          {
            ntty: 'C',
            nt_num: 'CN30/2627/000001',
            nt_dt: '20-03-2027',
            val: 6_430,
            pos: '30',
            rchrg: 'N',
            inv_typ: 'R',
            itms: [
              { num: 1, itm_det: { rt: 5, txval: 5_000, iamt: 0, camt: 125, samt: 125, csamt: 0 } },
              { num: 2, itm_det: { rt: 18, txval: 1_000, iamt: 0, camt: 90, samt: 90, csamt: 0 } },
            ],
          },
        ],
      },
    ]);
    expect([out.invoiceCount, out.creditNoteCount]).toEqual([1, 1]);
    expect(out.cdnrCsv.trim().split('\n')).toEqual([
      'GSTIN/UIN of Recipient,Receiver Name,Note Number,Note Date,Note Type,Place Of Supply,Reverse Charge,Note Supply Type,Note Value,Applicable % of Tax Rate,Rate,Taxable Value,Cess Amount',
      '29AAACB1234C1Z5,"Agents, ""North""",CN30/2627/000001,20-Mar-2027,C,30-Goa,N,Regular B2B,6430.00,,5,5000.00,0.00',
      '29AAACB1234C1Z5,"Agents, ""North""",CN30/2627/000001,20-Mar-2027,C,30-Goa,N,Regular B2B,6430.00,,18,1000.00,0.00',
    ]);
  });

  it('takes a month as yyyy-mm only', () => {
    expect(gstr1Period('2028-02')).toEqual({ fp: '022028', from: '2028-02-01', to: '2028-02-29' });
    for (const bad of ['2027-13', '2027-3', '03-2027', '']) expect(() => gstr1Period(bad)).toThrow(ValidationError);
  });
});

describe('gstr1Of, documents voided at the IRP', () => {
  it('leaves a cancelled invoice out of table 4A and counts it in table 13 (doc_issue) with its series, number kept', () => {
    const kept = invoice({ invoiceNumber: '30/2026-27/000001', issueDate: '2027-03-02' });
    const voided = invoice({ invoiceNumber: '30/2026-27/000002', status: 'CANCELLED', issueDate: '2027-03-03' });
    const out = gstr1Of('30AAAAA0000A1Z5', '2027-03', [{ invoice: kept, lines: [line(5, 10_000_00, { cgst: 250_00, sgst: 250_00 })] }], [voided]);
    const json = out.json as { b2b: { inv: { inum: string }[] }[]; doc_issue: unknown };
    expect(json.b2b.flatMap((r) => r.inv.map((i) => i.inum))).toEqual(['30/2026-27/000001']);
    expect(json.doc_issue).toEqual({
      doc_det: [{ doc_num: 1, docs: [{ num: 1, from: '30/2026-27/000001', to: '30/2026-27/000002', totnum: 2, cancel: 1, net_issue: 1 }] }],
    });
    expect(out.cancelled).toEqual(['30/2026-27/000002']);
    expect(gstr1Of('30AAAAA0000A1Z5', '2027-03', [{ invoice: kept, lines: [] }]).json).not.toHaveProperty('doc_issue');
  });
});

describe('gstr1Of, recipients not registered for GST', () => {
  // A Karnataka registration billing stays in Goa: inter-state, IGST.
  const b2c = (over: Partial<Invoice>) =>
    invoice({ billToGstin: null, billToName: 'Sahyadri Holiday Club', supplierStateCode: '29', placeOfSupply: 'Goa', placeOfSupplyStateCode: '30', ...over });
  const igst = (taxableValue: number) => line(18, taxableValue, { igst: (taxableValue * 18) / 100 });

  it('reports an inter-state invoice above ₹1,00,000 in b2cl by place of supply, and every other one summed in b2cs by type, place and rate', () => {
    const large = b2c({ invoiceNumber: 'I29/2627/000003', total: 1_18_000_00 });
    const atThreshold = b2c({ invoiceNumber: 'I29/2627/000004', total: 1_00_000_00 });
    const intra = b2c({ invoiceNumber: 'I29/2627/000005', total: 2_36_000_00, supplierStateCode: '30' });
    const out = gstr1Of('29AAAAA0000A1Z5', '2027-03', [
      { invoice: large, lines: [igst(1_00_000_00)] },
      { invoice: atThreshold, lines: [line(18, 84_745_76, { igst: 15_254_24 })] },
      { invoice: intra, lines: [line(18, 2_00_000_00, { cgst: 18_000_00, sgst: 18_000_00 })] },
    ]);
    const json = out.json as Record<string, unknown>;
    expect(json.b2b).toEqual([]);
    expect(json.b2cl).toEqual([
      {
        pos: '30',
        inv: [{ inum: 'I29/2627/000003', idt: '12-03-2027', val: 1_18_000, itms: [{ num: 1, itm_det: { rt: 18, txval: 1_00_000, iamt: 18_000, csamt: 0 } }] }],
      },
    ]);
    expect(json.b2cs).toEqual([
      { sply_ty: 'INTER', pos: '30', typ: 'OE', rt: 18, txval: 84_745.76, iamt: 15_254.24, camt: 0, samt: 0, csamt: 0 },
      { sply_ty: 'INTRA', pos: '30', typ: 'OE', rt: 18, txval: 2_00_000, iamt: 0, camt: 18_000, samt: 18_000, csamt: 0 },
    ]);
    expect(out.unregistered).toEqual({ b2cl: ['I29/2627/000003'], b2cs: ['I29/2627/000004', 'I29/2627/000005'], cdnur: [] });
    expect(out.invoiceCount).toBe(0);
    expect(out.b2clCsv.trim().split('\n')).toEqual([
      'Invoice Number,Invoice date,Invoice Value,Place Of Supply,Applicable % of Tax Rate,Rate,Taxable Value,Cess Amount,E-Commerce GSTIN',
      'I29/2627/000003,12-Mar-2027,118000.00,30-Goa,,18,100000.00,0.00,',
    ]);
    expect(out.b2csCsv.trim().split('\n').slice(1)).toEqual(['OE,30-Goa,,18,84745.76,0.00,', 'OE,30-Goa,,18,200000.00,0.00,']);
  });

  it('uses the ₹2,50,000 threshold for invoices dated before August 2024', () => {
    const july = b2c({ invoiceNumber: 'I29/2425/000001', issueDate: '2024-07-31', total: 2_00_000_00 });
    const out = gstr1Of('29AAAAA0000A1Z5', '2024-07', [{ invoice: july, lines: [line(18, 1_69_491_53, { igst: 30_508_47 })] }]);
    expect(out.unregistered.b2cs).toEqual(['I29/2425/000001']);
  });

  it('reports a credit note against a B2CL invoice in cdnur (typ B2CL), and nets one against a B2CS invoice into its b2cs row', () => {
    const large = b2c({ invoiceNumber: 'I29/2627/000003', total: 1_18_000_00 });
    const small = b2c({ invoiceNumber: 'I29/2627/000004', total: 11_800_00 });
    const noteLarge = b2c({ invoiceNumber: 'C29/2627/000001', issueDate: '2027-03-20', total: 11_800_00, creditNoteFor: 'large' });
    const noteSmall = b2c({ invoiceNumber: 'C29/2627/000002', issueDate: '2027-03-21', total: 1_180_00, creditNoteFor: 'small' });
    const out = gstr1Of('29AAAAA0000A1Z5', '2027-03', [
      { invoice: large, lines: [igst(1_00_000_00)] },
      { invoice: small, lines: [igst(10_000_00)] },
      { invoice: noteLarge, lines: [igst(10_000_00)], original: large },
      { invoice: noteSmall, lines: [igst(1_000_00)], original: small },
    ]);
    const json = out.json as Record<string, unknown>;
    expect(json.cdnur).toEqual([
      {
        typ: 'B2CL',
        ntty: 'C',
        nt_num: 'C29/2627/000001',
        nt_dt: '20-03-2027',
        val: 11_800,
        pos: '30',
        itms: [{ num: 1, itm_det: { rt: 18, txval: 10_000, iamt: 1_800, csamt: 0 } }],
      },
    ]);
    expect(json.b2cs).toEqual([{ sply_ty: 'INTER', pos: '30', typ: 'OE', rt: 18, txval: 9_000, iamt: 1_620, camt: 0, samt: 0, csamt: 0 }]);
    expect(json.cdnr).toEqual([]);
    expect(out.unregistered).toEqual({ b2cl: ['I29/2627/000003'], b2cs: ['C29/2627/000002', 'I29/2627/000004'], cdnur: ['C29/2627/000001'] });
  });
});
