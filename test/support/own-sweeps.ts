/** The sweeper's read of a store: what is due, oldest first; with a group, that group's only. */
interface SweptStore<T extends { readonly agentGroupId: string }> {
  listDue(dueBefore: string, limit: number, agentGroupId?: string): Promise<T[]>;
}

/**
 * The store as a sweep in a stateful tier must see it: only the groups this file created.
 * Every integration and e2e file shares one table, and a sweep advances what it finds with the
 * calling file's dependencies (its queue, often an array; its clock; its simulator timings). A
 * sweep over the whole table took another file's booking mid-watch and sent its next look to
 * that array, so the booking sat until the stack's own sweeper found it a minute or two later.
 */
export function sweepingOnly<S extends SweptStore<T>, T extends { readonly agentGroupId: string; readonly nextCheckAt: string | null }>(
  store: S,
  groups: () => Iterable<string>,
): S {
  const own = Object.create(store) as S;
  own.listDue = async (dueBefore: string, limit: number, agentGroupId?: string): Promise<T[]> => {
    const mine = [...groups()].filter((id) => agentGroupId === undefined || id === agentGroupId);
    const due = (await Promise.all(mine.map((id) => store.listDue(dueBefore, limit, id)))).flat();
    return due.sort((a, b) => (a.nextCheckAt ?? '').localeCompare(b.nextCheckAt ?? '')).slice(0, limit);
  };
  return own;
}
