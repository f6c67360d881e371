/**
 * Operational counts an operator watches: published as CloudWatch metrics (embedded metric
 * format) in the cloud by infra/metrics.ts. The names are a contract with dashboards and the
 * alarms of infra/deploy/alarms.ts (which names them by type), so they are fixed here rather than typed at each call.
 */
export const METRIC_NAMES = [
  /** A booking landed at the property system (a late landing after a failure counts too). */
  'BookingConfirmed',
  /** A booking's window closed without a landing; its authorization was released. */
  'BookingFailed',
  /** POST /v1/bookings refused for want of credit (402). */
  'CreditRefused',
  /** One send of a catalogue webhook, whatever the answer. */
  'WebhookAttempt',
  /** A catalogue webhook delivery ended FAILED: a 4xx, its attempts used up, or given up unsent. */
  'WebhookPermanentFailure',
  /** One send of a booking callback, whatever the answer. */
  'CallbackAttempt',
  /** A booking callback ended FAILED after its whole schedule, or given up unsent. */
  'CallbackPermanentFailure',
  /** Deliveries the sweeper found past due: their queue message was lost. */
  'OverdueDeliveries',
  /** Bookings the sweeper found with their workflow past due. */
  'OverdueBookings',
  /** One billing run finished (statements and invoices for a cycle): emitted by the billing job. */
  'BillingRun',
  /** A billing run that could not finish for a group. */
  'BillingRunFailed',
  /** A billing run could not write the group's balance checkpoints; the next run writes them, statements meanwhile read from an older one. */
  'BalanceCheckpointFailed',
  /** A POST /v1/invoices whose request budget ran out while its lines were written: its DRAFTs went to the billing worker. */
  'BillingRunHandedOff',
  /** A handed-off run's continuation could not be queued: its DRAFTs wait for the group's next run. */
  'BillingHandOffNotQueued',
  /** A change of what a group owes could not ask for its pay links to follow; the hourly reconciliation refreshes them. */
  'PayLinkAskLost',
  /** A gateway payment disputed (a chargeback raised, or lost): operators answer it by its respond-by date (`payments disputes`). */
  'PaymentDisputed',
  /** An authorized payment of one of our orders that the gateway refused to capture: it is refunded to the payer after the capture window unless an operator acts. */
  'PaymentNotCaptured',
  /** An authorized payment for more than its invoice owes (the invoice settled, or the order replaced by one for less): not captured, so Razorpay refunds it after 3 days unless an operator captures it. */
  'AuthorizedPaymentNotOwed',
  /** A numbered document the IRP holds registered could not be taken as ours (needs reconciliation, or its signature does not verify): counted each time a run meets it held. */
  'EInvoiceHeld',
  /** A document waiting for the IRP within 7 days of the last day of its 30-day reporting window: counted each time a run fails to register it. */
  'EInvoiceReportingWindowClosing',
  /** A document past its 30-day reporting window (or refused 2305): the IRP will not register it; counted each time a run meets it. */
  'EInvoicePastReportingWindow',
  /** A reminder or statement e-mail SES refused or could not take: its claim was given back and the next daily run sends it. */
  'MailNotSent',
  /** SES reported a permanent bounce for a finance contact's address; the contact was flagged and receives nothing until the address is fixed. */
  'MailBounced',
  /** A finance contact marked our mail as spam (an SES complaint); the contact was flagged like a bounce. */
  'MailComplained',
] as const;

export type MetricName = (typeof METRIC_NAMES)[number];

export interface Metrics {
  /** Adds `value` (default 1) to the count `name`. Never throws and never waits: counting must not fail the work it counts. */
  count(name: MetricName, value?: number): void;
}

/** Counts nothing: for stages and tools where no one collects metrics. */
export const noMetrics: Metrics = { count: () => undefined };
