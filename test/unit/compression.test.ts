import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { RowSlices } from '../../domain/reads/row-slices.ts';
import { gzipJsonArray, gzipJsonSlices } from '../../functions/http/compression.ts';
import type { HttpResult } from '../../functions/http/types.ts';

const head = { statusCode: 200, headers: { 'Content-Type': 'application/json' } };
const rowsOf = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `p-${from + i}`, rate: (from + i) * 7, note: 'x'.repeat(i % 5) }));
const unzip = (r: HttpResult) => gunzipSync(Buffer.from(String(r.body), 'base64')).toString();

/** A slice settled by hand, so a test decides the order slices arrive in. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('gzipJsonSlices', () => {
  it('writes the slices in their order whatever order they settle in, as exactly JSON.stringify of every row', async () => {
    const parts = [rowsOf(0, 3_000), [], rowsOf(3_000, 1), rowsOf(3_001, 12_000)];
    const slices = parts.map(() => deferred<readonly unknown[]>());
    const written = gzipJsonSlices(head, new RowSlices(slices.map((s) => s.promise)));
    for (const i of [3, 1, 0, 2]) slices[i]!.resolve(parts[i]!);
    const out = await written;
    expect(out.headers).toMatchObject({ 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' });
    expect(out.isBase64Encoded).toBe(true);
    expect(unzip(out)).toBe(JSON.stringify(parts.flat()));
  });

  it('sends a small body as it is, and no rows as an empty array', async () => {
    const small = await gzipJsonSlices(head, new RowSlices([Promise.resolve(rowsOf(0, 2)), Promise.resolve([])]));
    expect(small.body).toBe(JSON.stringify(rowsOf(0, 2)));
    expect(small.headers?.['Content-Encoding']).toBeUndefined();
    expect((await gzipJsonSlices(head, new RowSlices([]))).body).toBe('[]');
    expect((await gzipJsonSlices(head, new RowSlices([Promise.resolve([]), Promise.resolve([])]))).body).toBe('[]');
  });

  it('fails with the first failed slice in order, and a later failure it never reaches is not an unhandled rejection', async () => {
    const slices = [deferred<readonly unknown[]>(), deferred<readonly unknown[]>(), deferred<readonly unknown[]>()];
    const written = gzipJsonSlices(head, new RowSlices(slices.map((s) => s.promise)));
    slices[2]!.reject(new Error('third'));
    slices[1]!.reject(new Error('second'));
    slices[0]!.resolve(rowsOf(0, 20_000));
    await expect(written).rejects.toThrow('second');
  });

  it('refuses a body too large to send even gzipped, naming the window', async () => {
    // Pseudo-random hex (a fixed linear congruential sequence) barely compresses: 13 MB of it stays over the limit.
    let seed = 20261125;
    const hex = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed.toString(16).padStart(8, '0'));
    const noise = (n: number) => Array.from({ length: n }, () => ({ id: `${hex()}${hex()}${hex()}${hex()}` }));
    await expect(gzipJsonSlices(head, new RowSlices([Promise.resolve(noise(150_000)), Promise.resolve(noise(150_000))]))).rejects.toMatchObject({
      param: 'to',
    });
  });
});

describe('gzipJsonArray', () => {
  it('decompresses to exactly JSON.stringify of the array', async () => {
    const items = rowsOf(0, 25_001);
    const out = await gzipJsonArray(head, items);
    expect(unzip(out)).toBe(JSON.stringify(items));
  });
});

describe('RowSlices.all', () => {
  it('is every row in slice order', async () => {
    expect(await new RowSlices([Promise.resolve([1, 2]), Promise.resolve([]), Promise.resolve([3])]).all()).toEqual([1, 2, 3]);
  });
});
