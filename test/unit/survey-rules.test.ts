import { describe, expect, it } from 'vitest';
import { assignOptionIds, checkQuestion, isSurveyedSale, normalizeOtherText, percent, reportRange, slugOf, topAnswers } from '../../shared/survey/rules';

const current = [
  { id: 'instagram', label: 'Instagram', channel: 'instagram' as const },
  { id: 'friend', label: 'A friend', channel: null },
];

describe('survey options', () => {
  it('gives new options ids from their labels, unique and never "other"', () => {
    expect(assignOptionIds([], [{ label: "Friend's tip" }, { label: "Friend's tip!" }, { label: 'Other' }, { label: '¡Olé!' }])).toEqual([
      { id: 'friend-s-tip', label: "Friend's tip", channel: null },
      { id: 'friend-s-tip-2', label: "Friend's tip!", channel: null },
      { id: 'other-2', label: 'Other', channel: null },
      { id: 'ole', label: '¡Olé!', channel: null },
    ]);
    expect(slugOf('!!!')).toBe('option');
  });

  it('keeps an existing id through a rename, and a new option does not take an id kept in the list', () => {
    expect(assignOptionIds(current, [{ label: 'Instagram' }, { id: 'instagram', label: 'IG reels', channel: 'instagram' }])).toEqual([
      { id: 'instagram-2', label: 'Instagram', channel: null },
      { id: 'instagram', label: 'IG reels', channel: 'instagram' },
    ]);
  });

  it('refuses unknown, duplicate and reserved ids, bad counts and long or empty labels', () => {
    expect(() => assignOptionIds(current, [{ id: 'nope', label: 'a' }, { label: 'b' }])).toThrow(/no option has id/);
    expect(() =>
      assignOptionIds(current, [
        { id: 'friend', label: 'a' },
        { id: 'friend', label: 'b' },
      ]),
    ).toThrow(/twice/);
    expect(() => assignOptionIds(current, [{ id: 'other', label: 'a' }, { label: 'b' }])).toThrow(/reserved/);
    expect(() => assignOptionIds(current, [{ label: 'a' }])).toThrow(/2 to 12/);
    expect(() =>
      assignOptionIds(
        current,
        Array.from({ length: 13 }, (_, i) => ({ label: `o${i}` })),
      ),
    ).toThrow(/2 to 12/);
    expect(
      assignOptionIds(
        current,
        Array.from({ length: 12 }, (_, i) => ({ label: `o${i}` })),
      ),
    ).toHaveLength(12);
    expect(() => assignOptionIds(current, [{ label: 'x'.repeat(61) }, { label: 'b' }])).toThrow(/60/);
    expect(assignOptionIds(current, [{ label: 'x'.repeat(60) }, { label: 'b' }])[0]!.label).toHaveLength(60);
    expect(() => assignOptionIds(current, [{ label: '   ' }, { label: 'b' }])).toThrow(/empty/);
  });

  it('checks the question', () => {
    expect(checkQuestion('  Where?  ')).toBe('Where?');
    expect(() => checkQuestion('q'.repeat(121))).toThrow(/120/);
    expect(checkQuestion('q'.repeat(120))).toHaveLength(120);
    expect(() => checkQuestion(' ')).toThrow(/empty/);
  });
});

describe('report range', () => {
  const now = new Date('2026-11-22T15:00:00Z');
  it('defaults to the 30 days ending today', () => {
    expect(reportRange(now)).toEqual({ start: '2026-10-24', end: '2026-11-22', days: 30 });
    expect(reportRange(now, undefined, '2026-01-31')).toEqual({ start: '2026-01-02', end: '2026-01-31', days: 30 });
    expect(reportRange(now, '2026-11-01')).toEqual({ start: '2026-11-01', end: '2026-11-22', days: 22 });
  });
  it('allows 366 days and refuses 367, reversed ranges and non-dates', () => {
    expect(reportRange(now, '2024-01-01', '2024-12-31').days).toBe(366);
    expect(() => reportRange(now, '2025-01-01', '2026-01-02')).toThrow(/at most 366/);
    expect(() => reportRange(now, '2026-02-02', '2026-02-01')).toThrow(/after/);
    expect(() => reportRange(now, '2026-02-30')).toThrow(/ISO date/);
    expect(() => reportRange(now, '26-1-1')).toThrow(/ISO date/);
  });
});

describe('figures', () => {
  it('percent has one decimal and survives zero', () => {
    expect(percent(2, 3)).toBe(66.7);
    expect(percent(0, 0)).toBe(0);
  });
  it('groups free texts and keeps the ten most common', () => {
    expect(normalizeOtherText('  My   FRIEND ')).toBe('my friend');
    const counts = new Map(Array.from({ length: 12 }, (_, i) => [`t${String(i).padStart(2, '0')}`, i % 3] as [string, number]));
    const top = topAnswers(counts);
    expect(top.length).toBeLessThanOrEqual(10);
    expect(top[0]).toEqual({ answer: 't02', count: 2 });
    expect(top.every((t) => t.count > 0)).toBe(true);
  });
  it('asks about paid first purchases only', () => {
    expect(isSurveyedSale({ amountCents: 100, free: false })).toBe(true);
    expect(isSurveyedSale({ amountCents: 100, free: false, billingReason: 'initial' })).toBe(true);
    expect(isSurveyedSale({ amountCents: 100, free: false, billingReason: 'renewal' })).toBe(false);
    expect(isSurveyedSale({ amountCents: 0, free: true })).toBe(false);
  });
});
