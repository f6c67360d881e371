import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkpointsUpTo,
  indiaMidnight,
  keepBalanceCheckpoints,
  keepBalancesAfterRun,
  lastSettledBoundary,
  openingBalance,
  settleSecondsOf,
} from '../../domain/ledger/balance-checkpoints.ts';
import { postedBalance, type LedgerEntry, type LedgerEntryStatus } from '../../domain/ledger/ledger.ts';
import type { BalanceCheckpoint, BalanceStore } from '../../domain/ports/balance-store.ts';
import type { LedgerQuery } from '../../domain/ports/credit-ledger.ts';

/*
 * Checkpointed openings against the definition (the net POSTED position of everything that
 * occurred before `from`, read from the whole history), over random ledgers whose charges
 * move AUTHORIZED → POSTED or → RELEASED → (late) POSTED as the booking workflow moves them,
 * with checkpoint runs at random moments among those moves. The stores are in memory here;
 * test/integration/balance-checkpoints.test.ts runs the same reads against DynamoDB Local.
 */

const TIMINGS = { windowSeconds: 900, watchSeconds: 86_400 };
const SETTLE = settleSecondsOf(TIMINGS);
const T0 = Date.parse('2027-01-01T00:00:00Z');
const MINUTE = 60_000;
const HORIZON_MIN = 12 * 24 * 60;
const at = (minutes: number) => new Date(T0 + minutes * MINUTE).toISOString();

/** One entry and when its status changes: [minute, status] steps after it is written at `minute`. */
interface Scripted {
  readonly entry: LedgerEntry;
  readonly moves: readonly (readonly [number, LedgerEntryStatus])[];
}

const g = 'grp-cp';
const entryArb = fc
  .record({
    minute: fc.integer({ min: 0, max: HORIZON_MIN }),
    amount: fc.integer({ min: 1, max: 2_000_000 }),
    kind: fc.constantFrom('lands', 'fails', 'lands-late', 'in-flight', 'refund', 'payment', 'adjust-up', 'adjust-down'),
    landAfter: fc.integer({ min: 0, max: TIMINGS.windowSeconds / 60 }),
    lateAfter: fc.integer({ min: 0, max: TIMINGS.watchSeconds / 60 }),
  })
  .map(({ minute, amount, kind, landAfter, lateAfter }): Omit<Scripted, 'entry'> & { entry: Omit<LedgerEntry, 'id'> } => {
    const base = { agentGroupId: g, currency: 'INR' as const, bookingId: null, externalBookingId: null, description: kind, occurredAt: at(minute) };
    const charge = { ...base, type: 'CHARGE' as const, status: 'AUTHORIZED' as const, amount };
    switch (kind) {
      case 'lands':
        return { entry: charge, moves: [[minute + landAfter, 'POSTED']] };
      case 'fails':
        return { entry: charge, moves: [[minute + TIMINGS.windowSeconds / 60, 'RELEASED']] };
      case 'lands-late':
        return {
          entry: charge,
          moves: [
            [minute + TIMINGS.windowSeconds / 60, 'RELEASED'],
            [minute + TIMINGS.windowSeconds / 60 + lateAfter, 'POSTED'],
          ],
        };
      case 'in-flight':
        return { entry: charge, moves: [] };
      case 'refund':
        return { entry: { ...base, type: 'REFUND', status: 'POSTED', amount: -amount }, moves: [] };
      case 'payment':
        return { entry: { ...base, type: 'PAYMENT', status: 'POSTED', amount: -amount }, moves: [] };
      case 'adjust-up':
        return { entry: { ...base, type: 'ADJUSTMENT', status: 'POSTED', amount }, moves: [] };
      default:
        return { entry: { ...base, type: 'ADJUSTMENT', status: 'POSTED', amount: -amount }, moves: [] };
    }
  });

/** The ledger as it stood at `minute`: entries written by then, each in its status then. */
function ledgerAt(script: readonly Scripted[], minute: number): LedgerEntry[] {
  return script
    .filter((s) => Date.parse(s.entry.occurredAt) <= T0 + minute * MINUTE)
    .map((s) => ({ ...s.entry, status: s.moves.filter(([m]) => m <= minute).at(-1)?.[1] ?? s.entry.status }));
}

/** In-memory ledger reads with the store's query semantics (occurredAt bounds, status filter, order). */
function ledgerOf(entries: () => LedgerEntry[], reads: { count: number }) {
  return {
    queryEntries: async (_g: string, q: LedgerQuery) => {
      reads.count += 1;
      const out = entries()
        .filter(
          (e) =>
            (q.from === undefined || e.occurredAt >= q.from) &&
            (q.before === undefined || e.occurredAt < q.before) &&
            (q.to === undefined || e.occurredAt <= q.to),
        )
        .filter((e) => q.statuses === undefined || q.statuses.includes(e.status))
        .sort((a, b) => (a.occurredAt < b.occurredAt ? -1 : a.occurredAt > b.occurredAt ? 1 : a.id < b.id ? -1 : 1));
      return { entries: q.order === 'oldest-first' ? out : out.reverse(), next: null };
    },
    read: reads,
  };
}

function memoryBalances(): BalanceStore & { all: Map<string, BalanceCheckpoint> } {
  const all = new Map<string, BalanceCheckpoint>();
  return {
    all,
    latest: async (_g, atOrBefore) => [...all.values()].filter((c) => c.at <= atOrBefore).sort((a, b) => (a.at < b.at ? 1 : -1))[0],
    put: async (cs) => {
      for (const c of cs) {
        const before = all.get(c.at);
        // A boundary written twice must carry the same figure: checkpoints are facts about settled entries.
        if (before) expect(c.balance, `checkpoint ${c.at} rewritten with another balance`).toBe(before.balance);
        all.set(c.at, c);
      }
    },
  };
}

const fullHistoryOpening = (entries: readonly LedgerEntry[], from: string) => postedBalance(entries.filter((e) => e.occurredAt < from));

describe('Function: openingBalance with checkpoints', () => {
  it('equals the opening read from the whole history, for random ledgers, late landings, checkpoint runs and windows', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(entryArb, { maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: HORIZON_MIN + 3 * 24 * 60 }), { maxLength: 8 }),
        fc.array(fc.integer({ min: -24 * 60, max: HORIZON_MIN + 3 * 24 * 60 }), { minLength: 1, maxLength: 6 }),
        async (drafts, runMinutes, fromMinutes) => {
          const script: Scripted[] = drafts.map((d, i) => ({ ...d, entry: { ...d.entry, id: `e-${String(i).padStart(3, '0')}` } }));
          const balances = memoryBalances();
          let now = 0;
          const ledger = ledgerOf(() => ledgerAt(script, now), { count: 0 });
          const deps = { balances, ledger, clock: { now: () => new Date(T0 + now * MINUTE) }, settleSeconds: SETTLE };
          // Checkpoint runs and reads interleave in time: every read, at any moment, agrees with the definition.
          const moments = [...runMinutes.map((m) => ['run', m] as const), ...fromMinutes.map((m) => ['read', Math.max(m, 0) + 60] as const)].sort(
            (a, b) => a[1] - b[1],
          );
          for (const [kind, minute] of moments) {
            now = minute;
            if (kind === 'run') {
              await keepBalanceCheckpoints(deps, g);
              continue;
            }
            for (const f of fromMinutes) {
              const from = at(f);
              expect(await openingBalance(deps, g, from), `opening at ${from}, read at minute ${minute}`).toBe(fullHistoryOpening(ledgerAt(script, now), from));
            }
          }
          now = HORIZON_MIN + 5 * 24 * 60;
          for (const f of fromMinutes) expect(await openingBalance(deps, g, at(f))).toBe(fullHistoryOpening(ledgerAt(script, now), at(f)));
        },
      ),
      // Seeded, so CI sees the same ledgers every time; CHECKPOINT_SEED explores others.
      { numRuns: 300, seed: Number(process.env.CHECKPOINT_SEED ?? '20261125') },
    );
  });

  it('checkpoints only settled boundaries: a charge failed just before midnight and landing late next day moves no written checkpoint', async () => {
    const balances = memoryBalances();
    const failedAt = Date.parse(indiaMidnight('2027-01-05')) - 10 * MINUTE;
    let status: LedgerEntryStatus = 'RELEASED';
    let nowMs = Date.parse(indiaMidnight('2027-01-05')) + 60 * MINUTE;
    const charge = (): LedgerEntry => ({
      id: 'late',
      agentGroupId: g,
      type: 'CHARGE',
      status,
      amount: 500_00,
      currency: 'INR',
      bookingId: null,
      externalBookingId: null,
      description: 'late',
      occurredAt: new Date(failedAt).toISOString(),
    });
    const deps = { balances, ledger: ledgerOf(() => [charge()], { count: 0 }), clock: { now: () => new Date(nowMs) }, settleSeconds: SETTLE };

    await keepBalanceCheckpoints(deps, g);
    expect([...balances.all.keys()].every((k) => k < indiaMidnight('2027-01-05'))).toBe(true);
    status = 'POSTED';
    nowMs += 20 * 60 * MINUTE;
    expect(await openingBalance(deps, g, indiaMidnight('2027-01-06'))).toBe(500_00);
    nowMs += 2 * 24 * 60 * MINUTE;
    await keepBalanceCheckpoints(deps, g);
    expect(balances.all.get(indiaMidnight('2027-01-05'))?.balance).toBe(500_00);
  });

  it('reads one checkpoint and one window of entries, however long the history', async () => {
    for (const days of [10, 200]) {
      const entries: LedgerEntry[] = Array.from({ length: days * 4 }, (_, i) => ({
        id: `e-${i}`,
        agentGroupId: g,
        type: 'ADJUSTMENT',
        status: 'POSTED',
        amount: 100 + i,
        currency: 'INR',
        bookingId: null,
        externalBookingId: null,
        description: 'x',
        occurredAt: new Date(T0 + i * 6 * 60 * MINUTE).toISOString(),
      }));
      const reads = { count: 0 };
      const balances = memoryBalances();
      const nowMs = T0 + (days + 3) * 24 * 60 * MINUTE;
      const deps = { balances, ledger: ledgerOf(() => entries, reads), clock: { now: () => new Date(nowMs) }, settleSeconds: SETTLE };
      await keepBalanceCheckpoints(deps, g);
      const from = new Date(T0 + (days - 1) * 24 * 60 * MINUTE + 7 * 60 * MINUTE).toISOString();
      let scanned = 0;
      const counting = {
        ...deps,
        ledger: {
          queryEntries: async (id: string, q: LedgerQuery) => {
            const page = await deps.ledger.queryEntries(id, q);
            scanned += page.entries.length;
            return page;
          },
        },
      };
      expect(await openingBalance(counting, g, from)).toBe(fullHistoryOpening(entries, from));
      // At most the entries of the day before `from` (4 a day here), whatever came before it.
      expect(scanned).toBeLessThanOrEqual(4);
    }
  });
});

describe('Function: checkpointsUpTo', () => {
  it('stops before a boundary an AUTHORIZED entry falls under', () => {
    const e = (occurredAt: string, status: LedgerEntryStatus, amount: number) => ({ occurredAt, status, amount });
    const out = checkpointsUpTo(
      g,
      { at: indiaMidnight('2027-01-01'), balance: 10 },
      [e('2027-01-01T10:00:00.000Z', 'POSTED', 5), e('2027-01-02T10:00:00.000Z', 'AUTHORIZED', 7)],
      indiaMidnight('2027-01-05'),
    );
    expect(out).toEqual([{ agentGroupId: g, at: indiaMidnight('2027-01-02'), balance: 15 }]);
  });

  it('starts an empty ledger at the settled boundary itself', () => {
    const boundary = lastSettledBoundary(new Date('2027-01-10T12:00:00Z'), SETTLE);
    expect(checkpointsUpTo(g, undefined, [], boundary)).toEqual([{ agentGroupId: g, at: boundary, balance: 0 }]);
  });
});

describe('Function: keepBalancesAfterRun', () => {
  it('counts a checkpoint that could not be written and lets the run finish', async () => {
    const counted: string[] = [];
    const failing: BalanceStore = {
      latest: async () => {
        throw new Error('table unavailable');
      },
      put: async () => undefined,
    };
    const deps = {
      balances: failing,
      ledger: ledgerOf(() => [], { count: 0 }),
      clock: { now: () => new Date(T0) },
      settleSeconds: SETTLE,
      metrics: { count: (name: string) => void counted.push(name) },
    };
    await expect(keepBalancesAfterRun(deps, g)).resolves.toBeUndefined();
    expect(counted).toEqual(['BalanceCheckpointFailed']);
  });
});
