// Billing and reconciliation call Razorpay's API (the payments adapter group, which buildServices wires).
import { buildServices } from '../../infra/compose/admin.ts';
import { adminDeps as wireAdminDeps, type Services } from '../../infra/compose/core.ts';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isAwsUnavailable, operatorConfig, serviceOf } from '../../infra/aws-client.ts';
import { ConfigError, parseConfig, type Config } from '../../infra/config.ts';
import type { AdminDeps } from '../../domain/admin.ts';
import { DomainError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { WorldValidationError } from '../../domain/world/world-validation-error.ts';
import {
  columns,
  commandHelp,
  INVOCATION,
  paramFlags,
  parseCommandArgs,
  UsageError,
  wantsHelp,
  type AdminContext,
  type CommandSpec,
  REAL_TIME,
  type Following,
  type ParsedArgs,
} from './command.ts';
import { adminEnvironment, ServiceUnreachableError, SetupError } from './environment.ts';
import { groupsCreate, groupsList, groupsUpdate } from './groups-commands.ts';
import {
  contactsAdd,
  contactsIndexAddresses,
  contactsList,
  contactsRemove,
  contactsUnflag,
  contactsUpdate,
  mailPause,
  mailResume,
} from './contacts-commands.ts';
import { importCommand } from './import-command.ts';
import { syncCommand } from './sync-command.ts';
import { keysIssue, keysList, keysReplace, keysRevoke } from './keys-commands.ts';
import { Output, type Streams } from './output.ts';
import { partnersCreate, partnersList } from './partners-commands.ts';
import { deliveriesFailed, deliveriesResend } from './deliveries-commands.ts';
import { channexFullSync, channexIndexConnections } from './channex-command.ts';
import { secretsReseal, stageBootstrap, stageFinishRotation, stageRazorpay, stageRotateKeys, stageSmokeKeys, stageIrpCredentials } from './stage-commands.ts';
import {
  billingBackfillUnbilled,
  billingCheckIndex,
  billingRun,
  billingRuns,
  invoicesAbandon,
  invoicesVoid,
  invoicesEInvoice,
  invoicesHeld,
  invoicesList,
  invoicesReconcile,
  invoicesReissue,
  invoicesRender,
} from './billing-commands.ts';
import { gatewayPay, paymentsDisputes, paymentsList, paymentsReconcile, paymentsRecord, paymentsUnmatched } from './payments-commands.ts';
import { filingGstr1 } from './filing-commands.ts';
import { invoicesCreditNote } from './credit-note-commands.ts';
import { searchRebuild } from './search-command.ts';
import { auditDigest, auditExport, auditList, auditVerify } from './audit-commands.ts';
import { assertOperatorGiven, auditModeOf, beginsItself, claimedOperator, commandAudit, resolveOperator, type CommandOutcome } from './operator.ts';
import { operatorOrigin, type AuditOrigin } from '../../domain/audit/audit-event.ts';
import { guestsBackfillIndex, guestsErase } from './guests-commands.ts';
import { peopleInvite } from './people-commands.ts';

export const COMMANDS: readonly CommandSpec[] = [
  partnersCreate,
  partnersList,
  peopleInvite,
  groupsCreate,
  groupsList,
  groupsUpdate,
  contactsList,
  contactsAdd,
  contactsUpdate,
  contactsRemove,
  contactsUnflag,
  contactsIndexAddresses,
  mailPause,
  mailResume,
  keysIssue,
  keysList,
  keysRevoke,
  keysReplace,
  importCommand,
  syncCommand,
  deliveriesFailed,
  deliveriesResend,
  billingRun,
  billingRuns,
  billingBackfillUnbilled,
  billingCheckIndex,
  invoicesList,
  invoicesAbandon,
  invoicesVoid,
  invoicesRender,
  invoicesCreditNote,
  invoicesEInvoice,
  invoicesHeld,
  invoicesReconcile,
  invoicesReissue,
  stageBootstrap,
  stageRotateKeys,
  stageFinishRotation,
  stageRazorpay,
  stageSmokeKeys,
  stageIrpCredentials,
  secretsReseal,
  paymentsRecord,
  paymentsList,
  paymentsUnmatched,
  paymentsDisputes,
  paymentsReconcile,
  gatewayPay,
  filingGstr1,
  searchRebuild,
  channexFullSync,
  channexIndexConnections,
  auditList,
  auditVerify,
  auditDigest,
  auditExport,
  guestsErase,
  guestsBackfillIndex,
];

/** Exit codes: the line was wrong (nothing touched), or the service refused or failed. */
export const EXIT = { ok: 0, refused: 1, usage: 2 } as const;

export interface AdminIo {
  readonly stdout: Streams;
  readonly stderr: Streams;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where `.local/stack.env` is looked for: the repository root. */
  readonly root: string;
  /** Where relative file arguments are resolved. */
  readonly cwd: string;
  /** How following commands wait (default real time): a test passes its own, so no verdict depends on the machine's speed. */
  readonly following?: Following;
}

function topHelp(): string {
  const groups = new Map<string, CommandSpec[]>();
  for (const c of COMMANDS) groups.set(c.path[0]!, [...(groups.get(c.path[0]!) ?? []), c]);
  return [
    `Usage: ${INVOCATION} <command> [options]`,
    '',
    'Operator tool: onboard partners and agent groups, issue and revoke keys, set credit limits and holds, import world files.',
    '',
    'Commands:',
    ...columns(COMMANDS.map((c) => [`${c.path.join(' ')}${c.positional ? ` <${c.positional.name}>` : ''}`, c.summary.split(/(?<=\.)\s/)[0] ?? c.summary])),
    '',
    `Every command takes --json for machine-readable output and --help for its options and an example (${INVOCATION} groups create --help).`,
    'Amounts are in rupees. Exit codes: 0 done, 1 refused (not found, conflict) or failed, 2 bad command line or no stack configured.',
    '',
    'Which stack: the environment (STAGE, TABLE_NAME, CURSOR_KEY, SECRETS_KEY, ...) when STAGE is set; otherwise .local/stack.env, written by `npm start`.',
    '',
  ].join('\n');
}

function groupHelp(word: string): string {
  const subs = COMMANDS.filter((c) => c.path[0] === word);
  return [
    `Usage: ${INVOCATION} ${word} <${subs.map((c) => c.path[1]).join('|')}> [options]`,
    '',
    'Commands:',
    ...columns(subs.map((c) => [c.path.join(' '), c.summary.split(/(?<=\.)\s/)[0] ?? c.summary])),
    '',
    `${INVOCATION} ${word} <command> --help shows a command's options and an example.`,
    '',
  ].join('\n');
}

interface Selected {
  readonly spec?: CommandSpec;
  readonly rest: readonly string[];
  /** When the words select a family or nothing: what to show, and what was wrong. */
  readonly help?: string;
  readonly problem?: string;
}

function select(argv: readonly string[]): Selected {
  const [first, second] = argv;
  const direct = COMMANDS.find((c) => c.path.length === 1 && c.path[0] === first);
  if (direct) return { spec: direct, rest: argv.slice(1) };
  const family = COMMANDS.filter((c) => c.path[0] === first);
  if (family.length === 0) return { rest: argv, help: topHelp(), problem: first === undefined ? 'No command given.' : `Unknown command '${first}'.` };
  const spec = family.find((c) => c.path[1] === second);
  if (spec) return { spec, rest: argv.slice(2) };
  return {
    rest: argv.slice(1),
    help: groupHelp(first!),
    problem: second === undefined || second.startsWith('-') ? `'${first}' needs a command.` : `Unknown command '${first} ${second}'.`,
  };
}

/** Rewords a domain validation message so it names the flag the operator typed. */
function validationMessage(err: ValidationError, spec: CommandSpec): { message: string; option?: string } {
  const flag = paramFlags(spec).get(err.param);
  if (!flag) return { message: err.message };
  const message = err.message.startsWith(err.param) ? `${flag}${err.message.slice(err.param.length)}` : `${flag}: ${err.message}`;
  return { message, option: flag };
}

/**
 * A read filtered by a group or partner that does not exist would list nothing and exit 0,
 * which reads as "nothing there" when the id was mistyped: say so and exit 1 instead. (A
 * command that changes something refuses an unknown account on its own.)
 */
async function assertNamedAccountsExist(args: ParsedArgs, ctx: AdminContext): Promise<void> {
  const [group, partner] = [args.text('group'), args.text('partner')];
  if (group === undefined && partner === undefined) return;
  const tenants = ctx.services().tenants;
  const [groupFound, partnerFound] = await Promise.all([
    group === undefined || tenants.getAgentGroup(group),
    partner === undefined || tenants.getPartner(partner),
  ]);
  if (!groupFound) throw new NotFoundError(`No such agent group '${group}': agent group`);
  if (!partnerFound) throw new NotFoundError(`No such partner '${partner}': partner`);
}

/** Socket errors: the stack is down or misaddressed, which an operator can fix, unlike a fault. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'EPIPE']);

/** What kind of thing failed, and so whether running the command again can help. */
type FailureKind = 'file-system' | 'network' | 'storage' | 'bug';

export interface Failure {
  readonly exit: number;
  readonly code: string;
  readonly message: string;
  readonly option?: string;
  readonly issues?: readonly { path: string; message: string }[];
  readonly kind?: FailureKind;
  readonly retryable?: boolean;
  /** A bug's reference: the name of the file holding its details. */
  readonly reference?: string;
}

interface SystemErrorFields {
  readonly name?: string;
  readonly code?: string;
  readonly syscall?: string;
  readonly path?: string;
  readonly hostname?: string;
  readonly address?: string;
  readonly port?: number;
  readonly $metadata?: unknown;
}

/**
 * An unexpected failure, said by what failed: the file system (path and errno), the network
 * (host), a store (DynamoDB, SQS or S3: out of breath, or refusing), or the tool itself. A
 * bug's details (message and stack, which may hold table names or SDK internals) go to a
 * private file under .local/admin-errors whose name the operator quotes; nothing of them is printed.
 */
function unexpected(err: unknown, spec: CommandSpec, root: string): Failure {
  const e = (typeof err === 'object' && err !== null ? err : {}) as SystemErrorFields;
  const name = err instanceof Error ? err.name : typeof err;
  if (e.code && e.syscall && e.path) {
    return {
      exit: EXIT.refused,
      code: 'FILE_SYSTEM',
      kind: 'file-system',
      retryable: false,
      message: `File system: cannot ${e.syscall} ${e.path} (${e.code}). The stack was not the problem; fix the path or its permissions, then run the command again.`,
    };
  }
  const service = serviceOf(err);
  // The SDK's request timeout carries ETIMEDOUT too, but the store was reached: it did not answer in time.
  if (e.code && NETWORK_CODES.has(e.code) && e.name !== 'TimeoutError') {
    const host = e.hostname ?? (e.address ? `${e.address}${e.port ? `:${e.port}` : ''}` : 'its endpoint');
    return {
      exit: EXIT.refused,
      code: 'UNREACHABLE',
      kind: 'network',
      retryable: true,
      message: `Network: could not reach ${service ?? "the stack's storage"} at ${host} (${e.code}). Check the endpoint and the network (for the local stack, that \`npm start\` is running), then retry.`,
    };
  }
  if (isAwsUnavailable(err)) {
    return {
      exit: EXIT.refused,
      code: 'STORAGE_UNAVAILABLE',
      kind: 'storage',
      retryable: true,
      message: `Storage: ${service ?? 'AWS'} did not cope (${name}: a timeout, throttling or a server error). Retrying may help; the operation may have been partly applied, so check with a list command first (an import or a sync is simply run again: it finishes what it had started).`,
    };
  }
  if (service || e.$metadata) {
    return {
      exit: EXIT.refused,
      code: 'STORAGE_REFUSED',
      kind: 'storage',
      retryable: false,
      message: `Storage: ${service ?? 'AWS'} refused the call (${name}). Retrying will not help: check the stage's settings (TABLE_NAME, queue URLs, bucket, region) and the credentials' permissions.`,
    };
  }
  const reference = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`;
  const details = join(root, '.local', 'admin-errors', `${reference}.txt`);
  let where = '';
  try {
    mkdirSync(dirname(details), { recursive: true, mode: 0o700 });
    writeFileSync(details, `${spec.path.join(' ')}\n${err instanceof Error ? (err.stack ?? `${err.name}: ${err.message}`) : String(err)}\n`, { mode: 0o600 });
    where = `; its details are in ${details}`;
  } catch {
    // The reference alone still ties the report to this run.
  }
  return {
    exit: EXIT.refused,
    code: 'INTERNAL',
    kind: 'bug',
    retryable: false,
    reference,
    message: `Bug: '${spec.path.join(' ')}' failed unexpectedly (${name}); neither your input nor the stack's health caused it, so retrying will not help. Report reference ${reference}${where}.`,
  };
}

/** How a failed command is reported: its exit code, code and message (with --json, the body). */
export function classify(err: unknown, spec: CommandSpec, root: string): Failure {
  if (err instanceof UsageError) return { exit: EXIT.usage, code: 'USAGE', message: err.message, option: err.option };
  if (err instanceof SetupError) return { exit: EXIT.usage, code: 'NO_STACK', message: err.message };
  if (err instanceof ServiceUnreachableError) return { exit: EXIT.refused, code: 'UNREACHABLE', kind: 'network', retryable: true, message: err.message };
  if (err instanceof ConfigError)
    return {
      exit: EXIT.usage,
      code: 'BAD_CONFIGURATION',
      message: `${err.message}\nFix the environment (or .local/stack.env), or restart the local stack with \`npm start\`.`,
    };
  if (err instanceof WorldValidationError) {
    const more = err.issueCount > err.issues.length ? [`… and ${err.issueCount - err.issues.length} more.`] : [];
    return {
      exit: EXIT.usage,
      code: err.code,
      message: [
        `The world file has ${err.issueCount} problem${err.issueCount === 1 ? '' : 's'}; nothing was imported.`,
        ...err.issues.map((i) => `  ${i.path || '(document)'}: ${i.message}`),
        ...more,
      ].join('\n'),
      issues: err.issues,
    };
  }
  if (err instanceof ValidationError) return { exit: EXIT.usage, code: err.code, ...validationMessage(err, spec) };
  if (err instanceof DomainError) return { exit: EXIT.refused, code: err.code, message: err.message };
  return unexpected(err, spec, root);
}

/**
 * Runs one admin command line and returns the exit code. Arguments are checked completely
 * before the environment is read or anything is written.
 */
export async function runAdmin(argv: readonly string[], io: AdminIo): Promise<number> {
  const { spec, rest, help, problem } = select(argv);
  if (!spec) {
    if (wantsHelp(argv)) {
      io.stdout.write(help!);
      return EXIT.ok;
    }
    io.stderr.write(`${problem}\n\n${help!}`);
    return EXIT.usage;
  }
  if (wantsHelp(rest)) {
    io.stdout.write(commandHelp(spec));
    return EXIT.ok;
  }

  const json = rest.includes('--json');
  const out = new Output(json, io.stdout, io.stderr);
  let config: Config | undefined;
  let env: Record<string, string | undefined> | undefined;
  /** The stack's environment, read once (.local/stack.env is a file read) for the config and the service's address alike. */
  const environment = () => (env ??= adminEnvironment(io.env, io.root));
  let services: Services | undefined;
  let deps: AdminDeps | undefined;
  let origin: AuditOrigin | undefined;
  let args: ParsedArgs | undefined;
  let began = false;
  const mode = auditModeOf(spec);
  /** The write-ahead record's `started` event: once, before the command's first change; a command that cannot write it is refused. */
  const begin = async () => {
    if (began || mode !== 'write-ahead') return;
    origin = await resolveOperator(claimedOperator(args!.text('as'), io.env)!, ctx.config());
    await ctx.services().auditTrail.transact([], commandAudit(spec, args!, origin, randomUUID(), new Date().toISOString()));
    began = true;
  };
  const finish = async (outcome: CommandOutcome) => {
    if (began) await ctx.services().auditTrail.transact([], commandAudit(spec, args!, origin!, randomUUID(), new Date().toISOString(), outcome));
  };
  const ctx: AdminContext = {
    out,
    cwd: io.cwd,
    env: io.env,
    // The operator's SDK limits, not the request path's: an import or a backfill may wait out a slow store.
    config: () => (config ??= operatorConfig(parseConfig(environment()))),
    serviceUrl: () => (environment().SERVICE_URL ?? 'http://localhost:3000').replace(/\/+$/, ''),
    services: () => (services ??= buildServices(ctx.config())),
    deps: () => (deps ??= wireAdminDeps(ctx.services(), ctx.origin())),
    origin: () => origin!,
    following: io.following ?? REAL_TIME,
    begin,
  };
  try {
    args = parseCommandArgs(spec, rest);
    const claimed = claimedOperator(args.text('as'), io.env);
    assertOperatorGiven(spec, claimed);
    // A read without a name records nothing, so its origin is never written anywhere.
    origin = claimed && mode === 'in-transaction' ? await resolveOperator(claimed, ctx.config()) : operatorOrigin(claimed ?? 'read-only', randomUUID());
    if (mode === 'none') await assertNamedAccountsExist(args, ctx);
    if (!beginsItself(spec)) await begin();
    let exit: number;
    try {
      exit = (await spec.run(args, ctx)) ?? EXIT.ok;
    } catch (err) {
      await finish({ status: 'failed', error: err instanceof Error ? err.name : 'Error' }).catch(() => undefined);
      throw err;
    }
    // The change is made and its `started` is on the trail: a lost `completed` must not read as a failed change.
    await finish({ status: 'completed' }).catch((err: unknown) =>
      io.stderr.write(
        `Warning: the change was made, but the trail could not record it as completed (${err instanceof Error ? err.name : 'Error'}); it shows as started.\n`,
      ),
    );
    return exit;
  } catch (err) {
    const failure = classify(err, spec, io.root);
    if (json) {
      const { exit: _exit, ...body } = failure;
      io.stderr.write(`${JSON.stringify({ error: body }, null, 2)}\n`);
    } else {
      io.stderr.write(`Error: ${failure.message}\n`);
    }
    return failure.exit;
  }
}
