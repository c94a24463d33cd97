import { describe, expect, it } from 'vitest';
import { transition, willRenew } from '../../shared/subscriptions/state';

const base = { status: 'active' as const, active: true, cancelAtPeriodEnd: false, paused: false, currentPeriodEnd: '2030-01-01T00:00:00.000Z', trialEnd: null };

describe('subscriber state machine', () => {
  it('active → past_due on a failed renewal, with one .updated; a second failure changes no state', () => {
    const first = transition(base, { type: 'charge_failed', failureMessage: 'declined', final: false })!;
    expect(first.patch.status).toBe('past_due');
    expect(first.events).toEqual(['customer.subscription.updated']);
    const again = transition({ ...base, status: 'past_due' }, { type: 'charge_failed', failureMessage: 'declined', final: false })!;
    expect(again.events).toEqual([]);
  });

  it('past_due → active on a successful retry; → canceled when retries run out', () => {
    expect(transition({ ...base, status: 'past_due' }, { type: 'charge_succeeded' })).toEqual({
      patch: { status: 'active', active: true, failureMessage: null },
      events: ['customer.subscription.updated'],
    });
    const end = transition({ ...base, status: 'past_due' }, { type: 'charge_failed', failureMessage: 'x', final: true })!;
    expect(end.patch).toMatchObject({ status: 'canceled', active: false });
    expect(end.events).toEqual(['customer.subscription.deleted', 'customer.subscription.updated']);
  });

  it('a renewal of an active subscriber changes nothing and emits no subscription event', () => {
    expect(transition(base, { type: 'charge_succeeded' })).toEqual({ patch: {}, events: [] });
  });

  it('trialing → active on the first charge', () => {
    expect(transition({ ...base, status: 'trialing', trialEnd: '2030-01-01T00:00:00.000Z' }, { type: 'charge_succeeded' })!.patch.status).toBe('active');
  });

  it('cancel at period end keeps the subscriber active; a second request is not a move', () => {
    expect(transition(base, { type: 'cancel_scheduled' })).toEqual({ patch: { cancelAtPeriodEnd: true }, events: ['customer.subscription.updated'] });
    expect(transition({ ...base, cancelAtPeriodEnd: true }, { type: 'cancel_scheduled' })).toBeNull();
  });

  it('immediate cancel and period end: canceled, inactive, .deleted; never twice', () => {
    expect(transition(base, { type: 'canceled' })!.events).toEqual(['customer.subscription.deleted', 'customer.subscription.updated']);
    expect(transition({ ...base, status: 'canceled', active: false }, { type: 'period_ended' })).toBeNull();
  });

  it('pause keeps access; resume lifts a pause, a scheduled cancel, or a cancel inside the paid period', () => {
    const pause = transition(base, { type: 'paused' })!;
    expect(pause.patch).toEqual({ status: 'paused', paused: true, active: true });
    expect(pause.events).toEqual(['customer.subscription.pause', 'customer.subscription.updated']);
    const now = '2029-06-01T00:00:00.000Z';
    expect(transition({ ...base, status: 'paused', paused: true }, { type: 'resumed', now })!.patch).toMatchObject({ status: 'active', paused: false });
    expect(transition({ ...base, cancelAtPeriodEnd: true }, { type: 'resumed', now })!.events).toEqual([
      'customer.subscription.resumed',
      'customer.subscription.updated',
    ]);
    expect(transition({ ...base, status: 'canceled', active: false }, { type: 'resumed', now })!.patch).toMatchObject({ status: 'active', active: true });
    expect(transition({ ...base, status: 'canceled', active: false }, { type: 'resumed', now: '2031-01-01T00:00:00.000Z' })).toBeNull();
    expect(transition(base, { type: 'resumed', now })).toBeNull();
  });

  it('only renewals that will really be charged get invoice.upcoming', () => {
    expect(willRenew(base)).toBe(true);
    expect(willRenew({ ...base, cancelAtPeriodEnd: true })).toBe(false);
    expect(willRenew({ ...base, status: 'paused', paused: true })).toBe(false);
    expect(willRenew({ ...base, status: 'canceled' })).toBe(false);
    expect(willRenew({ ...base, status: 'past_due' })).toBe(false);
  });
});
