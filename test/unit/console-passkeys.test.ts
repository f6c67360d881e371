import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { operatorOrigin } from '../../domain/audit/audit-event.ts';
import {
  beginPasskeySignIn,
  beginRegistration,
  finishPasskeySignIn,
  finishRegistration,
  PasskeyRefusedError,
  relyingParty,
  removePasskey,
  type PasskeyDeps,
} from '../../domain/console/passkeys.ts';
import { invitePerson, redeemSignIn, resolveSession, SignInRateLimitedError } from '../../domain/console/sign-in.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { consoleTokens } from '../../infra/crypto/console-tokens.ts';
import { InMemoryConsoleStore, InMemoryMailer, InMemoryRateLimiter } from '../support/memory/in-memory-console-store.ts';
import { InMemoryPasskeyStore } from '../support/memory/in-memory-passkey-store.ts';
import { SoftwareAuthenticator } from '../support/software-authenticator.ts';

const T0 = Date.parse('2026-11-02T04:30:00.000Z');
const ORIGIN = 'https://console.test';

function world() {
  let now = T0;
  const people = new InMemoryConsoleStore();
  const passkeys = new InMemoryPasskeyStore();
  const mailer = new InMemoryMailer();
  const deps: PasskeyDeps = {
    people,
    passkeys,
    mailer,
    tokens: consoleTokens,
    rateLimiter: new InMemoryRateLimiter(),
    clock: { now: () => new Date(now) },
    ids: { uuid: randomUUID },
    consoleUrl: `${ORIGIN}/console`,
  };
  const operator = { actor: 'ops-asha', name: 'ops-asha', origin: operatorOrigin('ops-asha', 'run-1') };
  return { deps, people, passkeys, mailer, operator, advance: (ms: number) => (now += ms) };
}

async function signedIn(w: ReturnType<typeof world>, email = 'admin@agency.in') {
  await invitePerson(w.deps, w.operator, email, { kind: 'partner', agentGroupId: 'group-a', partnerId: 'p1', role: 'admin' });
  const started = await redeemSignIn(w.deps, w.mailer.lastToken(email));
  if (!started) throw new Error('sign-in failed');
  const origin = { actor: `person:${started.person.personId}`, actorKind: 'person' as const, requestId: 'r1' };
  return { ...started, origin };
}

async function registered(w: ReturnType<typeof world>, authenticator = new SoftwareAuthenticator(), email?: string) {
  const who = await signedIn(w, email);
  const options = await beginRegistration(w.deps, who.person);
  const created = authenticator.create(options, ORIGIN);
  const passkey = await finishRegistration(w.deps, who.person, who.origin, created.json, 'Work laptop');
  return { ...who, passkey, authenticator, credentialId: created.id };
}

describe('console passkeys: registration after a link sign-in', () => {
  it('keeps the public key, counter and transports beside the person, audited under them, with the rpID and origin of the stage config', async () => {
    const w = world();
    const { person, passkey, credentialId } = await registered(w);
    expect(relyingParty(w.deps.consoleUrl)).toEqual({ rpID: 'console.test', origin: ORIGIN });
    expect(passkey).toMatchObject({ credentialId, personId: person.personId, counter: 1, transports: ['internal'], label: 'Work laptop', lastUsedAt: null });
    expect(await w.passkeys.listPasskeys(person.personId)).toEqual([passkey]);
    expect(w.passkeys.audit).toEqual([
      expect.objectContaining({
        action: 'person.passkey-added',
        target: `person:${person.personId}`,
        account: 'group-a',
        after: { credentialId, label: 'Work laptop' },
      }),
    ]);
    expect(w.passkeys.audit[0]!.origin.actor).toBe(`person:${person.personId}`);
    // The challenge was used up.
    expect(w.passkeys.challenges.size).toBe(0);
  });

  it('refuses a replayed registration answer, an answer for another origin, another person’s challenge and an expired one', async () => {
    const w = world();
    const a = await signedIn(w, 'a@agency.in');
    const b = await signedIn(w, 'b@agency.in');
    const authenticator = new SoftwareAuthenticator();

    const options = await beginRegistration(w.deps, a.person);
    const answer = authenticator.create(options, ORIGIN).json;
    await finishRegistration(w.deps, a.person, a.origin, answer, 'Laptop');
    await expect(finishRegistration(w.deps, a.person, a.origin, answer, 'Laptop')).rejects.toThrow(PasskeyRefusedError);

    const phished = await beginRegistration(w.deps, a.person);
    await expect(finishRegistration(w.deps, a.person, a.origin, authenticator.create(phished, 'https://console.test.evil.in').json, 'x')).rejects.toThrow(
      /origin/i,
    );

    const forA = await beginRegistration(w.deps, a.person);
    await expect(finishRegistration(w.deps, b.person, b.origin, authenticator.create(forA, ORIGIN).json, 'x')).rejects.toThrow(PasskeyRefusedError);

    const late = await beginRegistration(w.deps, a.person);
    w.advance(5 * 60_000);
    await expect(finishRegistration(w.deps, a.person, a.origin, authenticator.create(late, ORIGIN).json, 'x')).rejects.toThrow(/expired/);
    expect(await w.passkeys.listPasskeys(b.person.personId)).toEqual([]);
    expect(await w.passkeys.listPasskeys(a.person.personId)).toHaveLength(1);
  });

  it('removes only the person’s own passkey, audited; another person’s is not found', async () => {
    const w = world();
    const a = await registered(w, undefined, 'a@agency.in');
    const b = await signedIn(w, 'b@agency.in');
    await expect(removePasskey(w.deps, b.person, b.origin, a.credentialId)).rejects.toThrow(NotFoundError);
    await removePasskey(w.deps, a.person, a.origin, a.credentialId);
    expect(await w.passkeys.listPasskeys(a.person.personId)).toEqual([]);
    expect(w.passkeys.audit.at(-1)).toMatchObject({
      action: 'person.passkey-removed',
      target: `person:${a.person.personId}`,
      before: { credentialId: a.credentialId },
    });
  });
});

describe('console passkeys: sign-in', () => {
  it('signs in with the same kind of session a link begins, and moves the counter on', async () => {
    const w = world();
    const { person, authenticator, credentialId } = await registered(w);
    const options = await beginPasskeySignIn(w.deps, '203.0.113.9');
    expect(options.rpId).toBe('console.test');
    const started = await finishPasskeySignIn(w.deps, authenticator.get(credentialId, options, ORIGIN), '203.0.113.9');
    expect(started.person.personId).toBe(person.personId);
    const resolved = await resolveSession(w.deps, started.cookieValue);
    expect(resolved.ok && resolved.person.personId).toBe(person.personId);
    expect(await w.passkeys.getPasskey(credentialId)).toMatchObject({ counter: 2, lastUsedAt: new Date(T0).toISOString() });
  });

  it('refuses a replayed assertion, a wrong origin, a registration challenge, a cloned key’s old counter, and a removed passkey', async () => {
    const w = world();
    const { person, origin, authenticator, credentialId } = await registered(w);
    const src = '203.0.113.9';

    const once = await beginPasskeySignIn(w.deps, src);
    const assertion = authenticator.get(credentialId, once, ORIGIN);
    await finishPasskeySignIn(w.deps, assertion, src);
    await expect(finishPasskeySignIn(w.deps, assertion, src)).rejects.toThrow(PasskeyRefusedError);

    await expect(
      finishPasskeySignIn(w.deps, authenticator.get(credentialId, await beginPasskeySignIn(w.deps, src), 'https://evil.example'), src),
    ).rejects.toThrow(/origin/i);

    // A registration challenge (bound to a person) cannot be spent on a sign-in.
    const registration = await beginRegistration(w.deps, person);
    await expect(finishPasskeySignIn(w.deps, authenticator.get(credentialId, registration, ORIGIN), src)).rejects.toThrow(/another ceremony/);

    authenticator.rewind(credentialId, 5);
    await expect(finishPasskeySignIn(w.deps, authenticator.get(credentialId, await beginPasskeySignIn(w.deps, src), ORIGIN), src)).rejects.toThrow(/counter/i);

    await removePasskey(w.deps, person, origin, credentialId);
    await expect(finishPasskeySignIn(w.deps, authenticator.get(credentialId, await beginPasskeySignIn(w.deps, src), ORIGIN), src)).rejects.toThrow(
      /unknown credential/,
    );
  });

  it('refuses a signature by another credential under a registered credential’s id (another person’s passkey)', async () => {
    const w = world();
    const a = await registered(w, undefined, 'a@agency.in');
    const b = await registered(w, undefined, 'b@agency.in');
    // B's authenticator signs, but the answer claims A's credential id: A's public key does not verify it.
    const options = await beginPasskeySignIn(w.deps, 's');
    const forged = JSON.parse(b.authenticator.get(b.credentialId, options, ORIGIN)) as { id: string; rawId: string };
    forged.id = a.credentialId;
    forged.rawId = a.credentialId;
    await expect(finishPasskeySignIn(w.deps, JSON.stringify(forged), 's')).rejects.toThrow(PasskeyRefusedError);
  });

  it('signs nobody in for a passkey whose person is gone, and keeps to the per-source sign-in limit', async () => {
    const w = world();
    const { person, authenticator, credentialId } = await registered(w);
    w.people.people.delete(person.personId);
    await expect(finishPasskeySignIn(w.deps, authenticator.get(credentialId, await beginPasskeySignIn(w.deps, 's1'), ORIGIN), 's1')).rejects.toThrow(
      /no person/,
    );
    let refused: unknown;
    for (let i = 0; i < 40 && !refused; i++) await beginPasskeySignIn(w.deps, 's2').catch((err: unknown) => (refused = err));
    expect(refused).toBeInstanceOf(SignInRateLimitedError);
  });

  it('accepts an authenticator that keeps no counter (always 0), as passkeys synced between devices do', async () => {
    const w = world();
    const { authenticator, credentialId } = await registered(w, new SoftwareAuthenticator(false));
    for (let i = 0; i < 2; i++) await finishPasskeySignIn(w.deps, authenticator.get(credentialId, await beginPasskeySignIn(w.deps, 's'), ORIGIN), 's');
    expect(await w.passkeys.getPasskey(credentialId)).toMatchObject({ counter: 0 });
  });
});
