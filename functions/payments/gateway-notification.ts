import { clockFor } from '../../infra/compose/core.ts';
import { adoptPaidLink, clearEndedLink } from '../../domain/receivables/pay-links.ts';
import { isAwsUnavailable } from '../../infra/aws-client.ts';
import { mailReceipt } from '../../domain/mail/receipt-mail.ts';
import { logger } from '../../infra/logger.ts';
import { systemOrigin } from '../../domain/audit/audit-event.ts';
import { authorizedNotOwed } from '../../domain/receivables/gateway-orders.ts';
import { receiveGatewayDispute, receiveGatewayPayment, receiveGatewayRefund } from '../../domain/receivables/record-payment.ts';
import { gatewayNotificationRoute } from '../contracts/payments.ts';
import { endpoint } from '../http/endpoint.ts';
import type { HttpEvent } from '../http/types.ts';

/** The signature covers the bytes the gateway sent: API Gateway hands binary-looking bodies over base64-encoded. */
const rawBodyOf = (event: HttpEvent): string => {
  const body = typeof event.body === 'string' ? event.body : '';
  return event.isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
};

export const handler = endpoint(gatewayNotificationRoute, async ({ event, services }) => {
  const headers = Object.fromEntries(Object.entries(event.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const gateway = services.gatewayNotices;
  const notice = gateway.readNotification(rawBodyOf(event), headers[gateway.signatureHeader], headers[gateway.eventIdHeader]);
  if (notice.kind === 'ignored')
    return {
      status: 200,
      body: { outcome: 'IGNORED' as const, event: notice.event, paymentId: null, invoiceId: null, refundId: null, disputeId: null, duplicate: false },
    };
  if (notice.kind === 'link-ended') {
    // No SDK here to make a new link (docs/performance.md): the dead one is cleared now, and the billing worker makes the next.
    const ended = await clearEndedLink({ payLinks: services.payLinks, clock: services.clock, payLinkRefreshes: services.payLinkRefreshes }, notice.linkId);
    if (ended.outcome === 'UNKNOWN') logger.warn('ended pay link that is none of ours', { linkId: notice.linkId, event: notice.event });
    const outcome = ended.outcome === 'CLEARED' ? ('LINK_ENDED' as const) : ended.outcome === 'STALE' ? ('DUPLICATE' as const) : ('UNMATCHED' as const);
    return {
      status: 200,
      body: {
        outcome,
        event: notice.event,
        paymentId: null,
        invoiceId: ended.invoiceId ?? null,
        refundId: null,
        disputeId: null,
        duplicate: ended.outcome === 'STALE',
      },
    };
  }
  if (notice.kind === 'authorized') {
    // Not money yet: reconciliation captures it while its invoice owes it; for more than is owed it is left to Razorpay's refund, and said.
    const notOwed = await authorizedNotOwed({ receivables: services.receivables, invoices: services.invoices }, notice.payment);
    if (notOwed) {
      services.metrics.count('AuthorizedPaymentNotOwed');
      logger.warn('authorized payment for more than its invoice owes: not captured, Razorpay refunds it after 3 days unless captured on the dashboard', {
        paymentId: notice.payment.paymentId,
        orderId: notice.payment.orderId,
        amount: notice.payment.amount,
        ...notOwed,
      });
    }
    return {
      status: 200,
      body: {
        outcome: 'IGNORED' as const,
        event: notice.event,
        paymentId: notice.payment.paymentId,
        invoiceId: null,
        refundId: null,
        disputeId: null,
        duplicate: false,
      },
    };
  }
  // The use cases ask for the group's pay links to follow what they change (payLinkRefreshes), after it commits.
  const deps = {
    receivables: services.receivables,
    tenants: services.tenants,
    clock: services.clock,
    clockFor: clockFor(services),
    ids: services.ids,
    payLinkRefreshes: services.payLinkRefreshes,
  };
  const paymentId = notice.payment.paymentId;
  // The trail names the gateway's event id, what an auditor finds in the gateway's own dashboard.
  if (notice.kind === 'dispute') {
    const disputeId = notice.dispute.disputeId;
    const outcome = await receiveGatewayDispute(
      { ...deps, metrics: services.metrics },
      notice.dispute,
      notice.payment,
      notice,
      systemOrigin('payment-gateway', notice.eventId ?? disputeId),
    );
    if (outcome.kind === 'unmatched') {
      logger.warn('dispute of a payment that is no group money', { paymentId, disputeId, event: notice.event });
      return {
        status: 200,
        body: { outcome: 'UNMATCHED' as const, event: notice.event, paymentId, invoiceId: null, refundId: null, disputeId, duplicate: false },
      };
    }
    // Said in the log where alarms look, with what operators need to answer it; the PaymentDisputed count raises the alarm.
    if (outcome.applied)
      logger.warn('payment dispute', {
        disputeId,
        paymentId,
        status: outcome.dispute.status,
        phase: outcome.dispute.phase,
        invoiceId: outcome.dispute.invoiceId,
        agentGroupId: outcome.dispute.agentGroupId,
        respondBy: outcome.dispute.respondBy,
        previous: outcome.previous,
      });
    const body = { event: notice.event, paymentId, invoiceId: outcome.dispute.invoiceId, refundId: null, disputeId };
    // A lost dispute is new for the one delivery that gave the money back: of racing copies, one may record the state and
    // another give back (every lost delivery finishes a half-done one), and only the giving back happens once.
    const isNew = notice.dispute.status === 'lost' ? outcome.givenBack : outcome.applied;
    return {
      status: 200,
      body: isNew ? { outcome: 'DISPUTED' as const, ...body, duplicate: false } : { outcome: 'DUPLICATE' as const, ...body, duplicate: true },
    };
  }
  if (notice.kind === 'refund') {
    const refundId = notice.refund.refundId;
    const outcome = await receiveGatewayRefund(deps, notice.refund, notice.payment, notice, systemOrigin('payment-gateway', notice.eventId ?? refundId));
    if (outcome.kind === 'not-processed')
      return {
        status: 200,
        body: { outcome: 'IGNORED' as const, event: notice.event, paymentId, invoiceId: null, refundId, disputeId: null, duplicate: false },
      };
    if (outcome.kind === 'unmatched') {
      logger.warn('refund of a payment that is no group money', { paymentId, refundId, event: notice.event });
      return {
        status: 200,
        body: { outcome: 'UNMATCHED' as const, event: notice.event, paymentId, invoiceId: null, refundId, disputeId: null, duplicate: false },
      };
    }
    return {
      status: 200,
      body: {
        outcome: outcome.recorded ? ('REFUNDED' as const) : ('DUPLICATE' as const),
        event: notice.event,
        paymentId,
        invoiceId: outcome.refund.invoiceId,
        refundId,
        disputeId: null,
        duplicate: !outcome.recorded,
      },
    };
  }
  // A pay link's payment: its order becomes the invoice's first, so the payment settles as any payment on an order of ours.
  if (notice.kind === 'link-paid' && notice.payment.orderId)
    await adoptPaidLink(
      { payLinks: services.payLinks, receivables: services.receivables, clock: services.clock },
      notice.linkId,
      notice.payment.orderId,
      paymentId,
    );
  const outcome = await receiveGatewayPayment(deps, notice.payment, notice, systemOrigin('payment-gateway', notice.eventId ?? paymentId));
  if (outcome.kind === 'unmatched') {
    // Answered 200 so Razorpay stops retrying; kept for operators, and said in the log where alarms look.
    logger.warn('unmatched gateway payment kept', { paymentId, reason: outcome.unmatched.reason, event: notice.event });
    return {
      status: 200,
      body: { outcome: 'UNMATCHED' as const, event: notice.event, paymentId, invoiceId: null, refundId: null, disputeId: null, duplicate: !outcome.kept },
    };
  }
  // The UTR was typed in by hand before the gateway's notice came: one transfer, already counted.
  if (outcome.sameTransfer)
    logger.warn('bank transfer already recorded by hand', { paymentId, recordedAs: outcome.payment.reference, agentGroupId: outcome.payment.agentGroupId });
  else {
    // The receipt, once per contact: a redelivered notification (DUPLICATE) sends only what is missing. SES unreachable
    // or throttled answers 503, so Razorpay redelivers and the receipt goes then; a refusal (a bad address) is logged,
    // never failed back to Razorpay, which would otherwise retry it for a day and disable the webhook.
    try {
      await mailReceipt(
        { ...deps, invoices: services.invoices, financeContacts: services.financeContacts, mailLog: services.mailLog, mailer: services.mailer },
        outcome.payment,
        systemOrigin('payment-gateway', notice.eventId ?? paymentId),
      );
    } catch (err) {
      if (isAwsUnavailable(err)) throw err;
      logger.error('payment receipt not sent', { paymentId, agentGroupId: outcome.payment.agentGroupId, error: (err as Error).name });
    }
  }
  return {
    status: 200,
    body: {
      outcome: outcome.recorded ? ('RECORDED' as const) : ('DUPLICATE' as const),
      event: notice.event,
      paymentId,
      invoiceId: outcome.payment.invoiceId,
      refundId: null,
      disputeId: null,
      duplicate: !outcome.recorded,
    },
  };
});
