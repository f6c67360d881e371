import { afterEach, expect as globalExpect } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    /** The test's assertions (calls of `expect`, global or its context's), summed from a JSON report by scripts/assertion-totals.ts. */
    assertionCalls?: number;
  }
}

/**
 * Records on each test how many assertions it made, so a JSON report (`--reporter=json`) can say
 * whether a change lost any: a test rewritten or moved must keep its count (docs/local-development.md).
 */
afterEach(({ task, expect }) => {
  const own = expect.getState().assertionCalls;
  task.meta.assertionCalls = own + (expect === globalExpect ? 0 : globalExpect.getState().assertionCalls);
});
