/** Runs `run` over the tasks, at most `limit` at once, each lane taking the next task as it ends. */
export async function inParallel<T>(tasks: readonly T[], limit: number, run: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await run(tasks[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}

/**
 * A gate that lets at most `limit` of the tasks handed to it run at once, in the order they were
 * handed over; each call answers with its own task's outcome, so a caller can hold every
 * result's promise from the start. A task that fails frees its place like one that succeeds.
 */
export function limiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running < limit) running++;
    // The task that ends hands its place straight to the first waiting one, so none can slip in between.
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
