import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../domain/errors.ts';
import { depsOfGroup, dueAcrossClocks, type GroupClocks } from '../../domain/test-clocks/group-clocks.ts';
import { advanced, advanceLimitOf, clockOf, newTestClock, timeOf, type TestClock } from '../../domain/test-clocks/test-clock.ts';
import { deleteTestClock } from '../../domain/test-clocks/manage-test-clocks.ts';
import { invoiceNumberOf, numberingOf, testClockNumberOf } from '../../domain/invoicing/billing-period.ts';

const CREATED = new Date('2026-11-26T08:00:00Z');
const later = (base: Date, ms: number) => new Date(base.getTime() + ms);
const refusal = (fn: () => unknown): ValidationError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
  throw new Error('not refused');
};

describe('Test clock rules', () => {
  it('starts at the real instant of its creation and runs at real speed from there', () => {
    const tc = newTestClock('c1', 'g1', CREATED);
    expect(tc).toMatchObject({ createdAt: CREATED.toISOString(), setTo: CREATED.toISOString(), status: 'ready', version: 1 });
    expect(timeOf(tc, later(CREATED, 90_000)).toISOString()).toBe('2026-11-26T08:01:30.000Z');
  });

  it('jumps to `to` and keeps running from there, as the Clock port the domain reads', () => {
    const tc = newTestClock('c1', 'g1', CREATED);
    const realAdvance = later(CREATED, 5_000);
    const moved = advanced(tc, new Date('2027-01-01T00:00:00+05:30'), realAdvance);
    expect(moved).toMatchObject({ setTo: '2026-12-31T18:30:00.000Z', setAt: realAdvance.toISOString(), status: 'advancing', version: 2 });
    let real = later(realAdvance, 2_000);
    const clock = clockOf(moved, { now: () => real });
    expect(clock.now().toISOString()).toBe('2026-12-31T18:30:02.000Z');
    real = later(real, 1_000);
    expect(clock.now().toISOString()).toBe('2026-12-31T18:30:03.000Z');
  });

  it("moves forward only: a `to` before the clock's current time is refused naming `to`; its current time itself is accepted", () => {
    const tc = advanced(newTestClock('c1', 'g1', CREATED), new Date('2027-02-01T00:00:00Z'), CREATED);
    const realNow = later(CREATED, 10_000);
    const err = refusal(() => advanced(tc, new Date('2027-02-01T00:00:09Z'), realNow));
    expect(err.param).toBe('to');
    expect(err.message).toMatch(/forward/);
    expect(advanced(tc, new Date('2027-02-01T00:00:10Z'), realNow).setTo).toBe('2027-02-01T00:00:10.000Z');
    expect(refusal(() => advanced(tc, new Date('2027-02-31 25:00:00Z'), realNow)).param).toBe('to');
  });

  it("is bounded to two years from its creation, counted on the calendar, whatever the clock's current time", () => {
    const tc = newTestClock('c1', 'g1', new Date('2028-02-29T10:00:00Z'));
    expect(advanceLimitOf(tc).toISOString()).toBe('2030-03-01T10:00:00.000Z');
    const atLimit = advanced(tc, advanceLimitOf(tc), new Date('2028-02-29T10:00:00Z'));
    expect(atLimit.setTo).toBe('2030-03-01T10:00:00.000Z');
    const err = refusal(() => advanced(atLimit, later(advanceLimitOf(tc), 1), new Date('2028-02-29T10:00:00Z')));
    expect(err.param).toBe('to');
    expect(err.message).toMatch(/2 years/);
  });
});

describe('A scheduled job over groups on their own clocks', () => {
  type Deps = { readonly name: string };
  const groups: GroupClocks<Deps> = { forGroup: async (g) => ({ name: g === 'clocked' ? 'clock' : 'real' }), clocked: async () => ['clocked'] };
  const work = [
    { agentGroupId: 'real-time', id: 'a', dueOn: 'real' },
    { agentGroupId: 'clocked', id: 'b', dueOn: 'real' },
    { agentGroupId: 'clocked', id: 'c', dueOn: 'clock' },
    { agentGroupId: 'real-time', id: 'd', dueOn: 'clock' },
  ];
  // What a work index answers: at real time what is due in real time; at a clock, what is due there (the real time's too), of that group only.
  const list = async ({ at, agentGroupId }: { at: Deps; agentGroupId?: string }) =>
    work.filter((w) => (at.name === 'clock' || w.dueOn === 'real') && (agentGroupId === undefined || w.agentGroupId === agentGroupId));

  it("looks at real time over every group, then at each clocked group's own time over its work only, taking each item once", async () => {
    const due = await dueAcrossClocks({ name: 'real', groups }, list, (w) => w.id);
    expect(due.map((w) => w.id)).toEqual(['a', 'b', 'c']);
    expect((await depsOfGroup({ name: 'real', groups }, 'clocked')).name).toBe('clock');
  });

  it('without groups (no clocks on the stage) looks at real time only', async () => {
    expect((await dueAcrossClocks({ name: 'real' }, list, (w) => w.id)).map((w) => w.id)).toEqual(['a', 'b']);
    expect((await depsOfGroup({ name: 'real' }, 'clocked')).name).toBe('real');
  });
});

describe('Documents dated on a test clock (issue 36, finding 6)', () => {
  const real = { now: () => CREATED };
  const registration = (n: number) => invoiceNumberOf('30', '2026-27', n);

  it("number from the clock's own series, never the registration's: TI/TC, the clock's code, the financial year, 16 characters", () => {
    const clocked = numberingOf(clockOf(newTestClock('clock-1', 'g1', CREATED), real), 'I', '2026-27', registration);
    expect(clocked.testClockId).toBe('clock-1');
    const first = clocked.numberOf(1);
    expect(first).toMatch(/^TI[0-9A-Z]{4}\/26\/000001$/);
    expect(first).toHaveLength(16);
    expect(numberingOf(clockOf(newTestClock('clock-1', 'g1', CREATED), real), 'C', '2026-27', registration).numberOf(7)).toBe(
      `TC${first.slice(2, 6)}/26/000007`,
    );
    // Another clock, another code: its documents never share numbers with the first's.
    expect(numberingOf(clockOf(newTestClock('clock-2', 'g2', CREATED), real), 'I', '2026-27', registration).numberOf(1)).not.toBe(first);
    // Real time: the registration's series, as before.
    expect(numberingOf(real, 'I', '2026-27', registration)).toEqual({ numberOf: registration });
    expect(testClockNumberOf('I', 'clock-1', '2027-28', 1)).toBe(`TI${first.slice(2, 6)}/27/000001`);
  });
});

describe('Deleting a test clock (issue 36, finding 6)', () => {
  /** One group's clock, kept as the DynamoDB store keeps it: removal conditioned on id and version. */
  const storeOf = (clock: TestClock | undefined) => {
    let held = clock;
    return {
      get: async () => held,
      list: async () => (held ? [held] : []),
      create: async () => false,
      replace: async () => false,
      remove: async (_g: string, id: string, version: number) => (held?.id === id && held.version === version ? ((held = undefined), true) : false),
      held: () => held,
    };
  };
  const principal = { kind: 'agent-group', agentGroupId: 'g1', partnerId: 'p', channelId: 'c', keyId: 'k', keyPrefix: 'k' } as const;

  it('puts a clock never advanced back on real time', async () => {
    const testClocks = storeOf(newTestClock('c1', 'g1', CREATED));
    await deleteTestClock({ testClocks }, principal, 'c1');
    expect(testClocks.held()).toBeUndefined();
  });

  it('refuses (409 CLOCK_AHEAD) a clock that was advanced: the group keeps it, with its state dated on it', async () => {
    const moved = { ...advanced(newTestClock('c1', 'g1', CREATED), later(CREATED, 60_000), later(CREATED, 1_000)), status: 'ready' as const };
    const testClocks = storeOf(moved);
    await expect(deleteTestClock({ testClocks }, principal, 'c1')).rejects.toMatchObject({ name: 'ConflictError', details: { reasonCode: 'CLOCK_AHEAD' } });
    expect(testClocks.held()).toEqual(moved);
  });

  it("is a 404 for another group's or no clock", async () => {
    await expect(deleteTestClock({ testClocks: storeOf(undefined) }, principal, 'c1')).rejects.toMatchObject({ name: 'NotFoundError' });
    await expect(deleteTestClock({ testClocks: storeOf(newTestClock('c2', 'g1', CREATED)) }, principal, 'c1')).rejects.toMatchObject({ name: 'NotFoundError' });
  });
});
