import { receiveChanges } from '../../domain/channel-manager/receive-changes.ts';
import type { ChangesNotification } from '../../domain/channel-manager/channex.ts';
import { DomainError } from '../../domain/errors.ts';
import { sha256Hex } from '../../infra/crypto/api-keys.ts';
import { channexDeps } from '../../infra/compose/channel-manager.ts';
import { channexChangesRoute, parseChannexChanges } from '../contracts/channel-manager.ts';
import { endpoint } from '../http/endpoint.ts';
import { logger } from '../../infra/logger.ts';
import type { HttpEvent } from '../http/types.ts';

/**
 * What one function invocation can receive: Lambda's 6 MB synchronous payload (Channex
 * batches up to 10 MB; docs/channel-manager.md says how the connection keeps under it).
 */
export const MAX_CHANGES_BYTES = 6 * 1024 * 1024;

/** The warnings an operator log line carries: a 20,000-change batch can report every change; the count says how many. */
const LOGGED_WARNINGS = 50;

const rawBodyOf = (event: HttpEvent): string => {
  const body = typeof event.body === 'string' ? event.body : '';
  return event.isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
};

/** "Changes API": checked, recorded and queued; the answer is `{"success": true, "unique_id": …}`. */
export const handler = endpoint(channexChangesRoute, async ({ event, services }) => {
  const raw = rawBodyOf(event);
  if (Buffer.byteLength(raw, 'utf8') > MAX_CHANGES_BYTES)
    throw new DomainError('PAYLOAD_TOO_LARGE', `The body is over ${MAX_CHANGES_BYTES} bytes; send the changes in smaller batches.`, { param: 'body' });
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new DomainError('MALFORMED_JSON', 'The request body is not valid JSON.', { param: 'body' });
  }
  const body = parseChannexChanges(parsed);
  const ack = await receiveChanges({ ...channexDeps(services), sha256: sha256Hex }, body.data as ChangesNotification[], raw);
  if (ack.warnings) {
    // Channex reads only success and unique_id: what was not applied as sent is for operators too.
    logger.warn('Channex changes not applied as sent', {
      uniqueId: ack.unique_id,
      hotelCodes: [...new Set(body.data.map((n) => n.attributes.hotel_code))],
      count: ack.warnings.length,
      warnings: ack.warnings.slice(0, LOGGED_WARNINGS),
    });
  }
  return { status: 200, body: ack };
});
