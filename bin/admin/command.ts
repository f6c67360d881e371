import { parseArgs } from 'node:util';
import type { AdminDeps } from '../../domain/admin.ts';
import type { AuditOrigin } from '../../domain/audit/audit-event.ts';
import type { Waiting } from '../../domain/invoicing/follow-billing-run.ts';
import type { Config } from '../../infra/config.ts';
import type { Services } from '../../infra/compose/core.ts';
import type { Output } from './output.ts';

/** How operators run the tool; every usage line and example starts with it. */
export const INVOCATION = 'npm run admin --';

/** A mistake in the command line itself: exit code 2, nothing was read or written. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    /** The flag at fault, for --json consumers. */
    readonly option?: string,
  ) {
    super(message);
  }
}

export interface OptionSpec {
  /** The flag without its dashes: `credit-limit`. */
  readonly name: string;
  /** Placeholder shown in help; absent for an on/off flag. */
  readonly value?: string;
  readonly required?: boolean;
  readonly description: string;
  /** The domain field this flag feeds, so a domain ValidationError can name the flag instead. */
  readonly param?: string;
}

export interface PositionalSpec {
  readonly name: string;
  readonly description: string;
  readonly param?: string;
}

/** What a command needs from the outside world, built only once its arguments are known to be good. */
export interface AdminContext {
  readonly out: Output;
  /** Where relative file arguments are resolved: the directory the operator ran npm from. */
  readonly cwd: string;
  /** The environment the tool was run with: secrets a command reads from it never go on the command line. */
  readonly env: Readonly<Record<string, string | undefined>>;
  config(): Config;
  /** Where the stack's HTTP routes answer: SERVICE_URL (npm start writes it to .local/stack.env), else http://localhost:3000. */
  serviceUrl(): string;
  services(): Services;
  deps(): AdminDeps;
  /** The operator the command's changes are recorded against; resolved before the command changes anything. */
  origin(): AuditOrigin;
  /** How a command that follows work elsewhere (`billing run --wait`) waits, and how often it looks again. */
  readonly following: Following;
  /**
   * Writes the command's `started` audit event (once; a no-op for commands audited in their
   * change's transaction). The tool calls it before `run`, except for commands that check
   * their arguments before any AWS call: those call it after their checks, before their first change.
   */
  begin(): Promise<void>;
}

export interface Following {
  readonly waiting: Waiting;
  readonly everyMs: number;
}

/** Real time, a look every five seconds: a run's groups take seconds each, and the run log is one read per look. */
export const REAL_TIME: Following = {
  waiting: { now: () => performance.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) },
  everyMs: 5_000,
};

export interface ParsedArgs {
  readonly positional: string | undefined;
  /** A string option's value, or undefined when it was not given. */
  text(name: string): string | undefined;
  /** A string option the spec marks required: present once parsing succeeded. */
  required(name: string): string;
  flag(name: string): boolean;
}

export interface CommandSpec {
  /** The words that select it: `['groups', 'create']`. */
  readonly path: readonly string[];
  readonly summary: string;
  readonly details?: string;
  readonly positional?: PositionalSpec;
  readonly options: readonly OptionSpec[];
  readonly examples: readonly string[];
  /** Resolves with an exit code only when the command did its work but must still report a failure (exit 1). */
  run(args: ParsedArgs, ctx: AdminContext): Promise<void | number>;
}

export const COMMON_OPTIONS: readonly OptionSpec[] = [
  { name: 'json', description: 'Print machine-readable JSON on stdout (errors as JSON on stderr).' },
  {
    name: 'as',
    value: '<name>',
    description: 'Who is running the command, recorded in the audit trail (or ADMIN_OPERATOR); required by every command that changes something.',
  },
  { name: 'help', description: 'Show this help.' },
];

export const flagOf = (name: string): string => `--${name}`;

const optionsOf = (spec: CommandSpec): readonly OptionSpec[] => [...spec.options, ...COMMON_OPTIONS];

/** `--help` anywhere after the command words asks for help, whatever else is on the line. */
export const wantsHelp = (argv: readonly string[]): boolean => argv.some((a) => a === '--help' || a === '-h');

/**
 * Parses a command's arguments strictly: unknown options, missing values, stray or missing
 * positionals and missing required options are UsageErrors naming the flag. A value that
 * starts with a single dash (`--credit-limit -5`) is taken as the value, so the domain can
 * say what is wrong with it; one starting with `--` means the value was forgotten.
 */
export function parseCommandArgs(spec: CommandSpec, argv: readonly string[]): ParsedArgs {
  const known = optionsOf(spec);
  const config = Object.fromEntries(
    known.map((o) => [o.name, { type: o.value ? ('string' as const) : ('boolean' as const), ...(o.name === 'help' ? { short: 'h' } : {}) }]),
  );
  const command = spec.path.join(' ');
  const helpHint = `See \`${INVOCATION} ${command} --help\`.`;

  const { tokens = [] } = parseArgs({ args: [...argv], options: config, strict: false, allowPositionals: true, tokens: true });
  const values = new Map<string, string | true>();
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const option = known.find((o) => o.name === token.name);
    if (!option) throw new UsageError(`Unknown option ${token.rawName} for \`${command}\`. ${helpHint}`, token.rawName);
    const flag = flagOf(option.name);
    if (!option.value) {
      if (token.value !== undefined) throw new UsageError(`${flag} takes no value. ${helpHint}`, flag);
      values.set(option.name, true);
    } else {
      if (token.value === undefined || (!token.inlineValue && token.value.startsWith('--'))) {
        throw new UsageError(`${flag} needs a value: ${flag} ${option.value}. ${helpHint}`, flag);
      }
      values.set(option.name, token.value);
    }
  }

  if (spec.positional) {
    if (positionals.length === 0) throw new UsageError(`Missing <${spec.positional.name}>: ${spec.positional.description} ${helpHint}`);
    if (positionals.length > 1) throw new UsageError(`Unexpected argument '${positionals[1]}' for \`${command}\`. ${helpHint}`);
  } else if (positionals.length > 0) {
    throw new UsageError(`Unexpected argument '${positionals[0]}' for \`${command}\`. ${helpHint}`);
  }
  for (const option of spec.options) {
    if (option.required && !values.has(option.name)) {
      throw new UsageError(`Missing required option ${flagOf(option.name)} ${option.value}. ${helpHint}`, flagOf(option.name));
    }
  }

  return {
    positional: positionals[0],
    text: (name) => {
      const value = values.get(name);
      return typeof value === 'string' ? value : undefined;
    },
    required: (name) => {
      const value = values.get(name);
      if (typeof value !== 'string') throw new UsageError(`Missing required option ${flagOf(name)}. ${helpHint}`, flagOf(name));
      return value;
    },
    flag: (name) => values.get(name) === true,
  };
}

/** Domain field → the flag (or positional) that fed it, for rewording domain validation messages. */
export function paramFlags(spec: CommandSpec): ReadonlyMap<string, string> {
  const map = new Map<string, string>();
  for (const option of spec.options) if (option.param) map.set(option.param, flagOf(option.name));
  if (spec.positional?.param) map.set(spec.positional.param, `<${spec.positional.name}>`);
  return map;
}

function usageLine(spec: CommandSpec): string {
  const parts = [INVOCATION, ...spec.path];
  if (spec.positional) parts.push(`<${spec.positional.name}>`);
  for (const o of spec.options) if (o.required) parts.push(`${flagOf(o.name)} ${o.value}`);
  if (spec.options.some((o) => !o.required) || COMMON_OPTIONS.length) parts.push('[options]');
  return parts.join(' ');
}

function optionRows(spec: CommandSpec): [string, string][] {
  const rows: [string, string][] = [];
  if (spec.positional) rows.push([`<${spec.positional.name}>`, spec.positional.description]);
  for (const o of optionsOf(spec)) {
    const left = `${o.name === 'help' ? '-h, ' : ''}${flagOf(o.name)}${o.value ? ` ${o.value}` : ''}`;
    rows.push([left, `${o.required ? '(required) ' : ''}${o.description}`]);
  }
  return rows;
}

export function columns(rows: readonly (readonly string[])[], indent = '  '): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map(
    (row) =>
      indent +
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
  );
}

export function commandHelp(spec: CommandSpec): string {
  return [
    `Usage: ${usageLine(spec)}`,
    '',
    spec.summary,
    ...(spec.details ? ['', spec.details] : []),
    '',
    'Options:',
    ...columns(optionRows(spec)),
    '',
    spec.examples.length > 1 ? 'Examples:' : 'Example:',
    ...spec.examples.map((e) => `  ${INVOCATION} ${e}`),
    '',
  ].join('\n');
}

/** `--group <groupId>`: the agent group a billing, payment or credit-note command acts on. */
export const GROUP_OPTION = { name: 'group', value: '<groupId>', required: true, description: 'The agent group.' } as const;
