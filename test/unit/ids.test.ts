import { describe, expect, it } from 'vitest';
import { OffsetClock } from '../../shared/platform/clock';
import { isObjectId, objectId, prefixedId, randomBase62 } from '../../shared/platform/ids';
import { toCents, toMajor } from '../../shared/platform/money';
import { planAtLeast } from '../../shared/platform/plans';

describe('ids', () => {
  it('makes 24-hex ids that sort by creation time', () => {
    const clock = new OffsetClock();
    const first = objectId(clock);
    clock.advance(1);
    const second = objectId(clock);
    expect(isObjectId(first)).toBe(true);
    expect(second > first).toBe(true);
    const burst = Array.from({ length: 1000 }, () => objectId(clock));
    expect(new Set(burst).size).toBe(1000);
  });

  it('keeps the processor prefixes and an unbiased alphabet', () => {
    expect(prefixedId('mem')).toMatch(/^mem_[0-9A-Za-z]{24}$/);
    expect(randomBase62(64)).toMatch(/^[0-9A-Za-z]{64}$/);
  });
});

describe('money and plans', () => {
  it('converts between major units and cents without float drift', () => {
    expect(toCents(29.99)).toBe(2999);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toMajor(2999)).toBe(29.99);
  });

  it('orders plans free < tier2 < tier3 < volume', () => {
    expect(planAtLeast('tier3', 'tier2')).toBe(true);
    expect(planAtLeast('tier2', 'tier3')).toBe(false);
    expect(planAtLeast('volume', 'volume')).toBe(true);
    expect(planAtLeast('free', 'tier2')).toBe(false);
  });
});
