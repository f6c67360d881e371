import { describe, expect, it } from 'vitest';
import { validateAgentGroup } from '../../domain/admin.ts';
import { creditNoteDocumentOf } from '../../domain/invoicing/credit-note-document.ts';
import { eInvoiceOfRecord, EInvoiceError } from '../../domain/invoicing/e-invoice.ts';
import type { Invoice, InvoiceLine } from '../../domain/invoicing/invoice.ts';
import { checkInvoiceDocument, statutoryNotes } from '../../domain/invoicing/invoice-document.ts';
import { invoiceDocumentOf, stateOfAddress } from '../../domain/invoicing/invoice-document-of.ts';

/**
 * A group not registered for GST (created without a GSTIN) is billed like any other: its
 * invoice is a tax invoice to an unregistered person (CGST Rules, rule 46(e)): name, address,
 * the State its address names with the State's code, and the place of supply. It never goes
 * to the IRP. Before, the printed view refused it ("recipient.gstin "" is not a GSTIN").
 */
const unregistered = (over: Partial<Invoice> = {}): Invoice =>
  ({
    id: 'inv-1',
    agentGroupId: 'g-1',
    status: 'ISSUED',
    invoiceNumber: 'I30/2627/000007',
    issueDate: '2027-03-01',
    dueDate: '2027-03-16',
    periodFrom: '2027-02-01',
    periodTo: '2027-02-28',
    supplierGstin: '30AAICK4821M1ZQ',
    supplierName: 'Konkan Villa Stays Private Limited',
    supplierAddress: 'Plot 14, Campal Trade Centre, Panaji, Goa 403001',
    supplierStateCode: '30',
    billToGstin: null,
    billToName: 'Sahyadri Holiday Club',
    billToAddress: '501 Trade Link, Lower Parel, Mumbai, Maharashtra 400013, IN',
    placeOfSupply: 'Goa',
    placeOfSupplyStateCode: '30',
    total: 10_500_00,
    discount: 0,
    gatewayOrderId: null,
    ...over,
  }) as Invoice;

const lines: InvoiceLine[] = [
  {
    description: 'Villa stay',
    propertyName: 'Casa Azul, Assagao',
    sac: '996311',
    checkIn: '2027-02-10',
    checkOut: '2027-02-12',
    bookingId: 'b-1',
    quantity: 2,
    taxableValue: 10_000_00,
    gstRate: 5,
    cgst: 250_00,
    sgst: 250_00,
    igst: 0,
    lineTotal: 10_500_00,
  } as InvoiceLine,
];

describe('a tax invoice to a recipient not registered for GST', () => {
  it("is printed with no GSTIN, the State its address names and that State's code, and passes the document check", () => {
    const doc = invoiceDocumentOf(unregistered(), lines);
    expect(doc.recipient).toEqual({
      name: 'Sahyadri Holiday Club',
      address: '501 Trade Link, Lower Parel, Mumbai, Maharashtra 400013, IN',
      gstin: null,
      state: 'Maharashtra',
      stateCode: '27',
    });
    expect(() => checkInvoiceDocument(doc)).not.toThrow();
    expect(doc.placeOfSupply).toEqual({ state: 'Goa', stateCode: '30' });
    expect(statutoryNotes(doc)).toContain(
      'Recipient not registered for GST (no GSTIN); address of delivery: the properties named on the lines, in Goa (code 30), the place of supply.',
    );
  });

  it("prints its gateway order with the order's own amount (a replacing order is for what was still due)", () => {
    expect(invoiceDocumentOf(unregistered({ gatewayOrderId: 'order_First000000001' }), lines).notes?.join(' ')).toContain(
      'Pay online against order order_First000000001 (₹10,500.00;',
    );
    expect(
      invoiceDocumentOf(unregistered({ gatewayOrderId: 'order_Second00000002', gatewayOrderAmount: 6_500_00, gatewayOrderSeq: 2 }), lines).notes?.join(' '),
    ).toContain('Pay online against order order_Second00000002 (₹6,500.00;');
  });

  it('prints its credit notes the same way', () => {
    const note = creditNoteDocumentOf(
      unregistered({
        id: 'cn-1',
        invoiceNumber: 'C30/2627/000001',
        creditNoteFor: 'inv-1',
        creditNoteForNumber: 'I30/2627/000007',
        creditNoteForDate: '2027-03-01',
      }),
      lines,
    );
    expect(note.recipient.gstin).toBeNull();
    expect(() => checkInvoiceDocument(note)).not.toThrow();
  });

  it('is never an e-invoice: the INV-01 is refused before anything is sent', () => {
    expect(() => eInvoiceOfRecord(unregistered(), lines)).toThrow(EInvoiceError);
    expect(() => eInvoiceOfRecord(unregistered(), lines)).toThrow(/not registered for GST/);
  });

  it('still refuses a registered recipient whose GSTIN is malformed', () => {
    expect(() => checkInvoiceDocument(invoiceDocumentOf(unregistered({ billToGstin: '27ABC' }), lines))).toThrow(/recipient.gstin "27ABC" is not a GSTIN/);
  });
});

describe('stateOfAddress', () => {
  it('finds the GST state of an address as the billing run writes it, with or without the PIN beside it', () => {
    expect(stateOfAddress('1 Test Road, Mumbai, Maharashtra 400001, IN')).toEqual({ name: 'Maharashtra', code: '27' });
    expect(stateOfAddress('Shop 4, Jammu & Kashmir 180001, IN')).toMatchObject({ code: '01' });
    expect(stateOfAddress('12 Beach Road, Panaji, Goa, 403001')).toEqual({ name: 'Goa', code: '30' });
  });

  it('finds none in an address naming no GST state', () => {
    expect(stateOfAddress('1 Test Road, Springfield, Atlantis 400001, IN')).toBeUndefined();
  });
});

describe('a group without a GSTIN', () => {
  const group = (state: string, gstin: string | null = null) => ({
    agentGroupId: 'g-1',
    partnerId: 'p-1',
    name: 'Agents',
    channelId: 'c-1',
    creditLimit: 0,
    onHold: false,
    distributionEnabled: true,
    billingCycle: 'MONTHLY' as const,
    billingAnchorDay: 1,
    gstin,
    legalName: 'Sahyadri Holiday Club',
    address: { line1: '1 Road', city: 'Mumbai', state, postalCode: '400001', country: 'IN' },
  });

  it('must name an Indian state or union territory, which its invoices print with its GST code (400 naming address.state)', () => {
    expect(() => validateAgentGroup(group('Maharastra'))).toThrow(expect.objectContaining({ param: 'address.state' }));
    expect(() => validateAgentGroup(group('maharashtra'))).not.toThrow();
    // A registered group's State is its GSTIN's.
    expect(() => validateAgentGroup(group('Maharastra', '27AAPFU0939F1ZV'))).not.toThrow();
  });
});
