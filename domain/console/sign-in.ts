import type { AuditDraft, AuditOrigin } from '../audit/audit-event.ts';
import { ConflictError, NotFoundError, ValidationError } from '../errors.ts';
import type { Clock } from '../ports/clock.ts';
import type { ConsoleSession, ConsoleStore } from '../ports/console-store.ts';
import type { IdGenerator } from '../ports/ids.ts';
import type { Mailer } from '../ports/mailer.ts';
import type { RateLimiter } from '../ports/rate-limiter.ts';
import type { BucketPolicy } from '../rate-limit.ts';
import { isEmail, normalEmail, personAccount, type Access, type Person } from './people.ts';

/** The console's lifetimes (docs/console.md "Sign-in and sessions"). */
export const CONSOLE_TIMES = {
  /** A sign-in link asked for on the sign-in page. */
  signInLinkMs: 15 * 60_000,
  /** The link an invitation sends: the invitee may read it the next working day. */
  invitationLinkMs: 72 * 3_600_000,
  /** A session unused this long is over. */
  idleMs: 30 * 60_000,
  /** A session is over this long after sign-in, however busy. */
  absoluteMs: 12 * 3_600_000,
  /** A session's last-seen time is written at most this often (one write per page would double the cost of a page). */
  touchEveryMs: 60_000,
} as const;

/** Sign-in requests: five links per address per quarter hour, and thirty per source address a minute. */
export const SIGN_IN_PER_EMAIL: BucketPolicy = { perMinute: 1 / 3, burst: 5 };
export const SIGN_IN_PER_SOURCE: BucketPolicy = { perMinute: 30, burst: 30 };

/** Random tokens and their hashes: only hashes are stored. */
export interface ConsoleTokens {
  newToken(): string;
  hash(token: string): string;
  /** Constant-time comparison of two tokens. */
  same(a: string, b: string): boolean;
}

export interface ConsoleDeps {
  readonly people: ConsoleStore;
  readonly tokens: ConsoleTokens;
  readonly mailer: Mailer;
  readonly rateLimiter: RateLimiter;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** The console's public base, e.g. https://api.example.in/console: links in e-mails point here. */
  readonly consoleUrl: string;
}

export class SignInRateLimitedError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many sign-in requests; try again in ${retryAfterSeconds} s.`);
  }
}

const plusMs = (at: Date, ms: number): string => new Date(at.getTime() + ms).toISOString();

async function sendLink(deps: ConsoleDeps, person: Person, lifetimeMs: number, subject: string, opening: string): Promise<void> {
  const token = deps.tokens.newToken();
  const now = deps.clock.now();
  await deps.people.putSignInLink({ linkHash: deps.tokens.hash(token), personId: person.personId, expiresAt: plusMs(now, lifetimeMs) });
  const link = `${deps.consoleUrl}/sign-in/link?token=${encodeURIComponent(token)}`;
  const minutes = Math.round(lifetimeMs / 60_000);
  const lasts = minutes >= 120 ? `${Math.round(minutes / 60)} hours` : `${minutes} minutes`;
  await deps.mailer.send({
    to: [person.email],
    subject,
    text: `${opening}\n\nSign in: ${link}\n\nThe link works once and for ${lasts}. If you did not ask for it, ignore this e-mail.`,
    html: `<p>${opening}</p><p><a href="${link}">Sign in to the console</a></p><p>The link works once and for ${lasts}. If you did not ask for it, ignore this e-mail.</p>`,
    tags: { kind: 'console-sign-in' },
  });
}

/**
 * The sign-in page's request. Always answers the same way, whether or not the address has a
 * person (no way to learn who has access); refused past the rate limits, per address and per
 * source, before anything else happens.
 */
export async function requestSignIn(deps: ConsoleDeps, emailInput: string, source: string): Promise<void> {
  const email = normalEmail(emailInput);
  if (!isEmail(email)) throw new ValidationError('email', 'email must be an e-mail address, like name@example.in.');
  const now = deps.clock.now().getTime();
  for (const [bucket, policy] of [
    [`console-sign-in:email:${deps.tokens.hash(email)}`, SIGN_IN_PER_EMAIL],
    [`console-sign-in:source:${source}`, SIGN_IN_PER_SOURCE],
  ] as const) {
    const decision = await deps.rateLimiter.consume(bucket, policy, now);
    if (!decision.allowed) throw new SignInRateLimitedError(decision.retryAfter);
  }
  const person = await deps.people.findPersonByEmail(email);
  if (!person) return;
  await sendLink(deps, person, CONSOLE_TIMES.signInLinkMs, 'Your sign-in link', 'Here is the link you asked for to sign in to the console.');
}

/** A new session: the cookie value (only the holder has it) and what is stored. */
export interface StartedSession {
  readonly cookieValue: string;
  readonly session: ConsoleSession;
  readonly person: Person;
}

/** Uses a sign-in link (once, before it expires) and begins a session. Anything else is undefined: the page says the link is no good. */
export async function redeemSignIn(deps: ConsoleDeps, token: string): Promise<StartedSession | undefined> {
  if (!token) return undefined;
  const link = await deps.people.takeSignInLink(deps.tokens.hash(token));
  const now = deps.clock.now();
  if (!link || Date.parse(link.expiresAt) <= now.getTime()) return undefined;
  const person = await deps.people.getPerson(link.personId);
  if (!person) return undefined;
  return startSession(deps, person);
}

/** A new server-side session for the person: the link and a passkey both end here. */
export async function startSession(deps: Pick<ConsoleDeps, 'people' | 'tokens' | 'clock'>, person: Person): Promise<StartedSession> {
  const now = deps.clock.now();
  const cookieValue = deps.tokens.newToken();
  const session: ConsoleSession = {
    sessionHash: deps.tokens.hash(cookieValue),
    personId: person.personId,
    csrfToken: deps.tokens.newToken(),
    createdAt: now.toISOString(),
    lastSeenAt: now.toISOString(),
  };
  await deps.people.putSession(session);
  return { cookieValue, session, person };
}

/** Why a session is over, for the sign-in page's message. */
export type SessionEnd = 'none' | 'idle' | 'expired' | 'revoked';

export type ResolvedSession =
  | { readonly ok: true; readonly session: ConsoleSession; readonly person: Person }
  | { readonly ok: false; readonly why: SessionEnd };

/** The session a cookie names, if it is still good: not idle too long, not past its absolute end, not revoked. */
export async function resolveSession(deps: Pick<ConsoleDeps, 'people' | 'tokens' | 'clock'>, cookieValue: string | undefined): Promise<ResolvedSession> {
  if (!cookieValue) return { ok: false, why: 'none' };
  const hash = deps.tokens.hash(cookieValue);
  const session = await deps.people.getSession(hash);
  if (!session) return { ok: false, why: 'none' };
  const now = deps.clock.now().getTime();
  const person = await deps.people.getPerson(session.personId);
  const why: SessionEnd | undefined =
    now - Date.parse(session.createdAt) >= CONSOLE_TIMES.absoluteMs
      ? 'expired'
      : now - Date.parse(session.lastSeenAt) >= CONSOLE_TIMES.idleMs
        ? 'idle'
        : !person || (person.sessionsValidAfter !== null && session.createdAt < person.sessionsValidAfter)
          ? 'revoked'
          : undefined;
  if (why || !person) {
    // An ended session is gone for good: the cookie cannot bring it back.
    await deps.people.deleteSession(hash);
    return { ok: false, why: why ?? 'revoked' };
  }
  if (now - Date.parse(session.lastSeenAt) >= CONSOLE_TIMES.touchEveryMs) await deps.people.touchSession(hash, new Date(now).toISOString());
  return { ok: true, session, person };
}

export const signOut = (deps: Pick<ConsoleDeps, 'people'>, session: ConsoleSession): Promise<void> => deps.people.deleteSession(session.sessionHash);

/** A change to a person, audited under the person's target and account. */
export const personAudit = (
  deps: Pick<ConsoleDeps, 'ids' | 'clock'>,
  origin: AuditOrigin,
  action: string,
  person: Person,
  after: AuditDraft['after'],
  before: AuditDraft['before'] = null,
): AuditDraft => ({
  id: deps.ids.uuid(),
  at: deps.clock.now().toISOString(),
  origin,
  action,
  target: `person:${person.personId}`,
  account: personAccount(person),
  before,
  after,
});

/** Ends every session of the person, on every device, from now on. */
export async function signOutEverywhere(deps: Pick<ConsoleDeps, 'people' | 'ids' | 'clock'>, person: Person, origin: AuditOrigin): Promise<void> {
  const at = deps.clock.now().toISOString();
  await deps.people.revokeSessions(person.personId, at, personAudit(deps, origin, 'person.sessions-revoked', person, { sessionsValidAfter: at }));
}

export interface Inviter {
  readonly actor: string;
  /** How the invitation names them to the invitee. */
  readonly name: string;
  readonly origin: AuditOrigin;
}

/** Records a person with their access, audited under the inviter; refused when the address already has a person. */
export async function recordPerson(deps: Pick<ConsoleDeps, 'people' | 'ids' | 'clock'>, inviter: Inviter, emailInput: string, access: Access): Promise<Person> {
  const email = normalEmail(emailInput);
  if (!isEmail(email)) throw new ValidationError('email', 'email must be an e-mail address, like name@example.in.');
  const person: Person = {
    personId: deps.ids.uuid(),
    email,
    access,
    invitedBy: inviter.actor,
    createdAt: deps.clock.now().toISOString(),
    sessionsValidAfter: null,
  };
  const after = {
    personId: person.personId,
    access: access.kind,
    role: access.role,
    agentGroupId: access.kind === 'partner' ? access.agentGroupId : null,
    invitedBy: inviter.actor,
  };
  try {
    await deps.people.createPerson(person, personAudit(deps, inviter.origin, 'person.invited', person, after));
  } catch (err) {
    if (err instanceof ConflictError) throw new ConflictError('CONFLICT', `${email} already has access to the console.`);
    throw err;
  }
  return person;
}

/**
 * Invites a person: records them with their access and e-mails a sign-in link that lasts
 * three days. An operator invites a partner's first admin and other operators (the admin
 * tool); a partner's admin invites their own team onto their own account only (the console).
 */
export async function invitePerson(deps: ConsoleDeps, inviter: Inviter, emailInput: string, access: Access): Promise<Person> {
  const person = await recordPerson(deps, inviter, emailInput, access);
  await sendLink(deps, person, CONSOLE_TIMES.invitationLinkMs, 'You are invited to the console', `${inviter.name} invited you to the console.`);
  return person;
}

/** A person of the caller's own account, or NotFound: another account's person is indistinguishable from none. */
export async function teamMember(deps: Pick<ConsoleDeps, 'people'>, agentGroupId: string, personId: string): Promise<Person> {
  const person = await deps.people.getPerson(personId);
  if (person?.access.kind !== 'partner' || person.access.agentGroupId !== agentGroupId) throw new NotFoundError('Person');
  return person;
}
