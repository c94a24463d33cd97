import { describe, expect, it } from 'vitest';
import { allowedInWindow, blockSizeFor, nextBlock, WINDOW_MS } from '../../shared/platform/rate-limit';

const start = 1_000 * WINDOW_MS;

describe('sliding-window estimate', () => {
  it('weighs the previous window by the part of it still inside the last minute', () => {
    expect(allowedInWindow(600, 0, start)).toBe(600);
    expect(allowedInWindow(600, 600, start)).toBe(0);
    expect(allowedInWindow(600, 600, start + 30_000)).toBe(300);
    expect(allowedInWindow(600, 600, start + 59_999)).toBe(599);
    expect(allowedInWindow(600, 300, start + 15_000)).toBe(375);
  });

  it('reserves a thirtieth of the limit at a time, never more than the estimate leaves', () => {
    expect(blockSizeFor(600)).toBe(20);
    expect(blockSizeFor(3)).toBe(1);
    expect(blockSizeFor(3000)).toBe(100);
    expect(blockSizeFor(1_000_000)).toBe(1000);
    expect(nextBlock(600, 600, 0)).toBe(20);
    expect(nextBlock(600, 600, 590)).toBe(10);
    expect(nextBlock(600, 300, 300)).toBe(0);
  });
});
