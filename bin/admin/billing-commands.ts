import { runBillingAsOperator } from '../../domain/invoicing/request-billing-run.ts';
import { billingRunView } from '../../domain/invoicing/read-invoices.ts';
import { abandonDraft, rerenderPdf } from '../../domain/invoicing/manage-invoices.ts';
import { reissuePastWindow } from '../../domain/invoicing/reissue-past-window.ts';
import { eInvoiceStatus, reconcileEInvoice } from '../../domain/invoicing/register-e-invoice.ts';
import { cancelReasonOf, voidInvoice } from '../../domain/invoicing/void-invoice.ts';
import { billAllGroups, queueBillingRun, type GroupBillingOutcome } from '../../domain/invoicing/scheduled-billing.ts';
import type { FanOutProgress } from '../../domain/ports/billing-fan-out.ts';
import { followBillingRun } from '../../domain/invoicing/follow-billing-run.ts';
import type { BillingRunResult, Invoice, OpenFigures } from '../../domain/invoicing/invoice.ts';
import { backfillBillingIndex, checkBillingIndex, noDrift, type BillingIndexReport } from '../../domain/invoicing/billing-index.ts';
import { ValidationError, NotFoundError } from '../../domain/errors.ts';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CANCEL_REASONS } from '../../domain/ports/e-invoice-registry.ts';
import { formatInr as rupees, toRupees } from '../../domain/money.ts';
import { billingDeps } from '../../infra/compose/admin.ts';
import { columns, GROUP_OPTION, UsageError, type AdminContext, type CommandSpec } from './command.ts';
import { durationOption, integerOption } from './input.ts';

/** pdf-lib and its fonts load only for commands that bill or render, not every time the tool starts. */
export async function deps(ctx: AdminContext) {
  const [{ PdfInvoiceRenderer }, { withStatementPdf }] = await Promise.all([
    import('../../infra/pdf/pdf-invoice-renderer.ts'),
    import('../../infra/pdf/statement-renderer.ts'),
  ]);
  return withStatementPdf(billingDeps(ctx.services(), new PdfInvoiceRenderer()));
}

const runLine = (r: BillingRunResult): string =>
  `${r.agentGroupId}: period ${r.periodFrom} to ${r.periodTo}, ${r.linesWritten} lines, invoices ${r.invoiceIds.join(', ') || '(none)'}` +
  `${r.draftsLeft ? `, ${r.draftsLeft} left DRAFT` : ''}${r.blockedStates.length ? `, held back: ${r.blockedStates.map((b) => `${b.state} (${b.lineCount} lines)`).join(', ')}` : ''}` +
  `${r.skippedEntries.length ? `, ${r.skippedEntries.length} skipped` : ''}${r.unreconciledEntries.length ? `, ${r.unreconciledEntries.length} unreconciled` : ''}`;

const outcomeLine = (o: GroupBillingOutcome, done: number, of: number): string =>
  `[${done}/${of}] ${o.outcome === 'BILLED' ? runLine(o.result) : o.outcome === 'UP_TO_DATE' ? `${o.agentGroupId}: up to date (period to ${o.periodTo} billed)` : `${o.agentGroupId}: FAILED: ${o.error}`}`;

const progressLines = (p: FanOutProgress): string[] => [
  `Run ${p.runId} (${p.trigger}, day ${p.day}, started ${p.startedAt}): ${p.enqueued} groups queued: ${p.billed} billed, ${p.upToDate} up to date, ${p.failed} failed, ${p.pending} pending; ${p.invoicesIssued} invoices issued.`,
  ...p.failures.map((f) => `  FAILED ${f.agentGroupId} (${f.attempts} attempt${f.attempts === 1 ? '' : 's'}, last ${f.at}): ${f.error}`),
];

/** How long --wait follows a run unless --timeout says otherwise: a run's groups take seconds each, a stage's hundreds of groups minutes. */
const DEFAULT_WAIT_MS = 30 * 60_000;

const WAIT_OPTIONS = [
  { name: 'wait', description: 'Follow the run to its end, a line each time its progress changes; exit 1 when a group failed or the wait ran out.' },
  { name: 'timeout', value: '<duration>', description: 'With --wait: how long to follow it at most (90s, 15m, 2h; default 30m). The run carries on after.' },
] as const;

const elapsedOf = (ms: number): string => {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
};

const followLine = (p: FanOutProgress, elapsedMs: number): string =>
  `[${elapsedOf(elapsedMs)}] ${p.enqueued - p.pending}/${p.enqueued} groups done: ${p.billed} billed, ${p.upToDate} up to date, ${p.failed} failed; ` +
  `${p.invoicesIssued} invoice${p.invoicesIssued === 1 ? '' : 's'} issued; ${p.pending} pending.`;

/** --timeout, which only a wait can use. */
function waitTimeoutOf(args: { text(name: string): string | undefined; flag(name: string): boolean }): number {
  const timeout = args.text('timeout');
  if (timeout !== undefined && !args.flag('wait')) throw new UsageError('--timeout bounds --wait: give --wait too.', '--timeout');
  return timeout === undefined ? DEFAULT_WAIT_MS : durationOption('timeout', timeout);
}

/**
 * Follows a run over every group in its run log until every group has an outcome or the
 * wait runs out, printing a line whenever the counts move and each group's failure once per
 * attempt. Exit 0 only when the run completed with no group failed.
 */
async function followRun(runId: string, timeoutMs: number, ctx: AdminContext): Promise<number> {
  const told = new Set<string>();
  const { progress, state, timedOut } = await followBillingRun({ billingRuns: ctx.services().billingRuns, waiting: ctx.following.waiting }, runId, {
    everyMs: ctx.following.everyMs,
    timeoutMs,
    onChange: (p, elapsed) => {
      ctx.out.progress(followLine(p, elapsed));
      for (const f of p.failures) {
        if (told.has(`${f.agentGroupId}#${f.attempts}`)) continue;
        told.add(`${f.agentGroupId}#${f.attempts}`);
        ctx.out.progress(`  FAILED ${f.agentGroupId} (attempt ${f.attempts}): ${f.error}`);
      }
    },
  });
  const outcome = timedOut ? 'TIMED_OUT' : state;
  ctx.out.result({ ...progress, outcome }, () => [
    outcome === 'COMPLETED'
      ? `Run ${runId} completed: ${progress.enqueued} groups, ${progress.billed} billed, ${progress.upToDate} up to date, ${progress.invoicesIssued} invoices issued.`
      : outcome === 'FAILED'
        ? `Run ${runId} ended with ${progress.failed} of ${progress.enqueued} groups failed (${progress.failures.map((f) => f.agentGroupId).join(', ')}). ` +
          `A failed group's message is delivered again (5 attempts, then the billing dead-letter queue): see it with billing runs --run ${runId}.`
        : `Run ${runId} still running after ${elapsedOf(timeoutMs)}: ${progress.pending} of ${progress.enqueued} groups pending. The run carries on; follow it with billing runs --run ${runId} --wait.`,
  ]);
  return outcome === 'COMPLETED' ? 0 : 1;
}

export const billingRun: CommandSpec = {
  path: ['billing', 'run'],
  summary: 'Run billing now for one group (its last closed period, or --from/--to), or for every group with --all.',
  details: [
    'The same engine as POST /v1/invoices and the daily run, without the partner throttle, under the same per-group lock.',
    "--all bills every group's last closed period as a run over every group, the daily run's code: where the stage has a billing queue (BILLING_QUEUE_URL) it queues one message per group for the billing worker and prints the run's id (follow it with billing runs --run <id>); without one, or with --in-process, it bills the groups here, --concurrency at once, one line per group as it finishes. A group that fails is reported and the rest carry on.",
    '--wait follows a queued run to its end from the run log, a progress line (groups done of all, billed, up to date, failed, invoices issued) whenever it moves. It ends when every group has an outcome, at most --timeout (default 30m). Exit 0 when every group was billed or up to date; 1 when any group failed (its message is delivered again: see billing runs --run <id>) or the wait ran out (the run carries on). A run billed here (no queue, or --in-process) always waits, with the same exit codes.',
  ].join('\n'),
  options: [
    { name: 'group', value: '<groupId>', description: 'The agent group to bill (or --all).' },
    { name: 'all', description: 'Bill every agent group.' },
    { name: 'in-process', description: 'With --all: bill here even where a billing queue is configured.' },
    { name: 'concurrency', value: '<n>', description: 'With --all in-process: groups billed at once (default 4, 1 to 16).' },
    { name: 'from', value: '<yyyy-mm-dd>', description: 'Period start (with --to; one group only).' },
    { name: 'to', value: '<yyyy-mm-dd>', description: 'Period end, inclusive (with --from).' },
    ...WAIT_OPTIONS,
  ],
  examples: [
    'billing run --group tripkart-agents',
    'billing run --group tripkart-agents --from 2026-11-01 --to 2026-11-30',
    'billing run --all',
    'billing run --all --wait --timeout 45m',
    'billing run --all --in-process --concurrency 8',
  ],
  async run(args, ctx) {
    if (args.flag('all')) {
      if (args.text('group') !== undefined) throw new ValidationError('all', '--all bills every group: leave out --group.');
      const concurrency = args.text('concurrency') === undefined ? 4 : integerOption('concurrency', args.text('concurrency')!);
      if (concurrency < 1 || concurrency > 16) throw new ValidationError('concurrency', '--concurrency must be from 1 to 16.');
      const timeoutMs = waitTimeoutOf(args);
      const svc = ctx.services();
      if (svc.config.billingQueueUrl && !args.flag('in-process')) {
        const run = await queueBillingRun(svc, { trigger: 'ADMIN', force: true });
        if (args.flag('wait')) {
          ctx.out.progress(`Queued ${run.enqueued} groups on the billing queue as run ${run.runId}; following it (at most ${elapsedOf(timeoutMs)}).`);
          return followRun(run.runId, timeoutMs, ctx);
        }
        ctx.out.result(run, () => [
          `Queued ${run.enqueued} groups on the billing queue as run ${run.runId}; follow it with: billing runs --run ${run.runId} --wait`,
        ]);
        return;
      }
      if (args.text('timeout') !== undefined)
        throw new UsageError('--timeout bounds the wait for a queued run; a run billed here ends when its groups do.', '--timeout');
      const d = await deps(ctx);
      const outcomes = await billAllGroups(d, {
        trigger: 'ADMIN',
        force: true,
        concurrency,
        onGroup: (o, done, of) => ctx.out.progress(outcomeLine(o, done, of)),
      });
      const failed = outcomes.filter((o) => o.outcome === 'FAILED').length;
      ctx.out.result(
        outcomes.map((o) =>
          o.outcome === 'BILLED' ? { agentGroupId: o.agentGroupId, outcome: o.outcome, runId: o.result.runId, ...billingRunView(o.result) } : o,
        ),
        () => [`${outcomes.length} groups: ${outcomes.length - failed} billed or up to date, ${failed} failed.`],
      );
      return failed ? 1 : undefined;
    }
    if (args.text('timeout') !== undefined) throw new UsageError('--timeout bounds the wait for a run over every group (--all).', '--timeout');
    const d = await deps(ctx);
    const groupId = args.text('group');
    if (groupId === undefined) throw new ValidationError('group', 'Give --group <groupId>, or --all for every group.');
    const group = await ctx.services().tenants.getAgentGroup(groupId);
    if (!group) throw new NotFoundError('Agent group');
    const from = args.text('from');
    const to = args.text('to');
    const result = await runBillingAsOperator(d, group, { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) }, ctx.origin());
    ctx.out.result({ runId: result.runId, ...billingRunView(result), draftsLeft: result.draftsLeft }, () => [runLine(result)]);
  },
};

export const billingRuns: CommandSpec = {
  path: ['billing', 'runs'],
  summary:
    "Show the latest run over every group (the daily run) with its progress across groups, then recent groups' billing runs, newest first; --run shows one run over every group.",
  details: [
    'A run over every group counts its groups queued, billed, up to date, failed (the latest attempt failed: a redelivery may still bill it; after 5 attempts its message is in the billing dead-letter queue) and pending (no outcome yet), and names each failed group with its error.',
    "Runs are kept 180 days. --json prints the groups' runs whole (blocked states, skipped and unreconciled entries), or with --run that run's progress.",
  ].join('\n'),
  options: [
    { name: 'run', value: '<runId>', description: 'One run over every group (daily-<yyyy-mm-dd>, or the id billing run --all printed).' },
    { name: 'group', value: '<groupId>', description: 'Only this agent group.' },
    { name: 'limit', value: '<n>', description: 'How many runs (default 20, at most 100).' },
    ...WAIT_OPTIONS,
  ],
  examples: [
    'billing runs',
    'billing runs --run daily-2026-11-26',
    'billing runs --run daily-2026-11-26 --wait --timeout 10m',
    'billing runs --group tripkart-agents --json',
  ],
  async run(args, ctx) {
    const timeoutMs = waitTimeoutOf(args);
    if (args.flag('wait') && args.text('run') === undefined) throw new UsageError('--wait follows one run: give --run <runId>.', '--wait');
    const limit = args.text('limit') === undefined ? 20 : integerOption('limit', args.text('limit')!);
    if (limit < 1 || limit > 100) throw new ValidationError('limit', '--limit must be from 1 to 100.');
    const svc = ctx.services();
    const runId = args.text('run');
    if (runId !== undefined) {
      if (args.flag('wait')) return followRun(runId, timeoutMs, ctx);
      const progress = await svc.billingRuns.progress(runId);
      if (!progress) throw new NotFoundError('Billing run');
      ctx.out.result(progress, () => progressLines(progress));
      return;
    }
    const group = args.text('group');
    const [runs, latest] = await Promise.all([
      svc.billingRuns.groupRuns(limit, group),
      group === undefined ? svc.billingRuns.recentRuns(1) : Promise.resolve([]),
    ]);
    const progress = latest[0] && (await svc.billingRuns.progress(latest[0].runId));
    ctx.out.result(runs, () => [
      ...(progress ? [...progressLines(progress), ''] : []),
      ...(runs.length === 0
        ? ['No billing runs yet.']
        : columns(
            [
              ['STARTED', 'GROUP', 'TRIGGER', 'PERIOD', 'LINES', 'INVOICES', 'DRAFTS LEFT', 'HELD BACK', 'SKIPPED', 'UNRECONCILED'],
              ...runs.map((r) => [
                r.startedAt,
                r.agentGroupId,
                r.trigger,
                `${r.periodFrom}..${r.periodTo}`,
                String(r.linesWritten),
                String(r.invoiceIds.length),
                String(r.draftsLeft),
                String(r.blockedStates.length),
                String(r.skippedEntries.length),
                String(r.unreconciledEntries.length),
              ]),
            ],
            '',
          )),
    ]);
  },
};

/** One group, or every group (the order of the directory, so a backfill interrupted is run again over the same list). */
async function groupsOf(args: { text(name: string): string | undefined }, ctx: AdminContext): Promise<string[]> {
  const groupId = args.text('group');
  if (groupId === undefined) return (await ctx.services().tenants.listAgentGroups()).map((g) => g.agentGroupId);
  if (!(await ctx.services().tenants.getAgentGroup(groupId))) throw new NotFoundError('Agent group');
  return [groupId];
}

export const billingBackfillUnbilled: CommandSpec = {
  path: ['billing', 'backfill-unbilled'],
  summary: "Index the billing history of groups billed before the unbilled index and the list's kept figures (run once after deploying them).",
  details: [
    'A billing run reads only the bookings with unbilled work, and GET /v1/invoices reads kept figures over the invoices still owing (docs/invoicing.md). Postings and issues since the deploy keep both; this indexes what came before, a group at a time: every POSTED entry under its booking, the bookings with something to bill or correct as pending, and every invoice still owing counted in the kept figures.',
    'Idempotent and resumable: a group already done is skipped (--again redoes it), and a group interrupted halfway is simply done again. Safe beside live traffic; it paces its own writes (8 in flight) and reads each group once.',
    'Until a group is done, its runs read its whole history and its list reads every invoice, as before: slower, never wrong.',
  ].join('\n'),
  options: [
    { name: 'group', value: '<groupId>', description: 'Only this agent group (default: every group).' },
    { name: 'again', description: 'Redo groups already done.' },
  ],
  examples: ['billing backfill-unbilled', 'billing backfill-unbilled --group tripkart-agents'],
  async run(args, ctx) {
    const d = await deps(ctx);
    const groups = await groupsOf(args, ctx);
    const done: { agentGroupId: string; skipped: boolean; bookings?: number; pending?: number; invoicesCounted?: number }[] = [];
    for (const [i, g] of groups.entries()) {
      if (!args.flag('again') && (await d.unbilled.isComplete(g)) && (await d.owing.keptOpenFigures(g))) {
        done.push({ agentGroupId: g, skipped: true });
        ctx.out.progress(`[${i + 1}/${groups.length}] ${g}: already indexed`);
        continue;
      }
      const r = await backfillBillingIndex(d, g);
      done.push({ agentGroupId: g, skipped: false, ...r });
      ctx.out.progress(
        `[${i + 1}/${groups.length}] ${g}: ${r.bookings} bookings indexed, ${r.pending} with unbilled work, ${r.invoicesCounted} open invoices counted`,
      );
    }
    ctx.out.result(done, () => [
      `${done.length} groups: ${done.filter((x) => !x.skipped).length} indexed, ${done.filter((x) => x.skipped).length} already indexed.`,
    ]);
  },
};

export const billingCheckIndex: CommandSpec = {
  path: ['billing', 'check-index'],
  summary: "Compare the unbilled index and the list's kept figures with the whole billing history (drift check, read-only).",
  details:
    'Missing: bookings with something to bill, correct or report that the index does not hold (a run would leave them out): repair with billing backfill-unbilled --group <g> --again. Extra: bookings held with nothing to do (harmless; the next run takes them out). Figures: the kept outstanding, count and oldest due date against every invoice. --json gives each group with drift true or false.',
  options: [{ name: 'group', value: '<groupId>', description: 'Only this agent group (default: every group).' }],
  examples: ['billing check-index', 'billing check-index --group tripkart-agents --json'],
  async run(args, ctx) {
    const d = await deps(ctx);
    const reports: BillingIndexReport[] = [];
    for (const g of await groupsOf(args, ctx)) reports.push(await checkBillingIndex(d, g));
    const drifted = reports.filter((r) => !noDrift(r));
    ctx.out.result(
      reports.map((r) => ({ ...r, drift: !noDrift(r) })),
      () => [
        ...reports.map(
          (r) =>
            `${r.agentGroupId}: ${r.indexComplete ? `index: ${r.missing.length} missing${r.missing.length ? ` (${r.missing.slice(0, 5).join(', ')}${r.missing.length > 5 ? ', …' : ''})` : ''}, ${r.extra} extra of ${r.owing} owing` : 'index not backfilled yet'}; ` +
            `figures: ${r.keptFigures ? (JSON.stringify(r.keptFigures) === JSON.stringify(r.figures) ? 'as every invoice gives them' : `kept ${figuresLine(r.keptFigures)}, every invoice ${figuresLine(r.figures)}`) : 'not kept yet'}`,
        ),
        drifted.length ? `${drifted.length} of ${reports.length} groups drifted.` : `No drift in ${reports.length} groups.`,
      ],
    );
  },
};

const figuresLine = (f: OpenFigures) => `${rupees(f.outstanding)} in ${f.openCount} invoices, oldest due ${f.oldestDueDate ?? '-'}`;

const invoiceRow = (i: Invoice) => [
  i.id,
  i.status,
  i.invoiceNumber ?? '',
  i.issueDate ?? '',
  i.dueDate ?? '',
  i.supplierGstin,
  rupees(i.total),
  String(i.lineCount),
  i.lastError ?? '',
];
const invoiceView = (i: Invoice) => ({
  id: i.id,
  status: i.status,
  invoiceNumber: i.invoiceNumber,
  issueDate: i.issueDate,
  dueDate: i.dueDate,
  periodFrom: i.periodFrom,
  periodTo: i.periodTo,
  supplierGstin: i.supplierGstin,
  total: toRupees(i.total),
  lineCount: i.lineCount,
  gatewayOrderId: i.gatewayOrderId,
  pdfStored: i.pdfKey !== null,
  lastError: i.lastError,
});

export const invoicesList: CommandSpec = {
  path: ['invoices', 'list'],
  summary: "List a group's open invoices (DRAFTs with their last error, issued ones with a step left) and its latest issued ones.",
  options: [GROUP_OPTION, { name: 'limit', value: '<n>', description: 'Issued invoices to show (default 20, at most 100).' }],
  examples: ['invoices list --group tripkart-agents'],
  async run(args, ctx) {
    const g = args.required('group');
    const limit = args.text('limit') === undefined ? 20 : integerOption('limit', args.text('limit')!);
    if (limit < 1 || limit > 100) throw new ValidationError('limit', '--limit must be from 1 to 100.');
    const store = ctx.services().invoices;
    const [open, issued] = await Promise.all([store.openInvoices(g), store.list(g, { statuses: ['ISSUED', 'PAID'], limit })]);
    const all = [...open, ...issued.invoices.filter((i) => !open.some((o) => o.id === i.id))];
    ctx.out.result(all.map(invoiceView), () =>
      all.length === 0
        ? [`No invoices for group ${g}.`]
        : columns([['ID', 'STATUS', 'NUMBER', 'ISSUED', 'DUE', 'SUPPLIER GSTIN', 'TOTAL', 'LINES', 'LAST ERROR'], ...all.map(invoiceRow)], ''),
    );
  },
};

export const invoicesAbandon: CommandSpec = {
  path: ['invoices', 'abandon'],
  summary: 'Abandon a DRAFT invoice: it becomes CANCELLED and its charges are billed by the next run.',
  positional: { name: 'invoiceId', description: 'The DRAFT to abandon (from `invoices list`).' },
  options: [GROUP_OPTION],
  examples: ['invoices abandon 0b6f4c1e-3f1d-4a57-9a0e-5d1c2b3a4f5e --group tripkart-agents'],
  async run(args, ctx) {
    const invoice = await abandonDraft(await deps(ctx), args.required('group'), args.positional!, ctx.origin());
    ctx.out.result(invoiceView(invoice), () => [`Invoice ${invoice.id} is ${invoice.status}; its lines are released for the next run.`]);
  },
};

export const invoicesVoid: CommandSpec = {
  path: ['invoices', 'void'],
  summary:
    "Void a registered invoice or credit note within the IRP's 24 hours: its IRN is cancelled, it becomes CANCELLED keeping its number; an invoice's charges are billed by the next run, a credit note's credit is undone.",
  details:
    "The IRP allows cancelling an IRN only within 24 hours of its acknowledgement. After that, or for an invoice that was never registered, paid or credited, the tool refuses and changes nothing: a credit note is the only way. A credit note's void puts what it credited back on its invoice (which must be ISSUED) and the bookings' billed figures, and undoes an operator's ledger adjustment; refused when the note gave back payments as the group's credit. GSTR-1 reports a voided document among the cancelled documents of its series.",
  positional: { name: 'invoiceId', description: 'The issued, registered invoice or credit note.' },
  options: [
    GROUP_OPTION,
    {
      name: 'reason',
      value: '<1|2|3|4>',
      required: true,
      description: "The IRP's reason code: 1 Duplicate, 2 Data entry mistake, 3 Order cancelled, 4 Others.",
    },
    { name: 'remark', value: '<text>', description: 'Kept by the IRP with the cancellation (up to 100 characters; default: the reason).' },
  ],
  examples: ['invoices void 0b6f4c1e-3f1d-4a57-9a0e-5d1c2b3a4f5e --group tripkart-agents --reason 2 --remark "Wrong GSTIN on the bill-to"'],
  async run(args, ctx) {
    const reason = cancelReasonOf(args.required('reason'));
    const remark = (args.text('remark') ?? CANCEL_REASONS[reason]).trim();
    if (remark.length === 0 || remark.length > 100) throw new ValidationError('remark', `remark must be 1 to 100 characters; got ${remark.length}.`);
    const svc = ctx.services();
    const invoice = await voidInvoice(
      { invoices: svc.invoices, creditNotes: svc.creditNotes, eInvoices: svc.eInvoices, clock: svc.clock, ids: svc.ids },
      args.required('group'),
      args.positional!,
      reason,
      remark,
      ctx.origin(),
    );
    ctx.out.result({ ...invoiceView(invoice), invoiceNumber: invoice.invoiceNumber, eInvoice: invoice.eInvoice ?? null }, () => [
      `${invoice.creditNoteFor ? 'Credit note' : 'Invoice'} ${invoice.invoiceNumber} (${invoice.id}) is ${invoice.status}: IRN ${invoice.eInvoice?.irn} cancelled at the IRP on ${invoice.eInvoice?.cancelledAt}; ${invoice.creditNoteFor ? `its credit is back on invoice ${invoice.creditNoteForNumber}` : 'its charges are released for the next run'}.`,
    ]);
  },
};

export const invoicesReissue: CommandSpec = {
  path: ['invoices', 'reissue'],
  summary:
    "Reissue an invoice past the IRP's 30-day reporting window: its number is cancelled (kept, reported in GSTR-1 table 13) and its charges are billed at once on a new number dated today, registered with the IRP.",
  details:
    "Only for a document `invoices einvoice` shows PAST_REPORTING_WINDOW (the IRP will never register it, so it is not an invoice: CGST Rules rule 48(5)). Under the group's billing lock, one conditional update makes it CANCELLED keeping its number and date, on its registration's cancelled documents, and gives its lines back; then the group's billing run bills the same charges for the same period on the next number of the series, dated the day it is reported, and registers it. Refused, changing nothing, for any other state and for credit notes (escalate those to the tax team).",
  positional: { name: 'invoiceId', description: 'The numbered DRAFT past its window (from `invoices einvoice`).' },
  options: [GROUP_OPTION],
  examples: ['invoices reissue 0b6f4c1e-3f1d-4a57-9a0e-5d1c2b3a4f5e --group tripkart-agents'],
  async run(args, ctx) {
    const groupId = args.required('group');
    const group = await ctx.services().tenants.getAgentGroup(groupId);
    if (!group) throw new NotFoundError('Agent group');
    const { retired, run, reissued } = await reissuePastWindow(await deps(ctx), group, args.positional!, ctx.origin());
    ctx.out.result(
      {
        retired: { ...invoiceView(retired), retired: retired.retired ?? null },
        runId: run.runId,
        reissued: reissued.map((i) => ({ ...invoiceView(i), irn: i.eInvoice?.irn ?? null })),
      },
      () => [
        `Invoice ${retired.invoiceNumber} (${retired.id}) is ${retired.status}: its number is reported cancelled in GSTR-1 table 13.`,
        ...reissued.map(
          (i) =>
            `Reissued as ${i.invoiceNumber ?? '(no number yet)'} (${i.id}), ${i.status}, dated ${i.issueDate ?? '-'}${i.eInvoice ? `, IRN ${i.eInvoice.irn}` : i.lastError ? `: ${i.lastError}` : ''}.`,
        ),
        ...(reissued.length === 0 ? [`Billing run ${run.runId} issued nothing: ${runLine(run)}`] : []),
      ],
    );
  },
};

export const invoicesRender: CommandSpec = {
  path: ['invoices', 'render'],
  summary: "Render an issued invoice's PDF again from its stored figures and store it.",
  positional: { name: 'invoiceId', description: 'The issued invoice.' },
  options: [GROUP_OPTION],
  examples: ['invoices render 0b6f4c1e-3f1d-4a57-9a0e-5d1c2b3a4f5e --group tripkart-agents'],
  async run(args, ctx) {
    const invoice = await rerenderPdf(await deps(ctx), args.required('group'), args.positional!);
    ctx.out.result(invoiceView(invoice), () => [`Stored the PDF of invoice ${invoice.invoiceNumber} (${invoice.id}) at ${invoice.pdfKey}.`]);
  },
};

const E_INVOICE_STATES = {
  REGISTERED: 'registered with the IRP',
  PENDING: 'numbered, waiting for the IRP: the next billing run sends it again',
  NEEDS_RECONCILIATION:
    'the IRP holds a registration of this number that cannot be taken as ours (no longer served, 2283, or another document): not sent again until `invoices reconcile` resolves it',
  SIGNATURE_UNVERIFIED:
    "registered at the IRP, but its signatures do not verify under the stored signing key: IRN and acknowledgement kept, never sent again; store the portal's new key and the next billing run issues it",
  PAST_REPORTING_WINDOW:
    'past the IRP\'s 30-day reporting window (GSTN advisory of 5 November 2024: taxpayers with an AATO of 10 crores and above "would not be allowed to report e-Invoices older than 30 days from the date of reporting"): the IRP will not register it and it is not sent again; it needs a new document (docs/receivables.md "The 30-day reporting window")',
  NOT_NUMBERED: 'a DRAFT without a number yet: nothing to register',
  NOT_REQUIRED: 'issued without registration (its registration is not marked for e-invoicing, or the recipient has no GSTIN)',
  CANCELLED:
    'an abandoned draft, an invoice voided at the IRP (its IRN cancelled, its number kept), or one reissued past its reporting window (its number kept and reported cancelled)',
} as const;

export const invoicesEInvoice: CommandSpec = {
  path: ['invoices', 'einvoice'],
  summary: "Show an invoice's e-invoice: registration status (IRN, acknowledgement, last error) and its INV-01 JSON.",
  details:
    'The INV-01 JSON is what the billing run sends to the invoice registration portal (IRP) for a supplier registration marked for e-invoicing; it exists once the invoice has a number. --json prints status, registration and document together.',
  positional: { name: 'invoiceId', description: 'The invoice (from `invoices list`).' },
  options: [GROUP_OPTION],
  examples: [
    'invoices einvoice 0b6f4c1e-3f1d-4a57-9a0e-5d1c2b3a4f5e --group tripkart-agents',
    'invoices einvoice 0b6f4c1e-3f1d-4a57-9a0e-5d1c2b3a4f5e --group tripkart-agents --json',
  ],
  async run(args, ctx) {
    const svc = ctx.services();
    const e = await eInvoiceStatus({ invoices: svc.invoices, catalogue: svc.catalogue, clock: svc.clock }, args.required('group'), args.positional!);
    ctx.out.result(e, () => [
      `Invoice ${e.invoiceId} (${e.invoiceNumber ?? 'no number'}, ${e.status}): ${e.state} — ${E_INVOICE_STATES[e.state]}.`,
      `Supplier registration marked for e-invoicing: ${e.markedForEInvoicing ? 'yes' : 'no'}.`,
      ...(e.registration
        ? [
            `IRN: ${e.registration.irn}`,
            `Ack. No: ${e.registration.ackNo}`,
            `Ack. date: ${e.registration.ackDate}`,
            `Signed QR: ${e.registration.signedQr.length} characters`,
          ]
        : []),
      ...(e.hold
        ? [
            `Held since ${e.hold.since} (${e.hold.kind}): ${e.hold.reason}`,
            `Held IRN: ${e.hold.irn}, Ack. No ${e.hold.ackNo ?? '?'} of ${e.hold.ackDate ?? '?'}${e.hold.portalRecordGiven ? "; the portal's record is verified and kept: the next billing run issues it" : ''}`,
          ]
        : []),
      ...(e.reportingWindow
        ? [
            `30-day reporting window: last day ${e.reportingWindow.lastDay} (${e.reportingWindow.daysLeft < 0 ? `${-e.reportingWindow.daysLeft} day(s) ago` : `${e.reportingWindow.daysLeft} day(s) left`}).`,
          ]
        : []),
      ...(e.lastError ? [`Last error: ${e.lastError}`] : []),
      ...(e.documentError ? [`The document cannot be rendered: ${e.documentError}`] : []),
      ...(e.document ? ['INV-01 JSON:', JSON.stringify(e.document, null, 2)] : []),
    ]);
  },
};

export const invoicesHeld: CommandSpec = {
  path: ['invoices', 'held'],
  summary:
    "List the documents held for an operator at the IRP: NEEDS_RECONCILIATION (resolve with `invoices reconcile`) and SIGNATURE_UNVERIFIED (store the portal's new signing key).",
  details:
    'A held document is registered at the IRP (or its number is) but cannot be taken as ours without an operator; it is never sent to the IRP again while held, and every billing run that meets it counts EInvoiceHeld (alarmed). docs/receivables.md "Held e-invoices" says what to do with each.',
  options: [],
  examples: ['invoices held', 'invoices held --json'],
  async run(_args, ctx) {
    const held = await ctx.services().invoices.heldEInvoices();
    ctx.out.result(held, () =>
      held.length === 0
        ? ['No documents held for the IRP.']
        : columns(
            [
              ['SINCE', 'GROUP', 'INVOICE', 'NUMBER', 'SUPPLIER GSTIN', 'STATE', 'IRN', 'REASON'],
              ...held.map((h) => [
                h.since,
                h.agentGroupId,
                h.invoiceId,
                h.invoiceNumber ?? '',
                h.supplierGstin,
                h.kind === 'SIGNATURE' ? 'SIGNATURE_UNVERIFIED' : 'NEEDS_RECONCILIATION',
                h.irn,
                h.reason,
              ]),
            ],
            '',
          ),
    );
  },
};

export const invoicesReconcile: CommandSpec = {
  path: ['invoices', 'reconcile'],
  summary:
    "Resolve a document held as NEEDS_RECONCILIATION: give the portal's record of its registration (--file), or send it again once the cause is removed at the portal (--send-again).",
  details: [
    "--file: the portal's record of the IRN as JSON with Irn, AckNo, AckDt, SignedQRCode and SignedInvoice (Get IRN details' answer, or the e-invoice downloaded from the portal). Its signatures must hold under the registration's signing key and it must be our document (recipient GSTIN, number, date, total); then it is kept and the group's next billing run issues the invoice with it (`billing run --group <id>` to do it now). A record that does not verify or is another document is refused, nothing changed.",
    '--send-again: ends the hold, and the next billing run sends the document again. Only for NEEDS_RECONCILIATION, after the other document holding our number was cancelled at the portal; a SIGNATURE_UNVERIFIED document is registered and is never sent again.',
  ].join('\n'),
  positional: { name: 'invoiceId', description: 'The held invoice or credit note (from `invoices held`).' },
  options: [
    GROUP_OPTION,
    { name: 'file', value: '<irn.json>', description: "The portal's record of the registration." },
    { name: 'send-again', description: 'End the hold; the next billing run sends the document again.' },
  ],
  examples: [
    'invoices reconcile 0b6f4c1e-3f1d-4a57-9a0e-5d1c2b3a4f5e --group tripkart-agents --file ./irn.json',
    'invoices reconcile 0b6f4c1e-3f1d-4a57-9a0e-5d1c2b3a4f5e --group tripkart-agents --send-again',
  ],
  async run(args, ctx) {
    const file = args.text('file');
    const sendAgain = args.flag('send-again');
    if (sendAgain === (file !== undefined)) throw new UsageError('Give either --file <irn.json> or --send-again.', '--file');
    let details;
    if (file) {
      try {
        const json = JSON.parse(readFileSync(resolve(ctx.cwd, file), 'utf8')) as Record<string, unknown>;
        // Get IRN details answers { Data: {…} } on some downloads, the fields themselves on others.
        details = (typeof json.Data === 'object' && json.Data !== null ? json.Data : json) as Record<string, unknown>;
      } catch (err) {
        throw new UsageError(`--file must be a readable JSON file: ${err instanceof Error ? err.message : String(err)}`, '--file');
      }
      for (const k of ['Irn', 'AckDt', 'SignedQRCode'] as const)
        if (typeof details[k] !== 'string') throw new ValidationError('file', `the record has no ${k} (a string).`);
      if (typeof details.AckNo !== 'string' && typeof details.AckNo !== 'number') throw new ValidationError('file', 'the record has no AckNo.');
    }
    const invoice = await reconcileEInvoice(
      await deps(ctx),
      args.required('group'),
      args.positional!,
      details ? { details: details as never } : { sendAgain: true },
    );
    ctx.out.result(
      {
        ...invoiceView(invoice),
        hold: invoice.eInvoiceHold
          ? { kind: invoice.eInvoiceHold.kind, irn: invoice.eInvoiceHold.irn, portalRecordGiven: !!invoice.eInvoiceHold.signedQrCode }
          : null,
      },
      () => [
        invoice.eInvoiceHold
          ? `The portal's record of IRN ${invoice.eInvoiceHold.irn} verified and kept on ${invoice.invoiceNumber}: the group's next billing run issues it (\`billing run --group ${invoice.agentGroupId}\` now).`
          : `${invoice.invoiceNumber} is no longer held: the next billing run sends it to the IRP again.`,
      ],
    );
  },
};
