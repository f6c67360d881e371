/*
 * Seeds and sizes of the randomised tests (the HTTP fuzzer, account consistency, search
 * equivalence). `npm test` runs each at its CI size with a fixed seed, so a run's verdict
 * depends on the code alone and a failure replays exactly; `npm run soak` (SOAK=1) runs them
 * long with a fresh seed each time, to look for what the fixed seed does not reach. Every run
 * prints its seed and size with the line that replays it (docs/local-development.md,
 * "Randomised tests").
 */

/** `npm run soak`: long runs with a fresh seed. */
export const SOAK = process.env.SOAK === '1';

export interface RandomisedSize {
  /** What the run prints its seed as (vitest shows it with the file's output). */
  readonly name: string;
  /** The test file, for the replay line. */
  readonly file: string;
  /** The environment variables that replay a run: its seed and its size. */
  readonly seedVar: string;
  readonly runsVar: string;
  /** The seed `npm test` (and CI) uses. */
  readonly fixedSeed: number;
  /** How many runs (cases, requests) in `npm test`, and in `npm run soak`. */
  readonly ci: number;
  readonly soak: number;
}

function integerFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a whole number ≥ 0, got "${raw}"`);
  return n;
}

/** The seed and size of this run of one randomised test, printed with how to replay it. */
export function randomised(o: RandomisedSize): { readonly seed: number; readonly runs: number } {
  const seed = integerFrom(o.seedVar, SOAK ? Math.floor(Math.random() * 2 ** 31) : o.fixedSeed);
  const runs = integerFrom(o.runsVar, SOAK ? o.soak : o.ci);
  console.info(`${o.name}: seed ${seed}, ${runs} runs${SOAK ? ' (soak)' : ''}; replay: ${o.seedVar}=${seed} ${o.runsVar}=${runs} npx vitest run ${o.file}`);
  return { seed, runs };
}

/** A randomised test's timeout: its bound at the CI size, none in a soak (hours are the point there). */
export const sizedTimeout = (ms: number): number => (SOAK ? 0 : ms);
