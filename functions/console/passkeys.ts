import { can, type Capability } from '../../domain/console/people.ts';
import {
  beginPasskeySignIn,
  beginRegistration,
  finishPasskeySignIn,
  finishRegistration,
  PasskeyRefusedError,
  removePasskey,
  type PasskeyDeps,
} from '../../domain/console/passkeys.ts';
import { SignInRateLimitedError } from '../../domain/console/sign-in.ts';
import { ConflictError, ValidationError } from '../../domain/errors.ts';
import { logger } from '../../infra/logger.ts';
import type { HttpResult } from '../http/types.ts';
import { istDateTime } from './format.ts';
import { html } from './html.ts';
import { page, postForm } from './layout.ts';
import { htmlResult, landingOf, redirect, sessionCookie, signedIn, type ConsoleAppDeps, type Request } from './app.ts';
import { PASSKEY_SCRIPT } from './passkey-script.ts';

type Handler = (deps: ConsoleAppDeps, req: Request, match: RegExpMatchArray) => Promise<HttpResult>;

const passkeyDeps = (deps: ConsoleAppDeps): PasskeyDeps => ({ ...deps, passkeys: deps.svc.passkeys });

const json = (status: number, body: unknown, cookies?: string[], headers: Record<string, string> = {}): HttpResult =>
  htmlResult(status, JSON.stringify(body), cookies, { 'Content-Type': 'application/json', ...headers });

/**
 * A ceremony's JSON answer for the script: a refused passkey is one message (the reason goes to
 * the log, never to the browser), a limit is a 429 with Retry-After, bad input a 400 naming it.
 */
async function ceremony(req: Request, run: () => Promise<HttpResult>): Promise<HttpResult> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof PasskeyRefusedError) {
      logger.info('console passkey refused', { requestId: req.requestId, reason: err.message });
      return json(400, { message: 'That passkey was not accepted. Try again, or use the e-mailed link.' });
    }
    if (err instanceof SignInRateLimitedError)
      return json(429, { message: `Too many sign-in requests. Try again in ${err.retryAfterSeconds} seconds.` }, undefined, {
        'Retry-After': String(err.retryAfterSeconds),
      });
    if (err instanceof ValidationError) return json(400, { message: `${err.param}: ${err.message}` });
    if (err instanceof ConflictError) return json(409, { message: err.message });
    throw err;
  }
}

/** The sign-in page's passkey form: hidden until the script finds WebAuthn in the browser. */
export const passkeySignInForm = html`<form data-passkey="sign-in" aria-label="Sign in with a passkey" hidden>
<button type="submit">Sign in with a passkey</button>
<p data-passkey-status role="status"></p>
</form>
<script src="/console/assets/passkeys.js" defer></script>`;

const passkeysPage: Handler = async (deps, req) => {
  const signed = await signedIn(deps, req);
  if (!('person' in signed)) return signed;
  const list = await deps.svc.passkeys.listPasskeys(signed.person.personId);
  const rows = list.map(
    (k) => html`<tr><td>${k.label}</td><td>${istDateTime(k.createdAt)}</td><td>${k.lastUsedAt ? istDateTime(k.lastUsedAt) : 'Not yet'}</td>
<td>${postForm(signed.viewer, `/console/account/passkeys/${encodeURIComponent(k.credentialId)}/remove`, html`<button type="submit">Remove ${k.label}</button>`, `Remove ${k.label}`)}</td></tr>`,
  );
  const body = html`<p>A passkey signs you in with your device's screen lock instead of an e-mailed link. The link keeps working.</p>
${
  list.length
    ? html`<table><caption>Your passkeys</caption><thead><tr><th scope="col">Name</th><th scope="col">Added (IST)</th><th scope="col">Last used (IST)</th><th scope="col">Remove</th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p>You have no passkeys yet.</p>`
}
<form data-passkey="register" aria-label="Add a passkey" hidden>
<input type="hidden" name="csrf" value="${signed.viewer.csrfToken}">
<label for="label">Name of this passkey</label>
<input id="label" name="label" maxlength="60" value="Passkey" required>
<button type="submit">Add a passkey</button>
<p data-passkey-status role="status"></p>
</form>
<noscript><p>Adding a passkey needs JavaScript; the e-mailed link works without it.</p></noscript>
<script src="/console/assets/passkeys.js" defer></script>`;
  return htmlResult(
    200,
    page('Passkeys', body, signed.viewer, (s) => can(signed.person.access, s as Capability)),
  );
};

/** The registration's JSON steps carry the session's CSRF token like every form: signedIn refuses a POST without it. */
const registrationOptions: Handler = async (deps, req) => {
  const signed = await signedIn(deps, req);
  if (!('person' in signed)) return signed;
  return ceremony(req, async () => json(200, await beginRegistration(passkeyDeps(deps), signed.person)));
};

const register: Handler = async (deps, req) => {
  const signed = await signedIn(deps, req);
  if (!('person' in signed)) return signed;
  return ceremony(req, async () => {
    await finishRegistration(passkeyDeps(deps), signed.person, signed.origin, req.form.get('response') ?? '', req.form.get('label') ?? '');
    return json(200, { location: '/console/account/passkeys' });
  });
};

const remove: Handler = async (deps, req, match) => {
  const signed = await signedIn(deps, req);
  if (!('person' in signed)) return signed;
  await removePasskey(passkeyDeps(deps), signed.person, signed.origin, decodeURIComponent(match[1]!));
  return redirect('/console/account/passkeys');
};

const signInOptions: Handler = async (deps, req) => ceremony(req, async () => json(200, await beginPasskeySignIn(passkeyDeps(deps), req.sourceIp)));

const signIn: Handler = async (deps, req) =>
  ceremony(req, async () => {
    const started = await finishPasskeySignIn(passkeyDeps(deps), req.form.get('response') ?? '', req.sourceIp);
    return json(200, { location: landingOf(started.person) }, [sessionCookie(started.cookieValue)]);
  });

/** The passkey routes, registered in the console's route table. */
export const PASSKEY_ROUTES: readonly [string, RegExp, Handler][] = [
  [
    'GET',
    /^\/console\/assets\/passkeys\.js$/,
    async () => ({
      statusCode: 200,
      headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'max-age=300', 'X-Content-Type-Options': 'nosniff' },
      body: PASSKEY_SCRIPT,
    }),
  ],
  ['GET', /^\/console\/account\/passkeys$/, passkeysPage],
  ['POST', /^\/console\/account\/passkeys\/options$/, registrationOptions],
  ['POST', /^\/console\/account\/passkeys$/, register],
  ['POST', /^\/console\/account\/passkeys\/([^/]+)\/remove$/, remove],
  ['POST', /^\/console\/sign-in\/passkey\/options$/, signInOptions],
  ['POST', /^\/console\/sign-in\/passkey$/, signIn],
];
