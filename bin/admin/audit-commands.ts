import type { AuditEvent, AuditFields } from '../../domain/audit/audit-event.ts';
import { isAuditMoneyField } from '../../domain/audit/audit-money.ts';
import { formatInr } from '../../domain/money.ts';
import { exportKey, jsonLines, monthWindow } from '../../domain/audit/export-month.ts';
import { readAnchors } from '../../domain/audit/digest.ts';
import { verifyTrail } from '../../domain/audit/verify-trail.ts';
import { writeDigest } from '../../domain/audit/write-digest.ts';
import { digestArchive, digestSigner } from '../../infra/audit-digests.ts';
import { listOperatorAuditEvents, OPERATOR_AUDIT_DEFAULT_DAYS } from '../../domain/audit/list-operator-audit-events.ts';
import { ConflictError } from '../../domain/errors.ts';
import { sha256Hex } from '../../infra/crypto/api-keys.ts';
import { columns, type CommandSpec } from './command.ts';

const shown = (field: string, value: AuditFields[string] | undefined): string =>
  value === null || value === undefined
    ? '-'
    : typeof value === 'number' && isAuditMoneyField(field)
      ? formatInr(value)
      : Array.isArray(value)
        ? `[${value.join(', ')}]`
        : String(value);

/**
 * An event's details as people read them: a change lists only the fields that moved
 * (`creditLimit: ₹1,00,000.00 → ₹5,00,000.00`), a creation or removal its fields; money in
 * rupees with Indian grouping. --json prints the event as recorded (paise), so its hash can be checked.
 */
export function auditDetails(e: Pick<AuditEvent, 'before' | 'after'>): string {
  const { before, after } = e;
  if (before && after) {
    const moved = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
      (k) => JSON.stringify(before[k] ?? null) !== JSON.stringify(after[k] ?? null),
    );
    return moved.map((k) => `${k}: ${shown(k, before[k])} → ${shown(k, after[k])}`).join(', ');
  }
  return Object.entries(after ?? before ?? {})
    .map(([k, v]) => `${k}: ${shown(k, v)}`)
    .join(', ');
}

const eventLines = (events: readonly AuditEvent[]) =>
  events.length === 0 ? ['No events.'] : columns(events.map((e) => [e.at, e.actorKind, e.actor, e.action, e.target, auditDetails(e)]));

export const auditList: CommandSpec = {
  path: ['audit', 'list'],
  summary: "List audit events: one target's chain, or every event of a window, filtered by actor.",
  details: `Without --target, the window is --from to --to (dates or instants; the last ${OPERATOR_AUDIT_DEFAULT_DAYS} days when --from is left out). Targets read <kind>:<id>, e.g. booking:<id>, group:<groupId>, key:<keyId>; a booking by its booking id (SIM-…), code (PB-…) or, with --group, the partner's externalBookingId.`,
  options: [
    { name: 'target', value: '<kind:id>', description: "Only this target's events (its whole chain)." },
    { name: 'group', value: '<groupId>', description: 'The agent group of a booking:<externalBookingId> target (narrows any booking look-up).' },
    { name: 'actor', value: '<actor>', description: 'Only events made by this actor (a key id, or an operator as recorded).' },
    { name: 'from', value: '<date>', param: 'from', description: 'Events at or after this date or instant.' },
    { name: 'to', value: '<date>', param: 'to', description: 'Events at or before this date or instant (a date includes its whole day).' },
  ],
  examples: ['audit list --target group:acme-north', 'audit list --actor alice --from 2026-11-01 --to 2026-11-30 --json'],
  async run(args, ctx) {
    const events = await listOperatorAuditEvents(ctx.services(), {
      target: args.text('target'),
      agentGroupId: args.text('group'),
      actor: args.text('actor'),
      from: args.text('from'),
      to: args.text('to'),
    });
    ctx.out.result({ events }, () => eventLines(events));
  },
};

export const auditVerify: CommandSpec = {
  path: ['audit', 'verify'],
  summary: 'Walk every audit chain, check it against the signed digests, and name every chain that was edited, cut short or deleted.',
  details:
    "Each event holds the hash of the one before it in its target's chain, and the chain's head the last one's: an edit changes a hash, a deletion leaves a gap or a head that points past the end. The hourly digests (signed, write-once) say where every chain stood: a chain re-hashed after an edit, cut short with its head rewound, or deleted with its head no longer matches them. The digests themselves are checked first (signature, each naming the one before it, the latest no older than 3 hours). Exit code 1 when anything is broken. --without-digests walks the chains on their own (a stage whose digests are not configured).",
  options: [
    { name: 'target', value: '<kind:id>', description: "Walk only this target's chain (e.g. booking:<ref>, group:<id>)." },
    { name: 'without-digests', description: 'Check the chains on their own, without the signed digests (which a rewrite that re-hashes passes).' },
  ],
  examples: ['audit verify', 'audit verify --target group:acme-north --json'],
  async run(args, ctx) {
    const cfg = ctx.config();
    const anchors = args.flag('without-digests') ? undefined : await readAnchors(await digestArchive(cfg), await digestSigner(cfg));
    const verdict = await verifyTrail(ctx.services().auditTrail, sha256Hex, {
      ...(args.text('target') ? { only: args.text('target') } : {}),
      ...(anchors ? { anchors } : {}),
    });
    const problems = [
      ...verdict.digestBreaks,
      ...verdict.breaks.map((b) => `chain ${b.target} at event ${b.seq}${b.eventId ? ` (id ${b.eventId})` : ''}: ${b.reason}`),
    ];
    // A broken trail is a refusal (exit code 1) whose message names every break found.
    if (problems.length)
      throw new ConflictError(
        'CONFLICT',
        `Audit trail broken: ${problems.join('; ')}. Checked ${verdict.chains} chains, ${verdict.events} events, ${verdict.digests} digests.`,
      );
    ctx.out.result(verdict, () => [
      `Intact: ${verdict.chains} chains, ${verdict.events} events${anchors ? `, ${verdict.digests} digests (latest ${verdict.latestDigestAt})` : ' (without digests)'}.`,
    ]);
  },
};

export const auditDigest: CommandSpec = {
  path: ['audit', 'digest'],
  summary: "Write a signed digest of every chain's head now (the hourly job's work, e.g. before an audit or after a restore).",
  details:
    "Reads every chain head that moved since the previous digest, signs the digest (with the previous digest's key and signature inside it) and stores it, write-once, in the stage's digest bucket. Needs the signing permission the hourly job has (kms:Sign on the stage's audit key in the cloud).",
  options: [],
  examples: ['audit digest --as alice'],
  async run(_args, ctx) {
    const cfg = ctx.config();
    const out = await writeDigest({
      heads: ctx.services().auditTrail,
      archive: await digestArchive(cfg),
      signer: await digestSigner(cfg),
      stage: cfg.stage,
      now: () => new Date(),
    });
    ctx.out.result(out, () => [`Digest ${out.key}: ${out.heads} chain heads${out.previousKey ? `, after ${out.previousKey}` : ' (the first)'}.`]);
  },
};

export const auditExport: CommandSpec = {
  path: ['audit', 'export'],
  summary: "Export a month's audit events as JSON lines to the stage bucket, for the auditors.",
  details:
    'Writes s3://<stage bucket>/audit/<YYYY-MM>.jsonl: every event of the month, oldest first, with its chain position and hashes so the file can be checked on its own. A second export of the same month replaces the object.',
  options: [{ name: 'month', value: '<YYYY-MM>', required: true, param: 'month', description: 'The month to export (UTC).' }],
  examples: ['audit export --month 2026-11'],
  async run(args, ctx) {
    const month = args.required('month');
    const { from, to } = monthWindow(month);
    const svc = ctx.services();
    const events = await svc.auditTrail.listWindow(from, to);
    const key = exportKey(month);
    await svc.documents.put(key, new TextEncoder().encode(jsonLines(events)), 'application/x-ndjson');
    ctx.out.result({ month, key, bucket: ctx.config().invoiceBucket ?? null, events: events.length }, () => [
      `Exported ${events.length} events of ${month} to s3://${ctx.config().invoiceBucket}/${key}.`,
    ]);
  },
};
