import { ValidationError } from '../errors.ts';
import { toRupees, type Minor } from '../money.ts';
import type { CreditLedger, LedgerPosition, LedgerQuery } from '../ports/credit-ledger.ts';
import type { CursorCodec, CursorScope } from '../ports/cursor-codec.ts';
import type { AgentGroupPrincipal } from '../principal.ts';
import { dayOrInstant } from '../reads/date-window.ts';
import type { BalanceStore } from '../ports/balance-store.ts';
import { openingBalance } from './balance-checkpoints.ts';
import { postedBalance, type CreditPosition, type LedgerEntry, type LedgerEntryStatus, type LedgerEntryType } from './ledger.ts';

export interface LedgerReadDeps {
  readonly ledger: CreditLedger;
  readonly cursors: CursorCodec;
}

/** Page sizes of `GET /v1/ledger`: refused beyond the maximum, never clamped. */
export const LEDGER_PAGE = { defaultSize: 20, maxSize: 100 } as const;
/** A statement covers at most this many days from `from` to `to`. */
export const MAX_STATEMENT_DAYS = 365;
const DAY_MS = 86_400_000;

/** A ledger entry as `/v1/ledger` and `/v1/statement` show it: signed rupees, no tenant id. */
export interface LedgerEntryView {
  id: string;
  type: LedgerEntryType;
  status: LedgerEntryStatus;
  amount: number;
  currency: 'INR';
  bookingId: string | null;
  externalBookingId: string | null;
  description: string;
  occurredAt: string;
}

export function ledgerEntryView(e: LedgerEntry): LedgerEntryView {
  return {
    id: e.id,
    type: e.type,
    status: e.status,
    amount: toRupees(e.amount),
    currency: e.currency,
    bookingId: e.bookingId,
    externalBookingId: e.externalBookingId,
    description: e.description,
    occurredAt: e.occurredAt,
  };
}

interface CreditPositionView {
  creditLimit: number;
  exposure: number;
  availableCredit: number;
}

export interface LedgerListView extends CreditPositionView {
  data: LedgerEntryView[];
  nextCursor: string | null;
}

export interface StatementView {
  from: string;
  to: string;
  openingBalance: number;
  entries: LedgerEntryView[];
  closingBalance: number;
  creditLimit: number;
  availableCredit: number;
}

const creditPositionView = (p: CreditPosition): CreditPositionView => ({
  creditLimit: toRupees(p.creditLimit),
  exposure: toRupees(p.exposure),
  availableCredit: toRupees(p.availableCredit),
});

/** The live position of the caller's own group; authentication already found the group, so its absence is a fault, not a 404. */
async function livePosition(ledger: Pick<CreditLedger, 'creditPosition'>, agentGroupId: string): Promise<CreditPosition> {
  const position = await ledger.creditPosition(agentGroupId);
  if (!position) throw new Error(`agent group ${agentGroupId} authenticated but has no profile`);
  return position;
}

/**
 * Inclusive window of caller bounds, canonical instants: an India date as `from` is its first
 * instant, as `to` its last. `from` after `to` is refused naming from.
 */
function instantWindow(from: string | undefined, to: string | undefined): { from?: string; to?: string } {
  const start = from === undefined ? undefined : dayOrInstant(from, 'from', 'start');
  const end = to === undefined ? undefined : dayOrInstant(to, 'to', 'end');
  if (start !== undefined && end !== undefined && start > end) throw new ValidationError('from', `from (${start}) must not be after to (${end}).`);
  return { from: start, to: end };
}

export interface LedgerListQuery {
  readonly from?: string;
  readonly to?: string;
  readonly type?: readonly LedgerEntryType[];
  readonly status?: readonly LedgerEntryStatus[];
  readonly bookingIds?: readonly string[];
  readonly externalBookingIds?: readonly string[];
  readonly cursor?: string;
  readonly size?: number;
}

const sorted = (list: readonly string[] | undefined): string => (list ? [...new Set(list)].sort().join(',') : '*');

/**
 * The cursor is bound to the group and to every filter, in a canonical form (instants as
 * stored, lists sorted), so the same query spelled differently keeps its cursor and any other
 * query refuses it. Size is left out: the position means the same at any page size.
 */
const ledgerScope = (agentGroupId: string, window: { from?: string; to?: string }, q: LedgerListQuery): CursorScope => ({
  callerId: agentGroupId,
  query: ['v1/ledger', window.from ?? '-', window.to ?? '-', sorted(q.type), sorted(q.status), sorted(q.bookingIds), sorted(q.externalBookingIds)].join('|'),
});

const encodePosition = (p: LedgerPosition): string => JSON.stringify([p.occurredAt, p.id]);

function decodePosition(position: string): LedgerPosition {
  const parsed: unknown = (() => {
    try {
      return JSON.parse(position);
    } catch {
      return undefined;
    }
  })();
  // Signed, so only a cursor we minted gets here; the shape check guards against a cursor of an older format.
  if (!Array.isArray(parsed) || parsed.length !== 2 || !parsed.every((x) => typeof x === 'string')) {
    throw new ValidationError('cursor', 'cursor is malformed, was altered, or belongs to another query; start again without it.');
  }
  return { occurredAt: parsed[0] as string, id: parsed[1] as string };
}

/**
 * `GET /v1/ledger`: the group's entries newest first (occurredAt, then id), every filter
 * ANDed, with the live credit position. The walk is keyset over the group's timeline, so a
 * page costs O(page) unfiltered; nextCursor is set whenever the page came back full and more
 * may follow.
 */
export async function listLedger(deps: LedgerReadDeps, group: AgentGroupPrincipal, q: LedgerListQuery): Promise<LedgerListView> {
  const window = instantWindow(q.from, q.to);
  const scope = ledgerScope(group.agentGroupId, window, q);
  const after = q.cursor === undefined ? undefined : decodePosition(deps.cursors.decode(scope, q.cursor));
  const size = q.size ?? LEDGER_PAGE.defaultSize;
  if (size < 1 || size > LEDGER_PAGE.maxSize) throw new ValidationError('size', `size must be from 1 to ${LEDGER_PAGE.maxSize}.`);
  const query: LedgerQuery = {
    ...window,
    types: q.type,
    statuses: q.status,
    bookingIds: q.bookingIds,
    externalBookingIds: q.externalBookingIds,
    order: 'newest-first',
    after,
    limit: size,
  };
  const [page, position] = await Promise.all([deps.ledger.queryEntries(group.agentGroupId, query), livePosition(deps.ledger, group.agentGroupId)]);
  return {
    data: page.entries.map(ledgerEntryView),
    nextCursor: page.next ? deps.cursors.encode(scope, encodePosition(page.next)) : null,
    ...creditPositionView(position),
  };
}

/** A statement's figures in paise, before any conversion to rupees. */
export interface StatementFigures {
  readonly openingBalance: Minor;
  readonly closingBalance: Minor;
}

/**
 * The statement identity: closing = opening + the window's POSTED amounts. Opening is the net
 * POSTED position of everything that occurred before `from` (balance-checkpoints.ts finds it
 * without reading the whole history). AUTHORIZED and RELEASED entries are listed but count in
 * neither balance: an authorization is not yet owed, a released one never is.
 */
export function statementFigures(openingBalance: Minor, within: readonly Pick<LedgerEntry, 'status' | 'amount'>[]): StatementFigures {
  return { openingBalance, closingBalance: openingBalance + postedBalance(within) };
}

export interface StatementQuery {
  readonly from: string;
  readonly to: string;
}

/**
 * `GET /v1/statement`: every entry that occurred in [from, to], oldest first, between the
 * opening and closing POSTED balances, with the live limit and available credit (which
 * include authorized exposure and are not figures at `to`). The window is refused past
 * 365 days, never clamped.
 */
export async function getStatement(
  deps: { readonly ledger: Pick<CreditLedger, 'queryEntries' | 'creditPosition'>; readonly balances: BalanceStore },
  group: Pick<AgentGroupPrincipal, 'agentGroupId'>,
  q: StatementQuery,
): Promise<StatementView> {
  const { from, to } = instantWindow(q.from, q.to) as { from: string; to: string };
  if (Date.parse(to) - Date.parse(from) > MAX_STATEMENT_DAYS * DAY_MS) {
    throw new ValidationError(
      'to',
      `to must be at most ${MAX_STATEMENT_DAYS} days after from: a statement covers at most ${MAX_STATEMENT_DAYS} days (from ${from}, to ${to}).`,
    );
  }
  const g = group.agentGroupId;
  const [opening, within, position] = await Promise.all([
    openingBalance(deps, g, from),
    deps.ledger.queryEntries(g, { from, to, order: 'oldest-first' }),
    livePosition(deps.ledger, g),
  ]);
  const figures = statementFigures(opening, within.entries);
  return {
    from,
    to,
    openingBalance: toRupees(figures.openingBalance),
    entries: within.entries.map(ledgerEntryView),
    closingBalance: toRupees(figures.closingBalance),
    creditLimit: toRupees(position.creditLimit),
    availableCredit: toRupees(position.availableCredit),
  };
}
