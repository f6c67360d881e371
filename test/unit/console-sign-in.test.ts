import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { operatorOrigin } from '../../domain/audit/audit-event.ts';
import { can } from '../../domain/console/people.ts';
import {
  CONSOLE_TIMES,
  invitePerson,
  redeemSignIn,
  requestSignIn,
  resolveSession,
  SignInRateLimitedError,
  signOutEverywhere,
  teamMember,
  type ConsoleDeps,
} from '../../domain/console/sign-in.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { consoleTokens } from '../../infra/crypto/console-tokens.ts';
import { InMemoryConsoleStore, InMemoryMailer, InMemoryRateLimiter } from '../support/memory/in-memory-console-store.ts';

const T0 = Date.parse('2026-11-02T04:30:00.000Z');

function world() {
  let now = T0;
  const people = new InMemoryConsoleStore();
  const mailer = new InMemoryMailer();
  const deps: ConsoleDeps = {
    people,
    mailer,
    tokens: consoleTokens,
    rateLimiter: new InMemoryRateLimiter(),
    clock: { now: () => new Date(now) },
    ids: { uuid: randomUUID },
    consoleUrl: 'https://console.test/console',
  };
  const operator = { actor: 'ops-asha', name: 'ops-asha', origin: operatorOrigin('ops-asha', 'run-1') };
  return { deps, people, mailer, operator, advance: (ms: number) => (now += ms) };
}

async function signedIn(w: ReturnType<typeof world>, email = 'admin@agency.in') {
  await invitePerson(w.deps, w.operator, email, { kind: 'partner', agentGroupId: 'group-a', partnerId: 'p1', role: 'admin' });
  const started = await redeemSignIn(w.deps, w.mailer.lastToken(email));
  if (!started) throw new Error('sign-in failed');
  return started;
}

describe('console people: invitation and e-mailed one-time links', () => {
  it('invites a person, audits it under the inviter, and mails a link that signs in once', async () => {
    const w = world();
    const { person, cookieValue, session } = await signedIn(w);

    expect(w.people.audit).toEqual([
      expect.objectContaining({ action: 'person.invited', target: `person:${person.personId}`, account: 'group-a', before: null }),
    ]);
    expect(w.people.audit[0]!.origin.actor).toBe('ops-asha');
    expect(JSON.stringify(w.people.audit)).not.toContain('admin@agency.in');
    // Only hashes are stored: neither the link's token nor the cookie value is in the store.
    expect(w.people.links.size).toBe(0);
    expect(session.sessionHash).toBe(consoleTokens.hash(cookieValue));
    expect([...w.people.sessions.keys()]).not.toContain(cookieValue);
    // Used up: the same link a second time signs nobody in.
    expect(await redeemSignIn(w.deps, w.mailer.lastToken('admin@agency.in'))).toBeUndefined();
  });

  it('refuses a second person with the same address, whatever its case', async () => {
    const w = world();
    await signedIn(w);
    await expect(invitePerson(w.deps, w.operator, 'ADMIN@Agency.in', { kind: 'operator', role: 'operator' })).rejects.toThrow(ConflictError);
  });

  it('refuses an invitation to a malformed address naming email', async () => {
    const w = world();
    const err = await invitePerson(w.deps, w.operator, 'not an address', { kind: 'operator', role: 'operator' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).param).toBe('email');
  });

  it('a requested link expires after 15 minutes', async () => {
    const w = world();
    await signedIn(w);
    await requestSignIn(w.deps, 'admin@agency.in', '203.0.113.9');
    const token = w.mailer.lastToken('admin@agency.in');
    w.advance(CONSOLE_TIMES.signInLinkMs);
    expect(await redeemSignIn(w.deps, token)).toBeUndefined();
  });

  it('answers a request for an unknown address exactly as for a known one, and mails nothing', async () => {
    const w = world();
    await expect(requestSignIn(w.deps, 'nobody@agency.in', '203.0.113.9')).resolves.toBeUndefined();
    expect(w.mailer.sent).toEqual([]);
  });

  it('rate-limits sign-in requests per address: the sixth within a quarter hour is refused', async () => {
    const w = world();
    for (let i = 0; i < 5; i++) await requestSignIn(w.deps, 'someone@agency.in', `198.51.100.${i}`);
    const err = await requestSignIn(w.deps, 'Someone@agency.in', '198.51.100.77').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SignInRateLimitedError);
    expect((err as SignInRateLimitedError).retryAfterSeconds).toBeGreaterThan(0);
    w.advance(3 * 60_000);
    await expect(requestSignIn(w.deps, 'someone@agency.in', '198.51.100.78')).resolves.toBeUndefined();
  });

  it('rate-limits sign-in requests per source across addresses', async () => {
    const w = world();
    for (let i = 0; i < 30; i++) await requestSignIn(w.deps, `p${i}@agency.in`, '192.0.2.1');
    await expect(requestSignIn(w.deps, 'p31@agency.in', '192.0.2.1')).rejects.toThrow(SignInRateLimitedError);
  });
});

describe('console sessions: idle and absolute expiry, sign-out everywhere', () => {
  it('keeps a session in use, and ends it after 30 idle minutes', async () => {
    const w = world();
    const { cookieValue } = await signedIn(w);
    w.advance(CONSOLE_TIMES.idleMs - 1);
    expect((await resolveSession(w.deps, cookieValue)).ok).toBe(true);
    w.advance(CONSOLE_TIMES.idleMs - 1);
    expect((await resolveSession(w.deps, cookieValue)).ok).toBe(true);
    w.advance(CONSOLE_TIMES.idleMs);
    expect(await resolveSession(w.deps, cookieValue)).toEqual({ ok: false, why: 'idle' });
    expect(await resolveSession(w.deps, cookieValue)).toEqual({ ok: false, why: 'none' });
  });

  it('ends a session 12 hours after sign-in however busy', async () => {
    const w = world();
    const { cookieValue } = await signedIn(w);
    for (let spent = 0; spent < CONSOLE_TIMES.absoluteMs - 20 * 60_000; spent += 20 * 60_000) {
      w.advance(20 * 60_000);
      expect((await resolveSession(w.deps, cookieValue)).ok).toBe(true);
    }
    w.advance(20 * 60_000);
    expect(await resolveSession(w.deps, cookieValue)).toEqual({ ok: false, why: 'expired' });
  });

  it('signs out every session of the person, audited under them, and leaves later sign-ins good', async () => {
    const w = world();
    const first = await signedIn(w);
    await requestSignIn(w.deps, 'admin@agency.in', '203.0.113.9');
    const second = await redeemSignIn(w.deps, w.mailer.lastToken('admin@agency.in'));
    w.advance(1000);

    await signOutEverywhere(w.deps, first.person, { actor: `person:${first.person.personId}`, actorKind: 'operator', requestId: 'r' });

    expect(await resolveSession(w.deps, first.cookieValue)).toEqual({ ok: false, why: 'revoked' });
    expect(await resolveSession(w.deps, second!.cookieValue)).toEqual({ ok: false, why: 'revoked' });
    expect(w.people.audit.at(-1)).toEqual(expect.objectContaining({ action: 'person.sessions-revoked', target: `person:${first.person.personId}` }));
    w.advance(1000);
    await requestSignIn(w.deps, 'admin@agency.in', '203.0.113.9');
    const third = await redeemSignIn(w.deps, w.mailer.lastToken('admin@agency.in'));
    expect((await resolveSession(w.deps, third!.cookieValue)).ok).toBe(true);
  });

  it('knows no session for a made-up cookie', async () => {
    const w = world();
    expect(await resolveSession(w.deps, consoleTokens.newToken())).toEqual({ ok: false, why: 'none' });
    expect(await resolveSession(w.deps, undefined)).toEqual({ ok: false, why: 'none' });
  });
});

describe('console roles and tenancy', () => {
  it('gives each role only its screens', () => {
    const partner = (role: 'admin' | 'finance' | 'developer' | 'viewer') => ({ kind: 'partner' as const, agentGroupId: 'g', partnerId: 'p', role });
    expect(can(partner('admin'), 'team')).toBe(true);
    expect(can(partner('finance'), 'team')).toBe(false);
    expect(can(partner('finance'), 'invoices')).toBe(true);
    expect(can(partner('developer'), 'invoices')).toBe(false);
    expect(can(partner('developer'), 'statement')).toBe(false);
    expect(can(partner('developer'), 'webhooks')).toBe(true);
    expect(can(partner('finance'), 'webhooks')).toBe(false);
    expect(can(partner('developer'), 'keys')).toBe(true);
    expect(can(partner('viewer'), 'keys')).toBe(false);
    // The company's /api keys as the group's /v1 keys; its trail, as the group's, for every partner role.
    for (const role of ['admin', 'finance', 'developer', 'viewer'] as const) {
      expect(can(partner(role), 'partner-keys'), role).toBe(can(partner(role), 'keys'));
      expect(can(partner(role), 'partner-audit'), role).toBe(true);
    }
    expect(can({ kind: 'operator', role: 'finance-operator' }, 'partner-keys')).toBe(false);
    expect(can({ kind: 'operator', role: 'finance-operator' }, 'partner-audit')).toBe(false);
    expect(can(partner('viewer'), 'statement')).toBe(true);
    expect(can(partner('admin'), 'hold')).toBe(false);
    expect(can({ kind: 'operator', role: 'finance-operator' }, 'hold')).toBe(true);
    expect(can({ kind: 'operator', role: 'finance-operator' }, 'limit')).toBe(true);
    expect(can({ kind: 'operator', role: 'operator' }, 'limit')).toBe(false);
    expect(can({ kind: 'operator', role: 'operator' }, 'invoices')).toBe(false);
    expect(can(partner('viewer'), 'ledger')).toBe(true);
    expect(can(partner('developer'), 'ledger')).toBe(false);
    expect(can(partner('developer'), 'audit')).toBe(true);
    expect(can({ kind: 'operator', role: 'operator' }, 'payments')).toBe(true);
    expect(can({ kind: 'operator', role: 'operator' }, 'record-payment')).toBe(false);
    expect(can({ kind: 'operator', role: 'finance-operator' }, 'record-payment')).toBe(true);
    expect(can(partner('admin'), 'partners')).toBe(false);
    for (const capability of ['billing', 'group-invoices', 'audit-search'] as const) {
      expect(can({ kind: 'operator', role: 'operator' }, capability), capability).toBe(true);
      expect(can(partner('admin'), capability), capability).toBe(false);
    }
    for (const capability of ['run-billing', 'correct-invoices'] as const) {
      expect(can({ kind: 'operator', role: 'operator' }, capability), capability).toBe(false);
      expect(can({ kind: 'operator', role: 'finance-operator' }, capability), capability).toBe(true);
    }
    expect(can(partner('developer'), 'test-clocks')).toBe(true);
    expect(can(partner('finance'), 'test-clocks')).toBe(false);
    expect(can({ kind: 'operator', role: 'finance-operator' }, 'test-clocks')).toBe(false);
  });

  it("reads another account's person exactly as a missing one", async () => {
    const w = world();
    const { person } = await signedIn(w);
    await expect(teamMember(w.deps, 'group-a', person.personId)).resolves.toEqual(person);
    await expect(teamMember(w.deps, 'group-b', person.personId)).rejects.toThrow(NotFoundError);
    await expect(teamMember(w.deps, 'group-b', randomUUID())).rejects.toThrow(new NotFoundError('Person'));
  });
});
