import type { AuditDraft, AuditOrigin } from '../audit/audit-event.ts';
import { ConflictError, NotFoundError, ValidationError } from '../errors.ts';
import { paymentAudit, refundAudit } from '../invoicing/invoice-audit.ts';
import { postedEntry } from '../ledger/ledger.ts';
import type { Minor } from '../money.ts';
import type { Clock } from '../ports/clock.ts';
import type { IdGenerator } from '../ports/ids.ts';
import { wasCaptured, type GatewayDispute, type GatewayPayment, type GatewayRefund } from '../ports/payment-gateway.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { PayLinkRefreshes } from '../ports/pay-link-refreshes.ts';
import type { ReceivablesStore } from '../ports/receivables-store.ts';
import type { TenantDirectory } from '../ports/tenant-directory.ts';
import { evaluateCreditHold } from './credit-control.ts';
import {
  isDisputeOpen,
  paymentEntryId,
  refundEntryId,
  type Payment,
  type PaymentDispute,
  type PaymentRefund,
  type PaymentSource,
  type UnmatchedPayment,
} from './payment.ts';

export interface PaymentDeps {
  readonly receivables: ReceivablesStore;
  readonly tenants: Pick<TenantDirectory, 'getAgentGroup'>;
  readonly clock: Clock;
  /** The paying group's own clock (a sandbox test clock), where the request carries no group key. */
  readonly clockFor?: (agentGroupId: string) => Promise<Clock>;
  /** What the group owes moved: its pay links follow (asked after the change commits). */
  readonly payLinkRefreshes: PayLinkRefreshes;
}

export interface PaymentOutcome {
  readonly payment: Payment;
  /** False for a duplicate: the payment was already recorded and nothing moved again. */
  readonly recorded: boolean;
  /** The group's money not allocated to any invoice after settling. */
  readonly unallocated: Minor;
  /** Nothing recorded: the transfer's UTR was already recorded as `payment`, another payment (typed in, or through the gateway). */
  readonly sameTransfer?: boolean;
}

interface ReceivedPayment {
  readonly agentGroupId: string;
  readonly source: PaymentSource;
  readonly reference: string;
  readonly amount: Minor;
  readonly receivedAt: string;
  readonly gatewayOrderId: string | null;
  readonly invoiceId: string | null;
  readonly description: string;
  readonly eventId?: string | null;
  readonly virtualAccountId?: string | null;
  readonly bankReference?: string | null;
}

/**
 * Records one payment exactly once (its POSTED PAYMENT entry, negative, with the group's
 * exposure and unallocated credit, in one transaction keyed by the payment), then settles
 * the group's credit onto its open invoices: the paid order's invoice first, then oldest
 * due first. A duplicate records nothing but still settles, so a delivery that died
 * between the two steps is finished by the next one.
 */
async function receive(deps: PaymentDeps, p: ReceivedPayment, audit?: (payment: Payment) => AuditDraft): Promise<PaymentOutcome> {
  const now = deps.clock.now();
  const entryId = paymentEntryId(p.agentGroupId, p.source, p.reference);
  const entry = postedEntry(
    { agentGroupId: p.agentGroupId, type: 'PAYMENT', amount: -p.amount, bookingId: null, externalBookingId: null, description: p.description },
    entryId,
    // The ledger is append-only in time (statements and pages read by occurredAt): the entry is dated when recorded; the payment keeps when the money arrived.
    now,
  );
  const payment: Payment = {
    agentGroupId: p.agentGroupId,
    source: p.source,
    reference: p.reference,
    amount: p.amount,
    gatewayOrderId: p.gatewayOrderId,
    invoiceId: p.invoiceId,
    receivedAt: p.receivedAt,
    recordedAt: now.toISOString(),
    ledgerEntryId: entryId,
    eventId: p.eventId ?? null,
    virtualAccountId: p.virtualAccountId ?? null,
    bankReference: p.bankReference ?? null,
  };
  const recorded = await deps.receivables.recordPayment(payment, entry, audit?.(payment));
  const settled = await deps.receivables.settle(p.agentGroupId, now.toISOString(), recorded.payment.invoiceId ?? undefined);
  // Paying the overdue invoices lifts credit control's hold at once.
  const group = await deps.tenants.getAgentGroup(p.agentGroupId);
  if (group) await evaluateCreditHold(deps, group);
  // A duplicate asks too: it may be the retry of a delivery whose ask was lost, and a refresh with nothing to move moves nothing.
  if (!recorded.sameTransfer) await deps.payLinkRefreshes.ask(p.agentGroupId);
  return { payment: recorded.payment, recorded: recorded.recorded, unallocated: settled.unallocated, ...(recorded.sameTransfer ? { sameTransfer: true } : {}) };
}

/** What became of a gateway payment: recorded (or already), or kept for operators because it is not ours to take. */
export type GatewayPaymentOutcome =
  | ({ readonly kind: 'recorded' } & PaymentOutcome)
  | { readonly kind: 'unmatched'; readonly unmatched: UnmatchedPayment; readonly kept: boolean };

/**
 * A captured gateway payment, from a verified notification or found by reconciliation: an
 * order names the group and invoice paid, a virtual account the group (allocated oldest due
 * first). Exactly once per gateway payment id, whichever of payment.captured, order.paid,
 * virtual_account.credited or reconciliation brings it first, its `payment.recorded` audit
 * event in the payment's own transaction (none for a duplicate). One that leads to no group
 * of ours, or is not in INR, is kept for operators (once) instead.
 */
export async function receiveGatewayPayment(
  deps: PaymentDeps & { readonly ids: IdGenerator },
  payment: GatewayPayment,
  source: { readonly event: string; readonly eventId: string | null },
  origin: AuditOrigin,
): Promise<GatewayPaymentOutcome> {
  const lookUp = async () =>
    payment.virtualAccountId
      ? await deps.receivables.virtualAccountGroup(payment.virtualAccountId).then((g) => (g ? { agentGroupId: g, invoiceId: null } : undefined))
      : payment.orderId
        ? await deps.receivables.gatewayOrder(payment.orderId)
        : undefined;
  let target = await lookUp();
  const reason = !target ? (payment.virtualAccountId ? 'UNKNOWN_VIRTUAL_ACCOUNT' : 'UNKNOWN_ORDER') : payment.currency !== 'INR' ? 'CURRENCY' : undefined;
  if (reason || !target) {
    const unmatched: UnmatchedPayment = {
      paymentId: payment.paymentId,
      eventId: source.eventId,
      event: source.event,
      orderId: payment.orderId,
      virtualAccountId: payment.virtualAccountId,
      amount: payment.amount,
      currency: payment.currency,
      reason: reason ?? 'UNKNOWN_ORDER',
      createdAt: payment.createdAt,
      keptAt: deps.clock.now().toISOString(),
    };
    const kept = await deps.receivables.keepUnmatched(unmatched);
    // A pay link's order becomes ours when `payment_link.paid` comes (pay-links.ts adoptPaidLink: the order, then the kept twin
    // dropped): looked up again after keeping, so whichever of the twins comes first, none stays kept.
    target = reason === 'UNKNOWN_ORDER' ? await lookUp() : undefined;
    if (!target) return { kind: 'unmatched', unmatched, kept };
    await deps.receivables.dropUnmatched(payment.paymentId);
  }
  const own = deps.clockFor ? { ...deps, clock: await deps.clockFor(target.agentGroupId) } : deps;
  const outcome = await receive(
    own,
    {
      agentGroupId: target.agentGroupId,
      source: 'GATEWAY',
      reference: payment.paymentId,
      amount: payment.amount,
      receivedAt: payment.createdAt,
      gatewayOrderId: payment.virtualAccountId ? null : payment.orderId,
      invoiceId: target.invoiceId,
      description: payment.virtualAccountId
        ? `Bank transfer ${payment.bankReference ?? payment.paymentId} to virtual account ${payment.virtualAccountId}`
        : `Payment ${payment.paymentId} through the payment gateway`,
      eventId: source.eventId,
      virtualAccountId: payment.virtualAccountId,
      bankReference: payment.virtualAccountId ? payment.bankReference : null,
    },
    (recorded) => paymentAudit(deps, origin, recorded),
  );
  return { kind: 'recorded', ...outcome };
}

/** What became of a gateway refund: recorded (or already), not money back yet (pending, failed), or of a payment that is no group's. */
export type GatewayRefundOutcome =
  | { readonly kind: 'recorded'; readonly refund: PaymentRefund; readonly recorded: boolean; readonly unallocated: Minor }
  | { readonly kind: 'not-processed'; readonly status: string }
  | { readonly kind: 'unmatched'; readonly paymentId: string };

/**
 * A refund of a gateway payment, from a verified notification (refund.created, .processed,
 * .failed) or found by reconciliation. Only a `processed` refund moves money (a pending one
 * may still fail; a failed one never left), exactly once per refund id whichever brings it
 * first: a POSTED ADJUSTMENT of its amount (exposure rises by it), the group's credit down
 * by it — from what is unallocated first, then taken back from the invoices it paid, the
 * refunded payment's own invoice first, which owe it again (PAID → ISSUED) — and the credit
 * hold evaluated again. A refund of a payment not recorded yet records the payment first
 * (its notification was lost), so the figures end the same in whatever order events come.
 */
export async function receiveGatewayRefund(
  deps: PaymentDeps & { readonly ids: IdGenerator },
  refund: GatewayRefund,
  /** The refunded payment as the gateway reports it, when at hand (a notification carries it). */
  payment: GatewayPayment | null,
  source: { readonly event: string; readonly eventId: string | null },
  origin: AuditOrigin,
): Promise<GatewayRefundOutcome> {
  if (refund.status !== 'processed') return { kind: 'not-processed', status: refund.status };
  const paid = await paymentOfGroup(deps, refund.paymentId, payment, source, origin);
  if (!paid || refund.currency !== 'INR') return { kind: 'unmatched', paymentId: refund.paymentId };
  return giveBack(
    deps,
    paid,
    { id: refund.refundId, amount: refund.amount, at: refund.createdAt, description: `Payment ${refund.paymentId} refunded (${refund.refundId})` },
    source,
    origin,
  );
}

/** The recorded gateway payment a refund or dispute names; one whose own notice was lost is recorded first, from the entity the event carries. */
async function paymentOfGroup(
  deps: PaymentDeps & { readonly ids: IdGenerator },
  paymentId: string,
  payment: GatewayPayment | null,
  source: { readonly event: string; readonly eventId: string | null },
  origin: AuditOrigin,
): Promise<Payment | undefined> {
  let g = await deps.receivables.gatewayPaymentGroup(paymentId);
  if (!g && payment && wasCaptured(payment)) {
    const received = await receiveGatewayPayment(deps, payment, source, origin);
    if (received.kind === 'recorded') g = received.payment.agentGroupId;
  }
  return g ? deps.receivables.payment(g, 'GATEWAY', paymentId) : undefined;
}

/**
 * Money given back of a recorded payment (a processed refund, a lost dispute), once per `id`:
 * its POSTED ADJUSTMENT, the group's credit down by it and the invoices it paid re-opened, the
 * credit hold evaluated again.
 */
async function giveBack(
  deps: PaymentDeps & { readonly ids: IdGenerator },
  paid: Payment,
  back: { readonly id: string; readonly amount: Minor; readonly at: string; readonly description: string },
  source: { readonly eventId: string | null },
  origin: AuditOrigin,
): Promise<Extract<GatewayRefundOutcome, { kind: 'recorded' }>> {
  const g = paid.agentGroupId;
  const own = deps.clockFor ? { ...deps, clock: await deps.clockFor(g) } : deps;
  const now = own.clock.now();
  const entryId = refundEntryId(g, back.id);
  const entry = postedEntry(
    { agentGroupId: g, type: 'ADJUSTMENT', amount: back.amount, bookingId: null, externalBookingId: null, description: back.description },
    entryId,
    now,
  );
  const record: PaymentRefund = {
    agentGroupId: g,
    refundId: back.id,
    paymentId: paid.reference,
    amount: back.amount,
    invoiceId: paid.invoiceId,
    refundedAt: back.at,
    recordedAt: now.toISOString(),
    ledgerEntryId: entryId,
    eventId: source.eventId,
  };
  const recorded = await own.receivables.recordRefund(record, entry, refundAudit(deps, origin, record));
  const settled = await own.receivables.settle(g, now.toISOString(), paid.invoiceId ?? undefined);
  const group = await own.tenants.getAgentGroup(g);
  if (group) await evaluateCreditHold(own, group);
  await own.payLinkRefreshes.ask(g);
  return { kind: 'recorded', refund: recorded.refund, recorded: recorded.recorded, unallocated: settled.unallocated };
}

/** What became of a dispute event: its state recorded (or not, being old), with the money given back when lost; or of a payment that is no group's. */
export type GatewayDisputeOutcome =
  | { readonly kind: 'recorded'; readonly dispute: PaymentDispute; readonly applied: boolean; readonly previous: string | null; readonly givenBack: boolean }
  | { readonly kind: 'unmatched'; readonly paymentId: string };

/**
 * A dispute (chargeback) event (razorpay.com/docs/webhooks/disputes): its state is stored once
 * per dispute id and state, never moving back (a late `created` after `lost` changes nothing).
 * Raised (open, under review): the payment's invoice is flagged for operators and an alert
 * counted (`PaymentDisputed`); lost: the amount deducted is given back as a processed refund is
 * (ledger ADJUSTMENT, the invoices re-opened, exposure up), once per dispute id whichever event
 * brings it, and alerted too; won or closed: the flag cleared, nothing moved.
 */
export async function receiveGatewayDispute(
  deps: PaymentDeps & { readonly ids: IdGenerator; readonly metrics: Metrics },
  dispute: GatewayDispute,
  payment: GatewayPayment | null,
  source: { readonly event: string; readonly eventId: string | null },
  origin: AuditOrigin,
): Promise<GatewayDisputeOutcome> {
  const paid = await paymentOfGroup(deps, dispute.paymentId, payment, source, origin);
  if (!paid || dispute.currency !== 'INR') return { kind: 'unmatched', paymentId: dispute.paymentId };
  const { applied, previous, stored } = await deps.receivables.recordDispute({
    agentGroupId: paid.agentGroupId,
    disputeId: dispute.disputeId,
    paymentId: dispute.paymentId,
    invoiceId: paid.invoiceId,
    amount: dispute.amount,
    amountDeducted: dispute.amountDeducted,
    status: dispute.status,
    phase: dispute.phase,
    reasonCode: dispute.reasonCode,
    respondBy: dispute.respondBy,
    createdAt: dispute.createdAt,
    updatedAt: deps.clock.now().toISOString(),
    eventId: source.eventId,
  });
  if (applied && (dispute.status === 'lost' || (isDisputeOpen(dispute.status) && previous === null))) deps.metrics.count('PaymentDisputed');
  // Lost: Razorpay deducts `amount_deducted` (razorpay.com/docs/api/disputes/entity). Run on every `lost` delivery, applied or not: the refund record makes it once, and a delivery that died half-way is finished.
  if (dispute.status !== 'lost') return { kind: 'recorded', dispute: stored, applied, previous, givenBack: false };
  const amount = dispute.amountDeducted > 0 ? dispute.amountDeducted : dispute.amount;
  const back = await giveBack(
    deps,
    paid,
    { id: dispute.disputeId, amount, at: dispute.createdAt, description: `Payment ${dispute.paymentId} charged back: dispute ${dispute.disputeId} lost` },
    source,
    origin,
  );
  return { kind: 'recorded', dispute: stored, applied, previous, givenBack: back.recorded };
}

export interface BankTransfer {
  readonly agentGroupId: string;
  /** The bank's reference (UTR): recording the same reference twice records one payment. */
  readonly reference: string;
  readonly amount: Minor;
  /** When the money arrived; defaults to now. Never in the future. */
  readonly receivedAt?: string;
}

/**
 * An operator records money received by bank transfer (admin tool), its event in the payment's
 * own transaction (none for a duplicate). Money that came through the gateway has one identity,
 * its payment id: a Razorpay payment id is refused here (reconciliation records it, under that
 * id), and so is a UTR the gateway already recorded through Smart Collect — typed in again it
 * would count the same money twice.
 */
export async function recordBankTransfer(deps: PaymentDeps & { readonly ids: IdGenerator }, t: BankTransfer, origin: AuditOrigin): Promise<PaymentOutcome> {
  if (!/^[A-Za-z0-9/_-]{4,40}$/.test(t.reference))
    throw new ValidationError('reference', 'reference must be the bank reference (UTR): 4 to 40 letters, digits, /, _ or -.');
  if (/^pay_/.test(t.reference)) {
    const owner = await deps.receivables.gatewayPaymentGroup(t.reference);
    throw new ValidationError(
      'reference',
      owner
        ? `${t.reference} is a Razorpay payment already recorded through the gateway (group ${owner}); recording it by hand would count it twice.`
        : `${t.reference} is a Razorpay payment id, not a bank reference: gateway payments are recorded from the gateway (\`payments reconcile\`), never by hand.`,
    );
  }
  if (!Number.isSafeInteger(t.amount) || t.amount <= 0)
    throw new ValidationError('amount', 'amount must be a positive number of rupees with at most two decimals.');
  const now = deps.clock.now();
  const receivedAt = t.receivedAt ?? now.toISOString();
  if (Date.parse(receivedAt) > now.getTime()) throw new ValidationError('receivedAt', 'receivedAt must not be in the future.');
  if (!(await deps.tenants.getAgentGroup(t.agentGroupId))) throw new NotFoundError('Agent group');
  const outcome = await receive(
    deps,
    {
      agentGroupId: t.agentGroupId,
      source: 'BANK_TRANSFER',
      reference: t.reference,
      amount: t.amount,
      receivedAt,
      gatewayOrderId: null,
      invoiceId: null,
      description: `Bank transfer ${t.reference}`,
      bankReference: t.reference,
    },
    (payment) => paymentAudit(deps, origin, payment),
  );
  if (outcome.sameTransfer)
    throw new ConflictError(
      'CONFLICT',
      `The transfer ${t.reference} was already recorded through the payment gateway as ${outcome.payment.reference} (group ${outcome.payment.agentGroupId}); nothing was recorded.`,
    );
  return outcome;
}
