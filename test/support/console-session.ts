import { randomUUID } from 'node:crypto';
import type { Access } from '../../domain/console/people.ts';
import { invitePerson } from '../../domain/console/sign-in.ts';
import { createEndpoint } from '../../domain/webhooks/manage-endpoints.ts';
import { consoleAppDeps, handleConsole, type ConsoleAppDeps } from '../../functions/console/app.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { TEST_OPERATOR } from './audit-origin.ts';
import { ConsoleBrowser } from './console-browser.ts';
import { mailbox } from './mailbox.ts';
import { stack, testServices } from './stack.ts';

/** The admin tool's operator, as the inviter of the people a test signs in. */
const inviter = { actor: TEST_OPERATOR.actor, name: 'Test operator', origin: TEST_OPERATOR };

/**
 * Invites a person and signs them in through the link the SES emulator received, as a person
 * does in a browser: the link's page, then its button's POST. Returns their cookie jar.
 */
export async function signedInAs(deps: ConsoleAppDeps, access: Access, email = `${randomUUID().slice(0, 8)}@agency.example.in`): Promise<ConsoleBrowser> {
  await invitePerson(deps, inviter, email, access);
  const mail = (await mailbox(stack().env.SES_ENDPOINT!).forRecipient(email)).at(-1);
  if (!mail) throw new Error(`no mail to ${email}`);
  const link = new URL(/https?:\/\/\S+/.exec(mail.text)![0]);
  const browser = new ConsoleBrowser((event) => handleConsole(deps, event));
  const confirm = await browser.get(`${link.pathname}${link.search}`);
  const token = /name="token" value="([^"]+)"/.exec(confirm.text)?.[1];
  if (!token) throw new Error(`the link page answered ${confirm.statusCode} without a token`);
  const landed = await browser.post('/console/sign-in/link', { token });
  if (landed.statusCode !== 303) throw new Error(`signing in answered ${landed.statusCode}`);
  return browser;
}

/** A webhook endpoint of the partner, added as through its /api (by the admin tool's operator), at a unique URL. */
export const endpointOf = (owner: { readonly partnerId: string }, name: string) =>
  createEndpoint(
    testServices(),
    { kind: 'partner', partnerId: owner.partnerId, channelId: 'test-channel', keyId: 'k', keyPrefix: 'p' },
    { url: `http://127.0.0.1:9/${name}-${randomUUID().slice(0, 6)}` },
    TEST_OPERATOR,
  );

/**
 * The same person's session against a console whose stage is not a sandbox (production's
 * configuration over the same table): for the pages that exist on sandbox stages only.
 */
export function offSandbox(signedIn: ConsoleBrowser): ConsoleBrowser {
  const svc = testServices();
  const production = consoleAppDeps(
    Object.create(svc, { config: { value: { ...svc.config, isSandbox: false } } }),
    'https://console.test/console',
    new PdfInvoiceRenderer(),
  );
  const browser = new ConsoleBrowser((event) => handleConsole(production, event));
  for (const [name, value] of signedIn.jar) browser.jar.set(name, value);
  return browser;
}
