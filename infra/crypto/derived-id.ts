import { createHash } from 'node:crypto';

/**
 * A UUID fixed by a name (RFC 9562 version 8, from SHA-256): the same outcome of the same
 * booking always gets the same event id and the same refund entry id, so a workflow step
 * that runs twice writes one record.
 */
export function derivedId(name: string): string {
  const bytes = createHash('sha256').update(`pds-derived-id\u0000${name}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
