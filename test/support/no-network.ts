import net from 'node:net';

/*
 * The unit tier's setup file (vitest.config.ts): a unit test may not reach the network. A TCP
 * connection, from `fetch`, `node:http`, the AWS SDK or anything else built on `node:net`,
 * fails with the error below unless it goes to a loopback port that this worker itself is
 * listening on: an in-process fake (test/support/fake-irp.ts, a dropping "DynamoDB" in
 * test/unit/dynamo-client.test.ts) is part of the unit under test, while DynamoDB Local,
 * fauxqs, `serverless offline` or anything on the internet is another process, reached only
 * by the integration and e2e tiers. Unix sockets and pipes (how esbuild and child processes
 * talk) are not the network and pass. Child processes are not watched: a unit test that
 * spawns a tool which downloads (npx) belongs to the integration tier.
 */

const GUARD = Symbol.for('pds.no-network');

class NetworkRefused extends Error {
  constructor(target: string) {
    super(
      `A unit test reached the network (${target}). Unit tests run with no emulator and no stack: ` +
        'use an in-process fake listening in the test, or move the file to test/integration (DynamoDB Local, fauxqs) or test/e2e (the offline stack). See docs/local-development.md, "Test tiers".',
    );
    this.name = 'NetworkInUnitTest';
  }
}

type Shared = typeof globalThis & { [GUARD]?: { readonly error: typeof NetworkRefused; readonly own: Set<number> } };
// One guard, error class and set of ports per worker: the unit tier shares modules between files (isolate: false), and this file runs again before each.
const shared = ((globalThis as Shared)[GUARD] ??= { error: NetworkRefused, own: new Set<number>() });

/** The error a unit test gets when it reaches the network. */
export const NetworkInUnitTest = shared.error;
const own = shared.own;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1']);
const isLoopback = (host: string): boolean => LOOPBACK.has(host.replace(/^\[|\]$/g, '').toLowerCase()) || /^127\./.test(host);

/** Whether a TCP connection to host:port stays inside this worker (a server the test started). */
export const allowed = (host: string | undefined, port: number): boolean => isLoopback(host ?? 'localhost') && own.has(port);

/** The host and port of a `socket.connect` call, or undefined for a Unix socket or pipe. */
function targetOf(args: unknown[]): { host: string | undefined; port: number } | undefined {
  const [first, second] = Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
  if (first !== null && typeof first === 'object') {
    const o = first as { path?: string; port?: number | string; host?: string };
    // As net decides: a truthy path is a Unix socket or pipe (node:http passes path: null for TCP).
    if (o.path) return undefined;
    return { host: o.host, port: Number(o.port) };
  }
  if (typeof first === 'string' && !/^\d+$/.test(first)) return undefined;
  return { host: typeof second === 'string' ? second : undefined, port: Number(first) };
}

function install(): void {
  const proto = net.Socket.prototype as net.Socket & { [GUARD]?: true };
  if (proto[GUARD]) return;
  proto[GUARD] = true;

  const listen = net.Server.prototype.listen;
  net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]) {
    this.once('listening', () => {
      const address = this.address();
      if (address && typeof address === 'object') {
        own.add(address.port);
        this.once('close', () => own.delete(address.port));
      }
    });
    return listen.apply(this, args as Parameters<typeof listen>);
  } as typeof listen;

  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    const target = targetOf(args);
    if (target && !allowed(target.host, target.port)) {
      const error = new NetworkInUnitTest(`${target.host ?? 'localhost'}:${target.port}`);
      // Reported as net reports a refused connection (an 'error' event), so http, undici and the SDK surface it as theirs.
      process.nextTick(() => this.destroy(error));
      return this;
    }
    return connect.apply(this, args as Parameters<typeof connect>);
  } as typeof connect;

  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    if (/^(https?|wss?):$/.test(url.protocol) && !allowed(url.hostname, port)) throw new NetworkInUnitTest(`fetch ${url.origin}`);
    return realFetch(input, init);
  }) as typeof fetch;
}

install();
