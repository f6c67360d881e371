import type { AuditDraft, AuditFields, AuditOrigin } from '../audit/audit-event.ts';
import type { Clock } from '../ports/clock.ts';
import type { IdGenerator } from '../ports/ids.ts';
import type { Payment, PaymentRefund } from '../receivables/payment.ts';
import type { Invoice } from './invoice.ts';

/**
 * The audit events of an operator's money change to an invoice or the group's account, each
 * written in the change's own transaction (docs/audit.md "Admin commands"). One chain per
 * invoice (`invoice:<id>`): its abandonment or void, and every credit note raised against it
 * or voided, since each moves what that invoice says is due. Figures only: ids, states, money
 * in paise, dates, the IRP's reason code; never a free-text reason or remark, which the
 * document itself keeps.
 */
export interface MoneyAuditDeps {
  readonly ids: IdGenerator;
  readonly clock: Clock;
}

export const invoiceTarget = (invoiceId: string): string => `invoice:${invoiceId}`;

/** The event of a change to `invoice`, from its figures before to after (only what moved is kept). */
export function invoiceAudit(
  deps: MoneyAuditDeps,
  origin: AuditOrigin,
  action: string,
  invoice: Pick<Invoice, 'id' | 'agentGroupId'>,
  before: AuditFields,
  after: AuditFields,
): AuditDraft {
  return {
    id: deps.ids.uuid(),
    at: deps.clock.now().toISOString(),
    origin,
    action,
    target: invoiceTarget(invoice.id),
    account: invoice.agentGroupId,
    before,
    after,
  };
}

/** What the corrected invoice owes: the figures a credit note and its void move. */
export const owedFigures = (i: Pick<Invoice, 'amountPaid' | 'creditedAmount'>): AuditFields => ({
  amountPaid: i.amountPaid ?? 0,
  creditedAmount: i.creditedAmount ?? 0,
});

/**
 * The credit note an event on its invoice's chain names, as fields that move from null (so
 * "only what changed" keeps them): `raised` for its issue, `voided` for its void.
 */
export const creditNoteFigures = (verb: 'raised' | 'voided', note: Pick<Invoice, 'id' | 'invoiceNumber' | 'total'> | null): AuditFields => ({
  [`${verb}CreditNoteId`]: note?.id ?? null,
  [`${verb}CreditNoteNumber`]: note?.invoiceNumber ?? null,
  [`${verb}CreditNoteTotal`]: note?.total ?? null,
});

/** A payment's own chain (`payment:<ledger entry id>`): a new chain, so writing it reads nothing. */
export function paymentAudit(deps: MoneyAuditDeps, origin: AuditOrigin, p: Payment): AuditDraft {
  return {
    id: deps.ids.uuid(),
    at: p.recordedAt,
    origin,
    action: 'payment.recorded',
    target: `payment:${p.ledgerEntryId}`,
    account: p.agentGroupId,
    before: null,
    after: { source: p.source, reference: p.reference, amount: p.amount, receivedAt: p.receivedAt, ledgerEntryId: p.ledgerEntryId, invoiceId: p.invoiceId },
  };
}

/** A refund of a payment, on the payment's chain's sibling `refund:<ledger entry id>`: a new chain, so writing it reads nothing. */
export function refundAudit(deps: MoneyAuditDeps, origin: AuditOrigin, r: PaymentRefund): AuditDraft {
  return {
    id: deps.ids.uuid(),
    at: r.recordedAt,
    origin,
    action: 'payment.refunded',
    target: `refund:${r.ledgerEntryId}`,
    account: r.agentGroupId,
    before: null,
    after: { refundId: r.refundId, paymentId: r.paymentId, amount: r.amount, refundedAt: r.refundedAt, ledgerEntryId: r.ledgerEntryId, invoiceId: r.invoiceId },
  };
}
