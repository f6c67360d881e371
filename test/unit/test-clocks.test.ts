import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../domain/errors.ts';
import { depsOfGroup, dueAcrossClocks, type GroupClocks } from '../../domain/test-clocks/group-clocks.ts';
import { advanced, advanceLimitOf, clockOf, newTestClock, timeOf } from '../../domain/test-clocks/test-clock.ts';

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

  it('moves forward only: a `to` before the clock\'s current time is refused naming `to`; its current time itself is accepted', () => {
    const tc = advanced(newTestClock('c1', 'g1', CREATED), new Date('2027-02-01T00:00:00Z'), CREATED);
    const realNow = later(CREATED, 10_000);
    const err = refusal(() => advanced(tc, new Date('2027-02-01T00:00:09Z'), realNow));
    expect(err.param).toBe('to');
    expect(err.message).toMatch(/forward/);
    expect(advanced(tc, new Date('2027-02-01T00:00:10Z'), realNow).setTo).toBe('2027-02-01T00:00:10.000Z');
    expect(refusal(() => advanced(tc, new Date('2027-02-31 25:00:00Z'), realNow)).param).toBe('to');
  });

  it('is bounded to two years from its creation, counted on the calendar, whatever the clock\'s current time', () => {
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

  it('looks at real time over every group, then at each clocked group\'s own time over its work only, taking each item once', async () => {
    const due = await dueAcrossClocks({ name: 'real', groups }, list, (w) => w.id);
    expect(due.map((w) => w.id)).toEqual(['a', 'b', 'c']);
    expect((await depsOfGroup({ name: 'real', groups }, 'clocked')).name).toBe('clock');
  });

  it('without groups (no clocks on the stage) looks at real time only', async () => {
    expect((await dueAcrossClocks({ name: 'real' }, list, (w) => w.id)).map((w) => w.id)).toEqual(['a', 'b']);
    expect((await depsOfGroup({ name: 'real' }, 'clocked')).name).toBe('real');
  });
});
