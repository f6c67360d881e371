/**
 * A long list of rows made a slice at a time, in order: slice i settles when the reads it
 * needs have arrived, whatever order they arrive in, so the first slices can be made (and
 * written out) while later ones are still being read. The list is the slices concatenated.
 */
export class RowSlices<T> {
  readonly slices: readonly Promise<readonly T[]>[];

  constructor(slices: readonly Promise<readonly T[]>[]) {
    // Whoever reads the slices in order meets a failed one when it gets there; a failure it
    // never gets to (an earlier slice failed first) must not end the process as unhandled.
    for (const slice of slices) slice.catch(() => undefined);
    this.slices = slices;
  }

  /** Every row, in order. */
  async all(): Promise<T[]> {
    return (await Promise.all(this.slices)).flat() as T[];
  }
}
