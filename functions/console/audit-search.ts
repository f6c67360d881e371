import type { AuditEvent } from '../../domain/audit/audit-event.ts';
import { isEmail, normalEmail, personActor } from '../../domain/console/people.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { ConsoleStore } from '../../domain/ports/console-store.ts';
import { INSTANT_RULE, isInstant } from '../../domain/reads/date-window.ts';
import type { Services } from '../../infra/compose/core.ts';
import { findBookingForOperator } from '../../domain/bookings/find-booking.ts';

/** What one search returns at most: the oldest first, and the page says when there were more. */
export const AUDIT_SEARCH_LIMIT = 200;
/** How far back a search looks when it names neither a target nor a group and gives no start (as `audit list`). */
const DEFAULT_DAYS = 7;
/** The longest window searched over the whole stage's trail (no target, no group): a month. */
const MAX_STAGE_WINDOW_DAYS = 31;
const DAY_MS = 86_400_000;

export interface AuditSearch {
  readonly target?: string;
  readonly group?: string;
  /** As recorded (`person:<id>`, an operator's name, a key id), or a person's e-mail address. */
  readonly actor?: string;
  readonly from?: string;
  readonly to?: string;
}

export interface AuditSearchResult {
  readonly events: readonly AuditEvent[];
  readonly from: string | null;
  readonly to: string;
  /** More events matched than AUDIT_SEARCH_LIMIT: narrow the search. */
  readonly truncated: boolean;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A date is an India day (the console's dates are IST), from its first to its last millisecond; else an instant with its offset. */
function instantOf(name: 'from' | 'to', text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const withTime = DATE.test(text) ? `${text}T${name === 'to' ? '23:59:59.999' : '00:00:00.000'}+05:30` : text;
  if (!isInstant(withTime)) throw new ValidationError(name, `${name} must be a date (yyyy-mm-dd, an India day) or ${INSTANT_RULE}.`);
  return new Date(withTime).toISOString();
}

/**
 * The operators' audit search: one target's whole chain, one group's account, or the stage's
 * trail over a window; each narrowed by actor and window. A booking target takes the ids people
 * have, as `audit list` does. Operators read events as recorded: the person, not the role.
 */
export async function searchAuditTrail(
  svc: Pick<Services, 'auditTrail' | 'tenants' | 'guestData' | 'bookings'>,
  people: Pick<ConsoleStore, 'findPersonByEmail'>,
  query: AuditSearch,
  now: Date,
): Promise<AuditSearchResult> {
  const from = instantOf('from', query.from);
  const to = instantOf('to', query.to) ?? now.toISOString();
  if (from && from > to) throw new ValidationError('from', 'from must not be after to.');
  const group = query.group;
  if (group !== undefined && !(await svc.tenants.getAgentGroup(group))) throw new ValidationError('group', `There is no agent group '${group}'.`);
  let actor = query.actor;
  if (actor?.includes('@')) {
    const person = isEmail(normalEmail(actor)) ? await people.findPersonByEmail(normalEmail(actor)) : undefined;
    if (!person) throw new ValidationError('actor', `No person has the address ${actor}.`);
    actor = personActor(person);
  }
  if (query.target !== undefined && !/^[a-z-]+:\S+$/.test(query.target))
    throw new ValidationError('target', 'target must read <kind>:<id>, e.g. group:acme-north, booking:PB-7Q2K9, invoice:<id>.');
  let target: string | undefined;
  try {
    // A booking by any id people see, as the admin tool's `audit list` takes it; its chain is under the internal bookingRef.
    target = query.target?.startsWith('booking:')
      ? `booking:${(await findBookingForOperator(svc, query.target.slice('booking:'.length), group, 'with a group chosen in this search')).bookingRef}`
      : query.target;
  } catch (err) {
    // A booking nobody knows is the search's input to correct, not a missing page.
    if (err instanceof NotFoundError) throw new ValidationError('target', err.message.replace(/: booking$/, '.'));
    throw err;
  }
  const keep = (e: AuditEvent) => (!actor || e.actor === actor) && (!from || e.at >= from) && e.at <= to && (!group || e.account === group);
  let events: AuditEvent[];
  let more = false;
  if (target) {
    events = (await svc.auditTrail.listTarget(target)).filter(keep);
  } else if (group) {
    const page = await svc.auditTrail.listAccount(group, { limit: AUDIT_SEARCH_LIMIT, ...(from ? { from } : {}), to });
    events = page.events.filter(keep);
    more = page.next !== null;
  } else {
    const start = from ?? new Date(Date.parse(to) - DEFAULT_DAYS * DAY_MS).toISOString();
    if (Date.parse(to) - Date.parse(start) > MAX_STAGE_WINDOW_DAYS * DAY_MS)
      throw new ValidationError('from', `Over every group the window is at most ${MAX_STAGE_WINDOW_DAYS} days: give a target or a group, or a later from.`);
    events = (await svc.auditTrail.listWindow(start, to)).filter(keep);
  }
  return {
    events: events.slice(0, AUDIT_SEARCH_LIMIT),
    from: from ?? (target || group ? null : new Date(Date.parse(to) - DEFAULT_DAYS * DAY_MS).toISOString()),
    to,
    truncated: more || events.length > AUDIT_SEARCH_LIMIT,
  };
}
