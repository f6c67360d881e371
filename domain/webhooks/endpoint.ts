import { ValidationError } from '../errors.ts';
import type { CatalogueEventType } from './event-types.ts';

export const AUTH_TYPES = ['None', 'Basic', 'Bearer', 'HMAC'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];
export const ENDPOINT_STATUSES = ['ACTIVE', 'DISABLED'] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];

export const MAX_ATTEMPTS = { min: 1, max: 15, default: 8 } as const;
export const TIMEOUT_SECONDS = { min: 1, max: 30, default: 10 } as const;
export const MAX_ENDPOINTS_PER_PARTNER = 20;
export const MAX_CUSTOM_HEADERS = 10;

/**
 * Headers we set ourselves or that would let a partner subvert the request; a custom
 * header may not use these names (compared case-insensitively).
 */
export const RESERVED_HEADERS = new Set([
  'authorization',
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'host',
  'expect',
  'upgrade',
  'te',
  'trailer',
  'keep-alive',
  'proxy-authorization',
  'user-agent',
  'x-webhook-signature',
  'x-webhook-id',
  'x-webhook-attempt',
]);

/** An endpoint as stored. Secrets are sealed (infra SecretBox); only their presence leaves the service. */
export interface WebhookEndpoint {
  readonly id: string;
  readonly partnerId: string;
  readonly channelId: string;
  readonly url: string;
  readonly description: string | null;
  readonly authType: AuthType;
  readonly authSecretSealed: string | null;
  readonly signingSecretSealed: string | null;
  /** null: every event type, including ones added later. */
  readonly eventTypes: readonly CatalogueEventType[] | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly maxAttempts: number;
  readonly timeoutSeconds: number;
  readonly status: EndpointStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** What a partner sees: the record without its owner keys and secrets, with `*Configured` flags instead. */
export type WebhookEndpointView = Omit<WebhookEndpoint, 'partnerId' | 'channelId' | 'authSecretSealed' | 'signingSecretSealed'> & {
  readonly authSecretConfigured: boolean;
  readonly signingSecretConfigured: boolean;
};

export function viewOf(e: WebhookEndpoint): WebhookEndpointView {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    authType: e.authType,
    authSecretConfigured: e.authSecretSealed !== null,
    signingSecretConfigured: e.signingSecretSealed !== null,
    eventTypes: e.eventTypes,
    headers: e.headers,
    maxAttempts: e.maxAttempts,
    timeoutSeconds: e.timeoutSeconds,
    status: e.status,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/;
const HEADER_VALUE = /^[\x20-\x7e]{0,256}$/;

export function validateHeaders(headers: Readonly<Record<string, string>>): void {
  const names = Object.keys(headers);
  if (names.length > MAX_CUSTOM_HEADERS) throw new ValidationError('headers', `headers may hold at most ${MAX_CUSTOM_HEADERS} entries.`);
  const seen = new Set<string>();
  for (const name of names) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) throw new ValidationError(`headers.${name}`, `headers.${name}: not a valid HTTP header name.`);
    if (RESERVED_HEADERS.has(lower))
      throw new ValidationError(`headers.${name}`, `headers.${name}: this header is set by the service and cannot be overridden.`);
    if (seen.has(lower)) throw new ValidationError(`headers.${name}`, `headers.${name}: given twice (header names are case-insensitive).`);
    seen.add(lower);
    if (!HEADER_VALUE.test(headers[name] ?? ''))
      throw new ValidationError(`headers.${name}`, `headers.${name}: the value must be at most 256 printable ASCII characters.`);
  }
}

/** Which secret each auth type needs, checked against the secrets the endpoint will end up with. */
export function validateAuth(authType: AuthType, hasAuthSecret: boolean, hasSigningSecret: boolean, authSecret: string | null | undefined): void {
  if (authType === 'HMAC' && !hasSigningSecret) throw new ValidationError('signingSecret', 'signingSecret is required when authType is HMAC.');
  if ((authType === 'Basic' || authType === 'Bearer') && !hasAuthSecret)
    throw new ValidationError('authSecret', `authSecret is required when authType is ${authType}.`);
  if ((authType === 'None' || authType === 'HMAC') && hasAuthSecret && authSecret) {
    throw new ValidationError('authSecret', `authSecret is only used with authType Basic or Bearer.`);
  }
  if (authType === 'Basic' && authSecret) {
    const colon = authSecret.indexOf(':');
    if (colon < 1 || colon === authSecret.length - 1) throw new ValidationError('authSecret', 'authSecret for Basic must be user:password.');
  }
}
