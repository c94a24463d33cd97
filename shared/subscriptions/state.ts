import type { SubscriberRecord, SubscriberStatus } from './records';

/**
 * The subscriber state machine of the spec's States table, plus trials. Pure: it says what the
 * record becomes and which subscription events the move causes; the service writes both in one
 * transaction. `null` means the move does not apply from this state (nothing changes, no event).
 */
export type Trigger =
  | { type: 'charge_failed'; failureMessage: string; final: boolean }
  | { type: 'charge_succeeded' }
  | { type: 'cancel_scheduled' }
  | { type: 'canceled' }
  | { type: 'paused' }
  | { type: 'resumed'; now: string }
  | { type: 'period_ended' };

export type SubscriptionEventType =
  | 'customer.subscription.updated'
  | 'customer.subscription.deleted'
  | 'customer.subscription.pause'
  | 'customer.subscription.resumed';

export interface Transition {
  patch: Partial<SubscriberRecord>;
  events: SubscriptionEventType[];
}

type State = Pick<SubscriberRecord, 'status' | 'active' | 'cancelAtPeriodEnd' | 'paused' | 'currentPeriodEnd' | 'trialEnd'>;

/**
 * The spec's event catalogue: `.updated` fires on every state change after activation (pause,
 * resume and cancellation included), beside the specific event the States table names, so a
 * receiver that listens only to `.updated` sees every change. The specific event comes first.
 */
const DELETED: SubscriptionEventType[] = ['customer.subscription.deleted', 'customer.subscription.updated'];
const PAUSED: SubscriptionEventType[] = ['customer.subscription.pause', 'customer.subscription.updated'];
const RESUMED: SubscriptionEventType[] = ['customer.subscription.resumed', 'customer.subscription.updated'];

const collecting = (s: State): SubscriberStatus => (s.trialEnd && s.status === 'trialing' ? 'trialing' : 'active');

export function transition(s: State, trigger: Trigger): Transition | null {
  switch (trigger.type) {
    case 'charge_failed':
      if (s.status === 'canceled') return null;
      if (trigger.final)
        return {
          patch: { status: 'canceled', active: false, cancelAtPeriodEnd: false, paused: false, failureMessage: trigger.failureMessage },
          events: DELETED,
        };
      if (s.status === 'past_due') return { patch: { failureMessage: trigger.failureMessage }, events: [] };
      return { patch: { status: 'past_due', failureMessage: trigger.failureMessage }, events: ['customer.subscription.updated'] };
    case 'charge_succeeded':
      if (s.status === 'past_due' || s.status === 'trialing')
        return { patch: { status: 'active', active: true, failureMessage: null }, events: ['customer.subscription.updated'] };
      if (s.status === 'active') return { patch: {}, events: [] };
      return null;
    case 'cancel_scheduled':
      if (s.status === 'canceled' || s.cancelAtPeriodEnd) return null;
      return { patch: { cancelAtPeriodEnd: true }, events: ['customer.subscription.updated'] };
    case 'canceled':
    case 'period_ended':
      if (s.status === 'canceled') return null;
      return { patch: { status: 'canceled', active: false, cancelAtPeriodEnd: false, paused: false }, events: DELETED };
    case 'paused':
      if (s.paused || s.status === 'canceled') return null;
      return { patch: { status: 'paused', paused: true, active: true }, events: PAUSED };
    case 'resumed': {
      if (s.paused) return { patch: { status: collecting(s), paused: false, active: true, cancelAtPeriodEnd: false }, events: RESUMED };
      if (s.cancelAtPeriodEnd) return { patch: { cancelAtPeriodEnd: false }, events: RESUMED };
      if (s.status === 'canceled' && s.currentPeriodEnd && s.currentPeriodEnd > trigger.now) {
        return { patch: { status: collecting(s), active: true, canceledAt: null }, events: RESUMED };
      }
      return null;
    }
  }
}

/** invoice.upcoming is sent only for renewals that will really be charged. */
export const willRenew = (s: Pick<SubscriberRecord, 'status' | 'cancelAtPeriodEnd' | 'paused'>) => s.status === 'active' && !s.cancelAtPeriodEnd && !s.paused;
