import { STATUS_CODES } from 'node:http';
import type { ErrorCode } from '../../domain/errors.ts';

/** The one table from domain error codes to HTTP statuses. */
export const STATUS_OF: Readonly<Record<ErrorCode, number>> = {
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  UNSUPPORTED_MEDIA_TYPE: 400,
  UNAUTHORIZED: 401,
  CREDIT_DENIED: 402,
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PRICE_MOVED: 409,
  SOLD_OUT: 409,
  NOT_AMENDABLE: 409,
  BOOKING_INVOICED: 409,
  CHANNEL_REFUSED: 409,
  CHANNEL_CANNOT_MODIFY: 409,
  AMENDMENT_CONFLICT: 409,
  AMENDMENT_FAILED: 409,
  URI_TOO_LONG: 414,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
};

export const reasonPhrase = (status: number): string => STATUS_CODES[status] ?? 'Error';
