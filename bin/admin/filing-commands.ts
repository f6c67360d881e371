import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gstr1Of, gstr1Period, type Gstr1Invoice } from '../../domain/receivables/gstr1.ts';
import type { CommandSpec } from './command.ts';
import { gstinOption } from './input.ts';

export const filingGstr1: CommandSpec = {
  path: ['filing', 'gstr1'],
  summary: "Write one GSTIN's GSTR-1 B2B invoices and credit notes of a month, from stored figures: JSON for the GST portal's offline tool, and CSV.",
  details:
    'Reads every agent group\'s invoices and credit notes issued in the month by that supplier GSTIN. Writes <gstin>-<MMYYYY>-gstr1.json (tables b2b and cdnr), <gstin>-<MMYYYY>-gstr1.csv (B2B) and <gstin>-<MMYYYY>-gstr1-cdnr.csv (credit notes) into --out (default: the current directory). Documents to a recipient without a GSTIN are not B2B: they are named, not exported.',
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
        for (const invoice of page.invoices.filter((i) => i.supplierGstin === gstin)) documents.push({ invoice, lines: await svc.invoices.lines(group.agentGroupId, invoice.id) });
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
    ctx.out.result({ json: `${base}.json`, csv: `${base}.csv`, cdnrCsv: `${base}-cdnr.csv`, invoiceCount: out.invoiceCount, creditNoteCount: out.creditNoteCount, withoutRecipientGstin: out.withoutRecipientGstin, cancelled: out.cancelled }, () => [
      `Wrote ${out.invoiceCount} B2B invoices and ${out.creditNoteCount} credit notes of ${gstin} for ${month} to ${base}.json, ${base}.csv and ${base}-cdnr.csv.`,
      ...(out.withoutRecipientGstin.length ? [`Not B2B (no recipient GSTIN), left out: ${out.withoutRecipientGstin.join(', ')}.`] : []),
      ...(out.cancelled.length ? [`Cancelled at the IRP (table 13, doc_issue): ${out.cancelled.join(', ')}.`] : []),
    ]);
  },
};
