import { Logger } from '@aws-lambda-powertools/logger';

/**
 * Attribute names that hold a guest's personal data anywhere in the service (docs/personal-data.md):
 * the booking's guest records and their fields, the special requests a guest wrote, and the
 * Channex push body's customer and room guests (`name`/`surname`/`mail`). A value under one of
 * these keys is never written to a log line, at whatever depth it sits.
 */
export const GUEST_LOG_KEYS: ReadonlySet<string> = new Set([
  'primaryGuest',
  'additionalGuests',
  'guests',
  'guest',
  'customer',
  'firstName',
  'lastName',
  'surname',
  'email',
  'mail',
  'phone',
  'dob',
  'anniversary',
  'specialRequests',
]);

export const REDACTED = '[redacted]';

/** Anything shaped like an e-mail address inside free text (an error message quoting a body). */
const EMAIL_IN_TEXT = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[A-Za-z]{2,}/g;

/**
 * The logger's JSON replacer: guest keys lose their value, and e-mail addresses inside any
 * string are masked. Key-based on purpose: a phone number or a name cannot be told from an
 * id or a code by its shape, so those are kept out by the attribute they travel under.
 */
export function redactGuestData(key: string, value: unknown): unknown {
  if (GUEST_LOG_KEYS.has(key) && value !== null && value !== undefined) return REDACTED;
  if (typeof value === 'string' && value.includes('@')) return value.replace(EMAIL_IN_TEXT, REDACTED);
  return value;
}

/**
 * Structured JSON logs. The HTTP stack appends `requestId` to every line of a request and
 * resets it afterwards. Nothing secret is ever passed to the logger: keys, secrets and
 * Authorization headers stay out of log calls by construction; a guest's personal data is
 * redacted by the replacer even when a caller passes it. The level comes from `LOG_LEVEL`
 * (listed in .env.example), which Powertools reads itself.
 */
export const logger = new Logger({ serviceName: 'partner-distribution', jsonReplacerFn: redactGuestData });
