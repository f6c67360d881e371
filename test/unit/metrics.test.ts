import { afterEach, describe, expect, it, vi } from 'vitest';
import { METRICS_NAMESPACE, emfMetrics } from '../../infra/metrics.ts';

/** The EMF lines Powertools writes to stdout while `run` runs. */
function emfLines(run: () => void): Record<string, unknown>[] {
  const written: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  try {
    run();
  } finally {
    spy.mockRestore();
  }
  return written
    .flatMap((w) => w.split('\n'))
    .filter((l) => l.includes('"_aws"'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

afterEach(() => vi.restoreAllMocks());

describe('emfMetrics (Powertools, CloudWatch embedded metric format)', () => {
  it('writes one EMF line per count, in the namespace, with service and stage as the only dimensions', () => {
    const metrics = emfMetrics('prod');

    const lines = emfLines(() => {
      metrics.count('BookingConfirmed');
      metrics.count('OverdueDeliveries', 0);
    });

    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      _aws: {
        CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [['service', 'stage']], Metrics: [{ Name: 'BookingConfirmed', Unit: 'Count' }] }],
      },
      service: 'partner-distribution',
      stage: 'prod',
      BookingConfirmed: 1,
    });
    expect(lines[1]).toMatchObject({ OverdueDeliveries: 0 });
  });

  it('never throws into the work it counts', () => {
    const metrics = emfMetrics('prod');

    expect(() => emfLines(() => metrics.count('CreditRefused', Number.NaN))).not.toThrow();
  });
});
