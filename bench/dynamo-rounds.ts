import { AsyncLocalStorage } from 'node:async_hooks';
import { dynamoCalls } from '../infra/dynamo/client.ts';

/**
 * A run's DynamoDB calls by phase, and its rounds: the longest chain of calls each sent after the
 * one before it had answered. On a loaded machine wall time says little; the rounds are what a
 * quiet machine waits for one after another, and the calls what it pays for in all.
 * A phase is the port method (`invoices.addLines`) whose work sent the call, the outermost one when
 * a port calls another; calls outside every traced method are `other`.
 */
interface Call {
  readonly phase: string;
  readonly start: number;
  end: number;
}

export interface PhaseRounds {
  readonly phase: string;
  readonly calls: number;
  readonly rounds: number;
  /** From the phase's first call sent to its last answered. */
  readonly spanMs: number;
}

const phaseOf = new AsyncLocalStorage<string>();
const ASIDE = '(bench)';

export class DynamoRounds {
  private calls: Call[] = [];
  private readonly entered = new Map<string, number>();

  /** Starts recording every DynamoDB call of this process (until stop). */
  start(): this {
    this.calls = [];
    this.entered.clear();
    dynamoCalls.observe = () => {
      const call: Call = { phase: phaseOf.getStore() ?? 'other', start: performance.now(), end: Number.POSITIVE_INFINITY };
      this.calls.push(call);
      return () => void (call.end = performance.now());
    };
    return this;
  }

  stop(): void {
    dynamoCalls.observe = undefined;
  }

  /** Wraps each method of these ports (on the instance, so every holder of it sees the wrapper) to name the calls it sends; a second entry of a method is its own phase (`#2`). */
  trace(ports: Record<string, object>): void {
    for (const [name, port] of Object.entries(ports)) {
      const proto = Object.getPrototypeOf(port) as object;
      // A class's methods, or a plain object's own functions (never Object's own, nor a proxy's).
      const methods = new Set([...(proto === Object.prototype ? [] : Object.getOwnPropertyNames(proto)), ...Object.keys(port)]);
      for (const m of methods) {
        const original = (port as Record<string, unknown>)[m];
        if (m === 'constructor' || typeof original !== 'function') continue;
        const label = `${name}.${m}`;
        (port as Record<string, unknown>)[m] = (...args: unknown[]) => {
          if (phaseOf.getStore()) return (original as (...a: unknown[]) => unknown).apply(port, args);
          const n = (this.entered.get(label) ?? 0) + 1;
          this.entered.set(label, n);
          return phaseOf.run(n === 1 ? label : `${label}#${n}`, () => (original as (...a: unknown[]) => unknown).apply(port, args));
        };
      }
    }
  }

  /** Runs the bench's own reads (polls) outside the report. */
  aside<T>(read: () => Promise<T>): Promise<T> {
    return phaseOf.run(ASIDE, read);
  }

  /** Per phase in the order it began, then the whole run (`in all`). */
  report(): PhaseRounds[] {
    const done = this.calls.filter((c) => Number.isFinite(c.end) && c.phase !== ASIDE);
    const phases = [...new Set(done.map((c) => c.phase))].sort((a, b) => firstStart(done, a) - firstStart(done, b));
    return [
      ...phases.map((p) =>
        figures(
          p,
          done.filter((c) => c.phase === p),
        ),
      ),
      figures('in all', done),
    ];
  }
}

const firstStart = (calls: readonly Call[], phase: string) => Math.min(...calls.filter((c) => c.phase === phase).map((c) => c.start));

function figures(phase: string, calls: readonly Call[]): PhaseRounds {
  return {
    phase,
    calls: calls.length,
    rounds: rounds(calls),
    spanMs: calls.length ? Math.max(...calls.map((c) => c.end)) - Math.min(...calls.map((c) => c.start)) : 0,
  };
}

/** The longest chain of calls each sent after the previous one answered: by earliest end, the classic interval chain (greedy is optimal). */
export function rounds(calls: readonly Pick<Call, 'start' | 'end'>[]): number {
  let n = 0;
  let last = Number.NEGATIVE_INFINITY;
  for (const c of [...calls].sort((a, b) => a.end - b.end)) {
    if (c.start < last) continue;
    n += 1;
    last = c.end;
  }
  return n;
}

/** The report as a table, one line per phase. */
export const roundsTable = (rows: readonly PhaseRounds[]): string =>
  ['phase | DynamoDB calls | rounds | span', ...rows.map((r) => `${r.phase} | ${r.calls} | ${r.rounds} | ${(r.spanMs / 1000).toFixed(1)} s`)].join('\n');
