import { findBookingForOperator, type FindBookingDeps } from '../bookings/find-booking.ts';
import { CALENDAR_DATE_RULE } from '../catalogue/calendar.ts';
import { ValidationError } from '../errors.ts';
import type { AuditTrail } from '../ports/audit-trail.ts';
import type { Clock } from '../ports/clock.ts';
import { INSTANT_RULE, isInstant } from '../reads/date-window.ts';
import type { AuditEvent } from './audit-event.ts';

/** How far back the list looks when neither `from` nor a target is given. */
export const OPERATOR_AUDIT_DEFAULT_DAYS = 7;

/** An operator's question of the whole trail (every account), as typed: dates or instants, a target as people name it. */
export interface OperatorAuditQuery {
  /** `<kind>:<id>`; `booking:<id>` takes any id people see (findBookingForOperator). */
  readonly target?: string;
  /** The agent group a `booking:<externalBookingId>` target belongs to (narrows any booking look-up). */
  readonly agentGroupId?: string;
  /** Only events made by this actor, as recorded (a key id, an operator's name). */
  readonly actor?: string;
  /** A date (its first instant, UTC) or an instant. */
  readonly from?: string;
  /** A date (its last instant, UTC) or an instant; default now. */
  readonly to?: string;
}

export interface OperatorAuditDeps extends FindBookingDeps {
  readonly auditTrail: Pick<AuditTrail, 'listTarget' | 'listWindow'>;
  readonly clock: Clock;
}

const instantOf = (param: 'from' | 'to', text: string | undefined): string | undefined => {
  if (text === undefined) return undefined;
  const withTime = /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T${param === 'to' ? '23:59:59.999' : '00:00:00.000'}Z` : text;
  if (!isInstant(withTime)) throw new ValidationError(param, `${param} must be ${CALENDAR_DATE_RULE}, or ${INSTANT_RULE}.`);
  return new Date(withTime).toISOString();
};

/**
 * The events an operator asked for, oldest first: one target's whole chain (a booking by any
 * id people see, so its chain under the internal bookingRef is found), or every event of the
 * window (the last OPERATOR_AUDIT_DEFAULT_DAYS days when `from` is left out); then narrowed to
 * the actor and the window. Events are as recorded (money in paise, hashes checkable): how
 * they are shown is the reader's.
 */
export async function listOperatorAuditEvents(deps: OperatorAuditDeps, q: OperatorAuditQuery): Promise<AuditEvent[]> {
  const from = instantOf('from', q.from);
  const to = instantOf('to', q.to) ?? deps.clock.now().toISOString();
  const target = q.target?.startsWith('booking:')
    ? `booking:${(await findBookingForOperator(deps, q.target.slice('booking:'.length), q.agentGroupId)).bookingRef}`
    : q.target;
  const all = target
    ? await deps.auditTrail.listTarget(target)
    : await deps.auditTrail.listWindow(from ?? new Date(Date.parse(to) - OPERATOR_AUDIT_DEFAULT_DAYS * 86_400_000).toISOString(), to);
  return all.filter((e) => (!q.actor || e.actor === q.actor) && (!from || e.at >= from) && e.at <= to);
}
