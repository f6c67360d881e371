import type { SQSRecord } from 'aws-lambda';
import { concurrentRecords } from './sqs-batch.ts';
import { systemOrigin } from '../../domain/audit/audit-event.ts';
import { flagAddress, type FinanceContactDeps } from '../../domain/mail/finance-contacts.ts';
import { readSesEvent } from '../../domain/mail/mail-events.ts';
import type { Metrics } from '../../domain/ports/metrics.ts';
import { services, type Services, wire } from '../../infra/compose/core.ts';
import { logger } from '../../infra/logger.ts';
import { mailAdapters } from '../../infra/compose/adapters/mail.ts';

// The adapters this function uses beyond the core's (infra/compose/core.ts, wire; `npm run check:wiring` holds it to what its code reads).
wire(mailAdapters);

type MailEventDeps = FinanceContactDeps & { readonly metrics: Metrics };

/**
 * SQS consumer of the SES events queue (docs/e-mail.md "Bounces and complaints"): the stage's
 * configuration set publishes Bounce and Complaint events to an SNS topic whose subscription
 * delivers each event's JSON as the message body (raw message delivery). A Permanent bounce or a
 * complaint flags the finance contacts at the address in every group; anything else is nothing to
 * do. A message that is not an SES event fails and, after its retries, reaches the dead-letter queue.
 * Only ids and counts reach the log, never an address.
 */
async function handleRecord(deps: MailEventDeps, record: SQSRecord): Promise<void> {
  const report = readSesEvent(JSON.parse(record.body) as unknown);
  if (!report) return;
  let flagged = 0;
  for (const r of report.recipients)
    flagged += await flagAddress(
      deps,
      { email: r.email, kind: report.kind, at: report.at, diagnostic: r.diagnostic },
      systemOrigin('mailEvents', record.messageId),
    );
  // Counted per contact flagged now: a repeated event counts nothing, so the alarm is one per new problem.
  if (flagged > 0) deps.metrics.count(report.kind === 'BOUNCED' ? 'MailBounced' : 'MailComplained', flagged);
  logger.info('SES event handled', { messageId: record.messageId, kind: report.kind, recipients: report.recipients.length, flagged });
}

const workerDeps = (svc: Services): MailEventDeps => ({ financeContacts: svc.financeContacts, clock: svc.clock, ids: svc.ids, metrics: svc.metrics });

export const handler = concurrentRecords('SES event', () => workerDeps(services()), handleRecord);
