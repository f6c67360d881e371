import type { AuditDraft, AuditFields, AuditOrigin } from '../audit/audit-event.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import type { PartnerPrincipal } from '../principal.ts';
import type { Clock } from '../ports/clock.ts';
import type { IdGenerator } from '../ports/ids.ts';
import type { SecretSealer } from '../ports/key-minter.ts';
import type { UrlGuard } from '../ports/url-guard.ts';
import type { WebhookStore } from '../ports/webhook-store.ts';
import {
  MAX_ATTEMPTS,
  MAX_ENDPOINTS_PER_PARTNER,
  TIMEOUT_SECONDS,
  validateAuth,
  validateHeaders,
  viewOf,
  type AuthType,
  type EndpointStatus,
  type WebhookEndpoint,
  type WebhookEndpointView,
} from './endpoint.ts';
import type { CatalogueEventType } from './event-types.ts';

export interface WebhookDeps {
  readonly webhooks: WebhookStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly sealer: SecretSealer;
  readonly urlGuard: UrlGuard;
}

/** Fields a partner may set. On update, `undefined` keeps the stored value; `null` clears a secret or the event filter. */
export interface EndpointFields {
  readonly url?: string;
  readonly description?: string | null;
  readonly authType?: AuthType;
  readonly authSecret?: string | null;
  readonly signingSecret?: string | null;
  readonly eventTypes?: readonly CatalogueEventType[] | null;
  readonly headers?: Readonly<Record<string, string>>;
  readonly maxAttempts?: number;
  readonly timeoutSeconds?: number;
  readonly status?: EndpointStatus;
}

/** The sealing context binds a ciphertext to its endpoint and purpose, so it cannot be moved. */
export const secretContext = (endpointId: string, purpose: 'auth' | 'signing'): string => `webhook:${endpointId}:${purpose}`;

const sealOrKeep = (deps: WebhookDeps, id: string, purpose: 'auth' | 'signing', given: string | null | undefined, stored: string | null): string | null =>
  given === undefined ? stored : given === null ? null : deps.sealer.seal(given, secretContext(id, purpose));

function checkSecrets(fields: EndpointFields): void {
  if (typeof fields.signingSecret === 'string' && (fields.signingSecret.length < 16 || fields.signingSecret.length > 256)) {
    throw new ValidationError('signingSecret', 'signingSecret must be 16–256 characters.');
  }
  if (typeof fields.authSecret === 'string' && (fields.authSecret.length < 1 || fields.authSecret.length > 512)) {
    throw new ValidationError('authSecret', 'authSecret must be 1–512 characters.');
  }
}

function checkNumbers(fields: EndpointFields): void {
  const { maxAttempts, timeoutSeconds } = fields;
  if (maxAttempts !== undefined && (!Number.isInteger(maxAttempts) || maxAttempts < MAX_ATTEMPTS.min || maxAttempts > MAX_ATTEMPTS.max)) {
    throw new ValidationError('maxAttempts', `maxAttempts must be an integer from ${MAX_ATTEMPTS.min} to ${MAX_ATTEMPTS.max}.`);
  }
  if (timeoutSeconds !== undefined && (!Number.isInteger(timeoutSeconds) || timeoutSeconds < TIMEOUT_SECONDS.min || timeoutSeconds > TIMEOUT_SECONDS.max)) {
    throw new ValidationError('timeoutSeconds', `timeoutSeconds must be an integer from ${TIMEOUT_SECONDS.min} to ${TIMEOUT_SECONDS.max}.`);
  }
}

/**
 * An endpoint as the audit trail records it: where and how it delivers; header names only
 * (values may be credentials), secrets as set or not. The secrets' states are named
 * `…SecretState`: the trail drops any field named like a secret (`signingSecret`), whatever it holds.
 */
const endpointFigures = (e: WebhookEndpoint): AuditFields => ({
  url: e.url,
  status: e.status,
  authType: e.authType,
  authSecretState: e.authSecretSealed ? 'set' : 'none',
  signingSecretState: e.signingSecretSealed ? 'set' : 'none',
  eventTypes: e.eventTypes ? [...e.eventTypes] : null,
  headerNames: Object.keys(e.headers).sort(),
  maxAttempts: e.maxAttempts,
  timeoutSeconds: e.timeoutSeconds,
});

/** A new secret given is a rotation even when one was set before, so it shows as a change. */
const secretState = (given: string | null | undefined, figures: AuditFields, field: 'authSecretState' | 'signingSecretState') =>
  typeof given === 'string' ? 'rotated' : (figures[field] ?? 'none');

function endpointAudit(
  deps: Pick<WebhookDeps, 'ids' | 'clock'>,
  origin: AuditOrigin,
  action: string,
  partnerId: string,
  id: string,
  before: AuditFields | null,
  after: AuditFields | null,
): AuditDraft {
  return {
    id: deps.ids.uuid(),
    at: deps.clock.now().toISOString(),
    origin,
    action,
    target: `webhook-endpoint:${id}`,
    account: `partner:${partnerId}`,
    before,
    after,
  };
}

export async function listEndpoints(deps: Pick<WebhookDeps, 'webhooks'>, partner: PartnerPrincipal): Promise<WebhookEndpointView[]> {
  const all = await deps.webhooks.list(partner.partnerId);
  return all.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)).map(viewOf);
}

export async function getEndpoint(deps: Pick<WebhookDeps, 'webhooks'>, partner: PartnerPrincipal, id: string): Promise<WebhookEndpointView> {
  const found = await deps.webhooks.get(partner.partnerId, id);
  if (!found) throw new NotFoundError('Webhook endpoint');
  return viewOf(found);
}

export async function createEndpoint(
  deps: WebhookDeps,
  partner: PartnerPrincipal,
  fields: EndpointFields & { url: string },
  origin: AuditOrigin,
): Promise<WebhookEndpointView> {
  const authType = fields.authType ?? 'None';
  checkSecrets(fields);
  checkNumbers(fields);
  validateHeaders(fields.headers ?? {});
  validateAuth(authType, Boolean(fields.authSecret), Boolean(fields.signingSecret), fields.authSecret);
  await deps.urlGuard.assertAllowed('url', fields.url);
  const id = deps.ids.uuid();
  const now = deps.clock.now().toISOString();
  const endpoint: WebhookEndpoint = {
    id,
    partnerId: partner.partnerId,
    channelId: partner.channelId,
    url: fields.url,
    description: fields.description ?? null,
    authType,
    authSecretSealed: sealOrKeep(deps, id, 'auth', fields.authSecret, null),
    signingSecretSealed: sealOrKeep(deps, id, 'signing', fields.signingSecret, null),
    eventTypes: fields.eventTypes ? [...new Set(fields.eventTypes)] : null,
    headers: fields.headers ?? {},
    maxAttempts: fields.maxAttempts ?? MAX_ATTEMPTS.default,
    timeoutSeconds: fields.timeoutSeconds ?? TIMEOUT_SECONDS.default,
    status: fields.status ?? 'ACTIVE',
    createdAt: now,
    updatedAt: now,
  };
  await deps.webhooks.create(
    endpoint,
    MAX_ENDPOINTS_PER_PARTNER,
    endpointAudit(deps, origin, 'webhook-endpoint.created', partner.partnerId, id, null, endpointFigures(endpoint)),
  );
  return viewOf(endpoint);
}

/**
 * PUT merges: omitted fields keep their value (so other fields change without re-sending
 * secrets), a new secret rotates it, `null` clears it. Changing authType to Basic or
 * Bearer needs the new authSecret in the same request, since the old one was for
 * another scheme.
 */
export async function updateEndpoint(
  deps: WebhookDeps,
  partner: PartnerPrincipal,
  id: string,
  fields: EndpointFields,
  origin: AuditOrigin,
): Promise<WebhookEndpointView> {
  const stored = await deps.webhooks.get(partner.partnerId, id);
  if (!stored) throw new NotFoundError('Webhook endpoint');
  checkSecrets(fields);
  checkNumbers(fields);
  if (fields.headers !== undefined) validateHeaders(fields.headers);
  const authType = fields.authType ?? stored.authType;
  const schemeChanged = authType !== stored.authType;
  if (schemeChanged && (authType === 'Basic' || authType === 'Bearer') && !fields.authSecret) {
    throw new ValidationError('authSecret', `authSecret is required when changing authType to ${authType}.`);
  }
  // Moving to a scheme without an auth secret drops the old one rather than keeping a credential nobody uses.
  const authSecretGiven = schemeChanged && (authType === 'None' || authType === 'HMAC') && fields.authSecret === undefined ? null : fields.authSecret;
  const hasAuth = authSecretGiven === undefined ? stored.authSecretSealed !== null : authSecretGiven !== null;
  const hasSigning = fields.signingSecret === undefined ? stored.signingSecretSealed !== null : fields.signingSecret !== null;
  validateAuth(authType, hasAuth, hasSigning, authSecretGiven);
  if (fields.url !== undefined && fields.url !== stored.url) await deps.urlGuard.assertAllowed('url', fields.url);
  const updated: WebhookEndpoint = {
    ...stored,
    url: fields.url ?? stored.url,
    description: fields.description === undefined ? stored.description : fields.description,
    authType,
    authSecretSealed: sealOrKeep(deps, id, 'auth', authSecretGiven, stored.authSecretSealed),
    signingSecretSealed: sealOrKeep(deps, id, 'signing', fields.signingSecret, stored.signingSecretSealed),
    eventTypes: fields.eventTypes === undefined ? stored.eventTypes : fields.eventTypes === null ? null : [...new Set(fields.eventTypes)],
    headers: fields.headers ?? stored.headers,
    maxAttempts: fields.maxAttempts ?? stored.maxAttempts,
    timeoutSeconds: fields.timeoutSeconds ?? stored.timeoutSeconds,
    status: fields.status ?? stored.status,
    updatedAt: deps.clock.now().toISOString(),
  };
  const after = endpointFigures(updated);
  const audit = endpointAudit(deps, origin, 'webhook-endpoint.updated', partner.partnerId, id, endpointFigures(stored), {
    ...after,
    authSecretState: secretState(authSecretGiven, after, 'authSecretState'),
    signingSecretState: secretState(fields.signingSecret, after, 'signingSecretState'),
  });
  await deps.webhooks.replace(updated, stored.updatedAt, audit);
  return viewOf(updated);
}

export async function deleteEndpoint(
  deps: Pick<WebhookDeps, 'webhooks' | 'ids' | 'clock'>,
  partner: PartnerPrincipal,
  id: string,
  origin: AuditOrigin,
): Promise<void> {
  const stored = await deps.webhooks.get(partner.partnerId, id);
  if (!stored) throw new NotFoundError('Webhook endpoint');
  if (
    !(await deps.webhooks.delete(
      partner.partnerId,
      id,
      endpointAudit(deps, origin, 'webhook-endpoint.deleted', partner.partnerId, id, endpointFigures(stored), null),
    ))
  )
    throw new NotFoundError('Webhook endpoint');
}
