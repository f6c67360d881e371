/**
 * How a scheduled job that judges work by time (the booking and amendment sweepers, guest data
 * retention) meets sandbox test clocks without knowing them: it asks for one group's
 * dependencies, and for the groups whose "now" is not the job's own (docs/sandbox.md).
 */
export interface GroupClocks<D> {
  /** The job's dependencies for work of one group: at the group's test clock when it has one. */
  readonly forGroup: (agentGroupId: string) => Promise<D>;
  /** The groups on a test clock (none off sandbox stages): each is looked at again at its own time. */
  readonly clocked: () => Promise<readonly string[]>;
}

/** A job's dependencies, with the per-group ones when the job runs over groups on their own clocks. */
export type AtGroupClocks<D> = D & { readonly groups?: GroupClocks<D> };

/** One look at a time-keyed work list: at the job's own time over every group, or at one clocked group's time over its work only. */
export interface ClockPass<D> {
  readonly at: D;
  readonly agentGroupId?: string;
}

/**
 * The looks a job takes: first at its own (real) time over every group, which finds what is
 * due there (a clock never runs behind real time, so that work is due on its group's clock
 * too), then once per clocked group at that group's time, for what only its clock made due.
 */
export async function clockPasses<D>(deps: AtGroupClocks<D>): Promise<ClockPass<D>[]> {
  const groups = deps.groups;
  if (!groups) return [{ at: deps }];
  const clocked = await Promise.all((await groups.clocked()).map(async (agentGroupId) => ({ at: await groups.forGroup(agentGroupId), agentGroupId })));
  return [{ at: deps }, ...clocked];
}

/** The dependencies an item of `agentGroupId` is handled with, whichever look found it. */
export const depsOfGroup = <D>(deps: AtGroupClocks<D>, agentGroupId: string): Promise<D> =>
  deps.groups ? deps.groups.forGroup(agentGroupId) : Promise.resolve(deps);

/** Every pass's due items, each once (the real pass and a group's own pass can both find it). */
export async function dueAcrossClocks<D, T>(
  deps: AtGroupClocks<D>,
  list: (pass: ClockPass<D>) => Promise<readonly T[]>,
  keyOf: (item: T) => string,
): Promise<T[]> {
  const seen = new Set<string>();
  const due: T[] = [];
  for (const pass of await clockPasses(deps)) {
    for (const item of await list(pass)) {
      if (seen.has(keyOf(item))) continue;
      seen.add(keyOf(item));
      due.push(item);
    }
  }
  return due;
}
