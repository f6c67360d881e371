import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BillingJob } from '../../domain/ports/billing-fan-out.ts';
import { loggingFailures } from '../../functions/invoices/run-billing.ts';

afterEach(() => vi.restoreAllMocks());

const job = { runId: 'run-1', agentGroupId: 'group-1', day: '2026-11-26', trigger: 'API', force: false, openWork: true } as BillingJob;

describe("POST /v1/invoices's continuation queue", () => {
  it('logs a send that failed, with the run and group, and still fails it for the run to count', async () => {
    const written: string[] = [];
    const capture = (chunk: string | Uint8Array) => written.push(String(chunk)) > 0;
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);

    const queue = loggingFailures({ enqueue: async () => Promise.reject(new Error('AWS.SimpleQueueService.NonExistentQueue')) });

    await expect(queue.enqueue([job])).rejects.toThrow('NonExistentQueue');
    const line = JSON.parse(written.find((w) => w.includes('billing continuation not queued'))!);
    expect(line).toMatchObject({ level: 'ERROR', runIds: ['run-1'], agentGroupIds: ['group-1'] });
    expect(JSON.stringify(line.error)).toContain('NonExistentQueue');
  });

  it('passes a send that worked through, logging nothing', async () => {
    const sent: BillingJob[][] = [];
    const write = vi.spyOn(process.stdout, 'write');
    await loggingFailures({ enqueue: async (jobs) => void sent.push([...jobs]) }).enqueue([job]);
    expect(sent).toEqual([[job]]);
    expect(write).not.toHaveBeenCalled();
  });
});
