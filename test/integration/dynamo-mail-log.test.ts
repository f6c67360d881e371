import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { newAgentGroup, testServices } from '../support/stack.ts';

const draft = (g: string, invoiceId: string) => ({
  id: randomUUID(),
  at: new Date().toISOString(),
  origin: TEST_OPERATOR,
  action: 'mail.invoice-sent',
  target: `invoice:${invoiceId}`,
  account: g,
  before: null,
  after: { contactId: 'c-1', messageId: 'm-1' },
});

describe('DynamoMailLog', () => {
  it('lets one of many racing claims win; a sent message stays claimed; a released claim can be claimed again', async () => {
    const log = testServices().mailLog;
    const g = (await newAgentGroup()).agentGroupId;
    const invoiceId = randomUUID();
    const key = { agentGroupId: g, what: `invoice-issued:${invoiceId}`, contactId: 'c-1' };
    const at = new Date().toISOString();

    const claims = await Promise.all(Array.from({ length: 8 }, () => log.claim(key, at)));
    expect(claims.filter(Boolean)).toHaveLength(1);

    await log.release(key);
    expect(await log.claim(key, at)).toBe(true);
    await log.sent(key, 'm-1', at, draft(g, invoiceId));
    await log.release(key);
    expect(await log.claim(key, at)).toBe(false);
    expect((await testServices().auditTrail.listTarget(`invoice:${invoiceId}`)).map((e) => e.action)).toEqual(['mail.invoice-sent']);
    await expect(log.sent(key, 'm-2', at, draft(g, invoiceId))).rejects.toThrow();
  });
});
