import { issueOperatorCreditNote } from '../../domain/invoicing/operator-credit-note.ts';
import type { OperatorLineCredit } from '../../domain/invoicing/raise-credit-note.ts';
import { amountDueOf } from '../../domain/invoicing/invoice.ts';
import { formatInr as rupees, toRupees } from '../../domain/money.ts';
import { deps } from './billing-commands.ts';
import { GROUP_OPTION, UsageError, type CommandSpec } from './command.ts';
import { rupeesOption } from './input.ts';

/** `<lineId>` (the whole line) or `<lineId>:<rupees>` (part of it), comma separated. */
function linesOption(text: string): OperatorLineCredit[] {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new UsageError('--lines must name at least one line: <lineId>[:<rupees>],…', '--lines');
  return parts.map((p) => {
    const [lineId, amount, ...rest] = p.split(':');
    if (!lineId || rest.length > 0 || amount === '') throw new UsageError(`--lines: '${p}' must be <lineId> or <lineId>:<rupees>.`, '--lines');
    return { lineId, ...(amount === undefined ? {} : { amount: rupeesOption('lines', amount) }) };
  });
}

export const invoicesCreditNote: CommandSpec = {
  path: ['invoices', 'credit-note'],
  summary: 'Raise a credit note against lines of an issued invoice (whole lines or part amounts), with a reason printed on it.',
  details:
    "The credit note takes the next number of the supplier GSTIN's credit-note series, credits each line in its own tax split, raises the invoice's creditedAmount (its own figures never change) and posts one negative ADJUSTMENT per booking to the ledger. A line is never credited beyond what is left of it. Line ids are in GET /v1/invoices/{id} (lines[].id).",
  positional: { name: 'invoiceId', description: 'The issued invoice to correct.' },
  options: [
    GROUP_OPTION,
    {
      name: 'lines',
      value: '<lineId[:rupees],…>',
      required: true,
      param: 'lines',
      description: 'The lines to credit: the whole of what is left of a line, or <lineId>:<rupees> for part.',
    },
    { name: 'reason', value: '<text>', required: true, param: 'reason', description: 'Why the credit is given; printed on the credit note.' },
  ],
  examples: [
    'invoices credit-note 0b6f4c1e-3f1d-4a57-9a0e-5d1c2b3a4f5e --group tripkart-agents --lines 5d1c2b3a-…:1500,7e2f… --reason "Pool closed on 2027-03-02"',
  ],
  async run(args, ctx) {
    const g = args.required('group');
    const outcome = await issueOperatorCreditNote(
      { ...(await deps(ctx)) },
      g,
      args.positional!,
      linesOption(args.required('lines')),
      args.required('reason'),
      ctx.origin(),
    );
    const { creditNote: n, invoice: i } = outcome;
    ctx.out.result(
      {
        creditNote: {
          id: n.id,
          invoiceNumber: n.invoiceNumber,
          issueDate: n.issueDate,
          creditNoteFor: n.creditNoteFor,
          creditNoteForNumber: n.creditNoteForNumber,
          reason: n.creditReason,
          subtotal: toRupees(n.subtotal),
          cgst: toRupees(n.cgst),
          sgst: toRupees(n.sgst),
          igst: toRupees(n.igst),
          total: toRupees(n.total),
          lineCount: n.lineCount,
          pdfStored: outcome.pdfStored,
          irn: n.eInvoice?.irn ?? null,
          lastError: n.lastError,
        },
        invoice: {
          id: i.id,
          invoiceNumber: i.invoiceNumber,
          total: toRupees(i.total),
          amountPaid: toRupees(i.amountPaid ?? 0),
          creditedAmount: toRupees(i.creditedAmount ?? 0),
          amountDue: toRupees(amountDueOf(i)),
        },
      },
      () => [
        `Credit note ${n.invoiceNumber} (${n.id}) of ${rupees(n.total)} against invoice ${i.invoiceNumber}: ${n.creditReason}`,
        `Invoice ${i.invoiceNumber}: total ${rupees(i.total)}, paid ${rupees(i.amountPaid ?? 0)}, credited ${rupees(i.creditedAmount ?? 0)}, due ${rupees(amountDueOf(i))}.`,
        ...(n.eInvoice ? [`Registered with the IRP: IRN ${n.eInvoice.irn}, ack ${n.eInvoice.ackNo}.`] : []),
        ...(outcome.pdfStored
          ? []
          : [
              `Its PDF could not be stored now (${n.lastError}); the next billing run ${n.lastError?.startsWith('issue') ? 'registers it and ' : ''}stores it.`,
            ]),
      ],
    );
  },
};
