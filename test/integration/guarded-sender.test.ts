import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createSecureContext } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { RESPONSE_BODY_LIMIT, sendGuarded, type OutboundRequest } from '../../infra/http/guarded-sender.ts';
import type { OutboundPolicy, ResolvedAddress, Resolver } from '../../infra/http/outbound-guard.ts';

interface Receiver {
  readonly host: string;
  readonly port: number;
  readonly url: string;
  readonly requests: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[];
  /** TCP connections accepted, counted before any HTTP parsing: proves a blocked send never dialled. */
  connections: number;
}

const servers: Server[] = [];

/** Self-signed for rebind.test (test fixture only), so the TLS path can be exercised without a CA. */
const TLS_FIXTURE = {
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgk7QLHb+lEdjsgOjf
x4zc4waK6I9yJQf8CkL7WgODoJChRANCAAQ4Uj9xXFXBOaY0OEXWwrM5yy5/OAdz
rt5CyUKrSe5FDxWkJKhiLktFB92PWywMqD+nDR0U3ltEOAz4tzJReJ3j
-----END PRIVATE KEY-----`,
  cert: `-----BEGIN CERTIFICATE-----
MIIBnDCCAUGgAwIBAgIUH20BC5qOgTd+eQ8bKZrgxa2F58AwCgYIKoZIzj0EAwIw
FjEUMBIGA1UEAwwLcmViaW5kLnRlc3QwIBcNMjYxMTIyMTAyNjM0WhgPMjEyNjEw
MjkxMDI2MzRaMBYxFDASBgNVBAMMC3JlYmluZC50ZXN0MFkwEwYHKoZIzj0CAQYI
KoZIzj0DAQcDQgAEOFI/cVxVwTmmNDhF1sKzOcsufzgHc67eQslCq0nuRQ8VpCSo
Yi5LRQfdj1ssDKg/pw0dFN5bRDgM+LcyUXid46NrMGkwHQYDVR0OBBYEFFrsEdLp
rAdQzHx+V+NC7OMu/5spMB8GA1UdIwQYMBaAFFrsEdLprAdQzHx+V+NC7OMu/5sp
MA8GA1UdEwEB/wQFMAMBAf8wFgYDVR0RBA8wDYILcmViaW5kLnRlc3QwCgYIKoZI
zj0EAwIDSQAwRgIhAO2aJ/T7CRUIN8L5Wnq1GJJ/7cvyY/QBfVEj4s+reDUuAiEA
zxGiiUIaqzpcbT9TorIujTtBGITyRQOcjaGNwkLaRmY=
-----END CERTIFICATE-----`,
};

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function startReceiver(handler: RequestListener, host = '127.0.0.1', port = 0): Promise<Receiver> {
  const server = createServer();
  servers.push(server);
  server.listen(port, host);
  await once(server, 'listening');
  const bound = (server.address() as AddressInfo).port;
  const receiver: Receiver = { host, port: bound, url: `http://${host}:${bound}/hooks/booking`, requests: [], connections: 0 };
  server.on('connection', () => {
    receiver.connections += 1;
  });
  server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      handler(req, res);
    });
  });
  return receiver;
}

const answering =
  (status: number, body = '', headers: Record<string, string> = {}): RequestListener =>
  (_req, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };

const SANDBOX: OutboundPolicy = { allowHosts: ['127.0.0.1'], allowHttp: true };
const PRODUCTION: OutboundPolicy = { allowHosts: [], allowHttp: false };

function post(url: string, overrides: Partial<OutboundRequest> = {}): OutboundRequest {
  return {
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-event-id': 'e5c1d3f0-0000-4000-8000-000000000001' },
    body: JSON.stringify({ eventType: 'booking.confirmed', bookingId: 'B-1' }),
    timeoutMs: 2000,
    ...overrides,
  };
}

/** Answers from a script, one entry per call, repeating the last; records every call. */
function scriptedDns(...answers: (readonly string[])[]): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolver = async (hostname: string): Promise<readonly ResolvedAddress[]> => {
    const answer = answers[Math.min(calls.length, answers.length - 1)] ?? [];
    calls.push(hostname);
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolver, { calls });
}

describe('Function: sendGuarded', () => {
  describe('classifying the receiver’s answer', () => {
    it('reports a 2xx as success, with the connected address and the start of the body', async () => {
      const receiver = await startReceiver(answering(200, 'accepted'));

      const outcome = await sendGuarded(post(receiver.url), SANDBOX);

      expect(outcome).toMatchObject({ outcome: 'success', statusCode: 200, connectedAddress: '127.0.0.1', responseBody: 'accepted' });
      expect(outcome.error).toBeUndefined();
      expect(receiver.requests).toHaveLength(1);
      expect(receiver.requests[0]).toMatchObject({
        method: 'POST',
        url: '/hooks/booking',
        body: '{"eventType":"booking.confirmed","bookingId":"B-1"}',
        headers: { 'content-type': 'application/json', 'x-service-event-id': 'e5c1d3f0-0000-4000-8000-000000000001' },
      });
    });

    it('reports a 4xx as permanent, leaving retry policy to the caller', async () => {
      const receiver = await startReceiver(answering(422, '{"error":"bad payload"}'));

      const outcome = await sendGuarded(post(receiver.url), SANDBOX);

      expect(outcome).toMatchObject({ outcome: 'permanent', statusCode: 422, error: 'HTTP 422', responseBody: '{"error":"bad payload"}' });
    });

    it('reports a 5xx as retryable', async () => {
      const receiver = await startReceiver(answering(503, 'down for maintenance'));

      const outcome = await sendGuarded(post(receiver.url), SANDBOX);

      expect(outcome).toMatchObject({ outcome: 'retryable', statusCode: 503, error: 'HTTP 503' });
    });

    it('never follows a redirect: a 302 is its own outcome and the target sees nothing', async () => {
      const target = await startReceiver(answering(200));
      const redirecting = await startReceiver(answering(302, '', { location: target.url }));

      const outcome = await sendGuarded(post(redirecting.url), SANDBOX);

      expect(outcome).toMatchObject({ outcome: 'redirect', statusCode: 302, error: `redirect 302 to ${target.url} not followed` });
      expect(redirecting.requests).toHaveLength(1);
      expect(target.connections).toBe(0);
    });

    it(`keeps at most ${RESPONSE_BODY_LIMIT} bytes of a large response body`, async () => {
      const receiver = await startReceiver(answering(200, 'x'.repeat(RESPONSE_BODY_LIMIT * 16)));

      const outcome = await sendGuarded(post(receiver.url), SANDBOX);

      expect(outcome.outcome).toBe('success');
      expect(outcome.responseBody).toHaveLength(RESPONSE_BODY_LIMIT);
    });

    it('sets Host and the framing itself, whatever the caller’s headers say', async () => {
      const receiver = await startReceiver(answering(204));

      await sendGuarded(post(receiver.url, { headers: { host: 'internal.admin', 'content-length': '1', 'x-partner': 'static' } }), SANDBOX);

      expect(receiver.requests[0]?.headers).toMatchObject({ host: `127.0.0.1:${receiver.port}`, 'content-length': '51', 'x-partner': 'static' });
    });
    it('reports a request Node refuses to build (a newline in a header) as permanent, without dialling', async () => {
      const receiver = await startReceiver(answering(200));

      const outcome = await sendGuarded(post(receiver.url, { headers: { 'x-partner': 'a\r\nx-injected: 1' } }), SANDBOX);

      expect(outcome.outcome).toBe('permanent');
      expect(outcome.error).toMatch(/^request not sent: ERR_INVALID_CHAR/);
      expect(receiver.connections).toBe(0);
    });
  });

  describe('network trouble', () => {
    it('gives up on a receiver that never answers within the timeout, as retryable', async () => {
      const receiver = await startReceiver(() => {});
      const started = Date.now();

      const outcome = await sendGuarded(post(receiver.url, { timeoutMs: 400 }), SANDBOX);

      const wall = Date.now() - started;
      expect(outcome).toMatchObject({ outcome: 'retryable', error: 'timeout after 400 ms', connectedAddress: '127.0.0.1' });
      expect(outcome.statusCode).toBeUndefined();
      // The error names the 400 ms timer as the cause; the upper bound only shows the send
      // did not hang, and is loose because a loaded machine delays timers by seconds.
      expect(wall).toBeGreaterThanOrEqual(390);
      expect(wall).toBeLessThan(10_000);
    });

    it('counts a receiver that sent its status but stalls the body by the status it sent', async () => {
      const receiver = await startReceiver((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('partial');
      });

      const outcome = await sendGuarded(post(receiver.url, { timeoutMs: 400 }), SANDBOX);

      expect(outcome).toMatchObject({ outcome: 'success', statusCode: 200, responseBody: 'partial' });
      expect(outcome.durationMs).toBeLessThan(1000);
    });

    it('reports a refused connection as retryable', async () => {
      const closed = await startReceiver(answering(200));
      const url = closed.url;
      const server = servers.pop();
      server?.close();
      if (server) await once(server, 'close');

      const outcome = await sendGuarded(post(url), SANDBOX);

      expect(outcome.outcome).toBe('retryable');
      expect(outcome.error).toMatch(/ECONNREFUSED/);
      expect(outcome.connectedAddress).toBeUndefined();
    });

    it('reports a name that does not resolve as retryable, not blocked', async () => {
      const outcome = await sendGuarded(post('https://gone.partner.example.com/hook'), PRODUCTION, { resolver: scriptedDns([]) });

      expect(outcome.outcome).toBe('retryable');
      expect(outcome.error).toMatch(/resolved to no address/);
    });

    it('counts time spent resolving against the timeout', async () => {
      const outcome = await sendGuarded(post('https://slow.partner.example.com/hook', { timeoutMs: 300 }), PRODUCTION, {
        resolver: () => new Promise(() => {}),
      });

      expect(outcome).toMatchObject({ outcome: 'retryable', error: 'timeout after 300 ms (resolving)' });
      expect(outcome.durationMs).toBeLessThan(1000);
    });
  });

  describe('the guard at send time', () => {
    it('blocks loopback under a production-like policy before dialling anything', async () => {
      const receiver = await startReceiver(answering(200));
      const httpsUrl = `https://127.0.0.1:${receiver.port}/hooks/booking`;

      const overHttp = await sendGuarded(post(receiver.url), PRODUCTION);
      const overHttps = await sendGuarded(post(httpsUrl), PRODUCTION);
      const httpAllowedButNoHosts = await sendGuarded(post(receiver.url), { allowHosts: [], allowHttp: true });

      expect(overHttp).toMatchObject({ outcome: 'blocked', blockedReason: 'plain-http' });
      expect(overHttps).toMatchObject({ outcome: 'blocked', blockedReason: 'loopback' });
      expect(httpAllowedButNoHosts).toMatchObject({ outcome: 'blocked', blockedReason: 'plain-http' });
      expect(overHttps.connectedAddress).toBeUndefined();
      expect(receiver.connections).toBe(0);
    });

    it('blocks a name when any one of its addresses is forbidden', async () => {
      const receiver = await startReceiver(answering(200));
      const dns = scriptedDns(['2d00::1', '127.0.0.1']);

      const outcome = await sendGuarded(post(`https://mixed.partner.example.com:${receiver.port}/hook`), PRODUCTION, { resolver: dns });

      expect(outcome).toMatchObject({ outcome: 'blocked', blockedReason: 'loopback' });
      expect(receiver.connections).toBe(0);
    });

    it('blocks an IPv4-mapped loopback literal', async () => {
      const receiver = await startReceiver(answering(200));

      const outcome = await sendGuarded(post(`https://[::ffff:127.0.0.1]:${receiver.port}/hook`), PRODUCTION);

      expect(outcome).toMatchObject({ outcome: 'blocked', blockedReason: 'loopback' });
      expect(receiver.connections).toBe(0);
    });
  });

  describe('DNS rebinding', () => {
    it('connects to the address it checked, never to a second answer for the same name', async () => {
      const vetted = await startReceiver(answering(200, 'vetted'), '127.0.0.1');
      const rebound = await startReceiver(answering(200, 'rebound'), '127.0.0.2', vetted.port);
      const dns = scriptedDns(['127.0.0.1'], ['127.0.0.2']);
      const policy: OutboundPolicy = { allowHosts: ['rebind.test'], allowHttp: true };

      const outcome = await sendGuarded(post(`http://rebind.test:${vetted.port}/hook`), policy, { resolver: dns });

      expect(dns.calls).toEqual(['rebind.test']);
      expect(outcome).toMatchObject({ outcome: 'success', connectedAddress: '127.0.0.1', responseBody: 'vetted' });
      expect(vetted.requests[0]?.headers.host).toBe(`rebind.test:${vetted.port}`);
      expect(rebound.connections).toBe(0);
    });

    it('dials the public address that passed the check even when the name now points at loopback', async () => {
      // 2d00::/8 is global unicast by format but unallocated, so the dial fails without reaching any real host.
      const receiver = await startReceiver(answering(200));
      const dns = scriptedDns(['2d00::1'], ['127.0.0.1']);

      const outcome = await sendGuarded(post(`https://rebind.partner.example.com:${receiver.port}/hook`, { timeoutMs: 1500 }), PRODUCTION, {
        resolver: dns,
      });

      expect(dns.calls).toEqual(['rebind.partner.example.com']);
      expect(outcome.outcome).toBe('retryable');
      expect(outcome.error).toMatch(/2d00::1|timeout/);
      expect(outcome.connectedAddress).toBeUndefined();
      expect(receiver.connections).toBe(0);
    });
  });

  describe('TLS', () => {
    it('connects to the vetted address but verifies the certificate against the hostname, sent as SNI', async () => {
      const context = createSecureContext(TLS_FIXTURE);
      const serverNames: string[] = [];
      let handled = 0;
      const server = createTlsServer(
        {
          ...TLS_FIXTURE,
          SNICallback: (name, done) => {
            serverNames.push(name);
            done(null, context);
          },
        },
        (_req, res) => {
          handled += 1;
          res.end();
        },
      );
      servers.push(server);
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      const port = (server.address() as AddressInfo).port;
      const policy: OutboundPolicy = { allowHosts: ['rebind.test'], allowHttp: false };

      const outcome = await sendGuarded(post(`https://rebind.test:${port}/hook`), policy, { resolver: scriptedDns(['127.0.0.1']) });

      expect(serverNames).toEqual(['rebind.test']);
      expect(outcome).toMatchObject({ outcome: 'retryable', connectedAddress: '127.0.0.1' });
      expect(outcome.error).toMatch(/SELF_SIGNED|self-signed/i);
      expect(handled).toBe(0);
    });
  });
});
