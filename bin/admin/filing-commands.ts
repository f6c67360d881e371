import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gstr1Of, gstr1Period, type Gstr1Invoice } from '../../domain/receivables/gstr1.ts';
import type { CommandSpec } from './command.ts';
import { gstinOption } from './input.ts';

export const filingGstr1: CommandSpec = {
  path: ['filing', 'gstr1'],
  summary:
    "Write one GSTIN's GSTR-1 invoices and credit notes of a month (B2B, CDNR, B2CL, B2CS, CDNUR), from stored figures: JSON for the GST portal's offline tool, and CSV.",
  details:
    "Reads every agent group's invoices and credit notes issued in the month by that supplier GSTIN. Writes <gstin>-<MMYYYY>-gstr1.json (tables b2b and cdnr; b2cl, b2cs and cdnur when a recipient is not registered for GST), <gstin>-<MMYYYY>-gstr1.csv (B2B), …-gstr1-cdnr.csv (credit notes to registered recipients), …-gstr1-b2cl.csv and …-gstr1-b2cs.csv into --out (default: the current directory). B2CL: an inter-state invoice to an unregistered recipient above ₹1,00,000 (₹2,50,000 before August 2024); every other supply to one is summed in B2CS.",
  options: [
    { name: 'gstin', value: '<GSTIN>', required: true, description: 'Our supplier registration.' },
    { name: 'month', value: '<yyyy-mm>', required: true, param: 'month', description: 'The return period.' },
    { name: 'out', value: '<dir>', description: 'Where to write the files (default: the current directory); made if it does not exist.' },
  ],
  examples: ['filing gstr1 --gstin 30AAACB1234C1Z5 --month 2027-03 --out ./returns'],
  async run(args, ctx) {
    const gstin = gstinOption(args.required('gstin'));
    const month = args.required('month');
    const { fp, from, to } = gstr1Period(month);
    const svc = ctx.services();
    const documents: Gstr1Invoice[] = [];
    for (const group of await svc.tenants.listAgentGroups()) {
      let after: string | undefined;
      do {
        const page = await svc.invoices.list(group.agentGroupId, { statuses: ['ISSUED', 'PAID'], from, to, limit: 100, ...(after ? { after } : {}) });
        for (const invoice of page.invoices.filter((i) => i.supplierGstin === gstin)) {
          // A credit note to an unregistered recipient is reported by the table of the invoice it corrects (B2CL or B2CS).
          const original =
            invoice.creditNoteFor && invoice.billToGstin === null ? await svc.invoices.get(group.agentGroupId, invoice.creditNoteFor) : undefined;
          documents.push({ invoice, lines: await svc.invoices.lines(group.agentGroupId, invoice.id), ...(original ? { original } : {}) });
        }
        after = page.next ?? undefined;
      } while (after);
    }
    const out = gstr1Of(gstin, month, documents, await svc.invoices.cancelledDocuments(gstin, from, to));
    const dir = resolve(ctx.cwd, args.text('out') ?? '.');
    // A folder that does not exist yet is made, as an operator naming --out ./returns/2026-11 expects.
    mkdirSync(dir, { recursive: true });
    const base = join(dir, `${gstin}-${fp}-gstr1`);
    writeFileSync(`${base}.json`, `${JSON.stringify(out.json, null, 2)}\n`);
    writeFileSync(`${base}.csv`, out.csv);
    writeFileSync(`${base}-cdnr.csv`, out.cdnrCsv);
    writeFileSync(`${base}-b2cl.csv`, out.b2clCsv);
    writeFileSync(`${base}-b2cs.csv`, out.b2csCsv);
    const u = out.unregistered;
    const files = { json: `${base}.json`, csv: `${base}.csv`, cdnrCsv: `${base}-cdnr.csv`, b2clCsv: `${base}-b2cl.csv`, b2csCsv: `${base}-b2cs.csv` };
    ctx.out.result({ ...files, invoiceCount: out.invoiceCount, creditNoteCount: out.creditNoteCount, unregistered: u, cancelled: out.cancelled }, () => [
      `Wrote ${out.invoiceCount} B2B invoices and ${out.creditNoteCount} credit notes of ${gstin} for ${month} to ${base}.json and the CSVs beside it (-cdnr, -b2cl, -b2cs).`,
      ...(u.b2cl.length + u.b2cs.length + u.cdnur.length
        ? [
            `To recipients not registered for GST: B2CL (table 5) ${u.b2cl.join(', ') || 'none'}; B2CS (table 7) ${u.b2cs.join(', ') || 'none'}; CDNUR (table 9B) ${u.cdnur.join(', ') || 'none'}.`,
          ]
        : []),
      ...(out.cancelled.length ? [`Cancelled at the IRP (table 13, doc_issue): ${out.cancelled.join(', ')}.`] : []),
    ]);
  },
};
