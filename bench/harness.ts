import type { Context } from 'aws-lambda';
import { dynamoCalls, resetDynamoCalls } from '../infra/dynamo/client.ts';

export interface Sample {
  readonly ms: number;
  readonly calls: number;
  readonly status?: number;
}

export interface Summary {
  readonly median: number;
  readonly p95: number;
  readonly p99: number;
  readonly calls: number;
  readonly runs: number;
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Runs `fn` `warmup` times unmeasured, then `runs` times, counting DynamoDB requests per run. */
export async function measure(fn: () => Promise<number | void>, runs: number, warmup = 3): Promise<Summary> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) samples.push(await sample(fn));
  return summarise(samples);
}

/** One timed run of `fn` with the DynamoDB requests it sent. */
async function sample(fn: () => Promise<number | void>): Promise<Sample> {
  resetDynamoCalls();
  const t0 = performance.now();
  const status = await fn();
  return { ms: performance.now() - t0, calls: dynamoCalls.total, status: status ?? undefined };
}

function summarise(samples: readonly Sample[]): Summary {
  const bad = samples.find((s) => s.status !== undefined && s.status >= 400);
  if (bad) throw new Error(`a measured run answered ${bad.status}`);
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const calls = samples.map((s) => s.calls).sort((a, b) => a - b);
  return { median: percentile(ms, 50), p95: percentile(ms, 95), p99: percentile(ms, 99), calls: percentile(calls, 50), runs: samples.length };
}

/**
 * Measures two functions in turns (a, b, a, b, …) after `warmup` unmeasured turns, so that a
 * change in what else the machine is doing weighs on both alike: for a ratio of the two
 * (a handler beside its bare-storage floor) where measuring one block after the other let the
 * same code give 1.16 in one run and 1.55 in the next.
 */
export async function measureInTurns(a: () => Promise<number | void>, b: () => Promise<number | void>, runs: number, warmup = 3): Promise<[Summary, Summary]> {
  for (let i = 0; i < warmup; i++) {
    await a();
    await b();
  }
  const samples: [Sample[], Sample[]] = [[], []];
  for (let i = 0; i < runs; i++) {
    samples[0].push(await sample(a));
    samples[1].push(await sample(b));
  }
  return [summarise(samples[0]), summarise(samples[1])];
}

/** A payload-2.0 API Gateway event, as serverless offline and API Gateway deliver it. */
export function httpEvent(
  method: string,
  path: string,
  opts: { key?: string; query?: Record<string, string>; headers?: Record<string, string>; body?: string } = {},
) {
  const rawQueryString = new URLSearchParams(opts.query ?? {}).toString();
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString,
    headers: {
      ...(opts.key ? { authorization: `Basic ${Buffer.from(`${opts.key}:`).toString('base64')}` } : {}),
      ...(opts.body ? { 'content-type': 'application/json' } : {}),
      ...opts.headers,
    },
    queryStringParameters: opts.query,
    requestContext: {
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: 'bench',
      routeKey: `${method} ${path}`,
      stage: '$default',
      timeEpoch: Date.now(),
    },
    body: opts.body,
    isBase64Encoded: false,
  };
}

export const lambdaContext = { functionName: 'bench', getRemainingTimeInMillis: () => 30_000, callbackWaitsForEmptyEventLoop: false } as unknown as Context;

export const fmt = (s: Summary): string => `median ${s.median.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms, ${s.calls} DynamoDB calls (${s.runs} runs)`;
