import { isIP, isIPv4, isIPv6 } from 'node:net';
import { ValidationError } from '../../domain/errors.ts';
import { once } from '../lazy.ts';

/**
 * The one guard for every URL the service calls on a partner's behalf (booking
 * callbacks, catalogue webhooks). A partner chooses the URL, so without this guard the
 * service would fetch whatever sits behind it: the cloud metadata endpoint, the VPC, or
 * its own loopback. The rules are in docs/outbound-guard.md.
 */

/** Which hosts may skip the address rules; only sandbox stages can have a non-empty policy (infra/config.ts). */
export interface OutboundPolicy {
  readonly allowHosts: readonly string[];
  readonly allowHttp: boolean;
}

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Turns a hostname into every address a connection could reach; injected in tests to play DNS tricks. */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** Why an address is not public. */
export type AddressRefusal =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'cgnat'
  | 'multicast'
  | 'broadcast'
  | 'metadata'
  | 'documentation'
  | 'benchmark'
  | 'reserved'
  | 'not-an-address';

export type AddressClass = 'public' | AddressRefusal;

/** Why a URL is refused; address-based refusals name the class of the offending address. */
export type GuardRefusal = 'invalid-url' | 'unsupported-scheme' | 'plain-http' | 'credentials' | 'internal-hostname' | 'unresolvable' | AddressRefusal;

export type GuardResult =
  | {
      readonly ok: true;
      readonly url: URL;
      /** Without IPv6 brackets or a trailing dot; what TLS verifies and Host carries. */
      readonly hostname: string;
      /** Every address the hostname resolved to, all checked; connect only to these. */
      readonly addresses: readonly ResolvedAddress[];
      /** True when the host is in the sandbox allow-list and skipped the address rules. */
      readonly exempt: boolean;
    }
  | {
      readonly ok: false;
      readonly reason: GuardRefusal;
      readonly message: string;
      /** The resolved address that broke the rules, for address-based refusals. */
      readonly address?: string;
    };

/** Longer URLs are refused before parsing; no legitimate receiver needs more. */
export const MAX_OUTBOUND_URL_LENGTH = 2048;

/** A resolver that has not answered by then is treated as failing, so a request is never held hostage by slow DNS. */
export const RESOLVE_TIMEOUT_MS = 3000;

/** Resolves through getaddrinfo, the same path a plain connect() would take (hosts file included). */
export const systemResolver: Resolver = async (hostname) => {
  // Loaded at the first resolution, not with every handler that bundles the guard (docs/performance.md, "What loads when").
  const answers = await process.getBuiltinModule('node:dns/promises').lookup(hostname, { all: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** Names that lead to the instance metadata service without going through the address check's ranges. */
const METADATA_HOSTNAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

/** Special-use and private-use suffixes that never name a partner's public receiver. */
const INTERNAL_SUFFIXES = ['localhost', 'local', 'internal', 'localdomain', 'home.arpa'];

interface Cidr<N> {
  readonly network: N;
  readonly prefix: number;
}

interface Range<N> extends Cidr<N> {
  readonly class: AddressRefusal;
}

function v4Ranges(spec: ReadonlyArray<readonly [string, AddressRefusal]>): Range<number>[] {
  return spec
    .map(([cidr, cls]) => {
      const [ip = '', prefix = '32'] = cidr.split('/');
      return { network: parseIpv4Strict(ip) ?? 0, prefix: Number(prefix), class: cls };
    })
    .sort((a, b) => b.prefix - a.prefix);
}

function v6Ranges(spec: ReadonlyArray<readonly [string, AddressRefusal]>): Range<bigint>[] {
  return spec
    .map(([cidr, cls]) => {
      const [ip = '', prefix = '128'] = cidr.split('/');
      return { network: parseIpv6(ip) ?? 0n, prefix: Number(prefix), class: cls };
    })
    .sort((a, b) => b.prefix - a.prefix);
}

// Built at the first check, not at load: every function bundles the guard, few send anything.
// Longest prefix wins (the lists are sorted when built), so a metadata address inside a wider range is named as metadata.
const v4Forbidden = once(() =>
  v4Ranges([
    ['0.0.0.0/8', 'unspecified'],
    ['10.0.0.0/8', 'private'],
    ['100.64.0.0/10', 'cgnat'],
    ['100.100.100.200/32', 'metadata'], // Alibaba Cloud
    ['127.0.0.0/8', 'loopback'],
    ['168.63.129.16/32', 'metadata'], // Azure host endpoint: a public-looking address that answers only inside Azure
    ['169.254.0.0/16', 'link-local'],
    ['169.254.169.254/32', 'metadata'], // AWS, GCP, Azure, OpenStack
    ['169.254.170.2/32', 'metadata'], // ECS task credentials
    ['169.254.170.23/32', 'metadata'], // EKS pod identity
    ['172.16.0.0/12', 'private'],
    ['192.0.0.0/24', 'reserved'], // IETF protocol assignments
    ['192.0.0.192/32', 'metadata'], // Oracle Cloud
    ['192.0.2.0/24', 'documentation'],
    ['192.88.99.0/24', 'reserved'], // deprecated 6to4 relay anycast
    ['192.168.0.0/16', 'private'],
    ['198.18.0.0/15', 'benchmark'],
    ['198.51.100.0/24', 'documentation'],
    ['203.0.113.0/24', 'documentation'],
    ['224.0.0.0/4', 'multicast'],
    ['240.0.0.0/4', 'reserved'],
    ['255.255.255.255/32', 'broadcast'],
  ]),
);

const v6Forbidden = once(() =>
  v6Ranges([
    ['::/128', 'unspecified'],
    ['::1/128', 'loopback'],
    ['64:ff9b:1::/48', 'private'], // local-use NAT64 (RFC 8215)
    ['100::/64', 'reserved'], // discard-only
    ['2001::/23', 'reserved'], // IETF protocol assignments, Teredo among them
    ['2001:2::/48', 'benchmark'],
    ['2001:db8::/32', 'documentation'],
    ['3fff::/20', 'documentation'],
    ['fc00::/7', 'unique-local'],
    ['fd00:ec2::254/128', 'metadata'], // AWS IMDS over IPv6
    ['fd00:ec2::23/128', 'metadata'], // EKS pod identity over IPv6
    ['fe80::/10', 'link-local'],
    ['fec0::/10', 'private'], // deprecated site-local
    ['ff00::/8', 'multicast'],
  ]),
);

function inV4(addr: number, r: Cidr<number>): boolean {
  if (r.prefix === 0) return true;
  const shift = 32 - r.prefix;
  return addr >>> shift === r.network >>> shift;
}

function inV6(addr: bigint, r: Cidr<bigint>): boolean {
  const shift = BigInt(128 - r.prefix);
  return addr >> shift === r.network >> shift;
}

function parseIpv4Strict(ip: string): number | undefined {
  if (!isIPv4(ip)) return undefined;
  return ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

/**
 * Reads an IPv4 literal the way inet_aton (and so getaddrinfo, and the WHATWG URL
 * parser) does: one to four parts, each decimal, octal (leading 0) or hex (0x), the last
 * part filling the remaining bytes. `2130706433`, `0x7f000001`, `0177.0.0.1` and `127.1`
 * all mean 127.0.0.1 to a socket, so they must mean it to the guard.
 */
function parseIpv4Loose(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length > 1 && parts.at(-1) === '') parts.pop();
  if (parts.length < 1 || parts.length > 4) return undefined;
  const values: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]*$/.test(part)) value = parseInt(part, 8);
    else if (/^[1-9][0-9]*$/.test(part)) value = Number(part);
    else return undefined;
    if (!Number.isSafeInteger(value)) return undefined;
    values.push(value);
  }
  const last = values.pop() ?? 0;
  if (values.some((v) => v > 255)) return undefined;
  if (last >= 256 ** (4 - values.length)) return undefined;
  return values.reduce((acc, v, i) => acc + v * 256 ** (3 - i), 0) + last;
}

/** Parses a textual IPv6 address (zone id ignored) into its 128-bit value. */
function parseIpv6(text: string): bigint | undefined {
  const ip = text.split('%')[0] ?? '';
  if (!isIPv6(ip)) return undefined;
  const groupsOf = (side: string): number[] => {
    if (side === '') return [];
    return side.split(':').flatMap((g) => {
      if (!g.includes('.')) return [parseInt(g, 16)];
      const v4 = parseIpv4Strict(g) ?? 0;
      return [v4 >>> 16, v4 & 0xffff];
    });
  };
  const [head = '', tail] = ip.split('::');
  const left = groupsOf(head);
  const right = tail === undefined ? [] : groupsOf(tail);
  const groups = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}

function classifyV4(addr: number): AddressClass {
  return v4Forbidden().find((r) => inV4(addr, r))?.class ?? 'public';
}

const MAPPED: Cidr<bigint> = { network: 0xffffn << 32n, prefix: 96 }; // ::ffff:a.b.c.d
const TRANSLATED: Cidr<bigint> = { network: 0xffffn << 48n, prefix: 96 }; // ::ffff:0:a.b.c.d (SIIT)
const NAT64: Cidr<bigint> = { network: 0x64ff9bn << 96n, prefix: 96 }; // 64:ff9b::a.b.c.d
const SIX_TO_FOUR: Cidr<bigint> = { network: 0x2002n << 112n, prefix: 16 }; // 2002:aabb:ccdd::/48
const COMPATIBLE: Cidr<bigint> = { network: 0n, prefix: 96 }; // ::a.b.c.d, deprecated
const GLOBAL_UNICAST: Cidr<bigint> = { network: 0x2000n << 112n, prefix: 3 }; // 2000::/3

function classifyV6(addr: bigint): AddressClass {
  const low32 = Number(addr & 0xffffffffn);
  const within = (r: Cidr<bigint>) => inV6(addr, r);
  // Forms that carry an IPv4 address reach that IPv4 address, so they inherit its class.
  if (within(MAPPED) || within(TRANSLATED) || within(NAT64)) return classifyV4(low32);
  if (within(SIX_TO_FOUR)) return classifyV4(Number((addr >> 80n) & 0xffffffffn));
  const listed = v6Forbidden().find((r) => inV6(addr, r))?.class;
  if (listed) return listed;
  if (within(COMPATIBLE)) {
    const embedded = classifyV4(low32);
    return embedded === 'public' ? 'reserved' : embedded;
  }
  // Only 2000::/3 is allocated for global unicast; anything else is not a partner's server.
  return within(GLOBAL_UNICAST) ? 'public' : 'reserved';
}

/**
 * Classifies one IP address: 'public', or the reason it must not be connected to.
 * Accepts IPv4 in any form inet_aton reads, IPv6 with or without brackets or a zone id,
 * and IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4), which
 * are judged by the address they embed.
 */
export function classifyAddress(ip: string): AddressClass {
  const text = ip.trim().replace(/^\[(.*)\]$/, '$1');
  const v4 = parseIpv4Strict(text) ?? (isIPv6(text.split('%')[0] ?? '') ? undefined : parseIpv4Loose(text));
  if (v4 !== undefined) return classifyV4(v4);
  const v6 = parseIpv6(text);
  if (v6 !== undefined) return classifyV6(v6);
  return 'not-an-address';
}

function refuse(reason: GuardRefusal, message: string, address?: string): GuardResult {
  return address === undefined ? { ok: false, reason, message } : { ok: false, reason, message, address };
}

function bareHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

function isInternalHostname(hostname: string): boolean {
  if (METADATA_HOSTNAMES.has(hostname)) return true;
  // A single label is completed from the resolver's search domains, i.e. the local network.
  if (!hostname.includes('.')) return true;
  return INTERNAL_SUFFIXES.some((suffix) => hostname === suffix || hostname.endsWith(`.${suffix}`));
}

async function resolveWithin(resolver: Resolver, hostname: string): Promise<readonly ResolvedAddress[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${RESOLVE_TIMEOUT_MS} ms`)), RESOLVE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([resolver(hostname), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks an outbound URL against the guard and resolves its host once. On success the
 * result carries every resolved address, all of them checked; a sender must connect to
 * one of those and never resolve the name again.
 */
export async function checkOutboundUrl(url: string, policy: OutboundPolicy, resolver: Resolver = systemResolver): Promise<GuardResult> {
  if (url.length > MAX_OUTBOUND_URL_LENGTH) return refuse('invalid-url', `is longer than ${MAX_OUTBOUND_URL_LENGTH} characters.`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse('invalid-url', 'is not an absolute URL.');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return refuse('unsupported-scheme', `must use https, not ${parsed.protocol.replace(/:$/, '')}.`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return refuse('credentials', 'must not carry credentials; configure receiver authentication instead.');
  }
  const hostname = bareHost(parsed.hostname);
  const exempt = policy.allowHosts.some((h) => bareHost(h) === hostname);
  if (parsed.protocol === 'http:' && !(policy.allowHttp && exempt)) {
    return refuse('plain-http', 'must use https.');
  }
  if (!exempt && isIP(hostname) === 0 && isInternalHostname(hostname)) {
    return refuse(
      METADATA_HOSTNAMES.has(hostname) ? 'metadata' : 'internal-hostname',
      `names an internal host (${hostname}); outbound URLs must name a public host.`,
    );
  }

  let addresses: readonly ResolvedAddress[];
  const literal = isIP(hostname);
  if (literal !== 0) {
    addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await resolveWithin(resolver, hostname);
    } catch (err) {
      return refuse('unresolvable', `host ${hostname} could not be resolved (${(err as Error).message}).`);
    }
    if (addresses.length === 0) return refuse('unresolvable', `host ${hostname} resolved to no address.`);
  }

  if (!exempt) {
    // Every answer is checked, not only the first: a connection may use any of them.
    for (const { address } of addresses) {
      const cls = classifyAddress(address);
      if (cls !== 'public') {
        return refuse(cls, `resolves to a ${cls} address (${address}); outbound URLs must resolve only to public addresses.`, address);
      }
    }
  }
  return { ok: true, url: parsed, hostname, addresses, exempt };
}

/**
 * Request-time form of the guard for a URL a caller submits (callbackUrl, a webhook
 * endpoint's url): returns the parsed URL or throws a ValidationError naming `param`.
 */
export async function assertOutboundUrl(param: string, url: string, policy: OutboundPolicy, resolver?: Resolver): Promise<URL> {
  const result = await checkOutboundUrl(url, policy, resolver);
  if (!result.ok) throw new ValidationError(param, `${param} ${result.message}`);
  return result.url;
}
