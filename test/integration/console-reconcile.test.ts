import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { RECONCILIATION_RUN_TARGET } from '../../domain/receivables/reconcile-as.ts';
import { consoleAppDeps, type ConsoleAppDeps } from '../../functions/console/app.ts';
import { parseConfig } from '../../infra/config.ts';
import { buildServices, type Services } from '../../infra/container.ts';
import { consoleTokens } from '../../infra/crypto/console-tokens.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { ConsoleBrowser } from '../support/console-browser.ts';
import { signedInAs } from '../support/console-session.ts';
import { FakeRazorpay } from '../support/fake-razorpay.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { newAgentGroup, stack } from '../support/stack.ts';

/*
 * A finance operator's reconciliation on demand (docs/console.md "Gateway payments"): the hourly run's use case against the
 * Razorpay fake over HTTP, under the person, with the session's CSRF token, once per form however often it is sent.
 */
let world: InvoiceWorld;
let fake: FakeRazorpay;
let env: Record<string, string>;
let svc: Services;
let deps: ConsoleAppDeps;
beforeAll(async () => {
  [world, fake] = await Promise.all([seedInvoiceWorld(), new FakeRazorpay(randomBytes(24).toString('base64url')).start()]);
  env = { ...stack().env, ...fake.serviceEnv() };
  svc = buildServices(parseConfig(env));
  deps = consoleAppDeps(svc, 'https://console.test/console', new PdfInvoiceRenderer());
}, 120_000);
afterAll(async () => fake?.stop());

const formOf = (page: { text: string }) => ({
  csrf: ConsoleBrowser.csrfOf(page),
  run: /name="run" value="([^"]+)"/.exec(page.text)?.[1] ?? '',
});

describe('console: a finance operator reconciles payments now', () => {
  it('records a payment whose webhook never came, shows matched / unmatched / exceptions, audits the run under the person, and runs once per form', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    const today = indiaToday(new Date());
    const billed = await runAdminTool(['billing', 'run', '--group', g.agentGroupId, '--from', addDays(today, -7), '--to', today, '--json'], env);
    expect(billed.code, billed.stderr).toBe(0);
    const [invoiceId] = JSON.parse(billed.stdout).invoiceIds as string[];
    const invoice = (await svc.invoices.get(g.agentGroupId, invoiceId!))!;
    const paid = fake.pay(invoice.gatewayOrderId!, invoice.total);

    const finance = await signedInAs(deps, { kind: 'operator', role: 'finance-operator' });
    const page = await finance.get('/console/operator/payments');
    expect(page.text).toContain('Reconcile now');
    const form = { ...formOf(page), group: g.agentGroupId };

    const forged = await finance.post('/console/operator/payments/reconcile', { ...form, csrf: consoleTokens.newToken() });
    expect(forged.statusCode).toBe(403);
    expect((await svc.invoices.get(g.agentGroupId, invoiceId!))!.status).toBe('ISSUED');
    expect((await finance.post('/console/operator/payments/reconcile', { ...form, run: '' })).text).toContain('run:');
    const unknown = await finance.post('/console/operator/payments/reconcile', { ...form, group: 'no-such-group' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.text).toContain('group:');

    // Double-submitted: the two sends race; one runs, the other waits its turn or replays it, and the payment is recorded once.
    const [first, second] = await Promise.all([
      finance.post('/console/operator/payments/reconcile', form),
      finance.post('/console/operator/payments/reconcile', form),
    ]);
    const ran = [first, second].find((r) => r.statusCode === 200 && !r.text.includes('already sent'))!;
    expect(ran.text).toContain('<h1>Reconciliation</h1>');
    expect(ran.text).toContain(paid.payment.id);
    expect(ran.text).toMatch(/Matched and recorded now<\/dt><dd>1</);
    expect(ran.text).toMatch(/Still unmatched<\/dt><dd>0</);
    expect(ran.text).toMatch(/Exceptions<\/dt><dd>0</);
    const other = first === ran ? second : first;
    expect([200, 409]).toContain(other.statusCode);
    const again = await finance.post('/console/operator/payments/reconcile', form);
    expect(again.statusCode).toBe(200);
    expect(again.text).toContain('This form was already sent');
    expect(again.text).toContain(paid.payment.id);
    expect(await svc.invoices.get(g.agentGroupId, invoiceId!)).toMatchObject({ status: 'PAID', amountPaid: invoice.total });
    expect((await svc.receivables.payments(g.agentGroupId)).filter((p) => p.reference === paid.payment.id)).toHaveLength(1);

    const runs = (await svc.auditTrail.listTarget(RECONCILIATION_RUN_TARGET)).filter((e) => e.after?.group === g.agentGroupId);
    expect(runs.map((e) => e.after?.status)).toEqual(['started', 'completed']);
    expect(runs[1]).toMatchObject({ action: 'payments.reconciliation-run', actorKind: 'operator', actor: expect.stringMatching(/^person:/) });
    expect(runs[1]!.after).toMatchObject({ recorded: 1, unmatched: 0, failures: 0 });
    expect(runs[0]!.requestId).toBe(runs[1]!.requestId);
  }, 180_000);

  it('is a finance operator’s: an operator sees no form and is refused (403); partners’ people get 404', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    const ops = await signedInAs(deps, { kind: 'operator', role: 'operator' });
    const page = await ops.get('/console/operator/payments');
    expect(page.text).not.toContain('Reconcile now');
    expect((await ops.post('/console/operator/payments/reconcile', { csrf: ConsoleBrowser.csrfOf(page), run: 'abcdef12-run' })).statusCode).toBe(403);
    const admin = await signedInAs(deps, { kind: 'partner', agentGroupId: g.agentGroupId, partnerId: g.partnerId, role: 'admin' });
    const home = await admin.get('/console/home');
    const refused = await admin.post('/console/operator/payments/reconcile', { csrf: ConsoleBrowser.csrfOf(home), run: 'abcdef12-run' });
    expect(refused.statusCode).toBe(404);
  }, 120_000);
});
