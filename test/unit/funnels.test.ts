import { describe, expect, it } from 'vitest';
import { advanceRun, sendOffsets, stepsFromDelays, stepsMissingPosts } from '../../shared/automations/rules';
import { attributable, isFree, offerLink } from '../../shared/funnels/rules';
import { emailCopy, FUNNEL_TEMPLATES } from '../../shared/funnels/templates';

describe('sequence timing', () => {
  const steps = stepsFromDelays([0, 24, 72, 120, 168].map((delayHours, i) => ({ delayHours, postId: `p${i}` })));
  it('turns delays from entry into waits between mails', () => {
    expect(sendOffsets(steps).map((s) => s.hours)).toEqual([0, 24, 72, 120, 168]);
    expect(steps.filter((s) => s.type === 'wait').map((s) => (s as { hours: number }).hours)).toEqual([24, 48, 48, 48]);
    expect(() =>
      stepsFromDelays([
        { delayHours: 5, postId: 'a' },
        { delayHours: 1, postId: 'b' },
      ]),
    ).toThrow(/must not decrease/);
  });
  it('runs the mails up to the next wait, then resumes after it', () => {
    expect(advanceRun(steps, 0)).toEqual({ sends: [0], resume: { step: 2, waitHours: 24 } });
    expect(advanceRun(steps, 8)).toEqual({ sends: [8] });
    const same = stepsFromDelays([
      { delayHours: 0, postId: 'a' },
      { delayHours: 0, postId: 'b' },
      { delayHours: 2, postId: 'c' },
    ]);
    expect(advanceRun(same, 0)).toEqual({ sends: [0, 1], resume: { step: 3, waitHours: 2 } });
    expect(stepsMissingPosts(same, new Set(['a', 'c']))).toEqual([1]);
  });
  it('templates have the promised shape', () => {
    const byId = Object.fromEntries(FUNNEL_TEMPLATES.map((t) => [t.id, t.emails.map((e) => e.delayHours)]));
    expect(byId).toEqual({ welcome: [0, 24, 72, 120, 168], minicourse: [0, 24, 48, 72], launch: [0, 48, 72] });
  });
});

describe('funnel rules', () => {
  it('free lead magnets, offer links, attribution window', () => {
    expect(isFree({ priceCents: 0 })).toBe(true);
    expect(isFree({ priceCents: 500, payWhatYouWant: { enabled: true, minimumCents: 0 } })).toBe(true);
    expect(isFree({ priceCents: 500, payWhatYouWant: { enabled: true, minimumCents: 100 } })).toBe(false);
    expect(offerLink('https://x.example.com/buy?a=1', 'SAVE-10')).toBe('https://x.example.com/buy?a=1&discount=SAVE-10');
    expect(offerLink('https://x.example.com/buy', null)).toBe('https://x.example.com/buy');
    expect(attributable('2024-01-01T00:00:00.500Z', '2024-01-01T00:00:00Z')).toBe(true);
    expect(attributable('2024-01-02T00:00:00Z', '2024-01-01T00:00:00Z')).toBe(false);
    expect(attributable('2024-01-01T00:00:00Z', '2024-01-31T00:00:00Z')).toBe(true);
    expect(attributable('2024-01-01T00:00:00Z', '2024-01-31T00:00:01Z')).toBe(false);
  });
});

describe('template copy without a discount', () => {
  it('no mail of any template speaks of a discount when the funnel has none; with one, the discount copy is used', () => {
    for (const template of FUNNEL_TEMPLATES) {
      for (const email of template.emails) {
        const plain = emailCopy(email, false);
        expect(`${plain.subject} ${plain.html}`, `${template.id}: ${email.subject}`).not.toMatch(/discount/i);
        expect(emailCopy(email, true)).toEqual({ subject: email.subject, html: email.html });
      }
    }
  });
});
