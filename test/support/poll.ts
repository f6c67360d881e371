/**
 * Reads until `read` returns something, at most `tries` times with `everyMs` between: for
 * state a worker settles a moment later. Bounded by a count, not a deadline, so a slow
 * machine waits longer between reads rather than failing at a wall-clock instant.
 */
export async function pollUntil<T>(what: string, read: () => Promise<T | undefined>, { tries = 240, everyMs = 250 } = {}): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`${what}: not reached after ${tries} reads`);
}
