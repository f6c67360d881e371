import * as v from 'valibot';

/** The one error body (PRODUCT.md): every non-2xx response has this shape. */
export const ErrorBodySchema = v.object({
  status: v.pipe(v.number(), v.integer()),
  error: v.string(),
  message: v.string(),
  path: v.string(),
  timestamp: v.pipe(v.string(), v.isoTimestamp()),
  code: v.pipe(v.string(), v.regex(/^[A-Z][A-Z0-9_]*$/)),
  param: v.optional(v.string()),
});

export const DateTimeSchema = v.pipe(v.string(), v.isoTimestamp());

/** Query strings arrive as text: a page size is a whole number from 1 to `max`, refused (never clamped) outside. */
export const pageSizeParam = (max: number, description: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,4}$/, 'size must be a whole number.'),
      v.transform(Number),
      v.minValue(1, 'size must be at least 1.'),
      v.maxValue(max, `size must be at most ${max}.`),
      v.description(description),
    ),
  );

/** Responses every authenticated route may give, added to each route's own. */
export const AUTHENTICATED_ERRORS = {
  400: { description: 'Validation failure; `param` names the offending parameter.', schema: ErrorBodySchema },
  401: { description: 'Missing, malformed, revoked or unknown key, or distribution access disabled.', schema: ErrorBodySchema },
  429: { description: 'Rate limit exhausted for this credential; wait `Retry-After` seconds.', schema: ErrorBodySchema },
} as const;
