/**
 * The receivables area's wiring: recorded payments and the reconciliation of the gateway's
 * payments with pay links and reminders (the hourly worker, the console, the admin tool).
 * Reconciliation calls Razorpay's API: its functions wire the payments adapter group, which brings the SDK.
 * Handlers import this module and `core.ts`, never another area's (docs/decisions/platform.md, "Composition per area").
 */
import type { IdGenerator } from '../../domain/ports/ids.ts';
import type { ReconcileDeps } from '../../domain/receivables/gateway-accounts.ts';
import type { PaymentDeps } from '../../domain/receivables/record-payment.ts';
import type { Services } from './core.ts';

/** Recording a payment (a transfer typed in by an operator, from the console or the admin tool): it asks for the group's pay links to follow. */
export function paymentDeps(svc: Services): PaymentDeps & { readonly ids: IdGenerator } {
  return { receivables: svc.receivables, tenants: svc.tenants, clock: svc.clock, ids: svc.ids, payLinkRefreshes: svc.payLinkRefreshes };
}

/** Payment reconciliation as the hourly worker, the admin tool and the tests run it (the worker adds the groups' test clocks). */
export function reconcileDeps(svc: Services): ReconcileDeps {
  return {
    gateway: svc.gateway,
    receivables: svc.receivables,
    tenants: svc.tenants,
    clock: svc.clock,
    invoices: svc.invoices,
    payLinks: svc.payLinks,
    ids: svc.ids,
    metrics: svc.metrics,
    mail: { financeContacts: svc.financeContacts, mailLog: svc.mailLog, mailer: svc.mailer },
  };
}
