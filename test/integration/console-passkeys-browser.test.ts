import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitePerson } from '../../domain/console/sign-in.ts';
import { consoleAppDeps, handleConsole, type ConsoleAppDeps } from '../../functions/console/app.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { chromiumBinary } from '../support/chromium.ts';
import { consoleServer } from '../support/console-server.ts';
import { mailbox } from '../support/mailbox.ts';
import { stack, testServices } from '../support/stack.ts';

/*
 * Passkeys in headless Chromium with its virtual authenticator (CDP WebAuthn domain: ctap2,
 * internal transport, resident keys, user verified). The console is served as
 * http://localhost:<port>, a secure context whose host is a valid rpID (an IP address is not).
 */
let browser: Browser;
let server: Awaited<ReturnType<typeof consoleServer>>;
let deps: ConsoleAppDeps;
let base: string;

async function accessible(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(
    violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
    page.url(),
  ).toEqual([]);
}

beforeAll(async () => {
  server = await consoleServer((event) => handleConsole(deps, event));
  base = server.url.replace('127.0.0.1', 'localhost');
  deps = consoleAppDeps(testServices(), `${base}/console`, new PdfInvoiceRenderer());
  browser = await chromium.launch({
    executablePath: chromiumBinary(),
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--host-resolver-rules=MAP localhost 127.0.0.1'],
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('console passkeys in Chromium', () => {
  it('registers a passkey after a link sign-in, signs out, and signs back in with the passkey', async () => {
    const email = `${randomUUID().slice(0, 8)}@villas.example`;
    await invitePerson(deps, { actor: TEST_OPERATOR.actor, name: 'Test operator', origin: TEST_OPERATOR }, email, { kind: 'operator', role: 'operator' });
    const mail = await mailbox(stack().env.SES_ENDPOINT!).waitFor(email, 'You are invited to the console');
    const link = new URL(/https?:\/\/\S+/.exec(mail.text)![0]);

    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });

    await page.goto(`${base}${link.pathname}${link.search}`);
    await page.getByRole('button', { name: 'Sign in to the console' }).click();
    await page.getByRole('link', { name: 'Your passkeys' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Add a passkey' }).isVisible()).toBe(true);
    await accessible(page);
    await page.getByLabel('Name of this passkey').fill('Test laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('cell', { name: 'Test laptop', exact: true }).waitFor();
    await accessible(page);

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(/\/console\/sign-in\?ended=signed-out$/);
    await accessible(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(/\/console\/operator\/groups$/);
    const person = await testServices().people.findPersonByEmail(email);
    const [passkey] = await testServices().passkeys.listPasskeys(person!.personId);
    expect(passkey).toMatchObject({ label: 'Test laptop', transports: ['internal'] });
    expect(passkey!.lastUsedAt).not.toBeNull();
    await context.close();
  });
});
