import { describe, expect, it } from 'vitest';
import { recoveryDecision, recoveryDueAt, reopensSameSession, SESSION_REUSE_MS } from '../../shared/checkout/recovery-rules';

const opened = '2026-03-01T10:00:00.000Z';
const at = (iso: string) => new Date(iso);

describe('abandoned-checkout rules', () => {
  it('falls due delayMinutes after the session opened, or after now when the address came later', () => {
    expect(recoveryDueAt(opened, 60, at('2026-03-01T10:05:00Z')).toISOString()).toBe('2026-03-01T11:00:00.000Z');
    expect(recoveryDueAt(opened, 60, at('2026-03-01T12:00:00Z')).toISOString()).toBe('2026-03-01T13:00:00.000Z');
  });

  it('mails an open, unhandled session with an address when recovery is on and the product is not bought', () => {
    const session = { status: 'open' as const, customerEmail: 'a@example.com', abandonedAt: null, recoveredFrom: null };
    expect(recoveryDecision(session, { enabled: true }, false)).toBe('mail');
    expect(recoveryDecision({ ...session, status: 'completed' }, { enabled: true }, false)).toBe('paid');
    expect(recoveryDecision({ ...session, abandonedAt: opened }, { enabled: true }, false)).toBe('handled-already');
    expect(recoveryDecision(session, { enabled: false }, false)).toBe('recovery-off');
    expect(recoveryDecision({ ...session, customerEmail: null }, { enabled: true }, false)).toBe('no-address');
    expect(recoveryDecision({ ...session, recoveredFrom: 'x' }, { enabled: true }, false)).toBe('opened-from-recovery');
    expect(recoveryDecision(session, { enabled: true }, true)).toBe('bought-elsewhere');
  });

  it('reopens the same session only while open, recent and at the promised price', () => {
    const session = { status: 'open' as const, createdAt: opened, discountCode: null };
    const soon = at('2026-03-01T11:00:00Z');
    expect(reopensSameSession(session, null, soon)).toBe(true);
    expect(reopensSameSession(session, 'BACK10', soon)).toBe(false);
    expect(reopensSameSession({ ...session, discountCode: 'back10' }, 'BACK10', soon)).toBe(true);
    expect(reopensSameSession({ ...session, status: 'completed' }, null, soon)).toBe(false);
    expect(reopensSameSession(session, null, new Date(Date.parse(opened) + SESSION_REUSE_MS))).toBe(false);
  });
});
