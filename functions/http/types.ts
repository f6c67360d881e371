import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Principal } from '../../domain/principal.ts';
import type { RateDecision } from '../../domain/rate-limit.ts';

/** What the shared stack learns about a request before the handler runs. */
export interface RequestState {
  requestId: string;
  path: string;
  method: string;
  receivedAt: Date;
  principal?: Principal;
  rate?: RateDecision;
}

export type HttpEvent = Omit<APIGatewayProxyEventV2, 'body'> & { body?: unknown; rawBody?: string };
export type HttpResult = APIGatewayProxyStructuredResultV2 & { headers: Record<string, string> };
export type HttpContext = Context & { state: RequestState };

/** What a handler returns: a status and a JSON-serialisable body, never a raw Lambda result. */
export interface Reply {
  readonly status: number;
  /** JSON-serialisable; ignored when a document is sent. */
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** A document instead of JSON: text as written (the rendered reference), bytes base64 on the wire (an invoice PDF). */
  readonly document?: { readonly contentType: string; readonly content: string | Uint8Array };
}
