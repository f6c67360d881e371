import { testOrigin } from '../support/audit-origin.ts';
import { withBillingScenario } from '../../domain/sandbox/billing-scenarios.ts';
import type { Metrics } from '../../domain/ports/metrics.ts';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { financialYearOf, invoiceNumberOf } from '../../domain/invoicing/billing-period.ts';
import { newDraftInvoice, type Invoice } from '../../domain/invoicing/invoice.ts';
import { runBilling } from '../../domain/invoicing/run-billing.ts';
import { continueBillingRun, requestBillingRun } from '../../domain/invoicing/request-billing-run.ts';
import { billAllGroups } from '../../domain/invoicing/scheduled-billing.ts';
import { keys } from '../../infra/dynamo/keys.ts';
import { bookStay, seedInvoiceWorld, testGstin, type InvoiceWorld } from '../support/invoice-world.ts';
import { newAgentGroup, principalOf, testServices } from '../support/stack.ts';
import { db, deps, groupOf, request, table, today } from '../support/billing-run-kit.ts';

/** Every stored line of the group, by what it bills. */
async function storedLines(agentGroupId: string): Promise<Record<string, unknown>[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
      ExpressionAttributeValues: { ':pk': `GROUP#${agentGroupId}`, ':p': 'INVLINE#' },
      ConsistentRead: true,
    }),
  );
  return out.Items ?? [];
}

let world: InvoiceWorld;
beforeAll(async () => {
  world = await seedInvoiceWorld();
}, 120_000);

describe('Function: runBilling', () => {
  it('bills each charge exactly once when two runs race, the loser writing nothing it does not own', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    const bookingIds = [];
    for (const [from, to] of [
      ['2027-03-01', '2027-03-03'],
      ['2027-03-02', '2027-03-04'],
      ['2027-03-06', '2027-03-08'],
    ] as const)
      bookingIds.push(await bookStay(g, world.registered, from, to));
    const group = await groupOf(g);

    const [a, b] = await Promise.all([runBilling(deps(), group, request(), testOrigin()), runBilling(deps(), group, request(), testOrigin())]);

    expect(a.linesWritten + b.linesWritten).toBe(6);
    const lines = await storedLines(g.agentGroupId);
    expect(lines).toHaveLength(6);
    const invoices = await Promise.all([...new Set([...a.invoiceIds, ...b.invoiceIds])].map((id) => testServices().invoices.get(g.agentGroupId, id)));
    const issued = invoices.filter((i): i is Invoice => i?.status === 'ISSUED');
    expect(issued.reduce((s, i) => s + i.total, 0)).toBe(6 * 525_000);
    for (const inv of issued) expect(inv.total).toBe(lines.filter((l) => l.invoiceId === inv.id).reduce((s, l) => s + (l.lineTotal as number), 0));
    // And a third run finds nothing left.
    expect((await runBilling(deps(), group, request(), testOrigin())).linesWritten).toBe(0);
  }, 120_000);

  it('marks each booking of an issued invoice invoiced, bumping its version', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    const bookingId = await bookStay(g, world.registered, '2027-03-03', '2027-03-04');
    const before = await testServices().bookingReads.byBookingId(g.agentGroupId, bookingId);
    const result = await runBilling(deps(), await groupOf(g), request(), testOrigin());
    const item = (await db().send(new GetCommand({ TableName: table(), Key: keys.booking(g.agentGroupId, before!.bookingRef), ConsistentRead: true }))).Item!;
    expect(item.invoicedIn).toEqual(result.invoiceIds);
    expect(item.version).toBe(before!.version + 1);
  }, 60_000);

  it('gives an abandoned DRAFT its lines back, so the next run bills the charge again', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-04', '2027-03-05');
    const group = await groupOf(g);
    const failed = await runBilling(withBillingScenario(deps(), 'invoice-issue-fails'), group, request(), testOrigin());
    const draftId = failed.invoiceIds[0]!;
    expect((await testServices().invoices.get(g.agentGroupId, draftId))!.status).toBe('DRAFT');

    expect(await testServices().invoices.abandon(g.agentGroupId, draftId, new Date().toISOString())).toBe(true);
    expect((await testServices().invoices.get(g.agentGroupId, draftId))!.status).toBe('CANCELLED');
    expect(await testServices().invoices.abandon(g.agentGroupId, draftId, new Date().toISOString())).toBe(true);

    const again = await runBilling(deps(), group, request(), testOrigin());
    expect(again.linesWritten).toBe(1);
    expect(again.invoiceIds).not.toContain(draftId);
    expect((await testServices().invoices.get(g.agentGroupId, again.invoiceIds[0]!))!.status).toBe('ISSUED');
  }, 60_000);
});

describe('Function: runBilling, handed off', () => {
  /**
   * POST /v1/invoices's budget, deterministic: 20 four-night stays (five items each with the
   * booking's billing marker) need two transactions of lines, so they go through the 16 lanes; `timeUp` answers true from its sixth question
   * (one before the lanes open, then one as each lane starts, in lane order), so lanes 0–3
   * write and the other twelve stop before sending anything.
   */
  it('answers with its DRAFT when its time is up mid-lines; the continuation fills and issues that same DRAFT, every line once', async () => {
    const g = await newAgentGroup({ channelId: world.channelId, creditLimit: 500_000_00 });
    // Four nights either side of the fixture's stop-sell night (2027-03-05).
    for (let i = 0; i < 20; i++) await bookStay(g, world.registered, i % 2 ? '2027-03-06' : '2027-03-01', i % 2 ? '2027-03-10' : '2027-03-05');
    const group = await groupOf(g);
    let asked = 0;
    const req = { ...request(), trigger: 'API' as const };

    const cut = await runBilling(deps(), group, { ...req, timeUp: () => ++asked > 5 }, testOrigin());

    expect(cut.handedOff).toBe(true);
    expect(cut.invoiceIds).toHaveLength(1);
    const draftId = cut.invoiceIds[0]!;
    const draft = (await testServices().invoices.get(g.agentGroupId, draftId))!;
    expect(draft.status).toBe('DRAFT');
    expect(draft.linesOpen).toBeUndefined();
    const written = await storedLines(g.agentGroupId);
    expect(written.length).toBe(cut.linesWritten);
    // Lanes 0–3 of 16 wrote: bookings 0–3 and 16–19 (dealt round the lanes).
    expect(new Set(written.map((l) => l.bookingRef)).size).toBe(8);
    expect(draft.lineCount).toBe(written.length);
    expect(draft.total).toBe(written.reduce((s, l) => s + (l.lineTotal as number), 0));

    const job = { runId: cut.runId, agentGroupId: g.agentGroupId, day: today(), trigger: 'API' as const, force: false, openWork: true };
    const handOff = { period: req.period, cutoff: req.cutoff, invoiceIds: cut.invoiceIds };
    const continued = await continueBillingRun(deps(), { ...job, handOff }, group);

    expect(continued.invoiceIds).toEqual([draftId]);
    const lines = await storedLines(g.agentGroupId);
    expect(new Set(lines.map((l) => l.bookingRef)).size).toBe(20);
    expect(lines.every((l) => l.invoiceId === draftId)).toBe(true);
    expect(cut.linesWritten + continued.linesWritten).toBe(lines.length);
    const issued = (await testServices().invoices.get(g.agentGroupId, draftId))!;
    expect(issued.status).toBe('ISSUED');
    expect(issued.lineCount).toBe(lines.length);
    expect(issued.total).toBe(lines.reduce((s, l) => s + (l.lineTotal as number), 0));
    expect(issued.bookingRefs).toHaveLength(20);
    // The same message delivered again, and any later run, find nothing left to bill.
    const again = await continueBillingRun(deps(), { ...job, handOff }, group);
    expect(again.linesWritten).toBe(0);
    expect((await runBilling(deps(), group, request(), testOrigin())).linesWritten).toBe(0);
    expect(await storedLines(g.agentGroupId)).toHaveLength(lines.length);
  }, 180_000);

  it('leaves a DRAFT whose continuation never came to the next run, which issues it once idle a minute and bills the rest once', async () => {
    const g = await newAgentGroup({ channelId: world.channelId, creditLimit: 500_000_00 });
    for (let i = 0; i < 20; i++) await bookStay(g, world.registered, i % 2 ? '2027-03-06' : '2027-03-01', i % 2 ? '2027-03-10' : '2027-03-05');
    const group = await groupOf(g);
    let asked = 0;
    const cut = await runBilling(deps(), group, { ...request(), trigger: 'API', timeUp: () => ++asked > 3 }, testOrigin());
    const draftId = cut.invoiceIds[0]!;

    // A run within the minute leaves the DRAFT to its continuation and bills the rest on its own invoice.
    const soon = await runBilling(deps(), group, request(), testOrigin());
    expect(soon.invoiceIds).not.toContain(draftId);
    expect((await testServices().invoices.get(g.agentGroupId, draftId))!.status).toBe('DRAFT');
    // A minute later the next run issues it with what it holds.
    const later = await runBilling({ ...deps(), clock: { now: () => new Date(Date.now() + 120_000) } }, group, request(), testOrigin());
    expect(later.invoiceIds).toEqual([draftId]);
    const lines = await storedLines(g.agentGroupId);
    expect(new Set(lines.map((l) => l.bookingRef)).size).toBe(20);
    expect(new Set(lines.map((l) => `${l.bookingRef}|${l.key}`)).size).toBe(lines.length);
    for (const id of [draftId, ...soon.invoiceIds]) {
      const inv = (await testServices().invoices.get(g.agentGroupId, id))!;
      expect(inv.status).toBe('ISSUED');
      expect(inv.total).toBe(lines.filter((l) => l.invoiceId === id).reduce((sum, l) => sum + (l.lineTotal as number), 0));
    }
  }, 180_000);

  it('keeps a DRAFT whose time was up before its first line, and the continuation bills every booking into it', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    for (const [from, to] of [
      ['2027-03-01', '2027-03-03'],
      ['2027-03-02', '2027-03-04'],
    ] as const)
      await bookStay(g, world.registered, from, to);
    const group = await groupOf(g);
    const req = { ...request(), trigger: 'API' as const };

    const cut = await runBilling(deps(), group, { ...req, timeUp: () => true }, testOrigin());

    expect(cut).toMatchObject({ handedOff: true, linesWritten: 0 });
    const draftId = cut.invoiceIds[0]!;
    expect(await testServices().invoices.get(g.agentGroupId, draftId)).toMatchObject({ status: 'DRAFT', lineCount: 0 });
    const continued = await continueBillingRun(
      deps(),
      {
        runId: cut.runId,
        agentGroupId: g.agentGroupId,
        day: today(),
        trigger: 'API',
        force: false,
        openWork: true,
        handOff: { period: req.period, cutoff: req.cutoff, invoiceIds: cut.invoiceIds },
      },
      group,
    );
    expect(continued).toMatchObject({ invoiceIds: [draftId], linesWritten: 4 });
    expect(await testServices().invoices.get(g.agentGroupId, draftId)).toMatchObject({ status: 'ISSUED', lineCount: 4 });
  }, 120_000);
});

describe('Class: DynamoInvoiceStore', () => {
  it('numbers invoices of one series consecutively, without gaps or repeats, when 12 issue at once', async () => {
    const store = testServices().invoices;
    const gstin = testGstin('29');
    const g = `grp-series-${gstin.slice(2, 8).toLowerCase()}`;
    const at = new Date().toISOString();
    const parties = {
      supplierGstin: gstin,
      supplierName: 'Series Test',
      supplierAddress: 'Bengaluru',
      supplierStateCode: '29',
      billToGstin: null,
      billToName: 'Agents',
      billToAddress: 'Mumbai',
      placeOfSupply: 'Karnataka',
      placeOfSupplyStateCode: '29',
    };
    const drafts: Invoice[] = Array.from({ length: 12 }, (_, i) =>
      newDraftInvoice({ id: crypto.randomUUID(), agentGroupId: g, runId: `run-${i}`, period: { from: '2026-11-01', to: '2026-11-24' }, parties, at }),
    );
    await Promise.all(drafts.map((d) => store.createDraft(d)));
    const issueDate = today();
    const fy = financialYearOf(issueDate);
    const issued = await Promise.all(
      drafts.map((d) =>
        store.issue(d, {
          issueDate,
          dueDate: addDays(issueDate, 15),
          issuedAt: new Date().toISOString(),
          financialYear: fy,
          numberOf: (n) => invoiceNumberOf('29', fy, n),
        }),
      ),
    );
    expect(issued.map((i) => i.invoiceNumber).sort()).toEqual(Array.from({ length: 12 }, (_, i) => invoiceNumberOf('29', fy, i + 1)));
    // Issuing an issued invoice again takes no number.
    const again = await store.issue(drafts[0]!, {
      issueDate,
      dueDate: addDays(issueDate, 15),
      issuedAt: new Date().toISOString(),
      financialYear: fy,
      numberOf: (n) => invoiceNumberOf('29', fy, n),
    });
    expect(again.invoiceNumber).toBe(issued[0]!.invoiceNumber);
    const series = await db().send(new GetCommand({ TableName: table(), Key: keys.invoiceSeries(gstin, fy), ConsistentRead: true }));
    expect(series.Item!.last).toBe(12);
  }, 60_000);

  it("lets one run hold a group's billing lock at a time, and another take it once the lease expired", async () => {
    const store = testServices().billingControl;
    const g = `grp-lock-${crypto.randomUUID().slice(0, 8)}`;
    const now = new Date();
    const lease = (s: number) => new Date(now.getTime() + s * 1000).toISOString();
    const [x, y] = await Promise.all([store.acquireLock(g, 'x', now.toISOString(), lease(300)), store.acquireLock(g, 'y', now.toISOString(), lease(300))]);
    expect([x.acquired, y.acquired].sort()).toEqual([false, true]);
    const later = new Date(now.getTime() + 301_000).toISOString();
    expect((await store.acquireLock(g, 'z', later, new Date(now.getTime() + 601_000).toISOString())).acquired).toBe(true);
    await store.releaseLock(g, x.acquired ? 'x' : 'y');
    expect((await store.acquireLock(g, 'w', later, later)).acquired).toBe(false);
    await store.releaseLock(g, 'z');
    expect((await store.acquireLock(g, 'w', later, later)).acquired).toBe(true);
  });
});

describe('Function: requestBillingRun', () => {
  it('does not count a run refused as in progress against the minute: the retry it asks for runs, twice, and only a third is throttled', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-10', '2027-03-11');
    const principal = principalOf(g);
    const ask = () => requestBillingRun(deps(), principal, { from: addDays(today(), -30), to: today() }, testOrigin());
    const now = new Date();
    await testServices().billingControl.acquireLock(g.agentGroupId, 'elsewhere', now.toISOString(), new Date(now.getTime() + 300_000).toISOString());
    for (let i = 0; i < 3; i++) await expect(ask()).rejects.toThrow(/Another billing run for your account is in progress; try again in \d+ seconds?\./);
    await testServices().billingControl.releaseLock(g.agentGroupId, 'elsewhere');

    expect((await ask()).linesWritten).toBe(1);
    expect((await ask()).linesWritten).toBe(0);
    await expect(ask()).rejects.toThrow(/Billing runs are limited to 2 a minute for your account; try again in \d+ seconds?\./);
  }, 60_000);

  it('answers with its DRAFT when the continuation cannot be queued, counts it, and a run once it is idle a minute issues it and bills the rest once', async () => {
    const g = await newAgentGroup({ channelId: world.channelId, creditLimit: 500_000_00 });
    // Enough lines for more than one line transaction, so the run is cut between two.
    for (let i = 0; i < 20; i++) await bookStay(g, world.registered, i % 2 ? '2027-03-06' : '2027-03-01', i % 2 ? '2027-03-10' : '2027-03-05');
    const principal = principalOf(g);
    const counts: Record<string, number> = {};
    const metrics: Metrics = { count: (name, value = 1) => void (counts[name] = (counts[name] ?? 0) + value) };
    const queueDown = { enqueue: () => Promise.reject(new Error('queue down')) };
    let asked = 0;

    const cut = await requestBillingRun(
      { ...deps(), metrics, billingQueue: queueDown },
      principal,
      { from: addDays(today(), -30), to: today() },
      testOrigin(),
      { timeUp: () => ++asked > 3 },
    );

    expect(cut.handedOff).toBe(true);
    expect(cut.linesWritten).toBeGreaterThan(0);
    expect(cut.invoiceIds).toHaveLength(1);
    expect(counts.BillingHandOffNotQueued).toBe(1);
    const draftId = cut.invoiceIds[0]!;
    expect((await testServices().invoices.get(g.agentGroupId, draftId))!.status).toBe('DRAFT');
    const later = await runBilling({ ...deps(), clock: { now: () => new Date(Date.now() + 120_000) } }, await groupOf(g), request(), testOrigin());
    expect(later.invoiceIds).toContain(draftId);
    const lines = await storedLines(g.agentGroupId);
    expect(new Set(lines.map((l) => l.bookingRef)).size).toBe(20);
    expect(new Set(lines.map((l) => `${l.bookingRef}|${l.key}`)).size).toBe(lines.length);
    for (const id of later.invoiceIds) expect((await testServices().invoices.get(g.agentGroupId, id))!.status).toBe('ISSUED');
  }, 180_000);
});

describe('Function: billAllGroups', () => {
  it("carries on past a group whose run fails, and reports each group's outcome", async () => {
    const ok = await newAgentGroup({ channelId: world.channelId, billingCycle: 'WEEKLY', billingAnchorDay: ((new Date().getUTCDay() + 5) % 7) + 1 });
    const blocked = await newAgentGroup({ channelId: world.channelId });
    // A run of the blocked group is in progress elsewhere: its lock is held.
    await testServices().billingControl.acquireLock(blocked.agentGroupId, 'elsewhere', new Date().toISOString(), new Date(Date.now() + 300_000).toISOString());
    const svc = testServices();
    const listed = await svc.tenants.listAgentGroups();
    const only = new Set([ok.agentGroupId, blocked.agentGroupId]);
    const seen: string[] = [];
    const counts: Record<string, number> = {};
    const metrics: Metrics = { count: (name, value = 1) => void (counts[name] = (counts[name] ?? 0) + value) };
    const outcomes = await billAllGroups(
      { ...deps(), metrics, tenants: { listAgentGroups: async () => listed.filter((x) => only.has(x.agentGroupId)) } },
      { trigger: 'SCHEDULE', onGroup: (o) => seen.push(`${o.agentGroupId}:${o.outcome}`) },
    );
    expect(outcomes.find((o) => o.agentGroupId === blocked.agentGroupId)!.outcome).toBe('FAILED');
    expect(outcomes.find((o) => o.agentGroupId === ok.agentGroupId)!.outcome).toBe('BILLED');
    expect(seen).toHaveLength(2);
    expect(counts).toEqual({ BillingRun: 1, BillingRunFailed: 1 });
    // The next day's run finds the billed group up to date.
    const second = await billAllGroups(
      { ...deps(), tenants: { listAgentGroups: async () => listed.filter((x) => x.agentGroupId === ok.agentGroupId) } },
      { trigger: 'SCHEDULE' },
    );
    expect(second[0]!.outcome).toBe('UP_TO_DATE');
    const runs = await svc.billingRuns.groupRuns(5, ok.agentGroupId);
    expect(runs[0]!.trigger).toBe('SCHEDULE');
  }, 60_000);
});
