import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The stateful tiers share one table: a file that runs the booking or amendment sweep in its
 * own process must narrow it to its own groups (test/support/own-sweeps.ts), or it advances
 * other files' work with its own queue and clock. Sweeps through a stack's Lambda are the
 * stack's own and are not matched here.
 */
const SWEEPS = /\b(sweepBookings|sweepAmendments)\(/;

const files = ['test/integration', 'test/e2e'].flatMap((dir) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join(dir, f)),
);

describe('sweeps in the stateful tiers', () => {
  it('finds the files that sweep (the check below has something to check)', () => {
    expect(files.filter((f) => SWEEPS.test(readFileSync(f, 'utf8'))).length).toBeGreaterThanOrEqual(3);
  });

  it.each(files.filter((f) => SWEEPS.test(readFileSync(f, 'utf8'))))('%s narrows its sweeps to its own groups', (file) => {
    const text = readFileSync(file, 'utf8');
    // open-bookings-shards reads a table of its own items only through a store whose reads it replaces.
    expect(text.includes('sweepingOnly(') || text.includes('listDue: (')).toBe(true);
  });
});
