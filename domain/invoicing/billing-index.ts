import { netCharged } from './billing-engine.ts';
import { openFiguresOf, type OpenFigures } from './invoice.ts';
import type { OwingFigures } from '../ports/owing-figures.ts';
import { selectFromHistory, type BillingDeps } from './run-billing.ts';

/** Far enough ahead that every charge, whenever it occurred, counts. */
const EVERY_CHARGE = '9999-12-31T23:59:59.999Z';

export type BillingIndexDeps = Pick<BillingDeps, 'unbilled' | 'ledger' | 'bookingReads' | 'bookingMarks' | 'creditNotes'> & {
  readonly owing: Pick<OwingFigures, 'keptOpenFigures' | 'receivables' | 'backfillOpenFigures'>;
};

/** How a group's billing indexes stand against its whole history. */
export interface BillingIndexReport {
  readonly agentGroupId: string;
  /** Bookings with POSTED entries. */
  readonly bookings: number;
  /** Bookings a run has something to do for (bill, correct, or report): what the index must hold. */
  readonly owing: number;
  /** Whether the unbilled index was complete before (drift is only meaningful then). */
  readonly indexComplete: boolean;
  /** Owing bookings the index does not hold: a run would miss them. */
  readonly missing: readonly string[];
  /** Bookings the index holds with nothing to do: harmless, the next run takes them out. */
  readonly extra: number;
  /** The list's open figures as kept (null while not complete) and as every invoice gives them. */
  readonly keptFigures: OpenFigures | null;
  readonly figures: OpenFigures;
}

/** The bookings of the whole history with something for a run to do, and every booking with entries. */
async function owingOf(deps: BillingIndexDeps, g: string) {
  const history = await selectFromHistory(deps, g, { cutoff: EVERY_CHARGE });
  const settled = new Set(history.charges.flatMap((c) => (c.booking && c.billed.total === netCharged(c) ? [c.charge.bookingId!] : [])));
  for (const c of history.charges) if (!(c.booking && c.billed.total === netCharged(c))) settled.delete(c.charge.bookingId!);
  const all = new Set(history.entries.flatMap((e) => (e.bookingId ? [e.bookingId] : [])));
  return { history, all, owing: [...all].filter((b) => !settled.has(b)) };
}

/** The drift check (`billing check-index`): the unbilled index and the kept open figures against the whole history, read-only. */
export async function checkBillingIndex(deps: BillingIndexDeps, g: string): Promise<BillingIndexReport> {
  const [{ all, owing }, pending, kept, listed] = await Promise.all([
    owingOf(deps, g),
    deps.unbilled.pending(g),
    deps.owing.keptOpenFigures(g),
    deps.owing.receivables(g),
  ]);
  const held = new Set(pending.bookings.map((p) => p.bookingId));
  return {
    agentGroupId: g,
    bookings: all.size,
    owing: owing.length,
    indexComplete: pending.complete,
    missing: pending.complete ? owing.filter((b) => !held.has(b)) : [],
    extra: pending.complete ? [...held].filter((b) => !owing.includes(b)).length : 0,
    keptFigures: kept ?? null,
    figures: openFiguresOf(listed),
  };
}

/** True when nothing a run or the list relies on has drifted. */
export const noDrift = (r: BillingIndexReport): boolean =>
  r.missing.length === 0 && (r.keptFigures === null || JSON.stringify(r.keptFigures) === JSON.stringify(r.figures));

/**
 * The backfill for a group billed before the indexes (`billing backfill-unbilled`): its
 * history indexed (each entry under its booking, owing bookings pending) and its invoices still
 * owing counted in the kept open figures. Idempotent and safe beside live traffic: postings
 * index themselves, and each invoice is counted in a transaction pinned at the figures read.
 */
export async function backfillBillingIndex(
  deps: BillingIndexDeps,
  g: string,
): Promise<{ readonly bookings: number; readonly pending: number; readonly invoicesCounted: number }> {
  const { history, all, owing } = await owingOf(deps, g);
  await deps.unbilled.backfill(g, history.entries, owing);
  const invoicesCounted = await deps.owing.backfillOpenFigures(g);
  return { bookings: all.size, pending: owing.length, invoicesCounted };
}
