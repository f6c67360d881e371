import { describe, expect, it } from 'vitest';
import type { MetricName, Metrics } from '../../domain/ports/metrics.ts';
import { loggedAsks } from '../../infra/sqs/pay-link-asks.ts';

const counted = () => {
  const names: MetricName[] = [];
  const metrics: Metrics = { count: (name) => void names.push(name) };
  return { names, metrics };
};

describe('asking for pay links to follow, best effort', () => {
  it('passes an ask to the queue', async () => {
    const sent: string[] = [];
    const { names, metrics } = counted();
    await loggedAsks({ ask: async (g) => void sent.push(g) }, () => metrics).ask('grp-1');
    expect(sent).toEqual(['grp-1']);
    expect(names).toEqual([]);
  });

  it('never throws into the use case whose change committed: a lost ask is counted (PayLinkAskLost) for the alarm', async () => {
    const { names, metrics } = counted();
    const asks = loggedAsks(
      {
        ask: async () => {
          throw Object.assign(new Error('throttled'), { name: 'ThrottlingException' });
        },
      },
      () => metrics,
    );
    await expect(asks.ask('grp-2')).resolves.toBeUndefined();
    expect(names).toEqual(['PayLinkAskLost']);
  });
});
