import * as v from 'valibot';
import { INSTANT_RULE, isInstant } from '../../domain/reads/date-window.ts';

/** The one error body (docs/product-rules.md "Errors"): every non-2xx response has this shape. */
export const ErrorBodySchema = v.object({
  status: v.pipe(v.number(), v.integer(), v.description('The HTTP status of this answer, repeated in the body.')),
  error: v.pipe(v.string(), v.description('The HTTP reason phrase of `status`, such as `Bad Request`.')),
  message: v.pipe(
    v.string(),
    v.description('What went wrong, for a person to read; for a `400` it names the offending parameter. Never parse it: match on `code`.'),
  ),
  path: v.pipe(v.string(), v.description('The path of the request that was refused.')),
  timestamp: v.pipe(v.string(), v.isoTimestamp(), v.description('When the answer was made (UTC).')),
  code: v.pipe(
    v.string(),
    v.regex(/^[A-Z][A-Z0-9_]*$/),
    v.description('What went wrong, stable and machine-readable (UPPER_SNAKE); match on it, never on `message`.'),
  ),
  param: v.optional(
    v.pipe(
      v.string(),
      v.description('On validation failures: the offending parameter, a dotted path for nested body fields (`meals[0].dates`), or the header name.'),
    ),
  ),
});

export const DateTimeSchema = v.pipe(v.string(), v.isoTimestamp());

/** A date-time a caller gives: ISO 8601 with its offset, a real calendar date (no 31 February), within the horizon (docs/product-rules.md). */
export const instantSchema = (name: string) => {
  const message = `${name} must be ${INSTANT_RULE}.`;
  return v.pipe(v.string(message), v.isoTimestamp(message), v.check(isInstant, message));
};

/** `{data}`: every item at once, `data` described by what it holds and in what order. */
export const listOf = <S extends v.GenericSchema>(item: S, description: string) => v.object({ data: v.pipe(v.array(item), v.description(description)) });

/** `{data, nextCursor}`: one page of a cursor-paged read. */
export const cursorPageOf = <S extends v.GenericSchema>(item: S, description: string) =>
  v.object({
    data: v.pipe(v.array(item), v.description(description)),
    nextCursor: v.pipe(v.nullable(v.string()), v.description('Pass as cursor for the next page, unchanged; null on the last page.')),
  });

/** Responses every authenticated route may give, added to each route's own. */
export const AUTHENTICATED_ERRORS = {
  400: { description: 'Validation failure; `param` names the offending parameter.', schema: ErrorBodySchema },
  401: { description: 'Missing, malformed, revoked or unknown key, or distribution access disabled.', schema: ErrorBodySchema },
  414: {
    description: 'Code `URI_TOO_LONG`: the path and query string together exceed 8,192 characters. Refused before the key is checked.',
    schema: ErrorBodySchema,
  },
  429: { description: 'Rate limit exhausted for this credential; wait `Retry-After` seconds.', schema: ErrorBodySchema },
  503: {
    description:
      'Code `SERVICE_UNAVAILABLE`: storage could not be reached in time. Retry the same request (same idempotency key where the route has one) after `Retry-After` seconds.',
    schema: ErrorBodySchema,
  },
} as const;

/**
 * Query `size` of a cursor-paged read: text holding a whole number from 1 to `max`, refused
 * (never clamped) outside. Callers wrap it in v.optional, with their default if they have one.
 */
export const pageSizeParam = (max: number, description: string) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{1,4}$/, 'size must be a whole number.'),
    v.transform(Number),
    v.minValue(1, 'size must be at least 1.'),
    v.maxValue(max, `size must be at most ${max}.`),
    v.description(description),
  );
