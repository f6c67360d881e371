import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { billGroup } from '../support/billing-run-kit.ts';
import { newAgentGroup } from '../support/stack.ts';

let world: InvoiceWorld;
let invoiceNumber: string;
let creditNoteNumber: string;
beforeAll(async () => {
  world = await seedInvoiceWorld();
  const g = await newAgentGroup({ channelId: world.channelId });
  await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
  const detail = await billGroup(g);
  invoiceNumber = detail.invoice.invoiceNumber!;
  // An operator credits 1,050.00 of the first night: a credit note of the same month, in table 9B.
  const note = await runAdminTool([
    'invoices',
    'credit-note',
    detail.invoice.id,
    '--group',
    g.agentGroupId,
    '--lines',
    `${detail.lines[0]!.id}:1050`,
    '--reason',
    'Late check-in',
    '--json',
  ]);
  expect(note.code, note.stderr).toBe(0);
  creditNoteNumber = JSON.parse(note.stdout).creditNote.invoiceNumber;
}, 180_000);

describe('admin filing gstr1', () => {
  it("writes the month's B2B invoices and credit notes of one GSTIN as the portal's JSON and CSVs, from the stored figures", async () => {
    const out = mkdtempSync(join(tmpdir(), 'gstr1-'));
    const month = indiaToday(new Date()).slice(0, 7);
    const res = await runAdminTool(['filing', 'gstr1', '--gstin', world.supplierGstin.toLowerCase(), '--month', month, '--out', out, '--json']);
    expect(res.code, res.stderr).toBe(0);
    const fp = `${month.slice(5, 7)}${month.slice(0, 4)}`;
    expect(JSON.parse(res.stdout)).toMatchObject({ invoiceCount: 1, creditNoteCount: 1, unregistered: { b2cl: [], b2cs: [], cdnur: [] } });
    const json = JSON.parse(readFileSync(join(out, `${world.supplierGstin}-${fp}-gstr1.json`), 'utf8'));
    const today = indiaToday(new Date());
    expect(json).toEqual({
      gstin: world.supplierGstin,
      fp,
      b2b: [
        {
          ctin: '27AAPFU0939F1ZV',
          inv: [
            {
              inum: invoiceNumber,
              idt: `${today.slice(8, 10)}-${today.slice(5, 7)}-${today.slice(0, 4)}`,
              val: 10_500,
              pos: '30',
              rchrg: 'N',
              inv_typ: 'R',
              itms: [{ num: 1, itm_det: { rt: 5, txval: 10_000, iamt: 0, camt: 250, samt: 250, csamt: 0 } }],
            },
          ],
        },
      ],
      cdnr: [
        {
          ctin: '27AAPFU0939F1ZV',
          nt: [
            {
              ntty: 'C',
              nt_num: creditNoteNumber,
              nt_dt: `${today.slice(8, 10)}-${today.slice(5, 7)}-${today.slice(0, 4)}`,
              val: 1_050,
              pos: '30',
              rchrg: 'N',
              inv_typ: 'R',
              itms: [{ num: 1, itm_det: { rt: 5, txval: 1_000, iamt: 0, camt: 25, samt: 25, csamt: 0 } }],
            },
          ],
        },
      ],
    });
    const csv = readFileSync(join(out, `${world.supplierGstin}-${fp}-gstr1.csv`), 'utf8')
      .trim()
      .split('\n');
    expect(csv[0]).toBe(
      'GSTIN/UIN of Recipient,Receiver Name,Invoice Number,Invoice date,Invoice Value,Place Of Supply,Reverse Charge,Applicable % of Tax Rate,Invoice Type,E-Commerce GSTIN,Rate,Taxable Value,Cess Amount',
    );
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(`,${invoiceNumber},`);
    expect(csv[1]).toMatch(/,10500\.00,30-Invoicestate [^,]+,N,,Regular B2B,,5,10000\.00,0\.00$/);
    const cdnr = readFileSync(join(out, `${world.supplierGstin}-${fp}-gstr1-cdnr.csv`), 'utf8')
      .trim()
      .split('\n');
    expect(cdnr).toHaveLength(2);
    expect(cdnr[1]).toMatch(
      new RegExp(
        `^27AAPFU0939F1ZV,Test Agents Pvt Ltd,${creditNoteNumber},\\d{2}-[A-Z][a-z]{2}-\\d{4},C,30-Invoicestate [^,]+,N,Regular B2B,1050\\.00,,5,1000\\.00,0\\.00$`,
      ),
    );
  }, 120_000);

  it('puts the invoices of a group not registered for GST in b2cs (table 7), net of their credit notes, never in b2b', async () => {
    const own = await seedInvoiceWorld();
    const g = await newAgentGroup({ channelId: own.channelId, gstin: null });
    await bookStay(g, own.registered, '2027-03-01', '2027-03-03');
    const detail = await billGroup(g);
    const note = await runAdminTool([
      'invoices',
      'credit-note',
      detail.invoice.id,
      '--group',
      g.agentGroupId,
      '--lines',
      `${detail.lines[0]!.id}:1050`,
      '--reason',
      'Late check-in',
      '--json',
    ]);
    expect(note.code, note.stderr).toBe(0);
    const noteNumber = JSON.parse(note.stdout).creditNote.invoiceNumber;

    const out = mkdtempSync(join(tmpdir(), 'gstr1-b2c-'));
    const month = indiaToday(new Date()).slice(0, 7);
    const res = await runAdminTool(['filing', 'gstr1', '--gstin', own.supplierGstin, '--month', month, '--out', out, '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      invoiceCount: 0,
      creditNoteCount: 0,
      unregistered: { b2cl: [], b2cs: [detail.invoice.invoiceNumber, noteNumber].sort(), cdnur: [] },
    });
    const fp = `${month.slice(5, 7)}${month.slice(0, 4)}`;
    const json = JSON.parse(readFileSync(join(out, `${own.supplierGstin}-${fp}-gstr1.json`), 'utf8'));
    expect(json).toMatchObject({
      b2b: [],
      cdnr: [],
      b2cs: [{ sply_ty: 'INTRA', pos: '30', typ: 'OE', rt: 5, txval: 9_000, iamt: 0, camt: 225, samt: 225, csamt: 0 }],
    });
    expect(json).not.toHaveProperty('b2cl');
    const b2cs = readFileSync(join(out, `${own.supplierGstin}-${fp}-gstr1-b2cs.csv`), 'utf8')
      .trim()
      .split('\n');
    expect(b2cs[1]).toMatch(/^OE,30-Invoicestate [^,]+,,5,9000\.00,0\.00,$/);
  }, 180_000);

  it('refuses a malformed month naming the option', async () => {
    const res = await runAdminTool(['filing', 'gstr1', '--gstin', world.supplierGstin, '--month', '2027-13']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/month/);
  }, 60_000);
});
