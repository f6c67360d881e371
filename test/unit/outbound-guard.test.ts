import { afterEach, describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../domain/errors.ts';
import {
  assertOutboundUrl,
  checkOutboundUrl,
  classifyAddress,
  MAX_OUTBOUND_URL_LENGTH,
  RESOLVE_TIMEOUT_MS,
  type OutboundPolicy,
  type ResolvedAddress,
  type Resolver,
} from '../../infra/http/outbound-guard.ts';

const PRODUCTION: OutboundPolicy = { allowHosts: [], allowHttp: false };

const familyOf = (address: string): 4 | 6 => (address.includes(':') ? 6 : 4);

/** A resolver answering from a fixed table, so no test depends on real DNS. */
function fakeDns(table: Record<string, readonly string[]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolver = async (hostname: string): Promise<readonly ResolvedAddress[]> => {
    calls.push(hostname);
    const answers = table[hostname];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answers.map((address) => ({ address, family: familyOf(address) }));
  };
  return Object.assign(resolver, { calls });
}

describe('Function: classifyAddress', () => {
  it.each([
    // IPv4, canonical
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['192.0.2.10', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['198.18.0.1', 'benchmark'],
    ['198.19.255.255', 'benchmark'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['192.0.0.192', 'metadata'],
    // IPv4 in the forms inet_aton and the WHATWG parser accept
    ['2130706433', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['0X7F000001', 'loopback'],
    ['017700000001', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['0x7f.0.0.1', 'loopback'],
    ['0x7f.1', 'loopback'],
    ['127.1', 'loopback'],
    ['127.0.1', 'loopback'],
    ['127.0.0.1.', 'loopback'],
    ['0', 'unspecified'],
    ['012.0.0.1', 'private'],
    ['167772161', 'private'],
    ['0xa9fea9fe', 'metadata'],
    ['2852039166', 'metadata'],
    ['0251.0376.0251.0376', 'metadata'],
    ['169.254.43518', 'metadata'],
    ['4294967295', 'broadcast'],
    // IPv6
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'multicast'],
    ['fd00:ec2::254', 'metadata'],
    ['fd00:ec2::23', 'metadata'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001:2::1', 'benchmark'],
    ['2001:0:4136:e378::1', 'reserved'],
    ['100::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['64:ff9b:1::a00:1', 'private'],
    // IPv4-mapped, -translated and -compatible forms judged by the IPv4 they carry
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:100.64.0.1', 'cgnat'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::ffff:255.255.255.255', 'broadcast'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['::192.168.0.1', 'private'],
    ['::8.8.8.8', 'reserved'],
    // NAT64 and 6to4 carrying a forbidden IPv4
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['2002:a9fe:a9fe::', 'metadata'],
    // Not addresses at all
    ['', 'not-an-address'],
    ['example.com', 'not-an-address'],
    ['1.2.3.4.5', 'not-an-address'],
    ['256.1.1.1', 'not-an-address'],
    ['08.0.0.1', 'not-an-address'],
    ['4294967296', 'not-an-address'],
  ])('classifies %s as %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.255.255',
    '223.255.255.255',
    '134744072',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
  ])('classifies %s as public', (address) => {
    expect(classifyAddress(address)).toBe('public');
  });
});

describe('Function: checkOutboundUrl', () => {
  describe('literal hosts', () => {
    it.each([
      ['https://127.0.0.1/hook', 'loopback'],
      ['https://2130706433/hook', 'loopback'],
      ['https://0x7f000001/hook', 'loopback'],
      ['https://0177.0.0.1/hook', 'loopback'],
      ['https://017700000001/hook', 'loopback'],
      ['https://0x7f.1/hook', 'loopback'],
      ['https://127.1/hook', 'loopback'],
      ['https://127.0.0.1./hook', 'loopback'],
      ['https://%31%32%37.0.0.1/hook', 'loopback'],
      ['https://１２７.０.０.１/hook', 'loopback'],
      ['https://127.0.0.1:8443/hook', 'loopback'],
      ['https://[::1]/hook', 'loopback'],
      ['https://[0:0:0:0:0:0:0:1]/hook', 'loopback'],
      ['https://[::ffff:127.0.0.1]/hook', 'loopback'],
      ['https://[::ffff:7f00:1]/hook', 'loopback'],
      ['https://[::127.0.0.1]/hook', 'loopback'],
      ['https://[64:ff9b::127.0.0.1]/hook', 'loopback'],
      ['https://[2002:7f00:1::]/hook', 'loopback'],
      ['https://0/hook', 'unspecified'],
      ['https://0.0.0.0/hook', 'unspecified'],
      ['https://[::]/hook', 'unspecified'],
      ['https://10.1.2.3/hook', 'private'],
      ['https://0xa.1.2.3/hook', 'private'],
      ['https://172.20.0.5/hook', 'private'],
      ['https://192.168.0.10/hook', 'private'],
      ['https://3232235530/hook', 'private'],
      ['https://[::ffff:192.168.0.10]/hook', 'private'],
      ['https://[64:ff9b::10.0.0.1]/hook', 'private'],
      ['https://[2002:c0a8:a::]/hook', 'private'],
      ['https://169.254.1.1/hook', 'link-local'],
      ['https://[fe80::1]/hook', 'link-local'],
      ['https://[fd00::1]/hook', 'unique-local'],
      ['https://100.64.1.1/hook', 'cgnat'],
      ['https://[::ffff:100.64.1.1]/hook', 'cgnat'],
      ['https://224.0.0.251/hook', 'multicast'],
      ['https://[ff02::fb]/hook', 'multicast'],
      ['https://255.255.255.255/hook', 'broadcast'],
      ['https://4294967295/hook', 'broadcast'],
      ['https://240.1.1.1/hook', 'reserved'],
      ['https://198.18.0.1/hook', 'benchmark'],
      ['https://192.0.2.1/hook', 'documentation'],
      ['https://169.254.169.254/latest/meta-data/', 'metadata'],
      ['https://2852039166/latest/meta-data/', 'metadata'],
      ['https://0xa9fea9fe/latest/meta-data/', 'metadata'],
      ['https://0251.0376.0251.0376/latest/meta-data/', 'metadata'],
      ['https://169.254.43518/latest/meta-data/', 'metadata'],
      ['https://[::ffff:169.254.169.254]/latest/meta-data/', 'metadata'],
      ['https://[fd00:ec2::254]/latest/meta-data/', 'metadata'],
      ['https://metadata.google.internal/computeMetadata/v1/', 'metadata'],
      ['https://METADATA.google.internal./computeMetadata/v1/', 'metadata'],
      ['https://metadata/computeMetadata/v1/', 'metadata'],
    ])('refuses %s as %s without asking DNS', async (url, reason) => {
      const dns = fakeDns({});
      const result = await checkOutboundUrl(url, PRODUCTION, dns);
      expect(result).toMatchObject({ ok: false, reason });
      expect(dns.calls).toEqual([]);
    });

    it.each(['https://8.8.8.8/hook', 'https://[2606:4700:4700::1111]/hook', 'https://[::ffff:8.8.8.8]/hook', 'https://134744072/hook'])(
      'accepts the public literal %s',
      async (url) => {
        const result = await checkOutboundUrl(url, PRODUCTION, fakeDns({}));
        expect(result.ok).toBe(true);
      },
    );
  });

  describe('resolved hosts', () => {
    const dns = fakeDns({
      'hooks.partner.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
      'private.partner.example.com': ['10.0.0.7'],
      'mixed.partner.example.com': ['93.184.215.14', '192.168.1.20'],
      'mapped.partner.example.com': ['::ffff:127.0.0.1'],
      'metadata.partner.example.com': ['169.254.169.254'],
      'v6-ula.partner.example.com': ['2606:2800::1', 'fd12::1'],
      'empty.partner.example.com': [],
    });

    it('accepts a host whose every address is public and returns them all', async () => {
      const result = await checkOutboundUrl('https://hooks.partner.example.com/bookings?x=1', PRODUCTION, dns);
      expect(result).toMatchObject({
        ok: true,
        hostname: 'hooks.partner.example.com',
        exempt: false,
        addresses: [
          { address: '93.184.215.14', family: 4 },
          { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
        ],
      });
    });

    it.each([
      ['private.partner.example.com', 'private', '10.0.0.7'],
      ['mixed.partner.example.com', 'private', '192.168.1.20'],
      ['mapped.partner.example.com', 'loopback', '::ffff:127.0.0.1'],
      ['metadata.partner.example.com', 'metadata', '169.254.169.254'],
      ['v6-ula.partner.example.com', 'unique-local', 'fd12::1'],
    ])('refuses %s because one address is %s', async (host, reason, address) => {
      const result = await checkOutboundUrl(`https://${host}/hook`, PRODUCTION, dns);
      expect(result).toMatchObject({ ok: false, reason, address });
    });

    it.each(['https://nowhere.partner.example.com/hook', 'https://empty.partner.example.com/hook'])('refuses %s as unresolvable', async (url) => {
      expect(await checkOutboundUrl(url, PRODUCTION, dns)).toMatchObject({ ok: false, reason: 'unresolvable' });
    });

    it.each([
      'https://localhost/hook',
      'https://api.localhost/hook',
      'https://printer.local/hook',
      'https://db.internal/hook',
      'https://intranet/hook',
      'https://router.home.arpa/hook',
    ])('refuses the internal name %s before resolving it', async (url) => {
      const guarded = fakeDns({});
      expect(await checkOutboundUrl(url, PRODUCTION, guarded)).toMatchObject({ ok: false, reason: 'internal-hostname' });
      expect(guarded.calls).toEqual([]);
    });
  });

  describe('slow DNS', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('refuses a host whose resolver never answers once the resolve timeout passes', async () => {
      vi.useFakeTimers();
      const pending = checkOutboundUrl('https://slow.partner.example.com/hook', PRODUCTION, () => new Promise(() => {}));
      await vi.advanceTimersByTimeAsync(RESOLVE_TIMEOUT_MS);
      expect(await pending).toMatchObject({ ok: false, reason: 'unresolvable' });
    });
  });

  describe('scheme', () => {
    const dns = fakeDns({ 'hooks.partner.example.com': ['93.184.215.14'] });

    it('refuses plain http in production', async () => {
      expect(await checkOutboundUrl('http://hooks.partner.example.com/hook', PRODUCTION, dns)).toMatchObject({ ok: false, reason: 'plain-http' });
    });

    it('refuses plain http to a host outside the allow-list even when http is allowed', async () => {
      const policy = { allowHosts: ['127.0.0.1'], allowHttp: true };
      expect(await checkOutboundUrl('http://hooks.partner.example.com/hook', policy, dns)).toMatchObject({ ok: false, reason: 'plain-http' });
    });

    it('refuses plain http to an allow-listed host when http is not allowed', async () => {
      const policy = { allowHosts: ['127.0.0.1'], allowHttp: false };
      expect(await checkOutboundUrl('http://127.0.0.1:3000/hook', policy, dns)).toMatchObject({ ok: false, reason: 'plain-http' });
    });

    it.each([
      'ftp://hooks.partner.example.com/hook',
      'file:///etc/passwd',
      'gopher://hooks.partner.example.com/',
      'javascript:alert(1)',
      'data:text/plain,hi',
      'ws://hooks.partner.example.com/',
    ])('refuses the scheme of %s', async (url) => {
      expect(await checkOutboundUrl(url, PRODUCTION, dns)).toMatchObject({ ok: false, reason: 'unsupported-scheme' });
    });
  });

  describe('sandbox allow-list', () => {
    const sandbox: OutboundPolicy = { allowHosts: ['127.0.0.1', 'localhost'], allowHttp: true };
    const dns = fakeDns({ localhost: ['127.0.0.1', '::1'] });

    it('lets an allow-listed loopback literal through over http, marked exempt', async () => {
      expect(await checkOutboundUrl('http://127.0.0.1:3000/hook', sandbox, dns)).toMatchObject({
        ok: true,
        exempt: true,
        addresses: [{ address: '127.0.0.1', family: 4 }],
      });
    });

    it('lets an allow-listed name through and keeps its resolved addresses', async () => {
      expect(await checkOutboundUrl('http://localhost:3000/hook', sandbox, dns)).toMatchObject({
        ok: true,
        exempt: true,
        addresses: [{ address: '127.0.0.1' }, { address: '::1' }],
      });
    });

    it.each([
      ['http://127.0.0.2:3000/hook', 'plain-http'],
      ['https://127.0.0.2:3000/hook', 'loopback'],
      ['https://[::1]:3000/hook', 'loopback'],
      ['https://10.0.0.1/hook', 'private'],
      ['https://169.254.169.254/', 'metadata'],
    ])('still refuses %s, which is not in the list', async (url, reason) => {
      expect(await checkOutboundUrl(url, sandbox, dns)).toMatchObject({ ok: false, reason });
    });

    it('exempts nothing when the list is empty, as in production', async () => {
      expect(await checkOutboundUrl('https://127.0.0.1:3000/hook', { allowHosts: [], allowHttp: true }, dns)).toMatchObject({
        ok: false,
        reason: 'loopback',
      });
    });
  });

  describe('credentials', () => {
    it.each([
      'https://user:pass@hooks.partner.example.com/hook',
      'https://user@hooks.partner.example.com/hook',
      'https://:pass@hooks.partner.example.com/hook',
    ])('refuses %s', async (url) => {
      expect(await checkOutboundUrl(url, PRODUCTION, fakeDns({}))).toMatchObject({ ok: false, reason: 'credentials' });
    });
  });

  describe('malformed input', () => {
    it.each([
      '',
      'not a url',
      '/relative/path',
      'hooks.partner.example.com/hook',
      'https://',
      'https://[fe80::1%25eth0]/hook',
      'https://4294967296/hook',
      'https://1.2.3.4.5/hook',
      'https://exa mple.com/hook',
      `https://hooks.partner.example.com/${'a'.repeat(MAX_OUTBOUND_URL_LENGTH)}`,
    ])('refuses %j as an invalid URL', async (url) => {
      expect(await checkOutboundUrl(url, PRODUCTION, fakeDns({}))).toMatchObject({ ok: false, reason: 'invalid-url' });
    });
  });
});

describe('Function: assertOutboundUrl', () => {
  it('returns the parsed URL when the guard accepts it', async () => {
    const url = await assertOutboundUrl('callbackUrl', 'https://8.8.8.8/cb', PRODUCTION);
    expect(url.href).toBe('https://8.8.8.8/cb');
  });

  it('throws a ValidationError naming the parameter and the reason', async () => {
    const act = assertOutboundUrl('callbackUrl', 'https://[::ffff:127.0.0.1]/cb', PRODUCTION);
    await expect(act).rejects.toBeInstanceOf(ValidationError);
    await expect(act).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      param: 'callbackUrl',
      details: { param: 'callbackUrl' },
      message: expect.stringMatching(/^callbackUrl .*loopback/),
    });
  });

  it('names a nested parameter as given', async () => {
    await expect(assertOutboundUrl('url', 'http://hooks.partner.example.com/', PRODUCTION)).rejects.toMatchObject({
      param: 'url',
      message: 'url must use https.',
    });
  });
});
