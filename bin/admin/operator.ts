import { randomUUID } from 'node:crypto';
import { operatorOrigin, type AuditDraft, type AuditOrigin } from '../../domain/audit/audit-event.ts';
import type { Config } from '../../infra/config.ts';
import { UsageError, type CommandSpec, type ParsedArgs } from './command.ts';

/**
 * Commands that only read: they run without an operator identity. Every other command
 * changes something and is refused without one, so a new command is audited by default.
 */
const READS = new Set([
  'partners list',
  'groups list',
  'contacts list',
  'keys list',
  'deliveries failed',
  'billing runs',
  'billing check-index',
  'invoices list',
  'payments list',
  'payments unmatched',
  'payments disputes',
  'filing gstr1',
  'audit list',
  'audit verify',
]);

export const changesState = (spec: CommandSpec): boolean => !READS.has(spec.path.join(' '));

/** The claimed name: `--as <name>`, else ADMIN_OPERATOR. */
export function claimedOperator(asFlag: string | undefined, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const name = (asFlag ?? env.ADMIN_OPERATOR)?.trim();
  return name ? name : undefined;
}

export function assertOperatorGiven(spec: CommandSpec, name: string | undefined): void {
  if (!changesState(spec) || name) return;
  throw new UsageError(
    `'${spec.path.join(' ')}' changes the service, so it is recorded in the audit trail against who ran it: give --as <your name> or set ADMIN_OPERATOR. Nothing was done.`,
    '--as',
  );
}

/**
 * Who the audit trail records. Against AWS (no local DynamoDB endpoint) the caller's IAM
 * principal from STS GetCallerIdentity is recorded beside the claimed name, so an event
 * names the credentials that made the change, not only what the operator typed; the
 * operator's role needs no extra permission (GetCallerIdentity is always allowed).
 */
export async function resolveOperator(name: string, config: Config): Promise<AuditOrigin> {
  const runId = randomUUID();
  if (config.endpoints.dynamodb) return operatorOrigin(name, runId);
  const { STSClient, GetCallerIdentityCommand } = await import('@aws-sdk/client-sts');
  const identity = await new STSClient({ region: config.region }).send(new GetCallerIdentityCommand({}));
  return operatorOrigin(`${name} (${identity.Arn})`, runId);
}

/**
 * Commands whose change is one DynamoDB transaction that holds its own event (the use case
 * builds the draft; docs/audit.md "Admin commands"): no command-level event.
 */
const AUDITED_IN_TRANSACTION = new Set([
  'partners create',
  'groups create',
  'groups update',
  'contacts add',
  'contacts update',
  'contacts remove',
  'mail pause',
  'mail resume',
  'keys issue',
  'keys revoke',
  'keys replace',
  'guests erase',
  'invoices abandon',
  'invoices void',
  'invoices reissue',
  'invoices credit-note',
  'payments record',
  'people invite',
]);

/**
 * Commands that create the stage itself (its secret, before its table exists): nothing of the
 * stage's trail exists yet, and AWS CloudTrail records the CreateSecret with the caller's principal.
 */
const BEFORE_THE_TRAIL = new Set(['stage bootstrap']);

/**
 * Commands that check their own arguments (a world file, the environment) before any AWS call, and
 * call `ctx.begin()` themselves once those checks pass and before their first change: a
 * wrong line is refused without touching AWS.
 */
const CHECKS_BEFORE_BEGIN = new Set(['import', 'stage rotate-keys', 'stage finish-rotation', 'stage razorpay', 'stage smoke-keys', 'stage irp-credentials']);

export type AuditMode =
  /** A read: no identity needed, nothing recorded. */
  | 'none'
  /** The change's own transaction holds its event. */
  | 'in-transaction'
  /** `started` is written before the first change (the command is refused if it cannot be), `completed`/`failed` after the last. */
  | 'write-ahead'
  | 'before-the-trail';

export function auditModeOf(spec: CommandSpec): AuditMode {
  const name = spec.path.join(' ');
  if (!changesState(spec)) return 'none';
  if (AUDITED_IN_TRANSACTION.has(name)) return 'in-transaction';
  if (BEFORE_THE_TRAIL.has(name)) return 'before-the-trail';
  return 'write-ahead';
}

/** Whether run-admin begins the command's record itself, or the command calls ctx.begin() after its own checks. */
export const beginsItself = (spec: CommandSpec): boolean => CHECKS_BEFORE_BEGIN.has(spec.path.join(' '));

/** Option values never recorded: they may be credentials. */
const SECRET_OPTION = /secret|key|password|token|credential/i;
/** A guest's personal data given as an option (guests erase --email): never kept, the audit trail outlives the erasure (docs/personal-data.md). */
const PERSONAL_OPTION = /^(email|phone|guest)$/i;

export type CommandOutcome = { readonly status: 'completed' } | { readonly status: 'failed'; readonly error: string };

/**
 * The write-ahead record of a command whose change spans many writes or more than one store
 * (imports, syncs, billing runs, rebuilds, Secrets Manager, S3): `started` before its first
 * change, on the chain of what it works on, then the outcome on the same chain. Both share
 * the run's request id, so `audit list --target` pairs them; a `started` with no outcome is a
 * run that died half-way (re-running it finishes the work).
 */
export function commandAudit(spec: CommandSpec, args: ParsedArgs, origin: AuditOrigin, id: string, at: string, outcome?: CommandOutcome): AuditDraft {
  const name = spec.path.join(' ');
  const given = spec.options.filter((o) => (o.value ? args.text(o.name) !== undefined : args.flag(o.name)));
  const options = given.map((o) =>
    o.value === undefined
      ? `--${o.name}`
      : SECRET_OPTION.test(o.name) || PERSONAL_OPTION.test(o.name)
        ? `--${o.name}=(given)`
        : `--${o.name}=${args.text(o.name)}`,
  );
  const subject = args.positional ?? args.text('group') ?? args.text('partner') ?? args.text('invoice') ?? args.text('channel') ?? 'stage';
  const base = { id, at, origin, action: `admin.${spec.path.join('.')}`, target: `${spec.path[0]}:${subject}`, account: args.text('group') ?? null };
  if (!outcome) return { ...base, before: null, after: { command: name, options, status: 'started' } };
  return { ...base, before: { status: 'started' }, after: { ...outcome } };
}
