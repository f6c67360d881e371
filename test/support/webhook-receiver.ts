import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The raw body bytes as they arrived, for signature checks. */
  readonly rawBody: Buffer;
  readonly body: any;
  readonly at: number;
}

/**
 * `delayMs` holds the answer back, e.g. so the next attempt is signed in a later second;
 * `drop` closes the connection without an answer (a peer that died mid-request).
 */
export type Responder = (
  req: ReceivedRequest,
  nth: number,
) => { status: number; headers?: Record<string, string>; body?: string; delayMs?: number; drop?: boolean };

export interface Receiver {
  /** http://127.0.0.1:<port>; append any path. */
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** Requests to one path. */
  to(path: string): ReceivedRequest[];
  /** How the receiver answers the nth (0-based) request to a path (with any query string); 204 unless told. */
  respond(path: string, responder: Responder): void;
  /** Resolves once `count` requests reached `path`, or rejects after `timeoutMs`. */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1 that records every request (the test stage's guard lets loopback http through). */
export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const responders = new Map<string, Responder>();
  const server = createServer((req, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      let body: unknown;
      try {
        body = JSON.parse(rawBody.toString('utf8'));
      } catch {
        body = undefined;
      }
      const path = req.url ?? '/';
      const received: ReceivedRequest = { path, headers: req.headers, rawBody, body, at: Date.now() };
      const nth = requests.filter((r) => r.path === path).length;
      requests.push(received);
      // A responder set for a path also answers it with a query string (a GET's filters).
      const answer = (responders.get(path) ?? responders.get(path.split('?')[0]!))?.(received, nth) ?? { status: 204 };
      setTimeout(() => {
        if (answer.drop) return void req.socket.destroy();
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const to = (path: string) => requests.filter((r) => r.path === path);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    to,
    respond: (path, responder) => void responders.set(path, responder),
    async waitFor(path, count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (to(path).length < count) {
        if (Date.now() > deadline) throw new Error(`${path}: ${to(path).length} of ${count} requests after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return to(path);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
