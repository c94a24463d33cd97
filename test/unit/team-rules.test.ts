import { describe, expect, it } from 'vitest';
import {
  areasOf,
  hasFreeSeat,
  inviteExpiresAt,
  inviteWindowStart,
  isExpired,
  normalizeEmail,
  ownerDelta,
  resendVerdict,
  roleChangeAllowed,
  seatLimit,
  seatsOf,
} from '../../shared/team/rules';

const at = (iso: string) => new Date(iso);

describe('team rules', () => {
  it("counts members and open invites against the plan's seats", () => {
    expect([seatLimit('free'), seatLimit('tier2'), seatLimit('tier3'), seatLimit('volume')]).toEqual([1, 3, 10, 25]);
    expect(hasFreeSeat({ owners: 1, used: 1, pending: 1, seats: 2 }, 'tier2')).toBe(true);
    expect(hasFreeSeat({ owners: 1, used: 1, pending: 2, seats: 3 }, 'tier2')).toBe(false);
    expect(hasFreeSeat({ owners: 1, used: 3, pending: 0, seats: 3 }, 'tier2')).toBe(false);
    expect(seatsOf({ owners: 1, used: 2, pending: 1, seats: 3 }, 'tier3')).toEqual({ limit: 10, used: 2, pending: 1 });
  });

  it('expires invites 7 days after they are sent', () => {
    const sent = at('2025-03-01T10:00:00.000Z');
    const expiresAt = inviteExpiresAt(sent).toISOString();
    expect(expiresAt).toBe('2025-03-08T10:00:00.000Z');
    expect(isExpired({ validUntil: expiresAt }, at('2025-03-08T09:59:59.999Z'))).toBe(false);
    expect(isExpired({ validUntil: expiresAt }, at('2025-03-08T10:00:00.000Z'))).toBe(true);
  });

  it('allows a resend once a minute, 5 times, while the invite is open', () => {
    const invite = { validUntil: '2025-03-08T10:00:00.000Z', sentAt: '2025-03-01T10:00:00.000Z', resends: 0 };
    expect(resendVerdict(invite, at('2025-03-01T10:00:30.000Z'))).toEqual({ ok: false, reason: 'too_soon', retryAfterSeconds: 30 });
    expect(resendVerdict(invite, at('2025-03-01T10:01:00.000Z'))).toEqual({ ok: true });
    expect(resendVerdict({ ...invite, resends: 5 }, at('2025-03-02T10:00:00.000Z'))).toEqual({ ok: false, reason: 'limit' });
    expect(resendVerdict(invite, at('2025-03-08T10:00:00.000Z'))).toEqual({ ok: false, reason: 'expired' });
  });

  it('counts invites in fixed one-hour windows', () => {
    expect(inviteWindowStart(at('2025-03-01T10:59:59.000Z')).toISOString()).toBe('2025-03-01T10:00:00.000Z');
    expect(inviteWindowStart(at('2025-03-01T11:00:00.000Z')).toISOString()).toBe('2025-03-01T11:00:00.000Z');
  });

  it('lets only owners give or change the owner role', () => {
    expect(roleChangeAllowed(false, 'member', 'admin')).toBe(true);
    expect(roleChangeAllowed(false, 'member', 'owner')).toBe(false);
    expect(roleChangeAllowed(false, 'owner', 'admin')).toBe(false);
    expect(roleChangeAllowed(false, undefined, 'owner')).toBe(false);
    expect(roleChangeAllowed(true, 'owner', 'member')).toBe(true);
  });

  it('moves the owner count only for active owners', () => {
    expect(ownerDelta({ role: 'owner', status: 'active' }, { role: 'admin', status: 'active' })).toBe(-1);
    expect(ownerDelta({ role: 'owner', status: 'active' }, { role: 'owner', status: 'suspended' })).toBe(-1);
    expect(ownerDelta({ role: 'owner', status: 'suspended' }, undefined)).toBe(0);
    expect(ownerDelta({ role: 'admin', status: 'active' }, { role: 'owner', status: 'active' })).toBe(1);
    expect(ownerDelta(undefined, { role: 'member', status: 'active' })).toBe(0);
  });

  it("grants a member the union of their teams' areas", () => {
    const teams = [
      { _id: 't1', areas: ['orders' as const, 'products' as const] },
      { _id: 't2', areas: ['products' as const, 'analytics' as const] },
      { _id: 't3', areas: ['developers' as const] },
    ];
    expect(areasOf(teams, ['t1', 't2'])).toEqual(['products', 'orders', 'analytics']);
    expect(areasOf(teams, [])).toEqual([]);
    expect(areasOf(teams, ['gone'])).toEqual([]);
  });

  it('compares emails lower-cased', () => {
    expect(normalizeEmail('  Ann@Example.COM ')).toBe('ann@example.com');
  });
});
