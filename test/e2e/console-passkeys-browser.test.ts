import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitePerson } from '../../domain/console/sign-in.ts';
import { consoleDeps } from '../../infra/container.ts';
import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { launchChromium } from '../support/chromium.ts';
import { mailbox } from '../support/mailbox.ts';
import { stack, testServices } from '../support/stack.ts';

/*
 * Passkeys in headless Chromium with its virtual authenticator (CDP WebAuthn domain: ctap2,
 * internal transport, resident keys, user verified), on the e2e stack's console: served by
 * `serverless offline` as http://localhost:<port>, a secure context whose host is a valid rpID
 * (an IP address is not), the stack's CONSOLE_URL.
 */
let browser: Browser;

async function accessible(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(
    violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
    page.url(),
  ).toEqual([]);
}

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe('console passkeys in Chromium', () => {
  it('registers a passkey after a link sign-in, signs out, and signs back in with the passkey', async () => {
    const email = `${randomUUID().slice(0, 8)}@villas.example`;
    const consoleUrl = stack().env.CONSOLE_URL!;
    await invitePerson(consoleDeps(testServices(), consoleUrl), { actor: TEST_OPERATOR.actor, name: 'Test operator', origin: TEST_OPERATOR }, email, {
      kind: 'operator',
      role: 'operator',
    });
    const mail = await mailbox(stack().env.SES_ENDPOINT!).waitFor(email, 'You are invited to the console');
    const link = /https?:\/\/\S+/.exec(mail.text)![0];
    // The link is the stack's own console, the origin the passkey is registered for.
    expect(new URL(link).origin).toBe(new URL(consoleUrl).origin);

    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });

    await page.goto(link);
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
