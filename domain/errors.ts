/**
 * The one error base of the service. Every refusal the domain or an adapter makes is a
 * DomainError with a stable `code`; functions/http/error-status.ts maps codes to HTTP
 * statuses in one table, so renaming a class can never turn a 400 into a 500.
 */
export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'MALFORMED_JSON'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'UNAUTHORIZED'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'RATE_LIMITED'
  | 'CONFLICT'
  | 'PRICE_MOVED'
  | 'SOLD_OUT'
  | 'CREDIT_DENIED'
  | 'NOT_AMENDABLE'
  | 'BOOKING_INVOICED'
  | 'CHANNEL_REFUSED'
  | 'CHANNEL_CANNOT_MODIFY'
  | 'AMENDMENT_CONFLICT'
  | 'AMENDMENT_FAILED'
  | 'ROUTE_NOT_FOUND'
  | 'URI_TOO_LONG'
  | 'PAYLOAD_TOO_LARGE'
  | 'SERVICE_UNAVAILABLE';

export class DomainError extends Error {
  override readonly name: string = 'DomainError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra body fields the contract names for this refusal (param, shortfall, …). */
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

/** A request value broke a rule; `param` names it (dotted path for nested body fields). */
export class ValidationError extends DomainError {
  override readonly name = 'ValidationError';
  constructor(
    readonly param: string,
    message: string,
  ) {
    super('VALIDATION_FAILED', message, { param });
  }
}

/**
 * The addressed resource does not exist for this tenant. The message never carries the
 * id or the reason, so another tenant's resource reads exactly like a missing one.
 */
export class NotFoundError extends DomainError {
  override readonly name = 'NotFoundError';
  constructor(resource: string) {
    super('NOT_FOUND', `${resource} not found.`);
  }
}

export class UnauthorizedError extends DomainError {
  override readonly name = 'UnauthorizedError';
  constructor(message = 'A valid API key is required: HTTP Basic with the key as username and an empty password.') {
    // One message for every cause a caller could probe with, so it cannot learn which keys exist or are revoked.
    super('UNAUTHORIZED', message);
  }
}

/**
 * A live key presented on the other surface. Only the key's holder can send it, so naming the
 * kind the route needs tells them nothing they do not hold already, and saves a support ticket.
 */
export function wrongKeyKind(needed: 'partner' | 'agent-group'): UnauthorizedError {
  return needed === 'partner'
    ? new UnauthorizedError('This route needs a partner key (the /api surface); the key sent is an agent-group key, which opens /v1 only.')
    : new UnauthorizedError('This route needs an agent-group key (the /v1 surface); the key sent is a partner key, which opens /api only.');
}

/**
 * A payment gateway's notification whose signature is missing or does not match its body:
 * a 400 naming the header (Razorpay's "Validate webhook signature" treats it as a bad
 * request, and the route takes no API key, so a 401's key message would mislead).
 */
export class NotificationSignatureError extends ValidationError {
  constructor() {
    super('X-Razorpay-Signature', 'The notification must carry a valid X-Razorpay-Signature of its raw body.');
  }
}

export class RateLimitedError extends DomainError {
  override readonly name = 'RateLimitedError';
  constructor(readonly retryAfterSeconds: number) {
    super('RATE_LIMITED', `Rate limit exhausted for this credential; retry after ${retryAfterSeconds} s.`);
  }
}

export class ConflictError extends DomainError {
  override readonly name = 'ConflictError';
}

/**
 * A store or queue the request needs could not be reached in time. Nothing is promised
 * about the request's effect beyond what its own idempotency gives: the caller retries the
 * same request after `retryAfterSeconds`.
 */
export class ServiceUnavailableError extends DomainError {
  override readonly name: string = 'ServiceUnavailableError';
  constructor(
    readonly retryAfterSeconds: number,
    message = `The service cannot reach its storage right now; retry the same request after ${retryAfterSeconds} s.`,
  ) {
    super('SERVICE_UNAVAILABLE', message);
  }
}

/**
 * The service's own set-up cannot price a stay: no GST slab table is in force on one of its
 * nights (an operator loads them with the world file). Not the partner's fault and not theirs
 * to fix, so a 503 to retry later, and an error in the log for the operator.
 */
export class PricingNotConfiguredError extends ServiceUnavailableError {
  override readonly name = 'PricingNotConfiguredError';
  constructor(readonly night: string) {
    super(3600, `No GST rate is set up for ${night}, so the stay cannot be priced yet; retry later.`);
  }
}
