import { describe, expect, it } from 'vitest';
import { addContact, setMailPaused } from '../../domain/mail/finance-contacts.ts';
import { mailMonthlyStatement, previousMonth, type StatementMailDeps } from '../../domain/mail/statement-mail.ts';
import type { MetricName } from '../../domain/ports/metrics.ts';
import { PdfStatementRenderer } from '../../infra/pdf/pdf-statement-renderer.ts';
import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { pdfText } from '../support/pdf-scan.ts';
import { InMemoryFinanceContactStore } from '../support/memory/in-memory-finance-contacts.ts';
import { InMemoryMailLog, RecordingMailer } from '../support/memory/in-memory-mail-log.ts';

const G = 'grp-statement';
const GROUP = { agentGroupId: G, legalName: 'Acme Travels Private Limited', gstin: '27AABCA1234M1Z5' };

/** A group whose ledger opened the month at ₹1,00,000 owed (a checkpoint) and has no entries; India day `today`. */
function world(today: string, mailer = new RecordingMailer()) {
  let n = 0;
  let now = new Date(`${today}T04:30:00Z`);
  const counted: MetricName[] = [];
  /** Every read of the ledger and its balances, by port method. */
  const ledgerReads: string[] = [];
  const deps: StatementMailDeps & { mailer: RecordingMailer; financeContacts: InMemoryFinanceContactStore } = {
    ledger: {
      queryEntries: async () => (ledgerReads.push('queryEntries'), { entries: [] }) as never,
      creditPosition: async () => (ledgerReads.push('creditPosition'), { creditLimit: 50_000_000, exposure: 10_000_000, availableCredit: 40_000_000 }),
    },
    balances: {
      latest: async () => (ledgerReads.push('balances.latest'), { agentGroupId: G, at: '2026-10-31T18:30:00.000Z', balance: -10_000_000 }) as never,
      put: async () => undefined,
    } as never,
    financeContacts: new InMemoryFinanceContactStore(),
    mailLog: new InMemoryMailLog(),
    mailer,
    metrics: { count: (m) => void counted.push(m) },
    clock: { now: () => now },
    ids: { uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` },
    statementRenderer: new PdfStatementRenderer(),
  };
  const cdeps = { financeContacts: deps.financeContacts, clock: deps.clock, ids: deps.ids };
  return { deps, cdeps, counted, ledgerReads, setDay: (day: string) => (now = new Date(`${day}T04:30:00Z`)) };
}

describe('the monthly statement e-mail', () => {
  it('covers the previous India calendar month', () => {
    expect(previousMonth('2026-12-01')).toEqual({ month: '2026-11', from: '2026-11-01', to: '2026-11-30' });
    expect(previousMonth('2027-01-15')).toEqual({ month: '2026-12', from: '2026-12-01', to: '2026-12-31' });
    expect(previousMonth('2028-03-01')).toEqual({ month: '2028-02', from: '2028-02-01', to: '2028-02-29' });
  });

  it('goes once per month to contacts who chose statements (a reminder opt-out does not stop it), in Indian formats with the PDF and the CSV; later runs of the month send nothing', async () => {
    const w = world('2026-12-01');
    await addContact(w.cdeps, G, { email: 'cfo@acme.example.in', name: 'Ravi', documents: ['STATEMENTS'] }, TEST_OPERATOR);
    await addContact(w.cdeps, G, { email: 'ap@acme.example.in', documents: ['RECEIPTS', 'REMINDERS'] }, TEST_OPERATOR);
    expect(await mailMonthlyStatement(w.deps, GROUP, TEST_OPERATOR)).toEqual({ sent: 1, alreadySent: 0, failed: 0 });
    const [m] = w.deps.mailer.sent;
    expect(m!.to).toEqual(['cfo@acme.example.in']);
    expect(m!.subject).toBe('Statement 01-11-2026 to 30-11-2026: closing balance -₹1,00,000.00');
    expect(m!.text).toContain('Dear Ravi,');
    expect(m!.html).toContain('-₹1,00,000.00');
    expect(m!.attachments!.map((a) => [a.fileName, a.contentType])).toEqual([
      ['statement-2026-11-01-to-2026-11-30.pdf', 'application/pdf'],
      ['statement-2026-11-01-to-2026-11-30.csv', 'text/csv; charset=utf-8'],
    ]);
    const pdf = pdfText(m!.attachments![0]!.content);
    expect(pdf).toContain('Acme Travels Private Limited');
    expect(pdf).toContain('01-11-2026 to 30-11-2026');
    expect(pdf).toContain('Closing balance -1,00,000.00');
    expect(new TextDecoder().decode(m!.attachments![1]!.content)).toContain('CLOSING_BALANCE');
    w.setDay('2026-12-02');
    expect(await mailMonthlyStatement(w.deps, GROUP, TEST_OPERATOR)).toEqual({ sent: 0, alreadySent: 1, failed: 0 });
    w.setDay('2027-01-01');
    expect((await mailMonthlyStatement(w.deps, GROUP, TEST_OPERATOR)).sent).toBe(1);
  });

  it('reads no ledger on a later day of the month once every recipient has the month; a contact added since gets it, the others not again', async () => {
    const w = world('2026-12-01');
    await addContact(w.cdeps, G, { email: 'cfo@acme.example.in', documents: ['STATEMENTS'] }, TEST_OPERATOR);
    expect((await mailMonthlyStatement(w.deps, GROUP, TEST_OPERATOR)).sent).toBe(1);
    expect(w.ledgerReads.length).toBeGreaterThan(0);
    w.ledgerReads.length = 0;
    for (const day of ['2026-12-02', '2026-12-15', '2026-12-31']) {
      w.setDay(day);
      expect(await mailMonthlyStatement(w.deps, GROUP, TEST_OPERATOR)).toEqual({ sent: 0, alreadySent: 1, failed: 0 });
    }
    expect(w.ledgerReads).toEqual([]);

    await addContact(w.cdeps, G, { email: 'ap@acme.example.in', documents: ['STATEMENTS'] }, TEST_OPERATOR);
    expect(await mailMonthlyStatement(w.deps, GROUP, TEST_OPERATOR)).toEqual({ sent: 1, alreadySent: 1, failed: 0 });
    expect(w.ledgerReads.length).toBeGreaterThan(0);
    expect(w.deps.mailer.sent.map((m) => m.to)).toEqual([['cfo@acme.example.in'], ['ap@acme.example.in']]);
    w.ledgerReads.length = 0;
    w.setDay('2027-01-01');
    expect((await mailMonthlyStatement(w.deps, GROUP, TEST_OPERATOR)).sent).toBe(2);
    expect(w.ledgerReads.length).toBeGreaterThan(0);
  });

  it('sends nothing for paused mail; a refusal is counted and the next day of the month sends it', async () => {
    const paused = world('2026-12-01');
    await addContact(paused.cdeps, G, { email: 'cfo@acme.example.in' }, TEST_OPERATOR);
    await setMailPaused(paused.cdeps, G, true, TEST_OPERATOR);
    expect((await mailMonthlyStatement(paused.deps, GROUP, TEST_OPERATOR)).sent).toBe(0);

    let refuse = true;
    const refused = world('2026-12-01', new RecordingMailer(() => refuse));
    await addContact(refused.cdeps, G, { email: 'cfo@acme.example.in' }, TEST_OPERATOR);
    expect(await mailMonthlyStatement(refused.deps, GROUP, TEST_OPERATOR)).toEqual({ sent: 0, alreadySent: 0, failed: 1 });
    expect(refused.counted).toEqual(['MailNotSent']);
    refuse = false;
    refused.setDay('2026-12-02');
    expect((await mailMonthlyStatement(refused.deps, GROUP, TEST_OPERATOR)).sent).toBe(1);
  });

  it('without a renderer sends no statement without its PDF: a month due is counted as mail not sent, and nothing is counted when no contact chose statements', async () => {
    const bare = world('2026-12-01');
    const { statementRenderer: _, ...deps } = bare.deps;
    expect(await mailMonthlyStatement(deps, GROUP, TEST_OPERATOR)).toEqual({ sent: 0, alreadySent: 0, failed: 0 });
    expect(bare.counted).toEqual([]);
    await addContact(bare.cdeps, G, { email: 'cfo@acme.example.in', documents: ['STATEMENTS'] }, TEST_OPERATOR);
    expect(await mailMonthlyStatement(deps, GROUP, TEST_OPERATOR)).toEqual({ sent: 0, alreadySent: 0, failed: 1 });
    expect(bare.counted).toEqual(['MailNotSent']);
    expect(bare.deps.mailer.sent).toEqual([]);
  });
});
