import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { invitePerson } from '../../domain/console/sign-in.ts';
import { consoleAppDeps, handleConsole, SESSION_COOKIE, type ConsoleAppDeps } from '../../functions/console/app.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { ConsoleBrowser } from '../support/console-browser.ts';
import { mailbox } from '../support/mailbox.ts';
import { SoftwareAuthenticator } from '../support/software-authenticator.ts';
import { stack, testServices } from '../support/stack.ts';

const ORIGIN = 'https://console.test';
let deps: ConsoleAppDeps;
const browser = (ip = `198.51.100.${Math.floor(Math.random() * 250)}`) => new ConsoleBrowser((event) => handleConsole(deps, event), ip);
const operator = { actor: TEST_OPERATOR.actor, name: 'Test operator', origin: TEST_OPERATOR };

beforeAll(() => {
  deps = consoleAppDeps(testServices(), `${ORIGIN}/console`, new PdfInvoiceRenderer());
});

/** An operator invited by the admin tool, signed in through the e-mailed link. */
async function signIn(): Promise<{ b: ConsoleBrowser; personId: string }> {
  const email = `${randomUUID().slice(0, 8)}@villas.example`;
  const person = await invitePerson(deps, operator, email, { kind: 'operator', role: 'operator' });
  const mail = (await mailbox(stack().env.SES_ENDPOINT!).forRecipient(email)).at(-1)!;
  const token = new URL(/https?:\/\/\S+\/sign-in\/link\?token=[^\s"<]+/.exec(mail.text ?? mail.html ?? '')![0]).searchParams.get('token')!;
  const b = browser();
  expect((await b.post('/console/sign-in/link', { token })).statusCode).toBe(303);
  return { b, personId: person.personId };
}

async function register(b: ConsoleBrowser, authenticator: SoftwareAuthenticator, label = 'Work laptop') {
  const csrf = ConsoleBrowser.csrfOf(await b.get('/console/account/passkeys'));
  const options = await b.post('/console/account/passkeys/options', { csrf });
  expect(options.statusCode).toBe(200);
  const created = authenticator.create(JSON.parse(options.text), ORIGIN);
  const done = await b.post('/console/account/passkeys', { csrf, label, response: created.json });
  return { csrf, done, credentialId: created.id };
}

async function passkeySignIn(b: ConsoleBrowser, authenticator: SoftwareAuthenticator, credentialId: string, origin = ORIGIN) {
  const options = await b.post('/console/sign-in/passkey/options', {});
  expect(options.statusCode).toBe(200);
  return b.post('/console/sign-in/passkey', { response: authenticator.get(credentialId, JSON.parse(options.text), origin) });
}

describe('console passkeys over the console handler (DynamoDB Local)', () => {
  it('registers a passkey after a link sign-in, lists it, signs out, and signs back in with it into the same kind of session', async () => {
    const { b, personId } = await signIn();
    const page = await b.get('/console/account/passkeys');
    expect(page.text).toContain('You have no passkeys yet.');
    expect(page.text).toContain('<script src="/console/assets/passkeys.js" defer></script>');
    expect(page.headers['Content-Security-Policy']).toContain("script-src 'self'");
    const authenticator = new SoftwareAuthenticator();
    const { done, credentialId } = await register(b, authenticator);
    expect(done.statusCode).toBe(200);
    expect(JSON.parse(done.text)).toEqual({ location: '/console/account/passkeys' });
    expect((await b.get('/console/account/passkeys')).text).toContain('<td>Work laptop</td>');
    expect((await testServices().auditTrail.listTarget(`person:${personId}`)).map((e) => [e.action, e.actor])).toContainEqual([
      'person.passkey-added',
      `person:${personId}`,
    ]);

    const fresh = browser();
    const signedIn = await passkeySignIn(fresh, authenticator, credentialId);
    expect(signedIn.statusCode).toBe(200);
    expect(JSON.parse(signedIn.text)).toEqual({ location: '/console/operator/groups' });
    expect(signedIn.cookies?.[0]).toMatch(new RegExp(`^${SESSION_COOKIE}=[^;]+; Path=/; HttpOnly; Secure; SameSite=Lax`));
    expect((await fresh.get('/console/operator/groups')).statusCode).toBe(200);
    expect((await testServices().passkeys.getPasskey(credentialId))!.counter).toBe(2);
  });

  it('refuses a registration without the session’s CSRF token, a replayed assertion, a wrong origin, and another person’s removal', async () => {
    const { b, personId } = await signIn();
    const authenticator = new SoftwareAuthenticator();
    expect((await b.post('/console/account/passkeys/options', {})).statusCode).toBe(403);
    const { credentialId } = await register(b, authenticator);

    const options = await b.post('/console/sign-in/passkey/options', {});
    const assertion = authenticator.get(credentialId, JSON.parse(options.text), ORIGIN);
    expect((await browser().post('/console/sign-in/passkey', { response: assertion })).statusCode).toBe(200);
    const replayed = await browser().post('/console/sign-in/passkey', { response: assertion });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.cookies).toBeUndefined();
    expect(JSON.parse(replayed.text).message).toBe('That passkey was not accepted. Try again, or use the e-mailed link.');
    expect((await passkeySignIn(browser(), authenticator, credentialId, 'https://console.test.evil.in')).statusCode).toBe(400);

    const other = await signIn();
    const otherCsrf = ConsoleBrowser.csrfOf(await other.b.get('/console/account/passkeys'));
    expect((await other.b.post(`/console/account/passkeys/${credentialId}/remove`, { csrf: otherCsrf })).statusCode).toBe(404);
    const csrf = ConsoleBrowser.csrfOf(await b.get('/console/account/passkeys'));
    expect((await b.post(`/console/account/passkeys/${credentialId}/remove`, { csrf })).statusCode).toBe(303);
    expect(await testServices().passkeys.listPasskeys(personId)).toEqual([]);
    expect((await testServices().auditTrail.listTarget(`person:${personId}`)).map((e) => e.action)).toContain('person.passkey-removed');
    expect((await passkeySignIn(browser(), authenticator, credentialId)).statusCode).toBe(400);
  });

  it('serves the passkey script from our own origin and offers passkey sign-in beside the e-mailed link', async () => {
    const script = await browser().get('/console/assets/passkeys.js');
    expect(script.headers['Content-Type']).toBe('text/javascript; charset=utf-8');
    expect(script.text).toContain('navigator.credentials.get');
    const page = await browser().get('/console/sign-in');
    expect(page.text).toContain('E-mail me a sign-in link');
    expect(page.text).toContain('<form data-passkey="sign-in" aria-label="Sign in with a passkey" hidden>');
  });
});
