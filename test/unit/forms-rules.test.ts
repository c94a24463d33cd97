import { describe, expect, it } from 'vitest';
import { conversionRate, dailySeries, DEFAULT_COPY, ipWindowOf, isEditing, isLikelyBot, publicView } from '../../shared/forms/rules';
import { formCreateBody, formUpdateBody } from '../../shared/forms/schemas';
import type { FormRecord } from '../../shared/forms/records';
import { escapeHtml } from '../../shared/platform/html';

describe('signup form rules', () => {
  it('treats a filled honeypot or a submit under 1.5 s (or without timing) as a bot', () => {
    expect(isLikelyBot({ company: 'ACME', elapsedMs: 9000 })).toBe(true);
    expect(isLikelyBot({ company: '   ', elapsedMs: 1500 })).toBe(false);
    expect(isLikelyBot({ elapsedMs: 1499 })).toBe(true);
    expect(isLikelyBot({ elapsedMs: 1500 })).toBe(false);
    expect(isLikelyBot({})).toBe(true);
    expect(isLikelyBot({ elapsedMs: Number.NaN })).toBe(true);
  });

  it('keeps the counters of signups per IP in 15-minute windows (the sliding estimate spans two)', () => {
    const t = Date.UTC(2026, 0, 1, 10, 14, 59);
    expect(ipWindowOf(t)).toBe(Date.UTC(2026, 0, 1, 10, 0));
    expect(ipWindowOf(t + 1000)).toBe(Date.UTC(2026, 0, 1, 10, 15));
  });

  it('conversion rate in percent with one decimal, 0 without views', () => {
    expect(conversionRate(0, 3)).toBe(0);
    expect(conversionRate(3, 1)).toBe(33.3);
    expect(conversionRate(8, 8)).toBe(100);
  });

  it('daily series: 30 UTC days ending today, oldest first, zero-filled', () => {
    const now = new Date(Date.UTC(2026, 2, 2, 23, 30));
    const days = dailySeries(now, [
      { day: '2026-03-02', views: 4, signups: 1 },
      { day: '2026-02-01', views: 2, signups: 2 },
      { day: '2026-01-01', views: 9, signups: 9 },
    ]);
    expect(days).toHaveLength(30);
    expect(days[0]).toEqual({ day: '2026-02-01', views: 2, signups: 2 });
    expect(days.at(-1)).toEqual({ day: '2026-03-02', views: 4, signups: 1 });
    expect(days.filter((d) => d.views).length).toBe(2);
  });

  it('only a status change is not editing', () => {
    expect(isEditing({ status: 'paused' })).toBe(false);
    expect(isEditing({ status: 'paused', headline: undefined })).toBe(false);
    expect(isEditing({ status: 'paused', headline: 'x' })).toBe(true);
  });

  it("the public view leaves out the creator's name, tags and counters", () => {
    const form = {
      _id: 'a'.repeat(24),
      name: 'Secret name',
      tags: ['vip'],
      views: 3,
      signups: 1,
      leadMagnetProductId: 'p',
      leadMagnetUrl: 'https://x',
      createdAt: '',
      updatedAt: '',
      ...DEFAULT_COPY.popup,
      type: 'popup',
    } as unknown as FormRecord;
    const view = publicView(form);
    expect(view).toMatchObject({ id: form._id, render: true, hasLeadMagnet: true, headline: DEFAULT_COPY.popup.headline });
    for (const hidden of ['name', 'tags', 'views', 'signups', 'leadMagnetUrl', 'leadMagnetProductId']) expect(view).not.toHaveProperty(hidden);
  });

  it('schemas hold the spec ranges', () => {
    expect(
      formCreateBody.safeParse({
        name: 'x'.repeat(80),
        tags: Array(10).fill('t'),
        trigger: { delaySeconds: 120, scrollPercent: 100 },
        frequencyDays: 365,
        accentColor: '#A0b1C2',
      }).success,
    ).toBe(true);
    for (const bad of [
      { name: '' },
      { name: 'x', frequencyDays: 1.5 },
      { name: 'x', trigger: { delaySeconds: -1 } },
      { name: 'x', accentColor: '#abc' },
      { name: 'x', unknown: 1 },
      { name: 'x', status: 'archived' },
    ]) {
      expect(formCreateBody.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(formUpdateBody.safeParse({ status: 'archived' }).success).toBe(true);
  });

  it('escapes text for pages', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
