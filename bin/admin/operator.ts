import { randomUUID } from 'node:crypto';
import { operatorOrigin, type AuditDraft, type AuditOrigin } from '../../domain/audit/audit-event.ts';
import type { Config } from '../../infra/config.ts';
import { UsageError, type CommandSpec, type ParsedArgs } from './command.ts';

/**
 * Commands that only read: they run without an operator identity. Every other command
 * changes something and is refused without one, so a new command is audited by default.
 */
const READS = new Set([
  'partners list', 'groups list', 'keys list', 'deliveries failed', 'billing runs', 'billing check-index', 'invoices list',
  'payments list', 'payments unmatched', 'filing gstr1', 'audit list', 'audit verify',
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

/** Commands whose use case writes its own event in the change's transaction (domain/admin.ts). */
const AUDITED_IN_TRANSACTION = new Set(['partners create', 'groups create', 'groups update', 'keys issue', 'keys revoke', 'keys replace']);

/**
 * Commands that write events while they run (in their changes' transactions), so the operator
 * is resolved before they start. Every other command's event is written after it finished,
 * and its operator resolved then: a stage command checks its arguments before any AWS call.
 * `billing run` records each group's run in-transaction and the command's event after.
 */
export const recordsWhileRunning = (spec: CommandSpec): boolean => AUDITED_IN_TRANSACTION.has(spec.path.join(' ')) || spec.path.join(' ') === 'billing run';

/** Option values never recorded: they may be credentials. */
const SECRET_OPTION = /secret|key|password|token|credential/i;
/** A guest's personal data given as an option (guests erase --email): never kept, the audit trail outlives the erasure (docs/personal-data.md). */
const PERSONAL_OPTION = /^(email|phone|guest)$/i;

/**
 * The event of a command whose change spans many writes (imports, syncs, billing runs,
 * rebuilds, stage changes): recorded once the command has finished, on the chain of what it
 * worked on. Null for reads and for commands that record their own event in-transaction.
 */
export function commandAudit(spec: CommandSpec, args: ParsedArgs, origin: AuditOrigin, id: string, at: string): AuditDraft | null {
  const name = spec.path.join(' ');
  if (!changesState(spec) || AUDITED_IN_TRANSACTION.has(name)) return null;
  const given = spec.options.filter((o) => (o.value ? args.text(o.name) !== undefined : args.flag(o.name)));
  const options = given.map((o) => (o.value === undefined ? `--${o.name}` : SECRET_OPTION.test(o.name) || PERSONAL_OPTION.test(o.name) ? `--${o.name}=(given)` : `--${o.name}=${args.text(o.name)}`));
  const subject = args.positional ?? args.text('group') ?? args.text('partner') ?? args.text('invoice') ?? args.text('channel') ?? 'stage';
  return { id, at, origin, action: `admin.${spec.path.join('.')}`, target: `${spec.path[0]}:${subject}`, account: args.text('group') ?? null, before: null, after: { command: name, options } };
}
