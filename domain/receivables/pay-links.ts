import { amountDueOf, type Invoice, type PayLink } from '../invoicing/invoice.ts';
import type { Clock } from '../ports/clock.ts';
import type { InvoiceStore } from '../ports/invoice-store.ts';
import type { PayLinkRefreshes } from '../ports/pay-link-refreshes.ts';
import type { PayLinkStore } from '../ports/pay-link-store.ts';
import { GatewayRejectedError, type PaymentGateway, type PaymentLink } from '../ports/payment-gateway.ts';
import type { GatewayOrderRef, ReceivablesStore } from '../ports/receivables-store.ts';
import { MIN_ORDER_AMOUNT } from './gateway-orders.ts';

/**
 * How long a link takes payments: the payment terms, the overdue reminders (30 days after the due date) and a margin, within
 * Razorpay's six months (razorpay.com/docs/api/payments/payment-links/entity, `expire_by`). An invoice still owing when its
 * link nears the end gets a fresh one from the next refresh.
 */
export const PAY_LINK_DAYS = 120;
/** A link with less than this left is replaced rather than sent to a payer who may open it tomorrow. */
const RENEW_BEFORE_MS = 86_400_000;
/**
 * How many references past the stored one a replacement tries when an earlier attempt's link (its answer lost, or a racing refresh's)
 * is for another amount or spent. A link the gateway ended is cleared with its `seq` (clearEndedLink), so the next starts again at
 * the first reference and passes each spent one: one call per link the invoice ever had, which the bound leaves room for.
 */
const REFERENCE_TRIES = 12;
/** Refreshes of one invoice racing: each lost write reads again, and every round one of them lands. */
const REFRESH_ROUNDS = 4;

/** The reference of an invoice's n-th link: Razorpay finds a link by it, so a retry after a lost answer reuses the link made (36 + 2 + up to 2 digits ≤ 40). */
export const payLinkReference = (invoiceId: string, seq: number): string => `${invoiceId}/L${seq}`;

export interface PayLinkDeps {
  readonly gateway: Pick<PaymentGateway, 'createPaymentLink' | 'cancelPaymentLink'>;
  readonly invoices: Pick<InvoiceStore, 'get'>;
  readonly payLinks: Pick<PayLinkStore, 'setPayLink'>;
  readonly clock: Clock;
}

const stored = (link: PaymentLink, expiresAt: Date, seq: number): PayLink => ({
  linkId: link.linkId,
  url: link.shortUrl,
  amount: link.amount,
  expiresAt: expiresAt.toISOString(),
  seq,
});

/**
 * A link for `amount` paise of the invoice (its reference the `seq`-th, or the next ones when an earlier attempt left a link for
 * another amount); null where the gateway makes none (the sandbox). Throws the gateway's other errors.
 */
export async function makePayLink(
  deps: Pick<PayLinkDeps, 'gateway' | 'clock'>,
  invoice: Pick<Invoice, 'id' | 'agentGroupId' | 'invoiceNumber' | 'periodFrom' | 'periodTo'>,
  amount: number,
  seq: number,
): Promise<PayLink | null> {
  // Whole seconds: Razorpay keeps `expire_by` in Unix seconds, and the stored expiry is the one it holds.
  const expireBy = new Date(Math.floor(deps.clock.now().getTime() / 1000 + PAY_LINK_DAYS * 86_400) * 1000);
  for (let n = seq; n < seq + REFERENCE_TRIES; n++) {
    try {
      const link = await deps.gateway.createPaymentLink({
        referenceId: payLinkReference(invoice.id, n),
        amount,
        currency: 'INR',
        description: invoice.invoiceNumber ? `Amount due on invoice ${invoice.invoiceNumber}` : `Invoice for ${invoice.periodFrom} to ${invoice.periodTo}`,
        expireBy,
        notes: { invoice_id: invoice.id, agent_group_id: invoice.agentGroupId },
      });
      // Found by its reference but no longer payable (a racing refresh that lost cancelled it): that reference is spent.
      if (link.status !== 'created') continue;
      return stored(link, expireBy, n);
    } catch (err) {
      if (err instanceof GatewayRejectedError && err.code === 'NOT_SUPPORTED') return null;
      if (err instanceof GatewayRejectedError && err.code === 'AMOUNT_MISMATCH') continue;
      throw err;
    }
  }
  throw new Error(`invoice ${invoice.id}: link references ${seq}..${seq + REFERENCE_TRIES - 1} all hold links for other amounts`);
}

export type PayLinkRefresh = 'KEPT' | 'MADE' | 'REPLACED' | 'CANCELLED' | 'NONE';

/**
 * Brings an issued invoice's pay link in line with what it owes now: kept while it is for exactly the amount due and not near its
 * expiry; otherwise the old link is cancelled first (a payer must never find a link for more than is owed) and, while the invoice
 * still owes at least Razorpay's ₹1, a link for the amount due replaces it; a settled invoice keeps none. Safe to run at once from
 * several places (every change of the amount due asks for one): the write is conditional on the link read, and a refresh whose write
 * lost reads again, so the last to land saw the latest amount due. A link it made that was not stored is cancelled at the end when
 * nobody can store it any more (a link only ever replaces one of a lower `seq`, so once the stored link's `seq` has reached it) or
 * it is not for the amount due now (a racer storing it would be replaced by the refresh of that change); one of a higher `seq` for
 * exactly the amount due is left, as a racing refresh may be about to store it (found by its reference). Throws the gateway's errors; callers log them and the next refresh tries again.
 */
export async function refreshPayLink(
  deps: PayLinkDeps,
  agentGroupId: string,
  invoiceId: string,
  /** Links the gateway answered as no longer payable (cancelled on its dashboard, expired): replaced whatever their amount. */
  ended: ReadonlySet<string> = new Set(),
): Promise<PayLinkRefresh> {
  const madeHere = new Map<string, PayLink>();
  for (let round = 1; ; round++) {
    const r = await refreshOnce(deps, agentGroupId, invoiceId, ended);
    if (r.made) madeHere.set(r.made.linkId, r.made);
    if (r.outcome !== 'LOST' || round >= REFRESH_ROUNDS) {
      const invoice = await deps.invoices.get(agentGroupId, invoiceId);
      const now = invoice?.payLink ?? null;
      const due = invoice?.status === 'ISSUED' ? amountDueOf(invoice) : 0;
      for (const link of madeHere.values())
        if (link.linkId !== now?.linkId && (now === null || now.seq >= link.seq || link.amount !== due)) await deps.gateway.cancelPaymentLink(link.linkId);
      if (r.outcome === 'LOST')
        throw new Error(`invoice ${invoiceId}: its pay link kept moving under ${REFRESH_ROUNDS} refreshes; the next refresh tries again`);
      return r.outcome;
    }
  }
}

async function refreshOnce(
  deps: PayLinkDeps,
  agentGroupId: string,
  invoiceId: string,
  ended: ReadonlySet<string>,
): Promise<{ readonly outcome: PayLinkRefresh | 'LOST'; readonly made?: PayLink }> {
  const invoice = await deps.invoices.get(agentGroupId, invoiceId);
  if (!invoice || invoice.creditNoteFor || (invoice.status !== 'ISSUED' && invoice.status !== 'PAID')) return { outcome: 'NONE' };
  const due = invoice.status === 'ISSUED' ? amountDueOf(invoice) : 0;
  const old = invoice.payLink ?? null;
  const now = deps.clock.now();
  if (old && due > 0 && old.amount === due && !ended.has(old.linkId) && new Date(old.expiresAt).getTime() - now.getTime() > RENEW_BEFORE_MS)
    return { outcome: 'KEPT' };
  if (old) await deps.gateway.cancelPaymentLink(old.linkId);
  const made = due >= MIN_ORDER_AMOUNT ? await makePayLink(deps, invoice, due, (old?.seq ?? 0) + 1) : null;
  if (!made && !old) return { outcome: 'NONE' };
  const stored = await deps.payLinks.setPayLink(agentGroupId, invoiceId, made, old?.linkId ?? null, now.toISOString());
  return { outcome: stored ? (made ? (old ? 'REPLACED' : 'MADE') : 'CANCELLED') : 'LOST', ...(made ? { made } : {}) };
}

/** Every link of the group that may have to move (the invoices holding one, and those still owing without one), refreshed; errors are the caller's. */
export async function refreshGroupPayLinks(
  deps: PayLinkDeps & { readonly payLinks: Pick<PayLinkStore, 'invoicesWithPayLinks'>; readonly receivables: Pick<ReceivablesStore, 'openOrders'> },
  agentGroupId: string,
  ended: ReadonlySet<string> = new Set(),
): Promise<Record<string, PayLinkRefresh>> {
  const ids = new Set([
    ...(await deps.payLinks.invoicesWithPayLinks(agentGroupId)),
    ...(await deps.receivables.openOrders(agentGroupId)).map((o) => o.invoiceId),
  ]);
  const out: Record<string, PayLinkRefresh> = {};
  for (const id of [...ids].sort()) out[id] = await refreshPayLink(deps, agentGroupId, id, ended);
  return out;
}

/**
 * A pay link was paid (`payment_link.paid`): the order the gateway opened for the payment is made the invoice's, so the payment
 * settles through the same path as any payment on an order of ours, and its twins (`payment.captured`, `order.paid` of that order)
 * are duplicates. A twin that came first and was kept as unmatched is taken back. Undefined when the link is none of ours.
 */
export async function adoptPaidLink(
  deps: {
    readonly payLinks: Pick<PayLinkStore, 'payLinkInvoice'>;
    readonly receivables: Pick<ReceivablesStore, 'adoptLinkOrder' | 'dropUnmatched'>;
    readonly clock: Clock;
  },
  linkId: string,
  orderId: string,
  paymentId: string,
): Promise<GatewayOrderRef | undefined> {
  const ref = await deps.payLinks.payLinkInvoice(linkId);
  if (!ref) return undefined;
  await deps.receivables.adoptLinkOrder(orderId, ref, deps.clock.now().toISOString());
  await deps.receivables.dropUnmatched(paymentId);
  return ref;
}

/**
 * The order of the invoice's stored link when the link was paid (the gateway's view now), made the invoice's as
 * `payment_link.paid` would have; null when its link is unpaid or it has none. For reconciliation, whose look at the
 * link is what finds a link's payment whose notifications were all lost.
 */
export async function paidLinkOrder(
  deps: {
    readonly gateway: Pick<PaymentGateway, 'paymentLink'>;
    readonly invoices: Pick<InvoiceStore, 'get'>;
    readonly receivables: Pick<ReceivablesStore, 'adoptLinkOrder'>;
    readonly clock: Clock;
  },
  agentGroupId: string,
  invoiceId: string,
  /** Filled with the stored link's id when the gateway answers it cancelled (on its dashboard: we cancel only links we replace) or expired. */
  ended?: Set<string>,
): Promise<string | null> {
  const stored = (await deps.invoices.get(agentGroupId, invoiceId))?.payLink;
  if (!stored) return null;
  const link = await deps.gateway.paymentLink(stored.linkId);
  if (link.status === 'cancelled' || link.status === 'expired') ended?.add(link.linkId);
  if ((link.status !== 'paid' && link.status !== 'partially_paid') || !link.orderId) return null;
  await deps.receivables.adoptLinkOrder(link.orderId, { agentGroupId, invoiceId }, deps.clock.now().toISOString());
  return link.orderId;
}

export type EndedLinkOutcome = 'CLEARED' | 'STALE' | 'UNKNOWN';

/**
 * The gateway says a link ended (`payment_link.expired`, `payment_link.cancelled`): while it is still the invoice's stored link it
 * is cleared at once, so nobody is shown a link that takes no payment; the next refresh makes a link for what is still owed (an
 * invoice owing without a link is one it looks at). A link no longer stored (one we replaced or cancelled ourselves, whose own
 * cancel announces itself too) is STALE and nothing moves; one we never made is UNKNOWN.
 */
export async function clearEndedLink(
  deps: { readonly payLinks: Pick<PayLinkStore, 'payLinkInvoice' | 'setPayLink'>; readonly clock: Clock; readonly payLinkRefreshes: PayLinkRefreshes },
  linkId: string,
): Promise<{ readonly outcome: EndedLinkOutcome; readonly agentGroupId?: string; readonly invoiceId?: string }> {
  const ref = await deps.payLinks.payLinkInvoice(linkId);
  if (!ref) return { outcome: 'UNKNOWN' };
  const cleared = await deps.payLinks.setPayLink(ref.agentGroupId, ref.invoiceId, null, linkId, deps.clock.now().toISOString());
  // The next link, for what is still owed, is made by the refresh this asks for.
  if (cleared) await deps.payLinkRefreshes.ask(ref.agentGroupId);
  return { outcome: cleared ? 'CLEARED' : 'STALE', ...ref };
}
