import { findKeyByReference, issueKey, replaceKey, revokeKey, type IssuedKey, type IssueKeyInput } from '../../domain/admin.ts';
import type { KeyOwner, RateLimitOverride } from '../../domain/api-key.ts';
import { columns, flagOf, UsageError, type CommandSpec, type OptionSpec, type ParsedArgs } from './command.ts';
import { integerOption } from './input.ts';
import { keyView, ownerLabel, rateLimitLabel } from './output.ts';

const OWNER_OPTIONS: readonly OptionSpec[] = [
  { name: 'partner', value: '<partnerId>', description: 'A partner key (opens /api). Give --partner or --group.' },
  { name: 'group', value: '<groupId>', description: 'An agent group key (opens /v1). Give --partner or --group.' },
];

const SHOWN_ONCE = 'Store it now: it cannot be shown again. The service keeps only a hash of the key; a lost key can only be replaced.';
const SHOWN_ONCE_WITH_SECRET =
  'Store both now: they cannot be shown again. The service keeps only a hash of the key and an encrypted copy of the secret that no read shows; a lost key or secret can only be replaced. Callbacks for this group are signed with this secret from now on; any earlier secret no longer applies.';

function ownerFrom(args: ParsedArgs, command: string): KeyOwner {
  const partner = args.text('partner');
  const group = args.text('group');
  if ((partner === undefined) === (group === undefined)) {
    throw new UsageError(
      `Give exactly one of --partner <partnerId> or --group <groupId>. See \`npm run admin -- keys ${command} --help\`.`,
      partner === undefined ? '--partner' : '--group',
    );
  }
  return partner !== undefined ? { kind: 'partner', id: partner } : { kind: 'agent-group', id: group! };
}

function rateLimitFrom(args: ParsedArgs): RateLimitOverride | null {
  const perMinute = args.text('rate-per-minute');
  const burst = args.text('burst');
  if (perMinute === undefined && burst === undefined) return null;
  if (perMinute === undefined || burst === undefined) {
    const missing = perMinute === undefined ? 'rate-per-minute' : 'burst';
    throw new UsageError(`--rate-per-minute and --burst go together: add ${flagOf(missing)} <n>.`, flagOf(missing));
  }
  return { perMinute: integerOption('rate-per-minute', perMinute), burst: integerOption('burst', burst) };
}

/** The one place a key and its signing secret are ever printed. */
function issuedView(issued: IssuedKey) {
  return {
    key: keyView(issued.record),
    apiKey: issued.apiKey,
    signingSecret: issued.signingSecret,
    notice: issued.signingSecret ? SHOWN_ONCE_WITH_SECRET : SHOWN_ONCE,
  };
}

function issuedLines(verb: string, issued: IssuedKey): string[] {
  const k = issued.record;
  return [
    `${verb} key ${k.keyId} for ${ownerLabel(k.owner)}${k.label ? ` (label: ${k.label})` : ''}, rate limit ${rateLimitLabel(k)}.`,
    '',
    ...columns([['API key', issued.apiKey], ...(issued.signingSecret ? [['Callback signing secret', issued.signingSecret]] : [])]),
    '',
    issued.signingSecret ? SHOWN_ONCE_WITH_SECRET : SHOWN_ONCE,
  ];
}

export const keysIssue: CommandSpec = {
  path: ['keys', 'issue'],
  summary: 'Issue an API key for a partner or an agent group. For a group, a new callback signing secret is issued with it.',
  details:
    'The key (and secret) are printed once and never again. --rate-per-minute and --burst override the default rate limit for this key; give both or neither.',
  options: [
    ...OWNER_OPTIONS,
    { name: 'label', value: '<text>', param: 'label', description: 'A note for operators, e.g. who holds the key.' },
    { name: 'rate-per-minute', value: '<n>', param: 'rateLimit.perMinute', description: 'Rate limit override: requests per minute (1–100000).' },
    { name: 'burst', value: '<n>', param: 'rateLimit.burst', description: 'Rate limit override: burst size (1–10000).' },
  ],
  examples: ['keys issue --partner acme-travel --label "Acme production"', 'keys issue --group acme-north --rate-per-minute 1200 --burst 200 --json'],
  async run(args, ctx) {
    const owner = ownerFrom(args, 'issue');
    const rateLimit = rateLimitFrom(args);
    const input: IssueKeyInput = { owner, label: args.text('label')?.trim() || null, rateLimit };
    const issued = await issueKey(ctx.deps(), input);
    ctx.out.result(issuedView(issued), () => issuedLines('Issued', issued));
  },
};

export const keysList: CommandSpec = {
  path: ['keys', 'list'],
  summary: 'List the keys of a partner or an agent group: id, prefix, status, label, dates and rate-limit override. Never the keys themselves.',
  options: OWNER_OPTIONS,
  examples: ['keys list --partner acme-travel', 'keys list --group acme-north --json'],
  async run(args, ctx) {
    const owner = ownerFrom(args, 'list');
    const keys = await ctx.deps().tenants.listKeys(owner);
    ctx.out.result(keys.map(keyView), () =>
      keys.length === 0
        ? [`No keys for ${ownerLabel(owner)}.`]
        : columns(
            [
              ['KEY ID', 'PREFIX', 'STATUS', 'LABEL', 'CREATED', 'REVOKED', 'RATE LIMIT'],
              ...keys.map((k) => [k.keyId, k.keyPrefix, k.status, k.label ?? '-', k.createdAt, k.revokedAt ?? '-', rateLimitLabel(k)]),
            ],
            '',
          ),
    );
  },
};

export const keysRevoke: CommandSpec = {
  path: ['keys', 'revoke'],
  summary: 'Revoke a key. Requests with it get 401 from the next request on. Revoking a revoked key changes nothing.',
  positional: {
    name: 'key',
    description: 'The key to revoke: its key id (from `keys list`), the key itself (looked up by its hash), or its shown prefix when no other key shares it.',
  },
  options: [],
  examples: ['keys revoke key_3f9c2a7d41b84e0c9a11', 'keys revoke pds_Ab3dE6gH', 'keys revoke "$KEY"'],
  async run(args, ctx) {
    const deps = ctx.deps();
    const found = await findKeyByReference(deps, args.positional!);
    const key = await revokeKey(deps, found.keyId);
    ctx.out.result(keyView(key), () => [`Key ${key.keyId} (${key.keyPrefix}…) of ${ownerLabel(key.owner)} is revoked since ${key.revokedAt}.`]);
  },
};

export const keysReplace: CommandSpec = {
  path: ['keys', 'replace'],
  summary: 'Replace a key: a new key is issued with the same owner, label and rate limit, and the old one is revoked in the same step.',
  details: 'For an agent group a new callback signing secret is issued too. Both are printed once and never again.',
  positional: { name: 'keyId', description: 'The key to replace (from `keys list`).' },
  options: [],
  examples: ['keys replace key_3f9c2a7d41b84e0c9a11'],
  async run(args, ctx) {
    const oldKeyId = args.positional!;
    const issued = await replaceKey(ctx.deps(), oldKeyId);
    ctx.out.result({ replacedKeyId: oldKeyId, ...issuedView(issued) }, () => [`Revoked key ${oldKeyId}.`, ...issuedLines('Issued replacement', issued)]);
  },
};
