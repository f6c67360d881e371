import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { AuditOrigin } from '../audit/audit-event.ts';
import { ConflictError, NotFoundError, ValidationError } from '../errors.ts';
import type { Passkey, PasskeyStore } from '../ports/passkey-store.ts';
import type { Person } from './people.ts';
import { personAudit, SIGN_IN_PER_SOURCE, SignInRateLimitedError, startSession, type ConsoleDeps, type StartedSession } from './sign-in.ts';

/**
 * SimpleWebAuthn with its X.509 and ASN.1 stack (~750 KB, tsyringe and reflect-metadata among
 * them) loads at the first ceremony: evaluated at start, it made the console's cold start the
 * slowest of the HTTP functions, and most console requests never touch a passkey.
 */
const webauthn = () => import('@simplewebauthn/server');

/** A ceremony's challenge lasts as long as the browser's own timeout, and is used once. */
export const PASSKEY_CHALLENGE_MS = 5 * 60_000;
/** At most this many passkeys per person: each is a way in, the list stays reviewable. */
export const PASSKEYS_PER_PERSON = 10;

export interface PasskeyDeps extends ConsoleDeps {
  readonly passkeys: PasskeyStore;
}

/**
 * The relying party, from the stage's console URL (configuration), never from a request's
 * Host header: a page served under another name cannot ask for, or use, our passkeys.
 */
export function relyingParty(consoleUrl: string): { readonly rpID: string; readonly origin: string } {
  const url = new URL(consoleUrl);
  return { rpID: url.hostname, origin: url.origin };
}

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
const plusMs = (at: Date, ms: number): string => new Date(at.getTime() + ms).toISOString();

/** The challenge a response answers, read from its client data; the verification checks it again against the stored one. */
function challengeOf(clientDataJSON: unknown): string {
  try {
    const data = JSON.parse(Buffer.from(String(clientDataJSON), 'base64url').toString('utf8')) as { challenge?: unknown };
    if (typeof data.challenge === 'string' && data.challenge) return data.challenge;
  } catch {
    // Falls through to the one answer for anything unreadable.
  }
  throw new ValidationError('response', 'response must be the browser’s WebAuthn answer (clientDataJSON with a challenge).');
}

function parseResponse<T extends { response: { clientDataJSON: string } }>(raw: string): T {
  try {
    const parsed = JSON.parse(raw) as T;
    if (parsed && typeof parsed === 'object' && typeof parsed.response?.clientDataJSON === 'string') return parsed;
  } catch {
    // Falls through.
  }
  throw new ValidationError('response', 'response must be the browser’s WebAuthn answer as JSON.');
}

/** Why a passkey ceremony was refused: one message on the page, the reason in the log only. */
export class PasskeyRefusedError extends Error {}

async function takeChallengeFor(deps: PasskeyDeps, clientDataJSON: string, fits: (p: Passkey['personId'] | null) => boolean): Promise<string> {
  const challenge = challengeOf(clientDataJSON);
  const stored = await deps.passkeys.takeChallenge(challenge);
  if (!stored || Date.parse(stored.expiresAt) <= deps.clock.now().getTime()) throw new PasskeyRefusedError('unknown, used or expired challenge');
  if (!fits(stored.purpose.kind === 'register' ? stored.purpose.personId : null)) throw new PasskeyRefusedError('challenge of another ceremony');
  return challenge;
}

/** Registration options for the signed-in person: a fresh challenge bound to them, their passkeys excluded. */
export async function beginRegistration(deps: PasskeyDeps, person: Person): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await deps.passkeys.listPasskeys(person.personId);
  if (existing.length >= PASSKEYS_PER_PERSON) throw new ConflictError('CONFLICT', `You have ${PASSKEYS_PER_PERSON} passkeys; remove one first.`);
  const { rpID } = relyingParty(deps.consoleUrl);
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName: 'Villa distribution console',
    rpID,
    userName: person.email,
    userID: new TextEncoder().encode(person.personId),
    attestationType: 'none',
    excludeCredentials: existing.map((k) => ({ id: k.credentialId, transports: k.transports as AuthenticatorTransport[] })),
    // A discoverable credential: the sign-in page asks for no address before the passkey.
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: PASSKEY_CHALLENGE_MS,
  });
  await deps.passkeys.putChallenge({
    challenge: options.challenge,
    purpose: { kind: 'register', personId: person.personId },
    expiresAt: plusMs(deps.clock.now(), PASSKEY_CHALLENGE_MS),
  });
  return options;
}

/** What both ceremonies require of the browser's answer: our unused challenge, our origin and rpID, and a verified user. */
function expected(deps: PasskeyDeps, expectedChallenge: string) {
  const rp = relyingParty(deps.consoleUrl);
  return { expectedChallenge, expectedOrigin: rp.origin, expectedRPID: rp.rpID, requireUserVerification: true } as const;
}

/** A verification the library throws on (a malformed or mismatched answer) or does not verify is a refusal, never a 500. */
async function verifiedOrRefused<T extends { verified: boolean }>(verification: Promise<T>, notVerified: string): Promise<T & { verified: true }> {
  let result: T;
  try {
    result = await verification;
  } catch (err) {
    throw new PasskeyRefusedError((err as Error).message);
  }
  if (!result.verified) throw new PasskeyRefusedError(notVerified);
  return result as T & { verified: true };
}

/** Verifies the browser's registration answer against the person's own unused challenge, and keeps the public key. */
export async function finishRegistration(deps: PasskeyDeps, person: Person, origin: AuditOrigin, rawResponse: string, labelInput: string): Promise<Passkey> {
  const label = labelInput.trim() || 'Passkey';
  if (label.length > 60) throw new ValidationError('label', 'label must be at most 60 characters.');
  const response = parseResponse<RegistrationResponseJSON>(rawResponse);
  const expectedChallenge = await takeChallengeFor(deps, response.response.clientDataJSON, (owner) => owner === person.personId);
  const verified = await verifiedOrRefused(
    (await webauthn()).verifyRegistrationResponse({ response, ...expected(deps, expectedChallenge) }),
    'registration not verified',
  );
  const { credential } = verified.registrationInfo;
  const passkey: Passkey = {
    credentialId: credential.id,
    personId: person.personId,
    publicKey: b64url(credential.publicKey),
    counter: credential.counter,
    transports: credential.transports ?? response.response.transports ?? [],
    label,
    createdAt: deps.clock.now().toISOString(),
    lastUsedAt: null,
  };
  await deps.passkeys.addPasskey(passkey, personAudit(deps, origin, 'person.passkey-added', person, { credentialId: passkey.credentialId, label }));
  return passkey;
}

/** Removes one of the person's own passkeys; another person's is indistinguishable from none. */
export async function removePasskey(deps: PasskeyDeps, person: Person, origin: AuditOrigin, credentialId: string): Promise<void> {
  const removed = await deps.passkeys.removePasskey(
    person.personId,
    credentialId,
    personAudit(deps, origin, 'person.passkey-removed', person, null, { credentialId }),
  );
  if (!removed) throw new NotFoundError('Passkey');
}

async function limitSignIn(deps: PasskeyDeps, source: string): Promise<void> {
  const decision = await deps.rateLimiter.consume(`console-sign-in:source:${source}`, SIGN_IN_PER_SOURCE, deps.clock.now().getTime());
  if (!decision.allowed) throw new SignInRateLimitedError(decision.retryAfter);
}

/** Sign-in options: a fresh challenge naming nobody (the passkey says who), under the same per-source limit as links. */
export async function beginPasskeySignIn(deps: PasskeyDeps, source: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  await limitSignIn(deps, source);
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID: relyingParty(deps.consoleUrl).rpID,
    userVerification: 'required',
    timeout: PASSKEY_CHALLENGE_MS,
  });
  await deps.passkeys.putChallenge({ challenge: options.challenge, purpose: { kind: 'sign-in' }, expiresAt: plusMs(deps.clock.now(), PASSKEY_CHALLENGE_MS) });
  return options;
}

/**
 * Signs in with a passkey: the sign-in challenge used once, the signature checked against the
 * stored public key for our origin and rpID, the counter moved on; then the same session a
 * link begins. A passkey whose person is gone signs nobody in.
 */
export async function finishPasskeySignIn(deps: PasskeyDeps, rawResponse: string, source: string): Promise<StartedSession> {
  await limitSignIn(deps, source);
  const response = parseResponse<AuthenticationResponseJSON>(rawResponse);
  const expectedChallenge = await takeChallengeFor(deps, response.response.clientDataJSON, (owner) => owner === null);
  const passkey = typeof response.id === 'string' ? await deps.passkeys.getPasskey(response.id) : undefined;
  if (!passkey) throw new PasskeyRefusedError('unknown credential');
  const person = await deps.people.getPerson(passkey.personId);
  if (!person) throw new PasskeyRefusedError('credential of no person');
  const verified = await verifiedOrRefused(
    (await webauthn()).verifyAuthenticationResponse({
      response,
      ...expected(deps, expectedChallenge),
      credential: { id: passkey.credentialId, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: passkey.counter },
    }),
    'assertion not verified',
  );
  const now = deps.clock.now();
  if (!(await deps.passkeys.recordUse(passkey, passkey.counter, verified.authenticationInfo.newCounter, now.toISOString())))
    throw new PasskeyRefusedError('counter raced');
  return startSession(deps, person);
}
