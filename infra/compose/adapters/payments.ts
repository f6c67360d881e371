import { RazorpayPaymentGateway } from '../../payments/razorpay-payment-gateway.ts';
import { SandboxPaymentGateway } from '../../payments/sandbox-payment-gateway.ts';
import { adapterGroup } from '../core.ts';

/**
 * The payment gateway, wired by the functions that create orders and pay links, read Razorpay's
 * notifications or reconcile payments: PAYMENT_GATEWAY picks Razorpay or the sandbox the project
 * owns; both read Razorpay's signed webhooks.
 */
export const paymentAdapters = adapterGroup({
  area: 'payments',
  makers: ({ cfg }) => ({
    gateway: () =>
      cfg.payments.razorpay && cfg.payments.gateway === 'razorpay'
        ? new RazorpayPaymentGateway({ ...cfg.payments.razorpay, webhookSecrets: cfg.payments.webhookSecrets })
        : new SandboxPaymentGateway(cfg.payments.webhookSecrets),
  }),
});
