import { describe, expect, it } from 'vitest';
import { inParallel, limiter } from '../../infra/dynamo/in-parallel.ts';

/** A task settled by hand, noting when it started. */
function gate() {
  let open!: () => void;
  let fail!: (e: Error) => void;
  const done = new Promise<void>((res, rej) => ((open = res), (fail = rej)));
  return { done, open, fail };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('limiter', () => {
  it('runs at most its limit at once, in the order handed over, each call answering with its own result', async () => {
    const inTurn = limiter(2);
    const gates = Array.from({ length: 5 }, gate);
    const started: number[] = [];
    const results = gates.map((g, i) => inTurn(async () => (started.push(i), await g.done, i * 10)));
    const firstFailed = expect(results[0]).rejects.toThrow('first');
    await tick();
    expect(started).toEqual([0, 1]);
    gates[1]!.open();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.fail(new Error('first'));
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const g of gates.slice(2)) g.open();
    await firstFailed;
    expect(await Promise.all(results.slice(1))).toEqual([10, 20, 30, 40]);
  });

  it('never lets a task handed over late slip past one already waiting', async () => {
    const inTurn = limiter(1);
    const order: string[] = [];
    const first = gate();
    const a = inTurn(async () => (order.push('a'), await first.done));
    const b = inTurn(async () => void order.push('b'));
    await tick();
    first.open();
    const c = inTurn(async () => void order.push('c'));
    await Promise.all([a, b, c]);
    expect(order).toEqual(['a', 'b', 'c']);
  });
});

describe('inParallel', () => {
  it('runs every task with at most the limit in flight', async () => {
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    await inParallel([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      most = Math.max(most, ++running);
      await tick();
      seen.push(n);
      running--;
    });
    expect(most).toBe(3);
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});
