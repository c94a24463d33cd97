import { describe, expect, it } from 'vitest';
import { classifyIp, parseIPv4, parseIPv6 } from '../../shared/webhooks/address';
import { checkWebhookUrl } from '../../shared/webhooks/url-policy';
import { guardedLookup, type Resolver } from '../../shared/webhooks/transport';

const refused: [string, RegExp][] = [
  // IPv4, every non-public range
  ['0.0.0.0', /unspecified/],
  ['0.1.2.3', /unspecified/],
  ['10.0.0.1', /private/],
  ['10.255.255.255', /private/],
  ['100.64.0.1', /carrier-grade NAT/],
  ['100.127.255.254', /carrier-grade NAT/],
  ['127.0.0.1', /loopback/],
  ['127.255.1.2', /loopback/],
  ['169.254.169.254', /metadata/],
  ['169.254.1.1', /link-local/],
  ['172.16.0.1', /private/],
  ['172.31.255.255', /private/],
  ['192.0.0.8', /reserved/],
  ['192.0.2.10', /documentation/],
  ['192.88.99.1', /6to4 relay/],
  ['192.168.1.1', /private/],
  ['198.18.0.1', /benchmarking/],
  ['198.19.255.255', /benchmarking/],
  ['198.51.100.7', /documentation/],
  ['203.0.113.9', /documentation/],
  ['224.0.0.1', /multicast/],
  ['239.255.255.250', /multicast/],
  ['240.0.0.1', /reserved/],
  ['255.255.255.255', /broadcast/],
  // odd textual forms of IPv4
  ['2130706433', /loopback/],
  ['0x7f000001', /loopback/],
  ['0177.0.0.1', /loopback/],
  ['0x7f.0.0.1', /loopback/],
  ['127.1', /loopback/],
  ['127.0.1', /loopback/],
  ['017700000001', /loopback/],
  ['2852039166', /metadata/], // 169.254.169.254
  ['0xa9fea9fe', /metadata/],
  ['0251.0376.0251.0376', /metadata/],
  ['167772161', /private/], // 10.0.0.1
  ['0', /unspecified/],
  ['127.0.0.1.', /loopback/],
  // IPv6
  ['::', /unspecified/],
  ['::1', /loopback/],
  ['0:0:0:0:0:0:0:1', /loopback/],
  ['[::1]', /loopback/],
  ['::ffff:127.0.0.1', /IPv4-mapped loopback/],
  ['::ffff:7f00:1', /IPv4-mapped loopback/],
  ['::ffff:169.254.169.254', /IPv4-mapped cloud metadata/],
  ['::ffff:10.1.2.3', /IPv4-mapped private/],
  ['::127.0.0.1', /IPv4-compatible/],
  ['64:ff9b::7f00:1', /NAT64/],
  ['64:ff9b::8.8.8.8', /NAT64/],
  ['64:ff9b:1::1', /NAT64/],
  ['fc00::1', /unique-local/],
  ['fd12:3456:789a::1', /unique-local/],
  ['fe80::1', /link-local/],
  ['febf::1', /link-local/],
  ['fec0::1', /site-local/],
  ['ff02::1', /multicast/],
  ['2001:db8::1', /documentation/],
  ['100::1', /discard/],
  ['2002:7f00:1::1', /6to4 address of a loopback/],
  ['2001::1', /IETF/],
  ['::2', /IPv4-compatible/],
  ['4000::1', /outside 2000::\/3/],
];

const allowed = [
  '8.8.8.8',
  '1.1.1.1',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '169.253.1.1',
  '192.169.0.1',
  '198.20.0.1',
  '223.255.255.255',
  '134744072',
  '2606:4700:4700::1111',
  '2a00:1450:4001:80b::200e',
  '::ffff:8.8.8.8',
  '2002:808:808::1',
];

describe('address classifier', () => {
  it.each(refused)('refuses %s', (address, reason) => {
    const verdict = classifyIp(address);
    expect(verdict, address).toBeDefined();
    expect(verdict!.public).toBe(false);
    expect(verdict!.public ? '' : verdict!.reason).toMatch(reason);
  });

  it.each(allowed)('accepts public %s', (address) => {
    expect(classifyIp(address)).toMatchObject({ public: true });
  });

  it('recognises what is not an IP address', () => {
    for (const text of [
      'example.com',
      'localhost',
      '1.2.3.4.5',
      '256.1.1.1',
      '1.2.3.0x100',
      '::g',
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      'fe80::1%eth0',
      '08.1.1.1',
    ]) {
      expect(classifyIp(text), text).toBeUndefined();
    }
  });

  it('parses the inet_aton forms and IPv6 with embedded IPv4', () => {
    expect(parseIPv4('127.1')).toEqual([127, 0, 0, 1]);
    expect(parseIPv4('10.1.65535')).toEqual([10, 1, 255, 255]);
    expect(parseIPv4('4294967295')).toEqual([255, 255, 255, 255]);
    expect(parseIPv4('4294967296')).toBeUndefined();
    expect(parseIPv6('::ffff:1.2.3.4')!.slice(10)).toEqual([255, 255, 1, 2, 3, 4]);
    expect(parseIPv6('2001:db8::')!.slice(0, 4)).toEqual([0x20, 0x01, 0x0d, 0xb8]);
  });
});

describe('endpoint URL policy', () => {
  const strict = { allowLoopback: false };
  const local = { allowLoopback: true };

  it('accepts https on public names and addresses', () => {
    for (const url of ['https://example.com/hooks', 'https://hooks.example.com:8443/a?b=c', 'https://8.8.8.8/x', 'https://[2606:4700:4700::1111]/x']) {
      expect(checkWebhookUrl(url, strict), url).toMatchObject({ ok: true });
    }
  });

  it('tells a developer refused a loopback endpoint how the local runtime allows it, and nobody else', () => {
    for (const url of ['http://127.0.0.1:4242/hooks', 'https://localhost/x', 'http://[::1]/x']) {
      const verdict = checkWebhookUrl(url, { allowLoopback: false });
      expect(verdict.ok).toBe(false);
      expect(!verdict.ok && verdict.reason).toMatch(/WEBHOOK_ALLOW_LOOPBACK=1/);
    }
    const other = checkWebhookUrl('http://example.com/hooks', { allowLoopback: false });
    expect(!other.ok && other.reason).not.toMatch(/WEBHOOK_ALLOW_LOOPBACK/);
    expect(checkWebhookUrl('http://127.0.0.1:4242/hooks', { allowLoopback: true }).ok).toBe(true);
  });

  it('refuses http, credentials, non-public literals in any form, and private names, saying why', () => {
    const cases: [string, RegExp][] = [
      ['http://example.com/hooks', /https/],
      ['ftp://example.com', /https/],
      ['not a url', /valid absolute URL/],
      ['https://user:pass@example.com', /credentials/],
      ['https://127.0.0.1/x', /127\.0\.0\.1 is a loopback address/],
      ['https://2130706433/x', /loopback/],
      ['https://0x7f000001/x', /loopback/],
      ['https://0177.0.0.1/x', /loopback/],
      ['https://127.1/x', /loopback/],
      ['https://169.254.169.254/latest/meta-data', /metadata/],
      ['https://[::1]/x', /loopback/],
      ['https://[::ffff:127.0.0.1]/x', /IPv4-mapped loopback/],
      ['https://[::ffff:a9fe:a9fe]/x', /IPv4-mapped cloud metadata/],
      ['https://[fd00::1]/x', /unique-local/],
      ['https://[fe80::1]/x', /link-local/],
      ['https://[64:ff9b::a00:1]/x', /NAT64/],
      ['https://100.64.1.1/x', /carrier-grade/],
      ['https://198.18.0.1/x', /benchmarking/],
      ['https://localhost/x', /loopback name/],
      ['https://api.localhost/x', /loopback name/],
      ['https://intranet/x', /fully qualified/],
      ['https://metadata.google.internal/x', /private-network name/],
      ['https://printer.local/x', /private-network name/],
      [`https://example.com/${'a'.repeat(2100)}`, /longer than/],
    ];
    for (const [url, reason] of cases) {
      const verdict = checkWebhookUrl(url, strict);
      expect(verdict.ok, url).toBe(false);
      expect(verdict.ok ? '' : verdict.reason, url).toMatch(reason);
    }
  });

  it('lets loopback through only when the local runtime allows it, and nothing else private', () => {
    for (const url of ['http://127.0.0.1:4000/hook', 'http://localhost:4000/hook', 'http://[::1]:4000/', 'https://127.0.0.1:4000/']) {
      expect(checkWebhookUrl(url, local), url).toMatchObject({ ok: true });
      expect(checkWebhookUrl(url, strict).ok, url).toBe(false);
    }
    for (const url of ['http://10.0.0.1/', 'https://10.0.0.1/', 'http://169.254.169.254/', 'http://example.com/']) {
      expect(checkWebhookUrl(url, local).ok, url).toBe(false);
    }
  });
});

describe('the loopback allowance is exactly 127.0.0.1, [::1] and localhost', () => {
  const local = { allowLoopback: true };
  it('refuses the rest of 127.0.0.0/8 and other loopback names even with the flag', () => {
    for (const url of ['http://127.0.0.2/', 'http://127.255.255.254/', 'http://api.localhost/', 'http://[::ffff:127.0.0.1]/', 'http://2130706434/']) {
      expect(checkWebhookUrl(url, local).ok, url).toBe(false);
    }
  });

  it('refuses a name that resolves to another loopback address at connect time', async () => {
    const resolveTo = (address: string, family: number) =>
      ((_h: string, _o: unknown, cb: (e: null, a: { address: string; family: number }[]) => void) => cb(null, [{ address, family }])) as unknown as Resolver;
    const lookup = (address: string, family: number) =>
      new Promise<string>((resolve) =>
        guardedLookup(local, resolveTo(address, family))('localhost', { all: false }, (error, got) =>
          resolve(error ? `refused: ${error.message}` : String(got)),
        ),
      );
    expect(await lookup('127.0.0.1', 4)).toBe('127.0.0.1');
    expect(await lookup('::1', 6)).toBe('::1');
    expect(await lookup('127.0.0.2', 4)).toMatch(/refused/);
    expect(await lookup('127.255.255.254', 4)).toMatch(/refused/);
  });
});
