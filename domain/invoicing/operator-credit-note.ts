import type { AuditOrigin } from '../audit/audit-event.ts';
import { evaluateCreditHold } from '../receivables/credit-control.ts';
import type { PayLinkRefreshes } from '../ports/pay-link-refreshes.ts';
import type { TenantDirectory } from '../ports/tenant-directory.ts';
import type { Invoice } from './invoice.ts';
import { raiseOperatorCreditNote, type OperatorLineCredit } from './raise-credit-note.ts';
import { registerIssuedCreditNote } from './register-e-invoice.ts';
import { failureOf, storePdf, type BillingDeps, type PdfDeps } from './run-billing.ts';

export interface OperatorCreditNoteOutcome {
  readonly creditNote: Invoice;
  /** The corrected invoice after the credit. */
  readonly invoice: Invoice;
  /**
   * False when the PDF could not be stored now; the next billing run (or the first GET …/pdf)
   * stores it. Also false while the IRP has not registered it (lastError says why): the next
   * billing run registers it and then stores the PDF.
   */
  readonly pdfStored: boolean;
}

type OperatorCreditNoteDeps = PdfDeps &
  Pick<BillingDeps, 'creditNotes' | 'bookingMarks' | 'ids' | 'receivables' | 'catalogue' | 'eInvoices' | 'metrics'> & {
    readonly tenants: Pick<TenantDirectory, 'getAgentGroup'>;
    readonly payLinkRefreshes: PayLinkRefreshes;
  };

/**
 * The admin tool's credit note: raised (raise-credit-note.ts), registered with the IRP when its
 * registration is marked for e-invoicing (else the next billing run retries), its PDF stored, any credit it
 * released beyond what the invoice still owed allocated to the group's other open invoices,
 * and credit control evaluated again (a credit can bring an overdue invoice to nothing due).
 */
export async function issueOperatorCreditNote(
  deps: OperatorCreditNoteDeps,
  agentGroupId: string,
  invoiceId: string,
  lines: readonly OperatorLineCredit[],
  reason: string,
  origin: AuditOrigin,
): Promise<OperatorCreditNoteOutcome> {
  // The event is in the note's own transaction (the money change); the IRP registration and the PDF that follow are outside it.
  let creditNote = await raiseOperatorCreditNote(deps, agentGroupId, invoiceId, lines, reason, origin);
  const failed = async (step: 'issue' | 'pdf', err: unknown) => {
    const error = failureOf(step, err);
    await deps.invoices.recordFailure(agentGroupId, creditNote.id, error, deps.clock.now().toISOString());
    creditNote = { ...creditNote, lastError: error };
  };
  let registered = true;
  try {
    // A registration marked for e-invoicing registers it first, so that its PDF prints the IRN.
    creditNote = await registerIssuedCreditNote(deps, creditNote);
  } catch (err) {
    registered = false;
    await failed('issue', err);
  }
  let pdfStored = false;
  if (registered) {
    try {
      const { pdf: _bytes, ...stored } = await storePdf(deps, creditNote);
      creditNote = stored;
      pdfStored = true;
    } catch (err) {
      await failed('pdf', err);
    }
  }
  await deps.receivables.settle(agentGroupId, deps.clock.now().toISOString());
  const group = await deps.tenants.getAgentGroup(agentGroupId);
  if (group) await evaluateCreditHold(deps, group);
  // The credit lowered what the invoice (and, through the credit it released, others) owes: their pay links follow.
  await deps.payLinkRefreshes.ask(agentGroupId);
  return { creditNote, invoice: (await deps.invoices.get(agentGroupId, invoiceId))!, pdfStored };
}
