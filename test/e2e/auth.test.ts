import { TEST_OPERATOR } from '../support/audit-origin.ts';
import type { Context } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminDeps } from '../../infra/container.ts';
import { revokeKey } from '../../domain/admin.ts';
import { generateApiKey } from '../../infra/crypto/api-keys.ts';
import { logger } from '../../infra/logger.ts';
import type { HttpEvent, HttpResult } from '../../functions/http/types.ts';
import { expectContract } from '../support/contract.ts';
import { basicAuth, call, newAgentGroup, newPartner, stack, testServices, type CallResult, type GroupFixture, type PartnerFixture } from '../support/stack.ts';

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const PING = { api: '/api/ping', v1: '/v1/ping' } as const;
const OPERATION = { api: 'apiPing', v1: 'v1Ping' } as const;
type Surface = keyof typeof PING;

let partner: PartnerFixture;
let group: GroupFixture;
let revokedPartner: PartnerFixture;
let revokedGroup: GroupFixture;
let disabledGroup: GroupFixture;

beforeAll(async () => {
  [partner, group, revokedPartner, revokedGroup, disabledGroup] = await Promise.all([
    newPartner(),
    newAgentGroup(),
    newPartner(),
    newAgentGroup(),
    newAgentGroup(),
  ]);
  const deps = adminDeps(testServices(), TEST_OPERATOR);
  await Promise.all([revokeKey(deps, revokedPartner.keyId), revokeKey(deps, revokedGroup.keyId)]);
  const tenants = testServices().tenants;
  const current = (await tenants.getAgentGroup(disabledGroup.agentGroupId))!;
  await tenants.putAgentGroup({ ...current, distributionEnabled: false });
});

/** Every way to be refused, as the Authorization header to send (undefined: none). */
const REFUSALS: Record<string, (surface: Surface) => string | undefined> = {
  'no Authorization header': () => undefined,
  'another scheme (Bearer)': (s) => `Bearer ${s === 'api' ? partner.apiKey : group.apiKey}`,
  'Basic with malformed base64': () => 'Basic %%%not-base64%%%',
  'Basic with a non-empty password': (s) => `Basic ${b64(`${s === 'api' ? partner.apiKey : group.apiKey}:password`)}`,
  'Basic without the colon': (s) => `Basic ${b64(s === 'api' ? partner.apiKey : group.apiKey)}`,
  'an unknown key': () => basicAuth(generateApiKey()),
  'a revoked key': (s) => basicAuth(s === 'api' ? revokedPartner.apiKey : revokedGroup.apiKey),
};

async function refused(surface: Surface, authorization: string | undefined): Promise<CallResult<Record<string, unknown>>> {
  return call('GET', PING[surface], { headers: authorization ? { authorization } : {} });
}

/** The body with the fields that legitimately differ between two 401s taken out. */
const comparable = (res: CallResult): string => {
  const { timestamp: _t, path: _p, ...rest } = res.body as Record<string, unknown>;
  return JSON.stringify(rest);
};

describe('Authentication', () => {
  describe.each(['api', 'v1'] as const)('on /%s/ping', (surface) => {
    it.each(Object.keys(REFUSALS))('answers 401 with the error body to %s', async (why) => {
      const res = await refused(surface, REFUSALS[why]!(surface));

      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        status: 401,
        error: 'Unauthorized',
        message: expect.stringContaining('API key'),
        path: PING[surface],
        timestamp: expect.any(String),
        code: 'UNAUTHORIZED',
      });
      expect(new Date(res.body.timestamp as string).toISOString()).toBe(res.body.timestamp);
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect([...res.headers.keys()].filter((h) => h.startsWith('x-ratelimit') || h === 'retry-after')).toEqual([]);
      expectContract(res, OPERATION[surface]);
    });

    it('gives every refusal the same body apart from timestamp and path', async () => {
      const responses = await Promise.all(Object.values(REFUSALS).map((header) => refused(surface, header(surface))));

      expect(new Set(responses.map(comparable)).size).toBe(1);
    });
  });

  it.each([
    ['api', 'a partner key', 'an agent-group key'],
    ['v1', 'an agent-group key', 'a partner key'],
  ] as const)('tells the holder of a live key of the other kind that /%s needs %s', async (surface, needed, sent) => {
    const res = await refused(surface, basicAuth(surface === 'api' ? group.apiKey : partner.apiKey));

    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED', path: PING[surface] });
    expect(res.body.message).toContain(`needs ${needed}`);
    expect(res.body.message).toContain(`the key sent is ${sent}`);
    expect([...res.headers.keys()].filter((h) => h.startsWith('x-ratelimit') || h === 'retry-after')).toEqual([]);
    expectContract(res, OPERATION[surface]);
  });

  it('gives a revoked key of the other kind the same answer as an unknown key', async () => {
    const [revoked, unknown] = await Promise.all([refused('v1', basicAuth(revokedPartner.apiKey)), refused('v1', basicAuth(generateApiKey()))]);

    expect(comparable(revoked)).toBe(comparable(unknown));
  });

  it('gives /api and /v1 refusals the same body apart from timestamp and path', async () => {
    const [api, v1] = await Promise.all([refused('api', undefined), refused('v1', undefined)]);

    expect(comparable(api)).toBe(comparable(v1));
  });

  it('answers 401 to a key of a group whose distribution access is disabled', async () => {
    const res = await call('GET', '/v1/ping', { key: disabledGroup.apiKey });

    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(comparable(res)).toBe(comparable(await refused('v1', undefined)));
    expect(res.headers.has('x-ratelimit-limit')).toBe(false);
  });

  it('locks a group out on the very next request once its distribution access is disabled', async () => {
    // prepare
    const g = await newAgentGroup();
    expect((await call('GET', '/v1/ping', { key: g.apiKey })).status).toBe(200);
    const tenants = testServices().tenants;

    // act
    await tenants.putAgentGroup({ ...(await tenants.getAgentGroup(g.agentGroupId))!, distributionEnabled: false });
    const res = await call('GET', '/v1/ping', { key: g.apiKey });

    // assess
    expect(res.status).toBe(401);
  });

  it('refuses a key on the very next request after it is revoked', async () => {
    // prepare
    const p = await newPartner();
    expect((await call('GET', '/api/ping', { key: p.apiKey })).status).toBe(200);

    // act
    await revokeKey(adminDeps(testServices(), TEST_OPERATOR), p.keyId);
    const res = await call('GET', '/api/ping', { key: p.apiKey });

    // assess
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('accepts the scheme name in lower case', async () => {
    const res = await call('GET', '/api/ping', { headers: { authorization: `basic ${b64(`${partner.apiKey}:`)}` } });

    expect(res.status).toBe(200);
  });

  it('never echoes the key in a response, whether accepted or refused', async () => {
    const responses = await Promise.all([
      call('GET', '/api/ping', { key: partner.apiKey }),
      call('GET', '/v1/ping', { key: partner.apiKey }),
      call('GET', '/api/ping', { headers: { authorization: `Basic ${b64(`${partner.apiKey}:pw`)}` } }),
      call('GET', '/api/no-such-thing', { key: partner.apiKey }),
    ]);

    expect(responses.map((r) => r.status)).toEqual([200, 401, 401, 404]);
    for (const res of responses) {
      expect(res.text).not.toContain(partner.apiKey);
      expect([...res.headers.values()].join('\n')).not.toContain(partner.apiKey);
    }
  });
});

describe('Authentication logging', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    logger.setLogLevel('INFO');
  });

  it('never writes the key or the Authorization header to a log line, even at DEBUG', async () => {
    // prepare: the real ping handler in process, every stdout/stderr write captured
    for (const [name, value] of Object.entries(stack().env)) vi.stubEnv(name, value);
    const { handler } = await import('../../functions/system/api-ping.ts');
    const written: string[] = [];
    const capture = (chunk: unknown): boolean => {
      written.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    logger.setLogLevel('DEBUG');
    const header = basicAuth(partner.apiKey);

    // act
    const invoke = handler as unknown as (e: HttpEvent, c: Context) => Promise<HttpResult>;
    const context = { getRemainingTimeInMillis: () => 10_000 } as Context;
    const accepted = await invoke(pingEvent(header), context);
    const refusedRes = await invoke(pingEvent(`Basic ${b64(`${partner.apiKey}:pw`)}`), context);

    // assess
    vi.restoreAllMocks();
    expect([accepted.statusCode, refusedRes.statusCode]).toEqual([200, 401]);
    const log = written.join('');
    expect(log).toContain('request completed');
    expect(log).not.toContain(partner.apiKey);
    expect(log).not.toContain(header.slice('Basic '.length));
  });
});

function pingEvent(authorization: string): HttpEvent {
  return {
    version: '2.0',
    routeKey: 'GET /api/ping',
    rawPath: '/api/ping',
    rawQueryString: '',
    headers: { host: 'localhost', authorization },
    requestContext: {
      accountId: '123456789012',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method: 'GET', path: '/api/ping', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: 'gateway-request-id',
      routeKey: 'GET /api/ping',
      stage: '$default',
      time: '01/Jan/2026:00:00:00 +0000',
      timeEpoch: 1_767_225_600_000,
    },
    isBase64Encoded: false,
  };
}
