import type { BusConsumer } from '../platform/capability';
import { foldReports, schedulePeriodClose } from './service';

/**
 * Keeps a close timer at the end of each period of a usage-priced subscriber: derived from the
 * committed change (created, renewed, resumed), one timer per period end, so a renewal recorded
 * before the previous close fired never replaces it.
 */
export const usagePeriodTimerConsumer: BusConsumer = {
  name: 'usage-period-timers',
  needs: ['table', 'scheduler'],
  eventTypes: ['customer.subscription.created', 'customer.subscription.resumed', 'invoice.payment_succeeded'],
  handle: async (event, deps) => {
    const subscriberId = event.data.subscriptionCustomerId;
    if (typeof subscriberId !== 'string') return;
    await schedulePeriodClose(deps, { accountId: event.accountId, mode: event.mode }, subscriberId);
  },
};

/**
 * Keeps the day counters: on each `usage.recorded`, folds the subscriber's settled reports into
 * them (at most about once a minute per subscriber; idempotent: the fold is guarded by its state,
 * so a repeated or racing delivery adds nothing twice). Reads never depend on it being current.
 */
export const usageFoldConsumer: BusConsumer = {
  name: 'usage-fold',
  eventTypes: ['usage.recorded'],
  handle: async (event, deps) => {
    const subscriberId = event.data.subscriberId;
    if (typeof subscriberId !== 'string') return;
    await foldReports(deps, { accountId: event.accountId, mode: event.mode }, subscriberId);
  },
};
