import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PARTNER_OPENAPI_PATH } from '../../functions/contracts/system.ts';
import { expectContract } from '../support/contract.ts';
import { call, newAgentGroup, newPartner } from '../support/stack.ts';

describe('GET /api/ping', () => {
  it('returns the partner and key prefix for a partner key', async () => {
    const p = await newPartner();

    const res = await call('GET', '/api/ping', { key: p.apiKey });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ partnerId: p.partnerId, keyPrefix: p.apiKey.slice(0, 12), timestamp: expect.any(String) });
    expectContract(res, 'apiPing');
  });
});

describe('GET /v1/ping', () => {
  it('returns the agent group, its channel and key prefix for a group key', async () => {
    const g = await newAgentGroup();

    const res = await call('GET', '/v1/ping', { key: g.apiKey });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ agentGroupId: g.agentGroupId, channelId: g.channelId, keyPrefix: g.apiKey.slice(0, 12), timestamp: expect.any(String) });
    expectContract(res, 'v1Ping');
  });
});

describe('GET /openapi.json', () => {
  it('serves the document without a key and without rate headers', async () => {
    const res = await call('GET', '/openapi.json');

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ openapi: expect.stringMatching(/^3\.1\./) });
    expectContract(res, 'getOpenApi');
  });
});

describe('GET /openapi.partner.json', () => {
  it("serves docs/openapi.partner.json without a key and without rate headers: the partner API alone, none of the operators' endpoints", async () => {
    const res = await call<{ openapi: string; paths: Record<string, unknown>; components: { securitySchemes: Record<string, unknown> } }>(
      'GET',
      PARTNER_OPENAPI_PATH,
    );

    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    expect(res.body).toEqual(JSON.parse(readFileSync(new URL('../../docs/openapi.partner.json', import.meta.url), 'utf8')));
    expect(res.body.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(res.body.paths).filter((p) => p.startsWith('/channel-manager/') || p.startsWith('/gateway/'))).toEqual([]);
    expect(Object.keys(res.body.components.securitySchemes).sort()).toEqual(['agentGroupKey', 'partnerKey']);
    expectContract(res, 'getPartnerOpenApi');
  });

  it('is linked from the full document and the rendered reference, and refuses a query parameter by name', async () => {
    const [full, page, refused] = await Promise.all([
      call<{ info: { description: string } }>('GET', '/openapi.json'),
      call('GET', '/docs'),
      call('GET', `${PARTNER_OPENAPI_PATH}?v=2`),
    ]);

    expect(full.body.info.description).toContain(`(${PARTNER_OPENAPI_PATH})`);
    expect(page.text).toContain(`(${PARTNER_OPENAPI_PATH})`);
    expect([refused.status, refused.body.param]).toEqual([400, 'v']);
  });
});

describe('Routes that take no query parameters', () => {
  it('refuse one with 400 naming it, on a public and an authenticated route', async () => {
    const g = await newAgentGroup();

    const [open, authed] = await Promise.all([call('GET', '/openapi.json?v=2'), call('GET', '/v1/ping?verbose=true', { key: g.apiKey })]);

    expect([open.status, authed.status]).toEqual([400, 400]);
    expect(open.body).toMatchObject({ code: 'VALIDATION_FAILED', param: 'v' });
    expect(authed.body).toMatchObject({ code: 'VALIDATION_FAILED', param: 'verbose' });
    expectContract(open, 'getOpenApi');
    expectContract(authed, 'v1Ping');
  });
});
