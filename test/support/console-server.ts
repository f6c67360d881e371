import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpEvent, HttpResult } from '../../functions/http/types.ts';

/**
 * The console's handler behind a real HTTP server on the loopback, translating each request
 * into the HTTP API payload 2.0 event API Gateway sends (raw path, query, cookies, base64
 * bodies) and the result back (Set-Cookie per cookie, base64 bodies as bytes): what a browser
 * in a test talks to.
 */
export async function consoleServer(handle: (event: HttpEvent) => Promise<HttpResult>): Promise<{ readonly url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const method = req.method ?? 'GET';
      const event = {
        routeKey: url.pathname === '/console' ? `${method} /console` : `${method} /console/{proxy+}`,
        rawPath: url.pathname,
        rawQueryString: url.search.slice(1),
        queryStringParameters: url.search ? Object.fromEntries(url.searchParams) : undefined,
        cookies: req.headers.cookie ? req.headers.cookie.split(';').map((c) => c.trim()) : undefined,
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')])),
        body: chunks.length ? Buffer.concat(chunks).toString('base64') : undefined,
        isBase64Encoded: chunks.length > 0,
        requestContext: { http: { method, path: url.pathname, sourceIp: req.socket.remoteAddress ?? '127.0.0.1' }, requestId: `req-${Date.now()}` },
      } as unknown as HttpEvent;
      try {
        const result = await handle(event);
        const headers: Record<string, string | string[]> = { ...result.headers };
        if (result.cookies?.length) headers['Set-Cookie'] = result.cookies;
        res.writeHead(result.statusCode ?? 200, headers);
        res.end(result.isBase64Encoded ? Buffer.from(String(result.body), 'base64') : (result.body ?? ''));
      } catch (err) {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(String(err));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
