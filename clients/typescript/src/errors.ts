import type { paths } from './generated/openapi.ts';

/** The one error body every non-2xx answer has (`status`, `error`, `message`, `path`, `timestamp`, `code`, `param`). */
export type ErrorBody = paths['/v1/ping']['get']['responses'][400]['content']['application/json'];

/**
 * A non-2xx answer. `code` is the service's stable machine-readable code (`VALIDATION_FAILED`,
 * `PRICE_MOVED`, …) and `param` names the offending parameter of a 400. Refusals that carry
 * more (a 402's `shortfall`, a 409's `expectedTotal`) keep every field in `body`.
 */
export class PartnerApiError extends Error {
  override readonly name = 'PartnerApiError';
  readonly status: number;
  readonly code: string;
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

function isErrorBody(body: unknown): body is ErrorBody & Record<string, unknown> {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b.code === 'string' && typeof b.message === 'string' && typeof b.status === 'number';
}
