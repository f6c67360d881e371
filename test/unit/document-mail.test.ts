import { describe, expect, it } from 'vitest';
import type { Invoice } from '../../domain/invoicing/invoice.ts';
import { issuedDocumentMail, mailIssuedDocument, type DocumentMailDeps } from '../../domain/mail/document-mail.ts';
import { addContact, setMailPaused } from '../../domain/mail/finance-contacts.ts';
import { mailReceipt, receiptMail } from '../../domain/mail/receipt-mail.ts';
import type { Payment } from '../../domain/receivables/payment.ts';
import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { InMemoryFinanceContactStore } from '../support/memory/in-memory-finance-contacts.ts';
import { InMemoryMailLog, RecordingMailer } from '../support/memory/in-memory-mail-log.ts';

const G = 'grp-mail';
const PDF = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]);

/** The fields an issued invoice's e-mail reads; the rest of the record plays no part. */
const invoice = (over: Partial<Invoice> = {}): Invoice =>
  ({
    id: 'inv-1',
    agentGroupId: G,
    status: 'ISSUED',
    invoiceNumber: 'I30/26-27/000042',
    issueDate: '2026-12-01',
    dueDate: '2026-12-16',
    periodFrom: '2026-11-01',
    periodTo: '2026-11-30',
    total: 12_345_678,
    amountPaid: 0,
    creditedAmount: 0,
    pdfKey: 'pdf/inv-1.pdf',
    payTo: { virtualAccountId: 'va_1', accountNumber: '2223330012345678', ifsc: 'RATN0VAAPIS', bankName: 'RBL Bank', beneficiaryName: 'Goa Villas Pvt Ltd' },
    ...over,
  }) as Invoice;

function world(inv: Invoice, mailer = new RecordingMailer()) {
  let n = 0;
  const deps: DocumentMailDeps & { mailLog: InMemoryMailLog; mailer: RecordingMailer; financeContacts: InMemoryFinanceContactStore } = {
    invoices: { get: async (g, id) => (g === inv.agentGroupId && id === inv.id ? inv : undefined) },
    documents: { get: async (key) => (key === inv.pdfKey ? PDF : undefined) },
    financeContacts: new InMemoryFinanceContactStore(),
    mailLog: new InMemoryMailLog(),
    mailer,
    clock: { now: () => new Date('2026-12-01T04:00:00Z') },
    ids: { uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` },
  };
  return deps;
}

describe('the invoice-issued e-mail', () => {
  it('carries the number, amount due in rupees with Indian grouping, the due date, the bank-transfer details and the PDF, in both parts', () => {
    const m = issuedDocumentMail(invoice({ amountPaid: 345_678 }), { email: 'ap@acme.example.in', name: 'Asha' }, PDF);

    expect(m.subject).toBe('Invoice I30/26-27/000042: ₹1,20,000.00 due by 16-12-2026');
    for (const part of [m.text, m.html]) {
      for (const shown of [
        'Asha',
        'I30/26-27/000042',
        '₹1,23,456.78',
        '₹1,20,000.00',
        '16-12-2026',
        '01-11-2026',
        '2223330012345678',
        'RATN0VAAPIS',
        'Goa Villas Pvt Ltd',
      ])
        expect(part).toContain(shown);
    }
    expect(m.attachments).toEqual([{ fileName: 'invoice-I30-26-27-000042.pdf', contentType: 'application/pdf', content: PDF }]);
    expect(m.tags).toEqual({ kind: 'invoice-issued', invoice: 'inv-1' });
  });

  it('escapes what it prints in HTML', () => {
    const m = issuedDocumentMail(invoice(), { email: 'a@b.in', name: 'R&D <Finance>' }, PDF);
    expect(m.html).toContain('R&amp;D &lt;Finance&gt;');
    expect(m.html).not.toContain('<Finance>');
  });

  it('for a credit note says what it credits, and carries no bank details', () => {
    const m = issuedDocumentMail(
      invoice({ creditNoteFor: 'inv-0', creditNoteForNumber: 'I30/26-27/000007', total: 50_000 }),
      { email: 'a@b.in', name: null },
      PDF,
    );
    expect(m.subject).toBe('Credit note I30/26-27/000042: ₹500.00');
    expect(m.text).toContain('I30/26-27/000007');
    expect(m.text).not.toContain('IFSC');
    expect(m.tags!.kind).toBe('credit-note-issued');
  });
});

describe('mailIssuedDocument', () => {
  it('sends once to each contact, however often the worker runs, each send audited', async () => {
    const deps = world(invoice());
    await addContact(deps, G, { email: 'ap@acme.example.in' }, TEST_OPERATOR);
    await addContact(deps, G, { email: 'cfo@acme.example.in', documents: [] }, TEST_OPERATOR);

    const outcomes = await Promise.all([1, 2, 3].map(() => mailIssuedDocument(deps, G, 'inv-1', TEST_OPERATOR)));

    expect(deps.mailer.sent.map((m) => m.to[0]).sort()).toEqual(['ap@acme.example.in', 'cfo@acme.example.in']);
    expect(outcomes.reduce((n, o) => n + (typeof o === 'object' ? o.sent : 0), 0)).toBe(2);
    expect(deps.mailLog.events.map((e) => e.action)).toEqual(['mail.invoice-sent', 'mail.invoice-sent']);
    expect(await mailIssuedDocument(deps, G, 'inv-1', TEST_OPERATOR)).toEqual({ sent: 0, alreadySent: 2 });
  });

  it('gives a refused send back and throws, so the redelivered message sends it then', async () => {
    let refuse = true;
    const deps = world(invoice(), new RecordingMailer((m) => refuse && m.to[0] === 'b@acme.example.in'));
    await addContact(deps, G, { email: 'a@acme.example.in' }, TEST_OPERATOR);
    await addContact(deps, G, { email: 'b@acme.example.in' }, TEST_OPERATOR);

    await expect(mailIssuedDocument(deps, G, 'inv-1', TEST_OPERATOR)).rejects.toThrow('not verified');
    refuse = false;
    expect(await mailIssuedDocument(deps, G, 'inv-1', TEST_OPERATOR)).toEqual({ sent: 1, alreadySent: 1 });
    expect(deps.mailer.sent.map((m) => m.to[0])).toEqual(['a@acme.example.in', 'b@acme.example.in']);
  });

  it('sends nothing for a draft, a document without its PDF, or a paused group', async () => {
    const draft = world(invoice({ status: 'DRAFT', invoiceNumber: null }));
    await addContact(draft, G, { email: 'a@acme.example.in' }, TEST_OPERATOR);
    expect(await mailIssuedDocument(draft, G, 'inv-1', TEST_OPERATOR)).toBe('NOT_ISSUED');
    const unprinted = world(invoice({ pdfKey: null }));
    await addContact(unprinted, G, { email: 'a@acme.example.in' }, TEST_OPERATOR);
    expect(await mailIssuedDocument(unprinted, G, 'inv-1', TEST_OPERATOR)).toBe('NO_PDF');
    const paused = world(invoice());
    await addContact(paused, G, { email: 'a@acme.example.in' }, TEST_OPERATOR);
    await setMailPaused(paused, G, true, TEST_OPERATOR);
    expect(await mailIssuedDocument(paused, G, 'inv-1', TEST_OPERATOR)).toEqual({ sent: 0, alreadySent: 0 });
    expect([draft, unprinted, paused].flatMap((d) => d.mailer.sent)).toEqual([]);
  });
});

describe('the payment receipt', () => {
  const payment: Payment = {
    agentGroupId: G,
    source: 'GATEWAY',
    reference: 'pay_N1a2b3c4d5e6f7',
    amount: 10_000_000,
    gatewayOrderId: 'order_1',
    invoiceId: 'inv-1',
    // 22:00 UTC is the next day in India.
    receivedAt: '2026-12-05T22:00:00.000Z',
    recordedAt: '2026-12-05T22:00:01.000Z',
    ledgerEntryId: 'le-1',
  };

  it('says the amount, the India date, the reference and what is still due on the invoice', () => {
    const m = receiptMail(payment, { invoiceNumber: 'I30/26-27/000042', amountDue: 2_345_678 }, { email: 'a@b.in', name: null });
    expect(m.subject).toBe('Payment received: ₹1,00,000.00 for invoice I30/26-27/000042');
    for (const part of [m.text, m.html]) for (const shown of ['₹1,00,000.00', '06-12-2026', 'pay_N1a2b3c4d5e6f7', '₹23,456.78']) expect(part).toContain(shown);
  });

  it('goes once to the contacts who chose receipts only', async () => {
    const deps = world(invoice({ amountPaid: 10_000_000 }));
    await addContact(deps, G, { email: 'receipts@acme.example.in', documents: ['RECEIPTS'] }, TEST_OPERATOR);
    await addContact(deps, G, { email: 'none@acme.example.in', documents: [] }, TEST_OPERATOR);

    await Promise.all([1, 2].map(() => mailReceipt(deps, payment, TEST_OPERATOR)));

    expect(deps.mailer.sent.map((m) => [m.to[0], m.subject])).toEqual([
      ['receipts@acme.example.in', 'Payment received: ₹1,00,000.00 for invoice I30/26-27/000042'],
    ]);
    expect(deps.mailLog.events.map((e) => [e.action, e.target])).toEqual([['mail.receipt-sent', 'payment:le-1']]);
  });
});
