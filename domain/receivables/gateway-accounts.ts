import { mailReceipt } from '../mail/receipt-mail.ts';
import { refreshedByCaller } from '../ports/pay-link-refreshes.ts';
import type { DocumentMailDeps } from '../mail/document-mail.ts';
import type { AuditOrigin } from '../audit/audit-event.ts';
import type { IdGenerator } from '../ports/ids.ts';
import type { Clock } from '../ports/clock.ts';
import type { InvoiceStore } from '../ports/invoice-store.ts';
import type { PayLinkStore } from '../ports/pay-link-store.ts';
import type { Metrics } from '../ports/metrics.ts';
import {
  wasCaptured,
  type GatewayDispute,
  type GatewayPayment,
  type GatewayRefund,
  type PaymentGateway,
  type VirtualAccount,
} from '../ports/payment-gateway.ts';
import type { ReceivablesStore } from '../ports/receivables-store.ts';
import type { AgentGroup } from '../tenants.ts';
import { authorizedNotOwed, orderForAmountDue } from './gateway-orders.ts';
import { paidLinkOrder, refreshGroupPayLinks } from './pay-links.ts';
import type { Payment } from './payment.ts';
import { receiveGatewayDispute, receiveGatewayPayment, receiveGatewayRefund, type PaymentDeps } from './record-payment.ts';

export interface VirtualAccountDeps {
  readonly gateway: PaymentGateway;
  readonly receivables: Pick<ReceivablesStore, 'groupVirtualAccount' | 'requestVirtualAccount' | 'saveVirtualAccount'>;
  readonly clock: Clock;
}

/**
 * The group's virtual bank account, created once. The intent is written before the gateway is
 * asked; an attempt that finds an intent but no account (the answer was lost, or the process
 * died before storing it) first looks for the account the gateway already made for the group,
 * so a retry never opens a second one. Callers hold the group's billing lock.
 */
export async function virtualAccountOf(deps: VirtualAccountDeps, group: Pick<AgentGroup, 'agentGroupId' | 'legalName'>): Promise<VirtualAccount> {
  const g = group.agentGroupId;
  const stored = await deps.receivables.groupVirtualAccount(g);
  if (stored.account) return stored.account;
  const at = deps.clock.now().toISOString();
  const made = stored.requestedAt ? await deps.gateway.findVirtualAccount(g) : undefined;
  if (!stored.requestedAt) await deps.receivables.requestVirtualAccount(g, at);
  const account = made ?? (await deps.gateway.createVirtualAccount({ agentGroupId: g, name: group.legalName }));
  return deps.receivables.saveVirtualAccount(g, account, at);
}

export interface ReconcileDeps extends Omit<PaymentDeps, 'payLinkRefreshes'> {
  readonly ids: IdGenerator;
  /** Finance contacts and the mail sent them: the receipts of payments reconciliation records; absent, none are sent. */
  readonly mail?: Pick<DocumentMailDeps, 'financeContacts' | 'mailLog' | 'mailer'>;
  readonly metrics: Metrics;
  readonly gateway: PaymentGateway;
  readonly receivables: PaymentDeps['receivables'] &
    Pick<
      ReceivablesStore,
      | 'openOrders'
      | 'replaceGatewayOrder'
      | 'groupVirtualAccount'
      | 'markVirtualAccountLook'
      | 'refundLook'
      | 'markRefundLook'
      | 'disputeLook'
      | 'markDisputeLook'
      | 'openDisputes'
      | 'gatewayPaymentGroup'
      | 'gatewayOrder'
      | 'adoptLinkOrder'
      | 'dropUnmatched'
    >;
  readonly invoices: Pick<InvoiceStore, 'groupsWithOpenInvoices' | 'get'>;
  readonly payLinks: Pick<PayLinkStore, 'setPayLink' | 'invoicesWithPayLinks'>;
}

export interface ReconcileReport {
  readonly groups: number;
  readonly ordersChecked: number;
  readonly virtualAccountsChecked: number;
  /** Captured payments the gateway reported. */
  readonly found: number;
  /** Of those, newly recorded now (their notification never arrived). */
  readonly recorded: readonly { readonly agentGroupId: string; readonly paymentId: string; readonly amount: number }[];
  readonly unmatched: number;
  /** Authorized payments of open orders captured now (Razorpay refunds those left uncaptured after its window). */
  readonly captured: readonly { readonly agentGroupId: string; readonly paymentId: string; readonly invoiceId: string; readonly amount: number }[];
  /** Authorized payments the gateway refused to capture: alerted (`PaymentNotCaptured`) and listed in `failures` too. */
  readonly uncaptured: readonly {
    readonly agentGroupId: string;
    readonly paymentId: string;
    readonly invoiceId: string;
    readonly amount: number;
    readonly error: string;
  }[];
  /** Processed refunds newly recorded now (their notification never arrived). */
  readonly refunded: readonly { readonly agentGroupId: string; readonly refundId: string; readonly paymentId: string; readonly amount: number }[];
  /** Dispute states newly recorded now (their notifications never arrived): a lost one gave its amount back. */
  readonly disputed: readonly { readonly agentGroupId: string; readonly disputeId: string; readonly paymentId: string; readonly status: string }[];
  /** Fresh orders for invoices whose amount due changed (the order they replace is for more than is owed). */
  readonly reordered: readonly { readonly agentGroupId: string; readonly invoiceId: string; readonly orderId: string; readonly amount: number }[];
  /** `agentGroupId` is `*` for the account-wide look at the gateway's refunds. */
  readonly failures: readonly { readonly agentGroupId: string; readonly error: string }[];
}

/**
 * Reconciliation: asks the gateway for the payments of every open invoice's order and of each
 * such group's virtual account since its last look (less an overlap, so a payment created just
 * before the last look is never skipped), and records what is missing through the same
 * exactly-once path as the notifications; then gives each open invoice whose amount due changed a
 * fresh order for it (gateway-orders.ts). Costs one call per open invoice's order and per group with
 * open invoices (their accounts), never the history. One group's failure is reported, not fatal.
 */
export async function reconcilePayments(given: ReconcileDeps, origin: AuditOrigin, only?: string): Promise<ReconcileReport> {
  // The run refreshes the pay links of every group it touched, last (below): the payments it records ask for nothing on the way.
  const deps = { ...given, payLinkRefreshes: refreshedByCaller };
  const groups = only ? [only] : await deps.invoices.groupsWithOpenInvoices();
  let ordersChecked = 0;
  let virtualAccountsChecked = 0;
  let found = 0;
  let unmatched = 0;
  const recorded: { agentGroupId: string; paymentId: string; amount: number }[] = [];
  const refunded: { agentGroupId: string; refundId: string; paymentId: string; amount: number }[] = [];
  const failures: { agentGroupId: string; error: string }[] = [];
  const reordered: { agentGroupId: string; invoiceId: string; orderId: string; amount: number }[] = [];
  const disputed: { agentGroupId: string; disputeId: string; paymentId: string; status: string }[] = [];
  const source = { event: 'reconciliation', eventId: null };
  /**
   * A payment found here was announced by no notification, so its receipt goes from here, once per
   * contact as from the notification. Reconciliation never finds it again, so a receipt SES refused or
   * could not take is counted (MailNotSent) and reported, never retried: the payment itself stands.
   */
  const receipt = async (payment: Payment) => {
    if (!deps.mail) return;
    try {
      await mailReceipt({ ...deps, ...deps.mail }, payment, origin);
    } catch (err) {
      deps.metrics.count('MailNotSent');
      failures.push({
        agentGroupId: payment.agentGroupId,
        error: `receipt of ${payment.reference} not e-mailed: ${err instanceof Error ? err.message : String(err)}`,
      });
    }
  };
  const refund = async (r: GatewayRefund, p: GatewayPayment | null) => {
    const outcome = await receiveGatewayRefund(deps, r, p, source, origin);
    if (outcome.kind === 'recorded' && outcome.recorded)
      refunded.push({ agentGroupId: outcome.refund.agentGroupId, refundId: r.refundId, paymentId: r.paymentId, amount: r.amount });
  };
  const captured: { agentGroupId: string; paymentId: string; invoiceId: string; amount: number }[] = [];
  const uncaptured: { agentGroupId: string; paymentId: string; invoiceId: string; amount: number; error: string }[] = [];
  /**
   * An authorized payment of one of our orders is captured at once, for its whole amount (razorpay.com/docs/payments/payments/capture-settings:
   * not captured within 3 days, it is refunded to the payer; razorpay.com/docs/api/payments/capture: only the amount authorized), but
   * only while its invoice still owes that much: one on a settled invoice, or on a replaced order for more than is due now, would be
   * money not owed, so it is left to Razorpay's refund and alerted instead. A refusal is alerted too; both name payment and invoice.
   */
  const uncapturedOf = (g: string, invoiceId: string, p: GatewayPayment, error: string, metric: 'PaymentNotCaptured' | 'AuthorizedPaymentNotOwed') => {
    deps.metrics.count(metric);
    uncaptured.push({ agentGroupId: g, paymentId: p.paymentId, invoiceId, amount: p.amount, error });
    failures.push({ agentGroupId: g, error: `authorized payment ${p.paymentId} of invoice ${invoiceId} not captured: ${error}` });
    return null;
  };
  const notOwed = (g: string, invoiceId: string, p: GatewayPayment, owed: number) =>
    uncapturedOf(
      g,
      invoiceId,
      p,
      `its ${p.amount} paise are more than the ${owed} paise the invoice owes; Razorpay refunds it after 3 days unless an operator captures it on the dashboard`,
      'AuthorizedPaymentNotOwed',
    );
  const capture = async (g: string, invoiceId: string, p: GatewayPayment, owed: { left: number }): Promise<GatewayPayment | null> => {
    if (p.amount > owed.left) return notOwed(g, invoiceId, p, owed.left);
    try {
      const done = await deps.gateway.capturePayment(p.paymentId, p.amount, p.currency);
      owed.left -= p.amount;
      captured.push({ agentGroupId: g, paymentId: p.paymentId, invoiceId, amount: p.amount });
      return done;
    } catch (err) {
      return uncapturedOf(g, invoiceId, p, err instanceof Error ? err.message : String(err), 'PaymentNotCaptured');
    }
  };
  const take = async (g: string, payments: readonly GatewayPayment[]) => {
    for (const fetched of payments.filter(wasCaptured)) {
      found++;
      // A transfer not recorded yet claims its UTR (recordPayment): one typed in by hand is then not counted again.
      const p =
        fetched.virtualAccountId && fetched.bankReference === null && !(await deps.receivables.gatewayPaymentGroup(fetched.paymentId))
          ? { ...fetched, bankReference: await deps.gateway.transferReference(fetched.paymentId) }
          : fetched;
      const outcome = await receiveGatewayPayment(deps, p, source, origin);
      if (outcome.kind === 'unmatched') unmatched++;
      else if (outcome.recorded) {
        recorded.push({ agentGroupId: g, paymentId: p.paymentId, amount: p.amount });
        if (!outcome.sameTransfer) await receipt(outcome.payment);
      }
      // The payment says money went back (razorpay.com/docs/api/payments, `amount_refunded`): its refunds say which, and which are processed.
      if (outcome.kind === 'recorded' && p.amountRefunded > 0) for (const r of await deps.gateway.paymentRefunds(p.paymentId)) await refund(r, p);
    }
  };
  /** Orders a payment was captured on: `paid` at the gateway, they take no more. */
  const spent = new Set<string>();
  /** Orders whose payments this run read. */
  const checked = new Set<string>();
  /** Stored pay links Razorpay answered cancelled or expired: replaced at the end whatever their amount. */
  const endedLinks = new Set<string>();
  for (const g of groups) {
    try {
      const authorized: { invoiceId: string; orderId: string; payment: GatewayPayment }[] = [];
      for (const o of await deps.receivables.openOrders(g)) {
        // Orders it replaced are still payable at Razorpay (an order cannot be cancelled): their payments are this invoice's too.
        for (const orderId of [...o.earlierOrderIds, o.gatewayOrderId]) {
          ordersChecked++;
          const payments = await deps.gateway.orderPayments(orderId);
          checked.add(orderId);
          if (payments.some(wasCaptured)) spent.add(orderId);
          for (const p of payments) if (p.status === 'authorized') authorized.push({ invoiceId: o.invoiceId, orderId, payment: p });
          await take(g, payments);
        }
        // A pay link paid whose `payment_link.paid` never came: its order is learned from the link, then read like the invoice's own.
        const linkOrder = await paidLinkOrder(deps, g, o.invoiceId, endedLinks);
        if (linkOrder && !checked.has(linkOrder)) {
          ordersChecked++;
          const payments = await deps.gateway.orderPayments(linkOrder);
          checked.add(linkOrder);
          await take(g, payments);
          // A twin (payment.captured, order.paid) kept as unmatched before the order was known is the invoice's payment now.
          for (const p of payments) await deps.receivables.dropUnmatched(p.paymentId);
        }
      }
      const va = await deps.receivables.groupVirtualAccount(g);
      if (va.account) {
        virtualAccountsChecked++;
        const startedAt = deps.clock.now();
        const since = new Date(Date.parse(va.lastLookAt ?? '1970-01-01T00:00:00.000Z') - LOOK_OVERLAP_MS);
        await take(g, await deps.gateway.virtualAccountPayments(va.account.virtualAccountId, since));
        await deps.receivables.markVirtualAccountLook(g, startedAt.toISOString());
      }
      // Authorized payments last, against what each invoice owes once every captured payment found is recorded.
      if (authorized.length > 0) {
        const owed = new Map((await deps.receivables.openOrders(g)).map((o) => [o.invoiceId, { left: o.amountDue }]));
        for (const a of authorized) {
          const done = await capture(g, a.invoiceId, a.payment, owed.get(a.invoiceId) ?? { left: 0 });
          if (done) {
            spent.add(a.orderId);
            await take(g, [done]);
          }
        }
      }
    } catch (err) {
      failures.push({ agentGroupId: g, error: err instanceof Error ? err.message : String(err) });
    }
  }
  // Authorized payments on orders no open invoice leads to (settled when the run began), their `payment.authorized` lost: the account's
  // payments of the capture window, so one is alerted as the webhook would have (capturing it would take money not owed).
  try {
    for (const p of await deps.gateway.paymentsSince(new Date(deps.clock.now().getTime() - CAPTURE_WINDOW_MS - LOOK_OVERLAP_MS))) {
      if (p.status !== 'authorized' || !p.orderId || checked.has(p.orderId)) continue;
      const settled = await authorizedNotOwed(deps, p);
      if (settled && (!only || settled.agentGroupId === only)) notOwed(settled.agentGroupId, settled.invoiceId, p, settled.amountDue);
    }
  } catch (err) {
    failures.push({ agentGroupId: only ?? '*', error: err instanceof Error ? err.message : String(err) });
  }
  // Refunds of payments whose invoices are settled (so no open order leads to them): the account's refunds since the last
  // look. One group's reconciliation takes only that group's and leaves the mark, so the next full one still sees the others.
  try {
    const startedAt = deps.clock.now();
    const last = await deps.receivables.refundLook();
    const since = new Date(Date.parse(last ?? '1970-01-01T00:00:00.000Z') - LOOK_OVERLAP_MS);
    for (const r of await deps.gateway.refundsSince(since)) {
      const owner = await deps.receivables.gatewayPaymentGroup(r.paymentId);
      // Only refunds of payments recorded: one of a payment that is no group's is not ours to post.
      if (owner && (!only || owner === only)) await refund(r, null);
    }
    if (!only) await deps.receivables.markRefundLook(startedAt.toISOString());
  } catch (err) {
    failures.push({ agentGroupId: only ?? '*', error: err instanceof Error ? err.message : String(err) });
  }
  // Disputes whose every webhook was lost: those raised since the last look, and each one still undecided here, as they stand now.
  try {
    const startedAt = deps.clock.now();
    const last = await deps.receivables.disputeLook();
    const asked = new Map<string, GatewayDispute>();
    for (const d of await deps.gateway.disputesSince(new Date(Date.parse(last ?? '1970-01-01T00:00:00.000Z') - LOOK_OVERLAP_MS))) asked.set(d.disputeId, d);
    for (const held of await deps.receivables.openDisputes())
      if (!asked.has(held.disputeId) && (!only || held.agentGroupId === only)) asked.set(held.disputeId, await deps.gateway.dispute(held.disputeId));
    for (const d of asked.values()) {
      // Only disputes of payments recorded, as with refunds: one of a payment that is no group's is not ours to post.
      const owner = await deps.receivables.gatewayPaymentGroup(d.paymentId);
      if (!owner || (only && owner !== only)) continue;
      const outcome = await receiveGatewayDispute(deps, d, null, source, origin);
      if (outcome.kind === 'recorded' && outcome.applied)
        disputed.push({ agentGroupId: owner, disputeId: d.disputeId, paymentId: d.paymentId, status: d.status });
    }
    if (!only) await deps.receivables.markDisputeLook(startedAt.toISOString());
  } catch (err) {
    failures.push({ agentGroupId: only ?? '*', error: err instanceof Error ? err.message : String(err) });
  }
  // Last, with every payment, refund and dispute found recorded: each open invoice's order is made to collect what is owed now, never more
  // (a group whose invoices were all paid is among them once a refund or dispute found now re-opened one).
  for (const g of new Set([...groups, ...refunded.map((r) => r.agentGroupId), ...disputed.map((d) => d.agentGroupId)])) {
    try {
      for (const o of await deps.receivables.openOrders(g)) {
        // An order not read above (its invoice was settled when the run began) is asked about only when its amount is the one due again.
        const isSpent =
          spent.has(o.gatewayOrderId) ||
          (!checked.has(o.gatewayOrderId) && o.amountDue === o.orderAmount && (await deps.gateway.orderPayments(o.gatewayOrderId)).some(wasCaptured));
        const made = await orderForAmountDue(deps, g, o, isSpent);
        if (made) reordered.push({ agentGroupId: g, invoiceId: o.invoiceId, orderId: made.orderId, amount: made.amount });
      }
      // And each pay link: a credit note, a payment typed in or found now changed what is owed (pay-links.ts).
      await refreshGroupPayLinks(deps, g, endedLinks);
    } catch (err) {
      failures.push({ agentGroupId: g, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return {
    groups: groups.length,
    ordersChecked,
    virtualAccountsChecked,
    found,
    recorded,
    unmatched,
    captured,
    uncaptured,
    refunded,
    disputed,
    reordered,
    failures,
  };
}

/** Razorpay refunds a payment left authorized 3 days after its creation (razorpay.com/docs/payments/payments/capture-settings, "Watch Out!"). */
const CAPTURE_WINDOW_MS = 3 * 86_400_000;

/** Payments created up to this long before the last look are asked for again (recorded once all the same): clocks and Razorpay's indexing lag. */
const LOOK_OVERLAP_MS = 60 * 60 * 1000;
