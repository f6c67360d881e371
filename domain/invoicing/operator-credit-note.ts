import { evaluateCreditHold } from '../receivables/credit-control.ts';
import type { TenantDirectory } from '../ports/tenant-directory.ts';
import type { Invoice } from './invoice.ts';
import { raiseOperatorCreditNote, type OperatorLineCredit } from './raise-credit-note.ts';
import { storePdf, type BillingDeps } from './run-billing.ts';

export interface OperatorCreditNoteOutcome {
  readonly creditNote: Invoice;
  /** The corrected invoice after the credit. */
  readonly invoice: Invoice;
  /** False when the PDF could not be stored now; the next billing run (or the first GET …/pdf) stores it. */
  readonly pdfStored: boolean;
}

/**
 * The admin tool's credit note: raised (raise-credit-note.ts), its PDF stored, any credit it
 * released beyond what the invoice still owed allocated to the group's other open invoices,
 * and credit control evaluated again (a credit can bring an overdue invoice to nothing due).
 */
export async function issueOperatorCreditNote(
  deps: Pick<BillingDeps, 'invoices' | 'creditNotes' | 'renderPdf' | 'documents' | 'clock' | 'ids' | 'receivables'> & { readonly tenants: Pick<TenantDirectory, 'getAgentGroup'> },
  agentGroupId: string,
  invoiceId: string,
  lines: readonly OperatorLineCredit[],
  reason: string,
): Promise<OperatorCreditNoteOutcome> {
  let creditNote = await raiseOperatorCreditNote(deps, agentGroupId, invoiceId, lines, reason);
  let pdfStored = true;
  try {
    const { pdf: _bytes, ...stored } = await storePdf(deps, creditNote);
    creditNote = stored;
  } catch (err) {
    pdfStored = false;
    await deps.invoices.recordFailure(agentGroupId, creditNote.id, `pdf: ${err instanceof Error ? err.message : String(err)}`, deps.clock.now().toISOString());
  }
  await deps.receivables.settle(agentGroupId, deps.clock.now().toISOString());
  const group = await deps.tenants.getAgentGroup(agentGroupId);
  if (group) await evaluateCreditHold(deps, group);
  return { creditNote, invoice: (await deps.invoices.get(agentGroupId, invoiceId))!, pdfStored };
}
