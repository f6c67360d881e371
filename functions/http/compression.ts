import { createGzip, gzipSync, type Gzip } from 'node:zlib';
import type { RowSlices } from '../../domain/reads/row-slices.ts';
import { ValidationError } from '../../domain/errors.ts';
import type { HttpResult } from './types.ts';

/** Bodies smaller than this are not worth compressing. */
const MIN_GZIP_BYTES = 1024;
/**
 * zlib's fastest level: on a year of bulk rates it compresses about 20× (level 6 about
 * 26×) in a fifth of the time, and the handler's time is what the partner waits for.
 */
const GZIP_LEVEL = 1;
/**
 * Lambda refuses synchronous responses over 6 MB; stay under it with room for headers
 * and, when compressed, base64's third.
 */
export const MAX_WIRE_BYTES = 5_500_000;

/**
 * JSON arrays of more items than this are gzipped while they are written, a slice of
 * this many at a time (a year of bulk rates for 50 properties is 292,000 rows).
 */
const SLICE_ITEMS = 10_000;

export const acceptsGzip = (header: string | undefined): boolean =>
  (header ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase().split(';'))
    .some(([coding, ...params]) => (coding === 'gzip' || coding === '*') && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p)));

/**
 * Gzips a large JSON body when the caller accepts it (bulk rates compress ~20×). A body
 * that would still exceed what Lambda can return is a 400 telling the caller how to ask
 * for less, rather than an opaque 502 from the platform.
 */
export function encodeForTransport(result: HttpResult, acceptEncoding: string | undefined): HttpResult {
  // Bytes (a PDF) are already compressed and already base64 on the wire.
  if (result.isBase64Encoded) return result;
  const body = typeof result.body === 'string' ? result.body : '';
  const size = Buffer.byteLength(body);
  if (size < MIN_GZIP_BYTES) return result;
  if (acceptsGzip(acceptEncoding)) {
    const packed = gzipSync(body, { level: GZIP_LEVEL }).toString('base64');
    if (packed.length > MAX_WIRE_BYTES) throw tooLarge(size);
    return { ...result, body: packed, isBase64Encoded: true, headers: { ...result.headers, 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' } };
  }
  if (size > MAX_WIRE_BYTES) throw tooLarge(size);
  return { ...result, headers: { ...result.headers, Vary: 'Accept-Encoding' } };
}

/** True when the body is a JSON array large enough to be gzipped while it is written, for a caller that accepts gzip. */
export const gzipsWhileWriting = (body: unknown, acceptEncoding: string | undefined): body is readonly unknown[] =>
  Array.isArray(body) && body.length > SLICE_ITEMS && acceptsGzip(acceptEncoding);

/**
 * A large JSON array body, gzipped while it is written: each slice is stringified on the
 * main thread while zlib compresses the slices before it on libuv's threadpool, so the
 * handler pays about the stringify instead of the stringify and then the whole gzip. The
 * bytes decompress to exactly JSON.stringify(items). Same limits and headers as
 * encodeForTransport.
 */
export async function gzipJsonArray(result: Omit<HttpResult, 'body'>, items: readonly unknown[]): Promise<HttpResult> {
  async function* slices() {
    for (let i = 0; i < items.length; i += SLICE_ITEMS) yield JSON.stringify(items.slice(i, i + SLICE_ITEMS));
  }
  return answer(result, await gzipArrayTexts(slices()));
}

/**
 * A JSON array that comes as RowSlices, for a caller that accepts gzip: each slice is
 * stringified as soon as it settles (in whatever order the reads behind them arrive) and handed
 * to zlib in order, so making, writing and compressing the rows overlaps the reads still in
 * flight. A body under MIN_GZIP_BYTES goes as it is, as encodeForTransport sends it. The bytes
 * decompress to exactly JSON.stringify of the rows.
 */
export async function gzipJsonSlices(result: Omit<HttpResult, 'body'>, rows: RowSlices<unknown>): Promise<HttpResult> {
  const texts = rows.slices.map((slice) => slice.then((items) => JSON.stringify(items)));
  for (const text of texts) text.catch(() => undefined);
  async function* inOrder() {
    for (const text of texts) yield await text;
  }
  return answer(result, await gzipArrayTexts(inOrder(), MIN_GZIP_BYTES));
}

/** The result for what gzipArrayTexts made: a small body as text, else the gzip, within Lambda's limit. */
function answer(result: Omit<HttpResult, 'body'>, packed: { bytes: string; size: number } | string): HttpResult {
  if (typeof packed === 'string') return encodeForTransport({ ...result, body: packed }, 'gzip');
  if (packed.bytes.length > MAX_WIRE_BYTES) throw tooLarge(packed.size);
  return { ...result, body: packed.bytes, isBase64Encoded: true, headers: { ...result.headers, 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' } };
}

/**
 * Joins JSON array texts into one array and gzips it as the texts come: zlib compresses each
 * on the threadpool while the caller makes the next. With `plainBelow`, texts are held back
 * until they reach that many bytes, and an array that never does is returned as text.
 */
async function gzipArrayTexts(texts: AsyncIterable<string>, plainBelow = 0): Promise<{ bytes: string; size: number } | string> {
  let gzip: Gzip | undefined;
  const chunks: Buffer[] = [];
  let ended: Promise<void> = Promise.resolve();
  const open = (): Gzip => {
    const stream = createGzip({ level: GZIP_LEVEL });
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    ended = new Promise<void>((resolve, reject) => {
      stream.on('end', resolve);
      stream.on('error', reject);
    });
    // A failed write rejects its own callback and leaves this function early; the stream's error
    // then has no await left on it, and must not end the process as an unhandled rejection.
    ended.catch(() => undefined);
    return stream;
  };
  let held = '';
  let size = 1; // the closing bracket
  let compressing = Promise.resolve();
  try {
    for await (const text of texts) {
      if (text === '[]') continue;
      // The array's items without their brackets, after a comma (or the opening bracket).
      const part = `${size === 1 ? '[' : ','}${text.slice(1, -1)}`;
      size += Buffer.byteLength(part);
      if (!gzip && size < plainBelow) {
        held += part;
        continue;
      }
      gzip ??= open();
      const chunk = held + part;
      held = '';
      // zlib takes the next chunk only from the event loop: wait for the one before this one
      // (compressed while this one was made), then hand this one over.
      await compressing;
      const stream = gzip;
      compressing = new Promise<void>((resolve, reject) => stream.write(chunk, (err) => (err ? reject(err) : resolve())));
      // Awaited on the next turn or after the loop; a failure of the texts before then must not leave it unhandled.
      compressing.catch(() => undefined);
    }
  } catch (err) {
    // A failed slice ends the response: free the half-written stream's zlib state now, not at collection.
    gzip?.destroy();
    throw err;
  }
  if (!gzip) return `${held || '['}]`;
  await compressing;
  gzip.end(']');
  await ended;
  return { bytes: Buffer.concat(chunks).toString('base64'), size };
}

const tooLarge = (size: number) =>
  new ValidationError(
    'to',
    `to: the response would be ${Math.round(size / 1_000_000)} MB; send Accept-Encoding: gzip, or narrow the date window or id filters.`,
  );
