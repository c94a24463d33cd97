/**
 * Which addresses a webhook may be sent to. Pure: no DNS, no sockets. Used at endpoint creation
 * (for IP-literal hosts), at connect time (for every address a host name resolves to) and on
 * every redirect. Anything that is not a globally routable unicast address is refused, whatever
 * textual form it is written in (decimal 2130706433, hex 0x7f000001, octal 0177.0.0.1, short
 * 127.1, IPv4-mapped or NAT64 IPv6).
 */

export type AddressVerdict = { public: true; address: string } | { public: false; address: string; reason: string };

type Range4 = [base: [number, number, number, number], prefix: number, reason: string];

const IPV4_RANGES: Range4[] = [
  [[0, 0, 0, 0], 8, 'unspecified ("this network") address'],
  [[10, 0, 0, 0], 8, 'private address (10.0.0.0/8)'],
  [[100, 64, 0, 0], 10, 'carrier-grade NAT address (100.64.0.0/10)'],
  [[127, 0, 0, 0], 8, 'loopback address'],
  [[169, 254, 169, 254], 32, 'cloud metadata address'],
  [[169, 254, 0, 0], 16, 'link-local address (169.254.0.0/16)'],
  [[172, 16, 0, 0], 12, 'private address (172.16.0.0/12)'],
  [[192, 0, 0, 0], 24, 'reserved address (IETF protocol assignments)'],
  [[192, 0, 2, 0], 24, 'reserved documentation address'],
  [[192, 88, 99, 0], 24, 'reserved address (6to4 relay anycast)'],
  [[192, 168, 0, 0], 16, 'private address (192.168.0.0/16)'],
  [[198, 18, 0, 0], 15, 'reserved benchmarking address (198.18.0.0/15)'],
  [[198, 51, 100, 0], 24, 'reserved documentation address'],
  [[203, 0, 113, 0], 24, 'reserved documentation address'],
  [[224, 0, 0, 0], 4, 'multicast address'],
  [[255, 255, 255, 255], 32, 'broadcast address'],
  [[240, 0, 0, 0], 4, 'reserved address (240.0.0.0/4)'],
];

const toUint32 = (b: number[]) => ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0;

function inRange4(bytes: number[], base: number[], prefix: number): boolean {
  if (prefix === 0) return true;
  const mask = prefix === 32 ? 0xffffffff : ~((1 << (32 - prefix)) - 1) >>> 0;
  return (toUint32(bytes) & mask) >>> 0 === (toUint32(base) & mask) >>> 0;
}

/** One part of an inet_aton style address: decimal, 0x hex or leading-zero octal. */
function parsePart(part: string): number | undefined {
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]+$/.test(part)) return parseInt(part, 8);
  if (/^(0|[1-9][0-9]*)$/.test(part)) return Number(part);
  return undefined;
}

/**
 * Parses IPv4 the way inet_aton and URL parsers do: 1 to 4 parts, the last filling the remaining
 * bytes (127.1 is 127.0.0.1, 2130706433 is 127.0.0.1). Undefined when the text is not IPv4.
 */
export function parseIPv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop(); // trailing dot
  if (parts.length < 1 || parts.length > 4) return undefined;
  const values = parts.map(parsePart);
  if (values.some((v) => v === undefined || !Number.isFinite(v))) return undefined;
  const nums = values as number[];
  const head = nums.slice(0, -1);
  const last = nums[nums.length - 1]!;
  if (head.some((v) => v > 255)) return undefined;
  const lastBytes = 4 - head.length;
  if (last >= 2 ** (8 * lastBytes)) return undefined;
  const bytes = [...head];
  for (let i = lastBytes - 1; i >= 0; i--) bytes.push(Math.floor(last / 2 ** (8 * i)) % 256);
  return bytes;
}

/** Parses IPv6 text (no brackets, no zone) into 16 bytes; undefined when it is not IPv6. */
export function parseIPv6(text: string): number[] | undefined {
  if (!text.includes(':') || text.includes('%')) return undefined;
  let head = text;
  let tailV4: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(tail)) return undefined;
    tailV4 = tail.split('.').map(Number);
    if (tailV4.some((n) => n > 255)) return undefined;
    head = text.slice(0, lastColon + 1) + '0:0';
  }
  const halves = head.split('::');
  if (halves.length > 2) return undefined;
  const group = (s: string) => (s === '' ? [] : s.split(':'));
  const left = group(halves[0]!);
  const right = halves.length === 2 ? group(halves[1]!) : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...left, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...right];
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return undefined;
  const bytes: number[] = [];
  for (const g of groups) {
    const n = parseInt(g, 16);
    bytes.push(n >> 8, n & 0xff);
  }
  if (tailV4.length) bytes.splice(12, 4, ...tailV4);
  return bytes;
}

const hex = (bytes: number[]) => bytes.map((b) => b.toString(16).padStart(2, '0')).join('');

function prefixMatches(bytes: number[], prefixHex: string, bits: number): boolean {
  const want = prefixHex.padEnd(32, '0');
  const have = hex(bytes);
  const fullNibbles = Math.floor(bits / 4);
  if (have.slice(0, fullNibbles) !== want.slice(0, fullNibbles)) return false;
  const rest = bits % 4;
  if (!rest) return true;
  const mask = (0xf << (4 - rest)) & 0xf;
  return (parseInt(have[fullNibbles]!, 16) & mask) === (parseInt(want[fullNibbles]!, 16) & mask);
}

const format4 = (b: number[]) => b.join('.');

export function classifyIPv4(bytes: number[]): AddressVerdict {
  const address = format4(bytes);
  for (const [base, prefix, reason] of IPV4_RANGES) if (inRange4(bytes, base, prefix)) return { public: false, address, reason };
  return { public: true, address };
}

export function classifyIPv6(bytes: number[], text: string): AddressVerdict {
  const address = text;
  const embedded = bytes.slice(12);
  const deny = (reason: string): AddressVerdict => ({ public: false, address, reason });
  if (bytes.every((b) => b === 0)) return deny('unspecified address');
  if (prefixMatches(bytes, '0'.repeat(31) + '1', 128)) return deny('loopback address');
  if (prefixMatches(bytes, '00000000000000000000ffff', 96)) {
    const inner = classifyIPv4(embedded);
    return inner.public ? { public: true, address } : deny(`IPv4-mapped ${inner.reason} (${inner.address})`);
  }
  if (prefixMatches(bytes, '0064ff9b', 32)) return deny('NAT64 address (64:ff9b::/96, 64:ff9b:1::/48)');
  if (prefixMatches(bytes, '', 96)) return deny('IPv4-compatible address (deprecated ::/96)');
  if (prefixMatches(bytes, '2002', 16)) {
    const inner = classifyIPv4(bytes.slice(2, 6));
    if (!inner.public) return deny(`6to4 address of a ${inner.reason}`);
  }
  if (prefixMatches(bytes, 'fc', 7)) return deny('unique-local address (fc00::/7)');
  if (prefixMatches(bytes, 'fe8', 10)) return deny('link-local address (fe80::/10)');
  if (prefixMatches(bytes, 'fec', 10)) return deny('site-local address (fec0::/10)');
  if (prefixMatches(bytes, 'ff', 8)) return deny('multicast address');
  if (prefixMatches(bytes, '20010db8', 32)) return deny('reserved documentation address (2001:db8::/32)');
  if (prefixMatches(bytes, '3fff', 20)) return deny('reserved documentation address (3fff::/20)');
  if (prefixMatches(bytes, '0100', 64)) return deny('discard-only address (100::/64)');
  if (prefixMatches(bytes, '2001', 23)) return deny('reserved address (IETF protocol assignments 2001::/23)');
  // Only the global unicast block is routable on the internet.
  if (!prefixMatches(bytes, '2', 3)) return deny('reserved address (outside 2000::/3)');
  return { public: true, address };
}

/** Classifies an IP address text in any accepted form; undefined when the text is not an IP. */
export function classifyIp(text: string): AddressVerdict | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const v6 = parseIPv6(bare);
  if (v6) return classifyIPv6(v6, bare);
  const v4 = parseIPv4(bare);
  if (v4) return classifyIPv4(v4);
  return undefined;
}

export const isLoopback = (text: string): boolean => {
  const verdict = classifyIp(text);
  return !!verdict && !verdict.public && verdict.reason === 'loopback address';
};
