import { ValidationError } from '../errors.ts';
import type { AuditTrail } from '../ports/audit-trail.ts';
import type { CursorCodec } from '../ports/cursor-codec.ts';
import type { Principal } from '../principal.ts';
import { canonicalInstant } from '../reads/date-window.ts';
import { decodeKeysetPair, encodeKeysetPair } from '../reads/keyset-position.ts';
import type { AuditEvent, AuditFields } from './audit-event.ts';

export const AUDIT_PAGE = { defaultSize: 50, maxSize: 200 } as const;

export interface AuditEventsQuery {
  readonly from?: string;
  readonly to?: string;
  readonly cursor?: string;
  readonly size?: number;
}

/** An event as a partner reads it: the chain fields stay, so a partner can check its own events' hashes. */
export type AuditEventView = Omit<AuditEvent, 'account' | 'stage'>;

export interface AuditEventsPage {
  readonly data: AuditEventView[];
  readonly nextCursor: string | null;
}

/**
 * What a group or partner reads of an operator's event: the role, never the person (their name,
 * or in the cloud their IAM principal); a command's options and outcome, never the operator
 * named in them (`--as`) nor the internal error a failed command ended with. Operators read
 * the event as recorded (`audit list`). `hash` stays the hash of the recorded event, so for
 * these events a caller checks the chain's links (`prevHash`), not the hash itself.
 */
export const OPERATOR_ROLE = 'operator';

const ARN = /\barn:aws[a-z-]*:/i;
const seenByAccount = (fields: AuditFields | null): AuditFields | null =>
  fields &&
  Object.fromEntries(
    Object.entries(fields)
      .filter(([k, v]) => k !== 'error' && !(typeof v === 'string' && ARN.test(v)))
      .map(([k, v]) => [k, Array.isArray(v) ? v.filter((o: string) => !o.startsWith('--as=') && !ARN.test(o)) : v]),
  );

const viewOf = ({ account: _account, stage: _stage, ...rest }: AuditEvent): AuditEventView =>
  rest.actorKind === 'operator' ? { ...rest, actor: OPERATOR_ROLE, before: seenByAccount(rest.before), after: seenByAccount(rest.after) } : rest;

/**
 * The account a key reads: an agent group's key its group's events (`/v1`), a partner's key
 * the partner's own events (`/api`: its webhook endpoints and secrets, the partner's keys).
 * A group's key never reads its partner's account: the partner's endpoints serve all its groups.
 */
export const auditAccountOf = (p: Principal): string => (p.kind === 'agent-group' ? p.agentGroupId : `partner:${p.partnerId}`);

/**
 * GET /v1/audit-events and GET /api/audit-events: the caller's account's events, oldest first
 * (at, then id). Only that account is read, so another tenant's event is never on a page.
 * The cursor is bound to the key and the window.
 */
export async function listAuditEvents(
  deps: { readonly auditTrail: AuditTrail; readonly cursors: CursorCodec },
  caller: Principal,
  q: AuditEventsQuery,
): Promise<AuditEventsPage> {
  const from = q.from === undefined ? undefined : canonicalInstant(q.from, 'from');
  const to = q.to === undefined ? undefined : canonicalInstant(q.to, 'to');
  if (from !== undefined && to !== undefined && from > to) throw new ValidationError('from', `from (${from}) must not be after to (${to}).`);
  const size = q.size ?? AUDIT_PAGE.defaultSize;
  if (size < 1 || size > AUDIT_PAGE.maxSize) throw new ValidationError('size', `size must be from 1 to ${AUDIT_PAGE.maxSize}.`);
  const account = auditAccountOf(caller);
  const scope = { callerId: caller.keyId, query: JSON.stringify(['audit-events', account, from ?? null, to ?? null]) };
  const after = q.cursor === undefined ? undefined : (([at, id]) => ({ at, id }))(decodeKeysetPair(deps.cursors.decode(scope, q.cursor)));
  const page = await deps.auditTrail.listAccount(account, { limit: size, after, from, to });
  return { data: page.events.map(viewOf), nextCursor: page.next ? deps.cursors.encode(scope, encodeKeysetPair([page.next.at, page.next.id])) : null };
}
