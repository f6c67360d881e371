import { ValidationError } from '../errors.ts';
import type { AddressProblem } from './finance-contacts.ts';

/**
 * An SES event as published through a configuration set's event destination ("Contents of event
 * data that Amazon SES publishes to Amazon SNS",
 * https://docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-sns-contents.html):
 * `eventType` names the event; a `Bounce` carries `bounce.bounceType` (Permanent, Transient or
 * Undetermined) and `bounce.bouncedRecipients[].emailAddress` / `diagnosticCode`; a `Complaint`
 * carries `complaint.complainedRecipients[].emailAddress`. Both carry a `timestamp`.
 *
 * Only a Permanent bounce and a complaint say the address must not be written to again; a
 * Transient or Undetermined bounce (a full mailbox, a server down) and every other event type are
 * read as nothing to do. SES may add fields, so unknown ones are ignored.
 */
export interface AddressReport {
  readonly kind: AddressProblem;
  readonly at: string;
  readonly recipients: readonly { readonly email: string; readonly diagnostic: string | null }[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function recipients(list: unknown, field: string): { email: string; diagnostic: string | null }[] {
  if (!Array.isArray(list) || list.length === 0) throw new ValidationError(field, `${field} must be a non-empty array.`);
  return list.map((r, i) => {
    if (!isObject(r) || typeof r.emailAddress !== 'string' || r.emailAddress.trim() === '')
      throw new ValidationError(`${field}[${i}].emailAddress`, 'each recipient must carry its emailAddress.');
    return { email: r.emailAddress.trim().toLowerCase(), diagnostic: typeof r.diagnosticCode === 'string' ? r.diagnosticCode : null };
  });
}

function timestamp(v: unknown, field: string): string {
  if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) throw new ValidationError(field, `${field} must be an ISO 8601 time.`);
  return new Date(v).toISOString();
}

/** The report an SES event makes about its recipients' addresses, or null when it asks for nothing; a Bounce or Complaint without its documented fields is refused. */
export function readSesEvent(event: unknown): AddressReport | null {
  if (!isObject(event) || typeof event.eventType !== 'string') throw new ValidationError('eventType', 'An SES event names its eventType.');
  if (event.eventType === 'Bounce') {
    const b = event.bounce;
    if (!isObject(b)) throw new ValidationError('bounce', 'A Bounce event carries its bounce object.');
    if (b.bounceType !== 'Permanent') return null;
    return { kind: 'BOUNCED', at: timestamp(b.timestamp, 'bounce.timestamp'), recipients: recipients(b.bouncedRecipients, 'bounce.bouncedRecipients') };
  }
  if (event.eventType === 'Complaint') {
    const c = event.complaint;
    if (!isObject(c)) throw new ValidationError('complaint', 'A Complaint event carries its complaint object.');
    const found = recipients(c.complainedRecipients, 'complaint.complainedRecipients');
    const diagnostic = typeof c.complaintFeedbackType === 'string' ? `complaint: ${c.complaintFeedbackType}` : 'complaint';
    return { kind: 'COMPLAINED', at: timestamp(c.timestamp, 'complaint.timestamp'), recipients: found.map((r) => ({ ...r, diagnostic })) };
  }
  return null;
}
