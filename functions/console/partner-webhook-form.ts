import { ValidationError } from '../../domain/errors.ts';
import { AUTH_TYPES, ENDPOINT_STATUSES, MAX_ATTEMPTS, MAX_CUSTOM_HEADERS, TIMEOUT_SECONDS, type WebhookEndpointView } from '../../domain/webhooks/endpoint.ts';
import type { EndpointFields } from '../../domain/webhooks/manage-endpoints.ts';
import { CATALOGUE_EVENT_TYPES } from '../../domain/webhooks/event-types.ts';
import { CreateEndpointBodySchema, UpdateEndpointBodySchema } from '../contracts/webhooks.ts';
import { parseInput } from '../http/validate.ts';
import { html, type Html } from './html.ts';

/**
 * The console's webhook endpoint form: every field the API's POST/PUT takes, read into the
 * API's own body schema (so the console refuses exactly what the API refuses) and handed to the
 * same use case. Secrets are write-only here as in the API: the form never carries one back.
 */

/** The form field a refused parameter belongs to (`headers.X-Env` → the headers box). */
export function fieldOf(param: string): string {
  const root = param.split(/[.[]/)[0] ?? param;
  // HMAC needs a signing secret, which the console only makes (rotate); the refusal belongs to the scheme chosen.
  if (root === 'signingSecret') return 'authType';
  return ['url', 'description', 'eventTypes', 'authType', 'authSecret', 'headers', 'maxAttempts', 'timeoutSeconds', 'status'].includes(root) ? root : 'form';
}

/** `Name: value` a line, as a person types them; the API's object of header name → value. */
export function parseHeaderLines(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  for (const [n, line] of lines.entries()) {
    const colon = line.indexOf(':');
    if (colon < 1) throw new ValidationError('headers', `headers: line ${n + 1} must be Name: value.`);
    const name = line.slice(0, colon).trim();
    if (Object.hasOwn(headers, name)) throw new ValidationError(`headers.${name}`, `headers.${name}: given twice.`);
    headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** A whole number as typed; anything else goes to the schema as text so its refusal names the field. */
const whole = (typed: string | null): number | string | undefined => {
  const t = typed?.trim() ?? '';
  if (t === '') return undefined;
  return /^-?\d{1,6}$/.test(t) ? Number(t) : t;
};

/**
 * The API body the form stands for. On create the console makes the signing secret (shown once);
 * on edit an empty secret box keeps the stored secret, and the headers box replaces the headers
 * (it is filled with the current ones).
 */
export function endpointBody(form: URLSearchParams, mode: 'create' | 'update'): EndpointFields & { url?: string } {
  const ticked = form.getAll('eventTypes');
  const authSecret = form.get('authSecret') ?? '';
  const raw = {
    url: form.get('url')?.trim() ?? '',
    description: form.get('description')?.trim() || null,
    eventTypes: ticked.length ? ticked : null,
    authType: form.get('authType') ?? undefined,
    ...(authSecret === '' ? {} : { authSecret }),
    headers: form.get('headers') === null ? undefined : parseHeaderLines(form.get('headers') ?? ''),
    maxAttempts: whole(form.get('maxAttempts')),
    timeoutSeconds: whole(form.get('timeoutSeconds')),
    ...(mode === 'update' && form.get('status') !== null ? { status: form.get('status') } : {}),
  };
  if (raw.url === '') throw new ValidationError('url', 'url is required.');
  const defined = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined));
  return mode === 'create' ? parseInput(CreateEndpointBodySchema, defined, 'body') : parseInput(UpdateEndpointBodySchema, defined, 'body');
}

export interface FieldError {
  readonly field: string;
  readonly message: string;
}

const LABELS: Readonly<Record<string, string>> = {
  url: 'HTTPS URL',
  description: 'Description',
  eventTypes: 'Events',
  authType: 'Authentication',
  authSecret: 'Authentication secret',
  headers: 'Custom headers',
  maxAttempts: 'Attempts per delivery',
  timeoutSeconds: 'Timeout',
  status: 'Status',
  form: 'Endpoint',
};

export const fieldError = (err: ValidationError): FieldError => ({ field: fieldOf(err.param), message: err.message });

/** The refusal at the top (naming the field, linking to it) and again beside the field, as the field's description. */
export const errorSummary = (error: FieldError | undefined, prefix: string): Html | string =>
  error
    ? html`<div class="alert" role="alert"><p>Check ${LABELS[error.field] ?? error.field}: ${error.message}</p><p><a href="#${prefix}-${error.field}">Go to ${LABELS[error.field] ?? error.field}</a></p></div>`
    : '';

function invalid(error: FieldError | undefined, prefix: string, field: string, hint?: string): { attrs: Html | string; note: Html | string } {
  const hintId = hint ? `${prefix}-${field}-hint` : '';
  if (error?.field !== field)
    return { attrs: hint ? html` aria-describedby="${hintId}"` : '', note: hint ? html`<p id="${hintId}" class="hint">${hint}</p>` : '' };
  const errorId = `${prefix}-${field}-error`;
  return {
    attrs: html` aria-invalid="true" aria-describedby="${errorId}${hint ? ` ${hintId}` : ''}"`,
    note: html`${hint ? html`<p id="${hintId}" class="hint">${hint}</p>` : ''}<p id="${errorId}" class="alert">${LABELS[field]}: ${error.message}</p>`,
  };
}

/** What the person typed on a refused form comes back in it, except a secret. */
export type Typed = Pick<URLSearchParams, 'get' | 'getAll'>;

/**
 * Every field of an endpoint. `current` fills it (edit); `typed` refills a refused form. A secret
 * box is always empty: on edit, empty keeps the stored secret.
 */
export function endpointFields(prefix: string, current: WebhookEndpointView | undefined, error?: FieldError, typed?: Typed): Html {
  const val = (name: string, stored: string) => (typed ? (typed.get(name) ?? '') : stored);
  const events = new Set(typed ? typed.getAll('eventTypes') : (current?.eventTypes ?? []));
  const authType = val('authType', current?.authType ?? 'None');
  const status = val('status', current?.status ?? 'ACTIVE');
  const headerText = val(
    'headers',
    Object.entries(current?.headers ?? {})
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
  );
  const f = (field: string, hint?: string) => invalid(error, prefix, field, hint);
  const url = f('url');
  const description = f('description');
  const eventTypes = f('eventTypes');
  const auth = f('authType');
  const secretHint = current?.authSecretConfigured
    ? 'A secret is set; it is never shown. Leave empty to keep it, or type a new one to replace it. Basic: user:password. Bearer: the token.'
    : 'Basic: user:password. Bearer: the token. Not used with None or HMAC.';
  const secret = f('authSecret', secretHint);
  const headers = f(
    'headers',
    `One Name: value a line, at most ${MAX_CUSTOM_HEADERS}; sent with every delivery and shown here, so not for secrets (use the authentication secret).`,
  );
  const attempts = f('maxAttempts', `${MAX_ATTEMPTS.min} to ${MAX_ATTEMPTS.max}; ${MAX_ATTEMPTS.default} if left empty.`);
  const timeout = f('timeoutSeconds', `${TIMEOUT_SECONDS.min} to ${TIMEOUT_SECONDS.max} seconds; ${TIMEOUT_SECONDS.default} if left empty.`);
  const state = f('status');
  return html`<label for="${prefix}-url">HTTPS URL</label><input id="${prefix}-url" name="url" type="url" value="${val('url', current?.url ?? '')}" required${url.attrs}>${url.note}
<label for="${prefix}-description">Description (optional)</label><input id="${prefix}-description" name="description" value="${val('description', current?.description ?? '')}"${description.attrs}>${description.note}
<fieldset id="${prefix}-eventTypes"${eventTypes.attrs}><legend>Events sent to it (none ticked: every event, now and future)</legend>
${CATALOGUE_EVENT_TYPES.map(
  (t, n) =>
    html`<div><input type="checkbox" id="${prefix}-event-${n}" name="eventTypes" value="${t.eventType}"${events.has(t.eventType) ? ' checked' : ''}> <label for="${prefix}-event-${n}" class="inline">${t.eventType}</label></div>`,
)}
</fieldset>${eventTypes.note}
<label for="${prefix}-authType">Authentication</label><select id="${prefix}-authType" name="authType"${auth.attrs}>${AUTH_TYPES.map(
    (t) => html`<option value="${t}"${t === authType ? ' selected' : ''}>${t === 'HMAC' ? 'HMAC (signature only)' : t}</option>`,
  )}</select>${auth.note}
<label for="${prefix}-authSecret">Authentication secret (write-only)</label><input id="${prefix}-authSecret" name="authSecret" type="password" autocomplete="off"${secret.attrs}>${secret.note}
<label for="${prefix}-headers">Custom headers</label><textarea id="${prefix}-headers" name="headers" rows="3"${headers.attrs}>${headerText}</textarea>${headers.note}
<label for="${prefix}-maxAttempts">Attempts per delivery</label><input id="${prefix}-maxAttempts" name="maxAttempts" inputmode="numeric" value="${val('maxAttempts', current ? String(current.maxAttempts) : '')}"${attempts.attrs}>${attempts.note}
<label for="${prefix}-timeoutSeconds">Timeout (seconds)</label><input id="${prefix}-timeoutSeconds" name="timeoutSeconds" inputmode="numeric" value="${val('timeoutSeconds', current ? String(current.timeoutSeconds) : '')}"${timeout.attrs}>${timeout.note}
${
  current
    ? html`<label for="${prefix}-status">Status</label><select id="${prefix}-status" name="status"${state.attrs}>${ENDPOINT_STATUSES.map(
        (s) =>
          html`<option value="${s}"${s === status ? ' selected' : ''}>${s === 'ACTIVE' ? 'Active: receives deliveries' : 'Disabled: receives none'}</option>`,
      )}</select>${state.note}`
    : ''
}`;
}

/** How an endpoint authenticates, for the list: the scheme and whether its secret is set, never the secret. */
export const authSummary = (e: WebhookEndpointView): string =>
  e.authType === 'Basic' || e.authType === 'Bearer' ? `${e.authType} (secret ${e.authSecretConfigured ? 'set' : 'missing'})` : e.authType;
