import { mailReceipt } from '../../domain/mail/receipt-mail.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { amountDueOf } from '../../domain/invoicing/invoice.ts';
import { formatInr as rupees, formatRupees, toRupees } from '../../domain/money.ts';
import type { Payment } from '../../domain/receivables/payment.ts';
import { INSTANT_RULE, isInstant } from '../../domain/reads/date-window.ts';
import { reconcilePayments } from '../../domain/receivables/gateway-accounts.ts';
import { recordBankTransfer, type PaymentOutcome } from '../../domain/receivables/record-payment.ts';
import { SandboxPaymentGateway } from '../../infra/payments/sandbox-payment-gateway.ts';
import { paymentDeps, reconcileDeps } from '../../infra/compose/admin.ts';
import { columns, GROUP_OPTION, type CommandSpec } from './command.ts';
import { ServiceUnreachableError } from './environment.ts';
import { rupeesOption } from './input.ts';

const paymentView = (p: Payment) => ({ ...p, amount: toRupees(p.amount), refunded: toRupees(p.refunded ?? 0) });
const outcomeView = (o: PaymentOutcome) => ({ payment: paymentView(o.payment), duplicate: !o.recorded, unallocated: toRupees(o.unallocated) });

export const paymentsRecord: CommandSpec = {
  path: ['payments', 'record'],
  summary: 'Record money a group paid by bank transfer: one POSTED PAYMENT entry, allocated to its open invoices oldest due date first.',
  details:
    'For transfers that did not come through Razorpay. The same --reference recorded again records nothing (the first recording stands); a Razorpay payment id, or a UTR already recorded through the group virtual account (Smart Collect), is refused: that money is counted once, under its gateway payment. What no open invoice needs stays as credit for the next invoices.',
  options: [
    GROUP_OPTION,
    { name: 'amount', value: '<rupees>', required: true, description: 'The amount received, in rupees (1999.50).', param: 'amount' },
    { name: 'reference', value: '<utr>', required: true, description: "The bank's reference (UTR) of the transfer.", param: 'reference' },
    { name: 'received-at', value: '<instant>', description: 'When the money arrived (ISO 8601); default now; never in the future.', param: 'receivedAt' },
  ],
  examples: ['payments record --group tripkart-agents --amount 15750 --reference UTR2027031200123'],
  async run(args, ctx) {
    const receivedAt = args.text('received-at');
    if (receivedAt !== undefined && !isInstant(receivedAt)) throw new ValidationError('receivedAt', `--received-at must be ${INSTANT_RULE}.`);
    const svc = ctx.services();
    const outcome = await recordBankTransfer(
      paymentDeps(svc),
      {
        agentGroupId: args.required('group'),
        reference: args.required('reference'),
        amount: rupeesOption('amount', args.required('amount')),
        ...(receivedAt ? { receivedAt: new Date(receivedAt).toISOString() } : {}),
      },
      ctx.origin(),
    );
    // The receipt, once per contact (a second recording of the same reference sends only what is missing); the
    // payment stands whatever SES says, and the operator is told when it was not sent.
    const receipt = outcome.sameTransfer
      ? undefined
      : await mailReceipt(
          { invoices: svc.invoices, financeContacts: svc.financeContacts, mailLog: svc.mailLog, mailer: svc.mailer, clock: svc.clock, ids: svc.ids },
          outcome.payment,
          ctx.origin(),
        ).catch((err: unknown) => ({ error: err instanceof Error ? err.message : String(err) }));
    ctx.out.result({ ...outcomeView(outcome), ...(receipt ? { receipt } : {}) }, () => [
      outcome.recorded
        ? `Recorded ${rupees(outcome.payment.amount)} from ${outcome.payment.agentGroupId} (${outcome.payment.reference}), ledger entry ${outcome.payment.ledgerEntryId}.`
        : `Payment ${outcome.payment.reference} was already recorded; nothing changed.`,
      `Unallocated credit of the group now: ${rupees(outcome.unallocated)}.`,
      ...(receipt === undefined
        ? []
        : 'error' in receipt
          ? [`The receipt e-mail was not sent (${receipt.error}); record the same payment again to send it.`]
          : receipt.sent > 0
            ? [`Receipt e-mailed to ${receipt.sent} finance contact(s).`]
            : []),
    ]);
  },
};

export const paymentsList: CommandSpec = {
  path: ['payments', 'list'],
  summary: "List a group's payments (gateway and bank transfer) and its unallocated credit.",
  options: [GROUP_OPTION],
  examples: ['payments list --group tripkart-agents'],
  async run(args, ctx) {
    const g = args.required('group');
    const store = ctx.services().receivables;
    const [payments, unallocated] = await Promise.all([store.payments(g), store.unallocatedCredit(g)]);
    ctx.out.result({ payments: payments.map(paymentView), unallocated: toRupees(unallocated) }, () => [
      ...(payments.length === 0
        ? [`No payments from group ${g}.`]
        : columns(
            [
              ['RECEIVED', 'SOURCE', 'REFERENCE', 'AMOUNT', 'INVOICE FIRST'],
              ...payments.map((p) => [p.receivedAt, p.source, p.reference, rupees(p.amount), p.invoiceId ?? '']),
            ],
            '',
          )),
      `Unallocated credit: ${rupees(unallocated)}.`,
    ]);
  },
};

export const gatewayPay: CommandSpec = {
  path: ['gateway', 'pay'],
  summary: 'Sandbox stages: pay an issued invoice through the sandbox payment gateway, which sends its signed notification to the running service.',
  details:
    "Like a partner paying the order on the gateway: the gateway then POSTs payment.captured, signed with the webhook secret, to <url>/gateway/notifications. Prints the service's answer.",
  positional: { name: 'invoiceId', description: 'The issued invoice to pay.' },
  options: [
    GROUP_OPTION,
    { name: 'amount', value: '<rupees>', description: 'Rupees to pay; default what is still due on the invoice.' },
    { name: 'payment-id', value: '<id>', description: 'The gateway payment id to use (to resend the same payment); default a new one.' },
    {
      name: 'url',
      value: '<baseUrl>',
      description:
        'Where the service runs; default the running local stack (SERVICE_URL in .local/stack.env, which npm start writes), else http://localhost:3000.',
    },
  ],
  examples: ['gateway pay 0b6f4c1e-3f1d-4a57-9a0e-5d1c2b3a4f5e --group tripkart-agents'],
  async run(args, ctx) {
    const cfg = ctx.config();
    if (!cfg.isSandbox) throw new ValidationError('stage', 'gateway pay drives the sandbox gateway; it works on local and test stages only.');
    if (cfg.payments.webhookSecrets.length === 0)
      throw new ValidationError('RAZORPAY_WEBHOOK_SECRET', 'RAZORPAY_WEBHOOK_SECRET is not set, so the service would refuse any notification.');
    const invoice = await ctx.services().invoices.get(args.required('group'), args.positional!);
    if (!invoice || invoice.status === 'DRAFT' || invoice.status === 'CANCELLED' || !invoice.gatewayOrderId) throw new NotFoundError('Issued invoice');
    const amount = args.text('amount') === undefined ? amountDueOf(invoice) : rupeesOption('amount', args.text('amount')!);
    if (amount <= 0) throw new ValidationError('amount', `Nothing to pay: invoice ${invoice.invoiceNumber} has nothing due; give --amount to pay ahead.`);
    const gateway = new SandboxPaymentGateway(cfg.payments.webhookSecrets);
    const paymentId = args.text('payment-id');
    const n =
      paymentId === undefined
        ? gateway.capture(invoice.gatewayOrderId, amount, new Date())
        : gateway.capture(invoice.gatewayOrderId, amount, new Date(), paymentId);
    const url = `${(args.text('url') ?? ctx.serviceUrl()).replace(/\/+$/, '')}/gateway/notifications`;
    const res = await fetch(url, { method: 'POST', headers: n.headers, body: n.body }).catch((err: unknown) => {
      throw new ServiceUnreachableError(url, err);
    });
    const answer: unknown = await res.json().catch(() => null);
    if (!res.ok) throw new Error(`the service answered ${res.status} to the notification: ${JSON.stringify(answer)}`);
    ctx.out.result({ status: res.status, notification: JSON.parse(n.body), answer }, () => [
      `Paid ${rupees(amount)} against order ${invoice.gatewayOrderId} (invoice ${invoice.invoiceNumber}); the service answered ${res.status} ${JSON.stringify(answer)}.`,
    ]);
  },
};

export const paymentsUnmatched: CommandSpec = {
  path: ['payments', 'unmatched'],
  summary: "List gateway payments kept because they are no group's money: an order or virtual account that is not ours, or a currency other than INR.",
  details:
    'Razorpay was answered 200 for each (so it stops retrying); nothing was posted. Refund it to the payer on the Razorpay dashboard (its refund events are then ignored: it was never counted). Never type it in with `payments record`: that takes transfers outside Razorpay, and refuses Razorpay payment ids and UTRs the gateway recorded, since counting the same money twice is what it would do.',
  options: [],
  examples: ['payments unmatched', 'payments unmatched --json'],
  async run(_args, ctx) {
    const kept = await ctx.services().receivables.unmatchedPayments();
    ctx.out.result({ unmatched: kept }, () =>
      kept.length === 0
        ? ['No unmatched gateway payments.']
        : columns(
            [
              ['KEPT', 'PAYMENT', 'REASON', 'AMOUNT', 'ORDER / ACCOUNT', 'EVENT'],
              ...kept.map((u) => [
                u.keptAt,
                u.paymentId,
                u.reason,
                u.currency === 'INR' ? rupees(u.amount) : `${u.currency} ${formatRupees(u.amount)}`,
                u.orderId ?? u.virtualAccountId ?? '',
                u.event,
              ]),
            ],
            '',
          ),
    );
  },
};

export const paymentsDisputes: CommandSpec = {
  path: ['payments', 'disputes'],
  summary: 'List gateway payments disputed and not yet decided (open or under review), with the invoice each paid and the date to answer by.',
  details:
    'Answer each on the Razorpay dashboard (Transactions → Disputes) before its respond-by date. A lost dispute gives the amount back as a refund does (the invoice owes it again); won or closed clears it from this list.',
  options: [],
  examples: ['payments disputes', 'payments disputes --json'],
  async run(_args, ctx) {
    const open = await ctx.services().receivables.openDisputes();
    ctx.out.result({ disputes: open.map((d) => ({ ...d, amount: toRupees(d.amount), amountDeducted: toRupees(d.amountDeducted) })) }, () =>
      open.length === 0
        ? ['No open disputes.']
        : columns(
            [
              ['RESPOND BY', 'DISPUTE', 'STATUS', 'PHASE', 'PAYMENT', 'AMOUNT', 'GROUP', 'INVOICE'],
              ...open.map((d) => [d.respondBy, d.disputeId, d.status, d.phase, d.paymentId, rupees(d.amount), d.agentGroupId, d.invoiceId ?? '']),
            ],
            '',
          ),
    );
  },
};

export const paymentsReconcile: CommandSpec = {
  path: ['payments', 'reconcile'],
  summary:
    "Ask the gateway for the payments of every open invoice's orders and of each group's virtual account, its refunds and disputes, record those never announced, and give each invoice an order for what it owes now.",
  details:
    'What the scheduled reconciliation does, now. One gateway call per open invoice and per group account; each payment recorded once, whatever its notification does later. Exit 1 when a group could not be checked.',
  options: [{ name: 'group', value: '<groupId>', description: 'Only this agent group.' }],
  examples: ['payments reconcile', 'payments reconcile --group tripkart-agents --json'],
  async run(args, ctx) {
    const svc = ctx.services();
    const report = await reconcilePayments(reconcileDeps(svc), ctx.origin(), args.text('group'));
    ctx.out.result(report, () => [
      `Checked ${report.groups} group(s): ${report.ordersChecked} order(s), ${report.virtualAccountsChecked} virtual account(s); ${report.found} captured payment(s) found, ${report.recorded.length} recorded now, ${report.unmatched} unmatched; ${report.refunded.length} processed refund(s) recorded now.`,
      ...report.recorded.map((r) => `  recorded ${r.paymentId} ${rupees(r.amount)} for ${r.agentGroupId}`),
      ...report.captured.map((c) => `  captured ${c.paymentId} ${rupees(c.amount)} (authorized) of invoice ${c.invoiceId} for ${c.agentGroupId}`),
      ...report.refunded.map((r) => `  refunded ${r.refundId} of ${r.paymentId} ${rupees(r.amount)} for ${r.agentGroupId}`),
      ...report.disputed.map((d) => `  dispute ${d.disputeId} of ${d.paymentId} now ${d.status} for ${d.agentGroupId}`),
      ...report.reordered.map((o) => `  new order ${o.orderId} for ${rupees(o.amount)} due on invoice ${o.invoiceId} of ${o.agentGroupId}`),
      ...report.failures.map((f) => `  FAILED ${f.agentGroupId}: ${f.error}`),
    ]);
    return report.failures.length > 0 ? 1 : undefined;
  },
};
