import { describe, expect, it } from 'vitest';
import { addUnfolded, groupReports, REPORT_SETTLE_SECONDS, settledBound } from '../../shared/usage/rules';

const P1 = '2026-01-01T00:00:00.000Z';
const P2 = '2026-01-31T12:00:00.000Z';
const r = (id: string, meter: string, quantity: number, createdAt: string, periodStart = P1) => ({ _id: id, meter, quantity, createdAt, periodStart });

describe('folding usage reports', () => {
  it('sums reports per (period, day) and meter, and says how far it went', () => {
    const { groups, through } = groupReports([
      r('01', 'calls', 2, '2026-01-05T10:00:00Z'),
      r('02', 'calls', 3, '2026-01-05T23:59:59Z'),
      r('03', 'gb', 1, '2026-01-05T23:59:59Z'),
      r('04', 'calls', 1, '2026-01-06T00:00:00Z'),
      r('05', 'calls', 7, '2026-01-31T13:00:00Z', P2),
    ]);
    expect(through).toBe('05');
    expect(groups).toEqual([
      { periodStart: P1, day: '2026-01-05', totals: { calls: 5, gb: 1 } },
      { periodStart: P1, day: '2026-01-06', totals: { calls: 1 } },
      { periodStart: P2, day: '2026-01-31', totals: { calls: 7 } },
    ]);
  });

  it('stops before a report that would open one group too many (a transaction holds at most 100 items)', () => {
    const { groups, through } = groupReports(
      [r('01', 'a', 1, '2026-01-01T00:00:00Z'), r('02', 'a', 1, '2026-01-01T05:00:00Z'), r('03', 'a', 1, '2026-01-02T00:00:00Z')],
      1,
    );
    expect(groups).toEqual([{ periodStart: P1, day: '2026-01-01', totals: { a: 2 } }]);
    expect(through).toBe('02');
    expect(groupReports([])).toEqual({ groups: [], through: undefined });
  });

  it('adds reports not folded yet to the day counters of their period only', () => {
    const days = addUnfolded(
      [{ day: '2026-01-05', totals: { calls: 5 } }],
      [r('06', 'calls', 1, '2026-01-05T12:00:00Z'), r('07', 'gb', 2, '2026-01-07T00:00:00Z'), r('08', 'calls', 9, '2026-02-01T00:00:00Z', P2)],
      P1,
    );
    expect(days).toEqual([
      { day: '2026-01-05', totals: { calls: 6 } },
      { day: '2026-01-07', totals: { gb: 2 } },
    ]);
  });

  it('settles ids older than the settle window (ids start with 8 hex digits of seconds)', () => {
    const nowMs = 1_700_000_000_000;
    const bound = settledBound(nowMs);
    const idAt = (seconds: number) => `${seconds.toString(16).padStart(8, '0')}aaaaaaaaaa000001`;
    expect(idAt(1_700_000_000 - REPORT_SETTLE_SECONDS - 1) < bound).toBe(true);
    expect(idAt(1_700_000_000 - REPORT_SETTLE_SECONDS) < bound).toBe(false);
    expect(idAt(1_700_000_000) < bound).toBe(false);
  });
});
