import { describe, expect, it } from 'vitest';
import { splitIdRange } from '../../shared/audience/facts-store';

const hex = (n: bigint) => n.toString(16).padStart(24, '0');
const BASE = 0x6b039923c0776d3fc4336000n;

describe('splitIdRange', () => {
  it.each([1n, 2n, 3n, 7n, 8n, 9n, 17n, 100n])('covers every id of a span of %s exactly once, with no range upside down', (span) => {
    const first = hex(BASE);
    const last = hex(BASE + span);
    const ranges = splitIdRange(first, last, 8);
    for (const [from, to] of ranges) expect(from <= to).toBe(true);
    for (let n = BASE; n <= BASE + span; n++) {
      const id = hex(n);
      expect(ranges.filter(([from, to]) => from <= id && id <= to)).toHaveLength(1);
    }
  });

  it('keeps one range for a single id, a single part or ids it cannot split', () => {
    expect(splitIdRange(hex(BASE), hex(BASE), 8)).toEqual([[hex(BASE), hex(BASE)]]);
    expect(splitIdRange(hex(BASE), hex(BASE + 5n), 1)).toEqual([[hex(BASE), hex(BASE + 5n)]]);
    expect(splitIdRange('a', 'b', 8)).toEqual([['a', 'b']]);
  });

  it('splits a wide span into the parts asked for', () => {
    expect(splitIdRange(hex(BASE), hex(BASE + 1_000_000n), 8)).toHaveLength(8);
  });
});
