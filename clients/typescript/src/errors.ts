import type { paths } from './generated/openapi.ts';

/** The one error body every non-2xx answer has (`status`, `error`, `message`, `path`, `timestamp`, `code`, `param`). */
export type ErrorBody = paths['/v1/ping']['get']['responses'][400]['content']['application/json'];

/**
 * The service's stable machine-readable codes (docs/openapi.json, "Errors"). A code the service
 * adds later still arrives as a string, in a plain PartnerApiError of its status family.
 */
export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'MALFORMED_JSON'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'UNAUTHORIZED'
  | 'CREDIT_DENIED'
  | 'NOT_FOUND'
  | 'ROUTE_NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'PRICE_MOVED'
  | 'SOLD_OUT'
  | 'NOT_AMENDABLE'
  | 'BOOKING_INVOICED'
  | 'CHANNEL_REFUSED'
  | 'CHANNEL_CANNOT_MODIFY'
  | 'AMENDMENT_CONFLICT'
  | 'AMENDMENT_FAILED'
  | 'URI_TOO_LONG'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'SERVICE_UNAVAILABLE';

/**
 * A non-2xx answer. `code` is the service's stable machine-readable code (`VALIDATION_FAILED`,
 * `PRICE_MOVED`, …) and `param` names the offending parameter of a 400. Refusals that carry
 * more (a 402's `shortfall`, a 409's `expectedTotal`) keep every field in `body`. The
 * subclasses below let a caller catch one kind of refusal with `instanceof`.
 */
export class PartnerApiError extends Error {
  override readonly name: string = 'PartnerApiError';
  readonly status: number;
  /** The service's code, or `HTTP_<status>` when the answer was not the service's error body. */
  readonly code: ErrorCode | (string & {});
  readonly param: string | undefined;
  /** `X-Request-Id` of the answer: quote it when contacting the service's operators. */
  readonly requestId: string | undefined;
  /** The whole error body as sent, or undefined when the answer was not the service's JSON (a proxy's page). */
  readonly body: (ErrorBody & Record<string, unknown>) | undefined;
  readonly response: Response;

  constructor(response: Response, body: unknown) {
    const parsed = isErrorBody(body) ? body : undefined;
    super(
      parsed
        ? `${response.status} ${parsed.code}: ${parsed.message}`
        : `${response.status} ${response.statusText || 'HTTP error'}: not an error body of the service`,
    );
    this.status = response.status;
    this.code = parsed?.code ?? `HTTP_${response.status}`;
    this.param = parsed?.param;
    this.requestId = response.headers.get('x-request-id') ?? undefined;
    this.body = parsed;
    this.response = response;
  }
}

/** 400: `VALIDATION_FAILED` (`param` names the parameter), `MALFORMED_JSON`, `UNSUPPORTED_MEDIA_TYPE`. */
export class ValidationError extends PartnerApiError {
  override readonly name: string = 'ValidationError';
}
/** 401: no key, an unknown or revoked key, or a key of the other kind for the route. */
export class AuthenticationError extends PartnerApiError {
  override readonly name: string = 'AuthenticationError';
}
/** 402 `CREDIT_DENIED`: the booking would pass the group's credit limit; `body.shortfall` says by how much. */
export class CreditDeniedError extends PartnerApiError {
  override readonly name: string = 'CreditDeniedError';
}
/** 404: missing, or another tenant's (the service does not tell them apart). */
export class NotFoundError extends PartnerApiError {
  override readonly name: string = 'NotFoundError';
}
/** 409: the request conflicts with the resource's state (`NOT_AMENDABLE`, `BOOKING_INVOICED`, `CHANNEL_REFUSED`, …). */
export class ConflictError extends PartnerApiError {
  override readonly name: string = 'ConflictError';
}
/** 409 `PRICE_MOVED`: book again with `acceptedTotal: expectedTotal` if the new total suits you. */
export class PriceMovedError extends ConflictError {
  override readonly name: string = 'PriceMovedError';
  /** The total the service would book at now. */
  get expectedTotal(): number | undefined {
    const total = this.body?.expectedTotal;
    return typeof total === 'number' ? total : undefined;
  }
}
/** 409 `SOLD_OUT`: a night of the stay cannot be sold. */
export class SoldOutError extends ConflictError {
  override readonly name: string = 'SoldOutError';
}
/** 429 `RATE_LIMITED`, once the client's retries are spent or `Retry-After` is longer than it waits. */
export class RateLimitedError extends PartnerApiError {
  override readonly name: string = 'RateLimitedError';
  get retryAfterSeconds(): number | undefined {
    const value = this.response.headers.get('retry-after');
    return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
  }
}
/** 503 `SERVICE_UNAVAILABLE`: storage could not be reached; send the same request again later. */
export class ServiceUnavailableError extends PartnerApiError {
  override readonly name: string = 'ServiceUnavailableError';
}

type ApiErrorClass = new (response: Response, body: unknown) => PartnerApiError;

const BY_CODE: Readonly<Record<string, ApiErrorClass>> = { PRICE_MOVED: PriceMovedError, SOLD_OUT: SoldOutError };
const BY_STATUS: Readonly<Record<number, ApiErrorClass>> = {
  400: ValidationError,
  401: AuthenticationError,
  402: CreditDeniedError,
  404: NotFoundError,
  409: ConflictError,
  429: RateLimitedError,
  503: ServiceUnavailableError,
};

/** The most specific error class for an answer: by the service's code first, then by the status. */
export function apiError(response: Response, body: unknown): PartnerApiError {
  const code = isErrorBody(body) ? body.code : undefined;
  const Class = (code !== undefined ? BY_CODE[code] : undefined) ?? BY_STATUS[response.status] ?? PartnerApiError;
  return new Class(response, body);
}

/**
 * No answer at all: the connection was refused or dropped, or no answer came within `timeoutMs`,
 * after every retry the policy allowed. `cause` is what fetch threw.
 */
export class PartnerConnectionError extends Error {
  override readonly name: string = 'PartnerConnectionError';
  constructor(
    readonly method: string,
    readonly url: string,
    cause: unknown,
    message = `${method} ${url}: no answer (${describe(cause)})`,
  ) {
    super(message, { cause });
  }
}

/** No answer (headers and body) within `timeoutMs`; the request may or may not have been applied. */
export class PartnerTimeoutError extends PartnerConnectionError {
  override readonly name: string = 'PartnerTimeoutError';
  constructor(
    method: string,
    url: string,
    readonly timeoutMs: number,
    cause: unknown,
  ) {
    super(method, url, cause, `${method} ${url}: no answer within ${timeoutMs} ms`);
  }
}

/** fetch throws `TypeError: fetch failed` and puts the reason (`ECONNREFUSED`, `bad port`, …) in its cause. */
function describe(cause: unknown): string {
  const reason = (cause as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (typeof reason?.code === 'string') return reason.code;
  if (typeof reason?.message === 'string') return reason.message;
  return cause instanceof Error ? cause.message : String(cause);
}

function isErrorBody(body: unknown): body is ErrorBody & Record<string, unknown> {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b.code === 'string' && typeof b.message === 'string' && typeof b.status === 'number';
}
