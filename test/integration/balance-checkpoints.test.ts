import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { billAllGroups } from '../../domain/invoicing/scheduled-billing.ts';
import { indiaMidnight, keepBalanceCheckpoints, lastSettledBoundary, openingBalance, settleSecondsOf } from '../../domain/ledger/balance-checkpoints.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { billingDeps, buildServices } from '../../infra/container.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { authorizedEntry, postedBalance, postedEntry, type LedgerEntry } from '../../domain/ledger/ledger.ts';
import { getStatement } from '../../domain/ledger/read-ledger.ts';
import { parseRupees, type Minor } from '../../domain/money.ts';
import type { LedgerQuery } from '../../domain/ports/credit-ledger.ts';
import type { AgentGroupPrincipal } from '../../domain/principal.ts';
import { putAll } from '../../infra/dynamo/batch-write.ts';
import { createDocumentClient, dynamoCalls, resetDynamoCalls } from '../../infra/dynamo/client.ts';
import { entryItem } from '../../infra/dynamo/dynamo-credit-ledger.ts';
import { newAgentGroup, seededGroups, testServices } from '../support/stack.ts';

/*
 * Statement openings through balance checkpoints against DynamoDB Local: the same figure as
 * the whole history gives, whatever the ledger and the window; and a cost that does not grow
 * with the history before the window.
 */

const svc = () => testServices();
const SETTLE = settleSecondsOf(svc().config.booking);
const DAY = 86_400_000;
const NOW = Date.parse('2027-02-01T09:00:00Z');

/**
 * A group whose ledger this file writes directly (charges without bookings behind them): the
 * after-file booking/ledger invariant skips it, as it skips groups seeded with bookings.
 */
async function ledgerOnlyGroup(creditLimit?: Minor): Promise<string> {
  const g = (await newAgentGroup(creditLimit === undefined ? {} : { creditLimit })).agentGroupId;
  seededGroups.add(g);
  return g;
}

const principalOf = (agentGroupId: string): AgentGroupPrincipal => ({
  kind: 'agent-group',
  agentGroupId,
  partnerId: 'p',
  channelId: 'c',
  keyId: 'k',
  keyPrefix: 'k',
});

/** The definition: the net POSTED position of everything that occurred before `from`, from every entry the group has. */
async function fullHistoryOpening(agentGroupId: string, from: string): Promise<Minor> {
  const { entries } = await svc().ledger.audit(agentGroupId);
  return postedBalance(entries.filter((e) => e.occurredAt < from));
}

describe('Statement openings with balance checkpoints (DynamoDB Local)', () => {
  it('equal the opening from the whole history, for random ledgers written through the gate and windows anywhere in them', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            daysAgo: fc.integer({ min: 0, max: 20 * 24 * 60 }).map((m) => m / (24 * 60)),
            amount: fc.integer({ min: 1, max: 500_000 }),
            kind: fc.constantFrom('lands', 'fails', 'refund', 'payment', 'adjustment'),
          }),
          { maxLength: 25 },
        ),
        fc.array(fc.integer({ min: -24 * 60, max: 21 * 24 * 60 }), { minLength: 1, maxLength: 5 }),
        async (drafts, fromMinutesAgo) => {
          const g = await ledgerOnlyGroup(1_000_000_000);
          const ledger = svc().ledger;
          // Oldest first, each dated when written (as the ledger always is), through the real gate and store.
          for (const d of [...drafts].sort((a, b) => b.daysAgo - a.daysAgo)) {
            const at = new Date(NOW - d.daysAgo * DAY);
            const id = randomUUID();
            if (d.kind === 'lands' || d.kind === 'fails') {
              const entry = authorizedEntry({ agentGroupId: g, type: 'CHARGE', amount: d.amount, externalBookingId: `ext-${id}`, description: 'stay' }, id, at);
              await ledger.authorize(entry, { externalBookingId: `ext-${id}`, contentHash: 'h', bookingRef: randomUUID() });
              if (d.kind === 'lands') await ledger.post(g, id, `SIM-${id.slice(0, 8)}`, at.toISOString());
              else await ledger.release(g, id, at.toISOString());
            } else {
              const type = d.kind === 'refund' ? 'REFUND' : d.kind === 'payment' ? 'PAYMENT' : 'ADJUSTMENT';
              await ledger.recordPosted(
                postedEntry(
                  { agentGroupId: g, type, amount: type === 'ADJUSTMENT' ? d.amount : -d.amount, bookingId: null, externalBookingId: null, description: type },
                  id,
                  at,
                ),
              );
            }
          }
          const deps = { balances: svc().balances, ledger, clock: { now: () => new Date(NOW) }, settleSeconds: SETTLE };
          const written = await keepBalanceCheckpoints(deps, g);
          expect(written).toBeGreaterThan(0);
          expect(await keepBalanceCheckpoints(deps, g), 'a second run finds nothing to write').toBe(0);
          for (const m of fromMinutesAgo) {
            const from = new Date(NOW - m * 60_000).toISOString();
            const expected = await fullHistoryOpening(g, from);
            expect(await openingBalance(deps, g, from), `opening at ${from}`).toBe(expected);
            const statement = await getStatement(svc(), principalOf(g), { from, to: new Date(NOW + DAY).toISOString() });
            expect(parseRupees(statement.openingBalance), `statement opening at ${from}`).toBe(expected);
          }
        },
      ),
      { numRuns: 12, seed: Number(process.env.CHECKPOINT_SEED ?? '424242') },
    );
  }, 300_000);

  it('cost one checkpoint and a day of entries, with 30 or 360 days of history before the window', async () => {
    const db = createDocumentClient(svc().config);
    const figures: { days: number; calls: number; entriesRead: number }[] = [];
    for (const days of [30, 360]) {
      const g = await ledgerOnlyGroup();
      // Six POSTED entries a day, written straight to the table as the ledger stores them (the bench seeds the same way).
      const entries: LedgerEntry[] = Array.from({ length: days * 6 }, (_, i) => ({
        id: randomUUID(),
        agentGroupId: g,
        type: 'ADJUSTMENT',
        status: 'POSTED',
        amount: 1_00 + i,
        currency: 'INR',
        bookingId: null,
        externalBookingId: null,
        description: 'seeded',
        occurredAt: new Date(NOW - days * DAY + i * (DAY / 6)).toISOString(),
      }));
      await putAll(
        db,
        svc().config.tableName,
        entries.map((e) => ({ ...entryItem(e), postedAt: e.occurredAt })),
      );
      const deps = { balances: svc().balances, ledger: svc().ledger, clock: { now: () => new Date(NOW) }, settleSeconds: SETTLE };
      await keepBalanceCheckpoints(deps, g);

      const from = new Date(NOW - 3 * 3_600_000).toISOString();
      let entriesRead = 0;
      const counting = {
        ...deps,
        ledger: {
          queryEntries: async (id: string, q: LedgerQuery) => {
            const page = await svc().ledger.queryEntries(id, q);
            entriesRead += page.entries.length;
            return page;
          },
        },
      };
      expect(await openingBalance(counting, g, from)).toBe(postedBalance(entries.filter((e) => e.occurredAt < from)));
      resetDynamoCalls();
      const statement = await getStatement(svc(), principalOf(g), { from, to: new Date(NOW).toISOString() });
      figures.push({ days, calls: dynamoCalls.total, entriesRead });
      expect(parseRupees(statement.openingBalance)).toBe(postedBalance(entries.filter((e) => e.occurredAt < from)));
    }
    console.info(
      `statement opening cost: ${figures.map((f) => `${f.days} days of history → ${f.calls} DynamoDB calls, ${f.entriesRead} entries read`).join('; ')}`,
    );
    // The checkpoint Query, the entries since it, the window, the live position: the same count whatever the history.
    expect(figures[0]!.calls).toBe(figures[1]!.calls);
    expect(figures[1]!.calls).toBeLessThanOrEqual(4);
    // At most the entries of the India day before `from` (the settle horizon here is under a day).
    for (const f of figures) expect(f.entriesRead).toBeLessThanOrEqual(6 * 2);
  }, 120_000);

  it('are written by the daily run for a group it finds up to date, a day at a time', async () => {
    const g = await ledgerOnlyGroup();
    // A monthly group anchored on the 1st: from 2 February no new period closes for a month.
    let now = NOW + DAY;
    const clocked = buildServices(svc().config, { now: () => new Date(now) });
    const deps = { ...billingDeps(clocked, new PdfInvoiceRenderer()), tenants: { listAgentGroups: async () => [(await svc().tenants.getAgentGroup(g))!] } };
    await clocked.ledger.recordPosted(
      postedEntry(
        { agentGroupId: g, type: 'ADJUSTMENT', amount: 123_45, bookingId: null, externalBookingId: null, description: 'x' },
        randomUUID(),
        new Date(NOW - 3 * DAY),
      ),
    );
    // The first day bills (nothing to bill) and records the period; the next days find the group up to date.
    const outcomes = [];
    for (let day = 0; day < 3; day++, now += DAY) outcomes.push((await billAllGroups(deps, { trigger: 'SCHEDULE' }))[0]!.outcome);
    expect(outcomes).toEqual(['BILLED', 'UP_TO_DATE', 'UP_TO_DATE']);
    const last = await clocked.balances.latest(g, new Date(now).toISOString());
    expect(last?.at).toBe(lastSettledBoundary(new Date(now - DAY), SETTLE));
    expect(last?.at).toBe(indiaMidnight(indiaToday(new Date(now - DAY - SETTLE * 1000))));
    expect(last?.balance).toBe(123_45);
  }, 120_000);
});
