import { randomBytes } from 'node:crypto';
import '../../infra/payments/with-razorpay.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { consoleAppDeps, type ConsoleAppDeps } from '../../functions/console/app.ts';
import { parseConfig } from '../../infra/config.ts';
import { buildServices, type Services } from '../../infra/container.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { ConsoleBrowser } from '../support/console-browser.ts';
import { signedInAs } from '../support/console-session.ts';
import { FakeRazorpay } from '../support/fake-razorpay.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { newAgentGroup, stack, type GroupFixture } from '../support/stack.ts';

/*
 * An operator reconciles one group with Razorpay from the console, as the hourly run and `payments reconcile --group` do:
 * the fake Razorpay over HTTP holds a payment whose notifications never came, and the console's run records it once.
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
afterAll(async () => {
  await fake?.stop();
});

/** A group with one issued invoice and its order at the fake, billed by the admin tool. */
async function billed(): Promise<{ g: GroupFixture; invoiceId: string; orderId: string; total: number }> {
  const g = await newAgentGroup({ channelId: world.channelId });
  await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
  const today = indiaToday(new Date());
  const run = await runAdminTool(['billing', 'run', '--group', g.agentGroupId, '--from', addDays(today, -7), '--to', today, '--json'], env);
  expect(run.code, run.stderr).toBe(0);
  const [invoiceId] = JSON.parse(run.stdout).invoiceIds as string[];
  const invoice = (await svc.invoices.get(g.agentGroupId, invoiceId!))!;
  expect(invoice.gatewayOrderId).toBeTruthy();
  return { g, invoiceId: invoiceId!, orderId: invoice.gatewayOrderId!, total: invoice.total };
}

describe('reconciling a group with Razorpay from the console', () => {
  it('records a payment whose notifications were lost, once however often it is asked, under the person; the invoice is paid', async () => {
    const { g, invoiceId, orderId, total } = await billed();
    const { payment } = fake.pay(orderId, total);
    const ops = await signedInAs(deps, { kind: 'operator', role: 'operator' });
    const path = `/console/operator/groups/${encodeURIComponent(g.agentGroupId)}`;
    const page = await ops.get(`${path}/payments`);
    expect(page.statusCode).toBe(200);
    const group = (await svc.tenants.getAgentGroup(g.agentGroupId))!;
    expect(page.text).toContain(`Reconcile ${group.name} now`);
    expect((await ops.post(`${path}/reconcile`, {})).statusCode).toBe(403);
    const csrf = ConsoleBrowser.csrfOf(page);
    // Sent twice at once (a double click): the payment is recorded once.
    const [first, second] = await Promise.all([ops.post(`${path}/reconcile`, { csrf }), ops.post(`${path}/reconcile`, { csrf })]);
    for (const answer of [first, second]) {
      expect(answer.statusCode, answer.text).toBe(200);
      expect(answer.text).toContain('Reconciled:');
    }
    expect([first.text, second.text].filter((t) => t.includes(`1 newly recorded (${payment.id}`))).toHaveLength(1);
    const payments = await svc.receivables.payments(g.agentGroupId);
    expect(payments.map((p) => [p.reference, p.amount])).toEqual([[payment.id, total]]);
    expect((await svc.invoices.get(g.agentGroupId, invoiceId))!.status).toBe('PAID');
    const trail = await svc.auditTrail.listTarget(`payment:${payments[0]!.ledgerEntryId}`);
    expect(trail.map((e) => [e.action, e.actorKind])).toEqual([['payment.recorded', 'operator']]);
  }, 240_000);

  it("is an operator's act: a partner's people get a missing page, and a group that does not exist is one too", async () => {
    const { g } = await billed();
    const admin = await signedInAs(deps, { kind: 'partner', agentGroupId: g.agentGroupId, partnerId: g.partnerId, role: 'admin' });
    const home = await admin.get('/console/home');
    expect(
      (await admin.post(`/console/operator/groups/${encodeURIComponent(g.agentGroupId)}/reconcile`, { csrf: ConsoleBrowser.csrfOf(home) })).statusCode,
    ).toBe(404);
    const ops = await signedInAs(deps, { kind: 'operator', role: 'finance-operator' });
    const groups = await ops.get('/console/operator/groups');
    expect((await ops.post('/console/operator/groups/no-such-group/reconcile', { csrf: ConsoleBrowser.csrfOf(groups) })).statusCode).toBe(404);
  }, 240_000);
});
