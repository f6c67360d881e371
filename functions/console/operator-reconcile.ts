import { can } from '../../domain/console/people.ts';
import { ConflictError, ValidationError } from '../../domain/errors.ts';
import { runOnce } from '../../domain/idempotency/idempotency-key.ts';
import { reconcilePayments, type ReconcileReport } from '../../domain/receivables/gateway-accounts.ts';
import { reconcileAs } from '../../domain/receivables/reconcile-as.ts';
import { clockFor } from '../../infra/compose/core.ts';
import { reconcileDeps } from '../../infra/compose/console.ts';
import type { HttpResult } from '../http/types.ts';
import { figure, operatorHtml, type ConsoleAppDeps, type Request, type Signed } from './app.ts';
import { money } from './format.ts';
import { html, type Html } from './html.ts';
import { postForm } from './layout.ts';

/*
 * A payments reconciliation on demand (docs/console.md "Gateway payments"): the hourly reconcilePayments
 * function's use case, run in the request under the person, once per form (docs/decisions/console.md).
 */

export const RECONCILE_PATH = '/console/operator/payments/reconcile';

/** A run's key, put in the form when the page is drawn: a form sent twice is one run. */
const RUN_KEY = /^[A-Za-z0-9-]{8,64}$/;

/** The form's fields, checked: the run's key (400 naming `run` when absent or malformed) and an optional group. */
export function reconcileRequestOf(form: URLSearchParams): { runKey: string; group: string | undefined } {
  const runKey = form.get('run')?.trim() ?? '';
  if (!RUN_KEY.test(runKey)) throw new ValidationError('run', 'run must be the key the payments page put in its form (reload the page and send it again).');
  const group = form.get('group')?.trim() ?? '';
  if (group.length > 100) throw new ValidationError('group', 'group must be an agent group id of at most 100 characters, or empty for every group.');
  return { runKey, group: group || undefined };
}

/** The payments page's form, for finance operators only; each drawing of the page carries a fresh run key. */
export const reconcileForm = (deps: ConsoleAppDeps, ctx: Signed): Html =>
  can(ctx.person.access, 'reconcile-payments')
    ? postForm(
        ctx.viewer,
        RECONCILE_PATH,
        html`<input type="hidden" name="run" value="${deps.svc.ids.uuid()}">
<label for="reconcile-group">Only this agent group (empty: every group with open invoices)</label>
<input id="reconcile-group" name="group" autocomplete="off">
<button type="submit">Reconcile now</button>`,
        'Reconcile payments now',
      )
    : html`<p>A finance operator can run it now from this page.</p>`;

const outcomePage = (ctx: Signed, r: ReconcileReport, replayed: boolean, only: string | undefined): HttpResult => {
  const exceptions = [...r.failures.map((f) => ({ group: f.agentGroupId, what: f.error }))];
  const body = html`${
    replayed ? html`<p class="notice" role="status">This form was already sent: this is the outcome of that run; nothing was run again.</p>` : ''
  }
<p>${only ? html`Agent group ${only}` : 'Every group with open invoices'}: each order's and virtual account's payments asked of Razorpay, those never announced recorded once.</p>
<dl class="figures">
${figure('Groups checked', String(r.groups))}
${figure('Orders checked', String(r.ordersChecked))}
${figure('Captured payments found', String(r.found))}
${figure('Matched and recorded now', String(r.recorded.length))}
${figure('Still unmatched', String(r.unmatched))}
${figure('Exceptions', String(exceptions.length))}
</dl>
<h2>Recorded now</h2>
${
  r.recorded.length
    ? html`<div class="table-wrap"><table><caption class="skip">Payments recorded by this run</caption><thead><tr><th scope="col">Group</th><th scope="col">Payment</th><th scope="col" class="num">Amount</th></tr></thead><tbody>${r.recorded.map(
        (p) =>
          html`<tr><td><a href="/console/operator/groups/${encodeURIComponent(p.agentGroupId)}/payments">${p.agentGroupId}</a></td><td>${p.paymentId}</td><td class="num">${money(p.amount)}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No payment was missing: every captured payment found was already recorded.</p>`
}
${r.refunded.length || r.disputed.length || r.reordered.length || r.captured.length ? html`<p>Also: ${String(r.captured.length)} authorized payment(s) captured, ${String(r.refunded.length)} refund(s) and ${String(r.disputed.length)} dispute change(s) recorded, ${String(r.reordered.length)} order(s) replaced for what is owed now.</p>` : ''}
<h2>Exceptions</h2>
${
  exceptions.length
    ? html`<div class="table-wrap"><table><caption class="skip">Exceptions of this run</caption><thead><tr><th scope="col">Group</th><th scope="col">What happened</th></tr></thead><tbody>${exceptions.map(
        (e) => html`<tr><td>${e.group === '*' ? 'Whole account' : e.group}</td><td>${e.what}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>None.</p>`
}
<p>${r.unmatched ? 'Payments still unmatched are listed on ' : 'Unmatched payments kept earlier are on '}<a href="/console/operator/payments">the gateway payments page</a>.</p>`;
  return operatorHtml(ctx, 'Reconciliation', 'gateway-payments', body);
};

/**
 * POST: the run, in the request (it costs one gateway call per open invoice's order and per group, as the hourly run does),
 * once per run key: the same form sent again shows the first run's outcome; sent while it runs, a 409 that says so.
 */
export const reconcileNow = async (deps: ConsoleAppDeps, req: Request, ctx: Signed): Promise<HttpResult> => {
  const { runKey, group } = reconcileRequestOf(req.form);
  const svc = deps.svc;
  if (group && !(await svc.tenants.getAgentGroup(group))) throw new ValidationError('group', `group ${group} is not an agent group.`);
  const run = (origin: typeof ctx.origin, only?: string) => reconcilePayments({ ...reconcileDeps(svc), clockFor: clockFor(svc) }, origin, only);
  try {
    const { reply, replayed } = await runOnce(
      svc,
      { scope: `console#${ctx.person.personId}#reconcile-payments`, key: runKey, requestHash: group ?? '*' },
      async () => ({ status: 200, body: await reconcileAs({ audit: svc.auditTrail, clock: svc.clock, ids: svc.ids }, ctx.origin, group, run) }),
    );
    return outcomePage(ctx, reply.body as ReconcileReport, replayed, group);
  } catch (err) {
    if (err instanceof ConflictError && err.details.reasonCode === 'IDEMPOTENCY_KEY_IN_USE')
      return {
        ...operatorHtml(
          ctx,
          'Reconciliation running',
          'gateway-payments',
          html`<p class="notice" role="status">This reconciliation is still running. Send the form again in a minute to see its outcome; it will not run twice.</p>`,
        ),
        statusCode: 409,
      };
    if (err instanceof ConflictError) throw new ValidationError('run', 'This form was sent before for another group: reload the payments page for a new one.');
    throw err;
  }
};
