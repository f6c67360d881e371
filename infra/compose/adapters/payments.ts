import { RazorpayPaymentGateway } from '../../payments/razorpay-payment-gateway.ts';
import { SandboxPaymentGateway } from '../../payments/sandbox-payment-gateway.ts';
import { adapterGroup } from '../core.ts';

/**
 * The payment gateway's API, wired by the functions that create orders, pay links and virtual
 * accounts or reconcile payments: PAYMENT_GATEWAY picks Razorpay or the sandbox the project owns.
 * The one place that names Razorpay's SDK package, so exactly the bundles that wire this group
 * carry it; reading the gateway's notifications needs none (`gatewayNotices`, the billing group).
 */
export const paymentAdapters = adapterGroup({
  area: 'payments',
  makers: ({ cfg }) => ({
    gateway: () =>
      cfg.payments.razorpay && cfg.payments.gateway === 'razorpay'
        ? new RazorpayPaymentGateway({ ...cfg.payments.razorpay, webhookSecrets: cfg.payments.webhookSecrets }, () => import('razorpay'))
        : new SandboxPaymentGateway(cfg.payments.webhookSecrets),
  }),
});
