import fc from 'fast-check';
import { SOAK } from './randomised.ts';

/**
 * Every fast-check property without a seed of its own runs on one fixed seed in `npm test`, so a
 * run's verdict (and its assertion count) depends on the code alone: `FC_SEED=<n>` runs another,
 * and `npm run soak` (SOAK=1) a fresh one. A failing property prints its seed and shrunk path.
 */
const FIXED_SEED = 20261129;
const raw = process.env.FC_SEED;
const seed = raw !== undefined && raw !== '' ? Number(raw) : SOAK ? undefined : FIXED_SEED;
if (seed !== undefined) {
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be a whole number, got "${raw}"`);
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
}
