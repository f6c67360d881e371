import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkInvoiceDocument,
  InvoiceDocumentError,
  isIntraState,
  printedDate,
  statutoryNotes,
  taxSummaryByRate,
  type InvoiceDocument,
} from '../../domain/invoicing/invoice-document.ts';
import { GST_STATE_CODES, gstStateByCode, gstStateByName } from '../../domain/invoicing/gst-state-codes.ts';
import { formatIndianGrouping, formatInr } from '../../domain/money.ts';
import { creditNote, interStateInvoice, intraStateInvoice, line, totalsOf } from '../support/invoice-documents.ts';

describe('Indian money formatting', () => {
  it.each([
    [0, '0.00', '₹0.00'],
    [5, '0.05', '₹0.05'],
    [99_999, '999.99', '₹999.99'],
    [100_000, '1,000.00', '₹1,000.00'],
    [12_345_678, '1,23,456.78', '₹1,23,456.78'],
    [1_234_567_890, '1,23,45,678.90', '₹1,23,45,678.90'],
    [999_999_999_999, '9,99,99,99,999.99', '₹9,99,99,99,999.99'],
    [-12_345_678, '-1,23,456.78', '-₹1,23,456.78'],
  ])('%i paise prints as %s / %s', (paise, grouped, inr) => {
    expect(formatIndianGrouping(paise)).toBe(grouped);
    expect(formatInr(paise)).toBe(inr);
  });

  it('groups the last three rupee digits then pairs, and loses no digit', () => {
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (paise) => {
        const text = formatIndianGrouping(paise);
        expect(text).toMatch(/^-?(\d{1,2},)?(\d{2},)*\d{1,3}\.\d{2}$|^-?\d{1,3}\.\d{2}$/);
        expect(Number(text.replace(/[,.]/g, ''))).toBe(paise);
      }),
    );
  });
});

describe('GST state codes', () => {
  it.each([
    ['Goa', '30'],
    ['Maharashtra', '27'],
    ['Karnataka', '29'],
    ['Kerala', '32'],
    ['Himachal Pradesh', '02'],
    ['Rajasthan', '08'],
    ['Tamil Nadu', '33'],
    ['Uttarakhand', '05'],
    ['Delhi', '07'],
    ['Andhra Pradesh', '37'],
    ['Telangana', '36'],
    ['Ladakh', '38'],
    ['Dadra and Nagar Haveli and Daman and Diu', '26'],
    ['  tamil   NADU ', '33'],
    ['Jammu & Kashmir', '01'],
    ['Orissa', '21'],
    ['Pondicherry', '34'],
    ['NCT of Delhi', '07'],
  ])('%s has code %s', (name, code) => {
    expect(gstStateByName(name)?.code).toBe(code);
  });

  it('knows no state by an unknown or retired name', () => {
    expect(gstStateByName('Atlantis')).toBeUndefined();
    expect(gstStateByName('Daman and Diu')).toBeUndefined();
    expect(gstStateByName('')).toBeUndefined();
  });

  it('lists all 28 states and 8 union territories, codes unique and two digits', () => {
    const current = GST_STATE_CODES.filter((s) => !s.historical);
    expect(current.filter((s) => s.kind === 'STATE')).toHaveLength(28);
    expect(current.filter((s) => s.kind === 'UNION_TERRITORY')).toHaveLength(8);
    expect(new Set(GST_STATE_CODES.map((s) => s.code)).size).toBe(GST_STATE_CODES.length);
    for (const s of GST_STATE_CODES) expect(s.code).toMatch(/^\d{2}$/);
    expect(gstStateByCode('25')?.historical).toBe(true);
    expect(gstStateByCode('30')?.name).toBe('Goa');
  });
});

const broken = (doc: InvoiceDocument, change: (d: Record<string, unknown>) => void): InvoiceDocument => {
  const copy = structuredClone(doc) as unknown as Record<string, unknown>;
  change(copy);
  return copy as unknown as InvoiceDocument;
};

describe('checkInvoiceDocument', () => {
  it('accepts intra-state, inter-state and credit-note documents whose figures hold', () => {
    for (const doc of [intraStateInvoice, interStateInvoice, creditNote]) expect(checkInvoiceDocument(doc)).toBe(doc);
    expect(isIntraState(intraStateInvoice)).toBe(true);
    expect(isIntraState(interStateInvoice)).toBe(false);
  });

  it.each<[string, (d: Record<string, unknown>) => void, RegExp]>([
    ['totals that differ from the lines', (d) => ((d.totals as { cgst: number }).cgst += 1), /totals\.cgst/],
    ['a total that is not taxable + taxes − discount', (d) => ((d.totals as { total: number }).total -= 1), /totals\.total/],
    ['IGST on an intra-state supply', (d) => ((d.lines as { igst: number; lineTotal: number }[])[0]!.igst = 5), /CGST and SGST only/],
    ['a line total that is not its value plus taxes', (d) => ((d.lines as { lineTotal: number }[])[0]!.lineTotal += 1), /lineTotal/],
    ['a GSTIN that does not start with its state code', (d) => ((d.recipient as { stateCode: string }).stateCode = '29'), /recipient\.gstin must start/],
    ['a malformed GSTIN', (d) => ((d.supplier as { gstin: string }).gstin = '30-NOT-A-GSTIN'), /supplier\.gstin/],
    ['a number longer than 16 characters', (d) => (d.number = 'GA/2026-27/000000042'), /number/],
    ['an unknown place-of-supply code', (d) => (d.placeOfSupply = { state: 'Atlantis', stateCode: '99' }), /placeOfSupply/],
    ['no lines', (d) => ((d.lines = []), (d.totals = totalsOf([]))), /at least one line/],
    ['a line with neither night nor stay dates', (d) => delete (d.lines as { nightDate?: string }[])[0]!.nightDate, /nightDate or checkIn/],
    ['a fractional paisa', (d) => ((d.lines as { taxableValue: number }[])[0]!.taxableValue += 0.5), /whole number of paise/],
  ])('refuses %s', (_what, change, message) => {
    expect(() => checkInvoiceDocument(broken(intraStateInvoice, change))).toThrow(InvoiceDocumentError);
    expect(() => checkInvoiceDocument(broken(intraStateInvoice, change))).toThrow(message);
  });

  it('refuses CGST on an inter-state supply', () => {
    const doc = broken(interStateInvoice, (d) => ((d.placeOfSupply as { stateCode: string }).stateCode = '29'));
    expect(() => checkInvoiceDocument(doc)).toThrow(/IGST only|CGST and SGST only/);
  });
});

describe('statutory notes', () => {
  it('state that no tax is payable on reverse charge, and the SAC', () => {
    const notes = statutoryNotes(intraStateInvoice);
    expect(notes[0]).toMatch(/not payable on reverse charge basis/);
    expect(notes.join(' ')).toContain('996311');
  });

  it('name the invoice a credit note corrects, with its date as printed, and the reason', () => {
    const notes = statutoryNotes(creditNote).join(' ');
    expect(notes).toContain('section 34');
    expect(notes).toContain('GA/2026-27/0042 dated 01-11-2026');
    expect(notes).toContain(creditNote.reason);
    expect(printedDate('2026-04-01')).toBe('01-04-2026');
  });
});

describe('tax summary by rate', () => {
  it('adds up to the document totals, one row per rate, lowest first', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ taxableValue: fc.integer({ min: 0, max: 10_000_000 }), gstRate: fc.constantFrom(0, 5, 12, 18, 28), intra: fc.boolean() }), {
          minLength: 1,
          maxLength: 40,
        }),
        (specs) => {
          const lines = specs.map((s) => line({ night: '2026-10-01', ...s }));
          const rows = taxSummaryByRate(lines);
          const totals = totalsOf(lines);
          for (const k of ['taxableValue', 'cgst', 'sgst', 'igst'] as const) expect(rows.reduce((s, r) => s + r[k], 0)).toBe(totals[k]);
          expect(rows.map((r) => r.gstRate)).toEqual([...new Set(specs.map((s) => s.gstRate))].sort((a, b) => a - b));
        },
      ),
    );
  });
});
