import type { MetricName } from '../../domain/ports/metrics.ts';
import type { functionManifests } from '../../functions/manifests/index.ts';
import { METRICS_NAMESPACE, METRICS_SERVICE } from '../metrics.ts';

/**
 * The stack's CloudWatch alarms, one entry each (docs/decisions/platform.md "Alarms from one
 * definition"): `npm run deploy:generate` writes them into infra/deploy/resources/alarms.yml, and
 * test/unit/alarms.test.ts fails when that file is stale, when an alarm watches a metric of ours that
 * domain/ports/metrics.ts does not name, or when docs/deploy.md "Alarms" has no row for it.
 *
 * Every alarm exists only where the stage names an alarm topic (the `alarmTopicArn` param), and
 * notifies that topic when it goes into ALARM (and, unless said otherwise, again when it is OK). Its
 * CloudWatch name is `partner-distribution-<stage>-<name>`; `name` is also the key of its runbook row
 * in docs/deploy.md "Alarms" (`…-<name>`).
 */

/** A dead-letter queue of infra/deploy/resources/queues.yml, by its logical id. */
export type DeadLetterQueue =
  | 'WebhookDeliveriesDeadLetterQueue'
  | 'BookingWorkflowDeadLetterQueue'
  | 'CatalogueSyncDeadLetterQueue'
  | 'InvoicePdfDeadLetterQueue'
  | 'MailEventsDeadLetterQueue'
  | 'BillingDeadLetterQueue'
  | 'ChannexChangesDeadLetterQueue';

/** A message in a dead-letter queue is work the service gave up on: any message visible within a minute alarms. */
export interface DeadLetterAlarm {
  readonly name: string;
  readonly description: string;
  readonly deadLetterQueue: DeadLetterQueue;
}

/** What a metric alarm watches: a count of ours (infra/metrics.ts publishes it), an SES account rate, or a function's Lambda metric. */
export type Metric =
  | { readonly own: MetricName }
  | { readonly ses: 'Reputation.BounceRate' | 'Reputation.ComplaintRate' }
  | { readonly lambda: 'Errors' | 'Invocations'; readonly function: keyof typeof functionManifests };

export interface MetricAlarm {
  readonly name: string;
  readonly description: string;
  readonly metric: Metric;
  readonly statistic: 'Maximum' | 'Sum';
  /** Seconds per datapoint. */
  readonly period: number;
  readonly evaluationPeriods: number;
  /** Set when every evaluated datapoint must breach (CloudWatch's default is then the same figure; written out as it was). */
  readonly datapointsToAlarm?: number;
  readonly threshold: number;
  readonly comparison: 'GreaterThanThreshold' | 'GreaterThanOrEqualToThreshold' | 'LessThanThreshold';
  /** `breaching`: silence is a reporter that stopped; `notBreaching`: counted only when it happens, so no data is the normal state. */
  readonly missingData: 'breaching' | 'notBreaching';
  /** false: ALARM only, no OK notification (each datapoint is an event to act on, not a state that clears). */
  readonly notifyOk?: false;
}

export type Alarm = DeadLetterAlarm | MetricAlarm;

/** Counts of ours that are published only when the thing happens: any in the period alarms, and no data is the normal state. */
const whenCounted = (metric: MetricName, period: number) =>
  ({
    metric: { own: metric },
    statistic: 'Sum',
    period,
    evaluationPeriods: 1,
    threshold: 0,
    comparison: 'GreaterThanThreshold',
    missingData: 'notBreaching',
  }) as const;

/** A sweeper reports its overdue count every run: overdue work `runs` datapoints in a row alarms, and so does a sweeper that stops reporting. */
const sweeperFinds = (metric: MetricName, period: number, runs: number) =>
  ({
    metric: { own: metric },
    statistic: 'Maximum',
    period,
    evaluationPeriods: runs,
    datapointsToAlarm: runs,
    threshold: 0,
    comparison: 'GreaterThanThreshold',
    missingData: 'breaching',
  }) as const;

/**
 * SES reviews an account whose bounce rate reaches 5% or complaint rate 0.1% and may pause its
 * sending (docs/e-mail.md "Bounces and complaints"): the account-wide reputation metrics, which SES
 * publishes without dimensions, alarm at those rates, before invoices stop going out.
 */
const sesReputation = (metric: 'Reputation.BounceRate' | 'Reputation.ComplaintRate', threshold: number) =>
  ({
    metric: { ses: metric },
    statistic: 'Maximum',
    period: 3600,
    evaluationPeriods: 1,
    threshold,
    comparison: 'GreaterThanOrEqualToThreshold',
    missingData: 'notBreaching',
  }) as const;

/** A day: the daily billing run meets every such document, so the alarm stays in ALARM while one is left. */
const DAILY = 86400;

/** In the order of the template's resources. */
export const alarms: readonly Alarm[] = [
  {
    name: 'webhook-deliveries-dlq',
    description: 'Webhook/callback delivery messages reached the dead-letter queue; inspect and redrive.',
    deadLetterQueue: 'WebhookDeliveriesDeadLetterQueue',
  },
  {
    name: 'booking-workflow-dlq',
    description: 'Booking workflow messages reached the dead-letter queue; the booking sweeper still advances the bookings, but a worker is failing.',
    deadLetterQueue: 'BookingWorkflowDeadLetterQueue',
  },
  {
    name: 'catalogue-sync-dlq',
    description: 'Catalogue sync documents reached the dead-letter queue; the catalogue is not being updated from them.',
    deadLetterQueue: 'CatalogueSyncDeadLetterQueue',
  },
  {
    name: 'invoice-pdfs-dlq',
    description:
      "Invoice PDF messages reached the dead-letter queue; GET /v1/invoices/{id}/pdf still renders them on demand, but the PDF worker is failing or SES refuses the documents' e-mails to finance contacts (docs/e-mail.md).",
    deadLetterQueue: 'InvoicePdfDeadLetterQueue',
  },
  {
    name: 'mail-events-dlq',
    description:
      'SES bounce or complaint events reached the dead-letter queue; the contacts at those addresses are not flagged and are still mailed (docs/e-mail.md).',
    deadLetterQueue: 'MailEventsDeadLetterQueue',
  },
  {
    name: 'mail-bounce-rate',
    description: 'SES account bounce rate reached 5% (SES reviews the account there); find the finance contacts whose addresses bounce and correct them.',
    ...sesReputation('Reputation.BounceRate', 0.05),
  },
  {
    name: 'mail-complaint-rate',
    description: 'SES account complaint rate reached 0.1% (SES reviews the account there); recipients are marking billing mail as spam.',
    ...sesReputation('Reputation.ComplaintRate', 0.001),
  },
  {
    name: 'billing-dlq',
    description:
      'A group of the daily billing run failed five times and its message reached the dead-letter queue; `billing runs` names it and why (docs/deploy.md).',
    deadLetterQueue: 'BillingDeadLetterQueue',
  },
  {
    name: 'channex-changes-dlq',
    description: 'Channex changes failed to apply after their retries; their records stay RECEIVED with the body stored (docs/channel-manager.md, runbook).',
    deadLetterQueue: 'ChannexChangesDeadLetterQueue',
  },
  {
    name: 'overdue-deliveries',
    description: 'The delivery sweeper (every 5 minutes) found overdue deliveries three runs in a row, or stopped reporting.',
    ...sweeperFinds('OverdueDeliveries', 300, 3),
  },
  {
    name: 'audit-digest-failed',
    description: 'The hourly audit digest (writeAuditDigest) failed; audit events since the last digest are not yet anchored (docs/audit.md "Digests").',
    metric: { lambda: 'Errors', function: 'writeAuditDigest' },
    statistic: 'Sum',
    period: 3600,
    evaluationPeriods: 1,
    threshold: 0,
    comparison: 'GreaterThanThreshold',
    missingData: 'notBreaching',
  },
  {
    name: 'audit-digest-stopped',
    description: 'The hourly audit digest (writeAuditDigest) did not run for two hours; audit verify reports a stale digest after three.',
    metric: { lambda: 'Invocations', function: 'writeAuditDigest' },
    statistic: 'Sum',
    period: 3600,
    evaluationPeriods: 2,
    threshold: 1,
    comparison: 'LessThanThreshold',
    missingData: 'breaching',
  },
  {
    name: 'overdue-bookings',
    description: 'The booking sweeper (every minute) found bookings with an overdue workflow for 5 minutes in a row, or stopped reporting.',
    ...sweeperFinds('OverdueBookings', 60, 5),
  },
  {
    name: 'billing-hand-off-not-queued',
    description: "A POST /v1/invoices run handed off its DRAFTs but could not queue their continuation; they wait for the group's next run.",
    ...whenCounted('BillingHandOffNotQueued', 300),
  },
  {
    name: 'pay-link-ask-lost',
    description: 'A change of what a group owes could not ask for its pay links to follow; they show the old amount until the hourly reconciliation.',
    ...whenCounted('PayLinkAskLost', 300),
  },
  // The three payment alarms notify on ALARM only: each is a payment to act on by a date, and
  // the alarm clearing an hour later (no new count) says nothing about whether anyone did.
  {
    name: 'payment-disputed',
    description:
      'A gateway payment was disputed (a chargeback raised, or lost); answer it on the Razorpay dashboard by its respond-by date (npm run admin -- payments disputes).',
    ...whenCounted('PaymentDisputed', 300),
    notifyOk: false,
  },
  {
    name: 'payment-not-captured',
    description:
      "Razorpay refused to capture an authorized payment of an invoice's order; it is refunded to the payer 3 days after it was made unless captured (the reconcilePayments log names payment and invoice).",
    ...whenCounted('PaymentNotCaptured', 3600),
    notifyOk: false,
  },
  {
    name: 'authorized-payment-not-owed',
    description:
      "A payment was authorized on an invoice's order for more than the invoice owes (settled, or its order replaced); it is not captured and Razorpay refunds it to the payer 3 days after it was made unless an operator captures it on the dashboard (the gatewayNotification or reconcilePayments log names payment and invoice).",
    ...whenCounted('AuthorizedPaymentNotOwed', 3600),
    notifyOk: false,
  },
  {
    name: 'e-invoice-held',
    description:
      'A billing run met a document the IRP holds registered that cannot be taken as ours (needs reconciliation, or its signature does not verify); `invoices held` lists them.',
    ...whenCounted('EInvoiceHeld', DAILY),
  },
  {
    name: 'e-invoice-reporting-window-closing',
    description: 'A document waiting for the IRP is in the last 7 days of its 30-day reporting window; `invoices einvoice` shows why it waits.',
    ...whenCounted('EInvoiceReportingWindowClosing', DAILY),
  },
  {
    name: 'e-invoice-past-reporting-window',
    description:
      'A document is past its 30-day reporting window (or the IRP refused it, 2305) and is not sent again; it needs a new document (docs/receivables.md).',
    ...whenCounted('EInvoicePastReportingWindow', DAILY),
  },
  {
    name: 'mail-bounced',
    description:
      'A finance contact\'s address bounced permanently (MailBounced); the contact receives nothing, invoices included, until its address is corrected or an operator clears the flag (docs/e-mail.md "Bounces and complaints").',
    ...whenCounted('MailBounced', 3600),
  },
  {
    name: 'mail-complained',
    description:
      'A finance contact marked billing mail as spam (MailComplained); the contact receives nothing until an operator clears the flag (docs/e-mail.md "Bounces and complaints").',
    ...whenCounted('MailComplained', 3600),
  },
  {
    name: 'mail-not-sent',
    description:
      "SES refused or could not take a reminder, statement or receipt (MailNotSent); reminders go again with the next daily run, a reconciled payment's receipt does not (docs/e-mail.md).",
    ...whenCounted('MailNotSent', 3600),
  },
];

const pascal = (name: string): string => name.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());

/** An alarm's logical id in the template: its dead-letter queue's with `Alarm` for `Queue`, otherwise its name in PascalCase with `Alarm`. */
export const logicalIdOf = (alarm: Alarm): string =>
  'deadLetterQueue' in alarm ? alarm.deadLetterQueue.replace(/Queue$/, 'Alarm') : `${pascal(alarm.name)}Alarm`;

/** The param every alarm is conditioned on and notifies. */
const ALARM_TOPIC = '${param:alarmTopicArn, ""}';

/** Namespace, metric name and dimensions of what an alarm watches. */
function watched(alarm: Alarm): { Namespace: string; MetricName: string; Dimensions: { Name: string; Value: unknown }[] } {
  if ('deadLetterQueue' in alarm)
    return {
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [alarm.deadLetterQueue, 'QueueName'] } }],
    };
  const m = alarm.metric;
  if ('own' in m)
    return {
      Namespace: METRICS_NAMESPACE,
      MetricName: m.own,
      // Exactly the dimensions infra/metrics.ts publishes, or the alarm watches an empty series.
      Dimensions: [
        { Name: 'service', Value: METRICS_SERVICE },
        { Name: 'stage', Value: '${sls:stage}' },
      ],
    };
  if ('ses' in m) return { Namespace: 'AWS/SES', MetricName: m.ses, Dimensions: [] };
  return { Namespace: 'AWS/Lambda', MetricName: m.lambda, Dimensions: [{ Name: 'FunctionName', Value: `\${self:service}-\${sls:stage}-${m.function}` }] };
}

/** The alarm's CloudFormation properties, in the order the template has always listed them. */
function propertiesOf(alarm: Alarm): Record<string, unknown> {
  const rule: Omit<MetricAlarm, 'name' | 'description' | 'metric'> =
    'deadLetterQueue' in alarm
      ? { statistic: 'Maximum', period: 60, evaluationPeriods: 1, threshold: 0, comparison: 'GreaterThanThreshold', missingData: 'notBreaching' }
      : alarm;
  return {
    AlarmName: `\${self:service}-\${sls:stage}-${alarm.name}`,
    AlarmDescription: alarm.description,
    ...watched(alarm),
    Statistic: rule.statistic,
    Period: rule.period,
    EvaluationPeriods: rule.evaluationPeriods,
    ...(rule.datapointsToAlarm === undefined ? {} : { DatapointsToAlarm: rule.datapointsToAlarm }),
    Threshold: rule.threshold,
    ComparisonOperator: rule.comparison,
    TreatMissingData: rule.missingData,
    AlarmActions: [ALARM_TOPIC],
    ...(rule.notifyOk === false ? {} : { OKActions: [ALARM_TOPIC] }),
  };
}

/** The `{ Conditions, Resources }` part of serverless.yml's `resources` that holds every alarm. */
export function alarmResources(): { Conditions: Record<string, unknown>; Resources: Record<string, unknown> } {
  return {
    // Empty (the default, and the ci and local stages): no alarms.
    Conditions: { AlarmsEnabled: { 'Fn::Not': [{ 'Fn::Equals': [ALARM_TOPIC, ''] }] } },
    Resources: Object.fromEntries(
      alarms.map((alarm) => [
        logicalIdOf(alarm),
        {
          Type: 'AWS::CloudWatch::Alarm',
          Condition: 'AlarmsEnabled',
          // Without an alarm topic the ARN param is empty; the alarm is then never created.
          Metadata: { 'cfn-lint': { config: { ignore_checks: ['E3033'] } } },
          Properties: propertiesOf(alarm),
        },
      ]),
    ),
  };
}
