import { describe, expect, it } from 'vitest';
import { slidingAllowance, slidingRetryAfterSeconds, windowStartOf } from '../../shared/platform/sliding-window';

const W = 15 * 60_000;
const start = Date.UTC(2026, 0, 1, 10, 15);

describe('sliding-window estimate', () => {
  it('allows the whole limit when the previous window was empty', () => {
    expect(slidingAllowance(10, 0, start, W)).toBe(10);
    expect(slidingAllowance(10, 0, start + W - 1, W)).toBe(10);
  });

  it('weighs the previous window by the share of it still inside the sliding span: no 2× burst at a boundary', () => {
    // Ten signups at the end of the previous window leave nothing right after the boundary.
    expect(slidingAllowance(10, 10, start, W)).toBe(0);
    expect(slidingAllowance(10, 10, start + 1000, W)).toBe(0);
    // A third into the window, a third of the previous count has faded.
    expect(slidingAllowance(10, 9, start + W / 3, W)).toBe(4);
    expect(slidingAllowance(10, 10, start + W / 2, W)).toBe(5);
    expect(windowStartOf(start + W - 1, W)).toBe(start);
  });

  it('advises a Retry-After until one more fits, at most the window end', () => {
    // 10 before, 0 now: one more fits once 1/10 of the window has passed (90 s).
    expect(slidingRetryAfterSeconds(10, 10, 0, start, W)).toBe(90);
    // The limit reached inside this window: only the window's end helps.
    expect(slidingRetryAfterSeconds(10, 0, 10, start + 60_000, W)).toBe(14 * 60);
    expect(slidingRetryAfterSeconds(10, 10, 5, start + W - 500, W)).toBe(1);
  });
});
