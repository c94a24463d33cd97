import type { Job } from '../platform/ports';
import { lookupOffer } from '../catalog/service';
import { newEvent, outboxPut } from '../platform/events';
import type { Deps } from '../platform/context';
import { onConditionFailed } from '../store/conditional';
import type { Scope } from '../store/keys';
import { subscriptionEventData } from './events';
import type { SubscriberRecord } from './records';
import { getSubscriber, timerMarkerPut } from './repository';
import { willRenew } from './state';
import { processedBeforeUpgrade } from '../platform/markers';
import { TIMERS_CONSUMER } from './entities';

export const JOB_UPCOMING = 'subscriptions.invoice_upcoming';
export const JOB_TRIAL_WILL_END = 'subscriptions.trial_will_end';
export const LEAD_DAYS = 3;
const DAY_MS = 24 * 3600 * 1000;

const upcomingTimer = (id: string) => `sub-upcoming-${id}`;
const trialTimer = (id: string) => `sub-trial-${id}`;

/**
 * Keeps the subscriber's two timers in line with its state: invoice.upcoming 3 days before a
 * renewal that will really be charged, trial_will_end 3 days before a trial ends. Called after
 * every change; a timer that no longer applies is removed, and the job re-checks at fire time.
 */
export async function scheduleSubscriberTimers(deps: Deps, scope: Scope, sub: SubscriberRecord): Promise<void> {
  const now = deps.clock.nowMs();
  const scheduler = deps.ports.scheduler;
  const periodEnd = sub.currentPeriodEnd ? Date.parse(sub.currentPeriodEnd) : undefined;
  const upcomingAt = periodEnd ? periodEnd - LEAD_DAYS * DAY_MS : undefined;
  if (willRenew(sub) && upcomingAt && upcomingAt > now) {
    await scheduler.schedule(upcomingTimer(sub._id), new Date(upcomingAt), {
      type: JOB_UPCOMING,
      scope,
      payload: { subscriberId: sub._id, periodEnd: sub.currentPeriodEnd },
    });
  } else await scheduler.cancel(upcomingTimer(sub._id));
  const trialEnd = sub.trialEnd ? Date.parse(sub.trialEnd) : undefined;
  const trialAt = trialEnd ? trialEnd - LEAD_DAYS * DAY_MS : undefined;
  if (sub.status === 'trialing' && !sub.cancelAtPeriodEnd && trialAt && trialAt > now) {
    await scheduler.schedule(trialTimer(sub._id), new Date(trialAt), {
      type: JOB_TRIAL_WILL_END,
      scope,
      payload: { subscriberId: sub._id, periodEnd: sub.trialEnd },
    });
  } else await scheduler.cancel(trialTimer(sub._id));
}

async function fire(job: Job, deps: Deps, type: 'invoice.upcoming' | 'customer.subscription.trial_will_end', applies: (sub: SubscriberRecord) => boolean) {
  const scope = job.scope;
  if (!scope) return;
  const { subscriberId, periodEnd } = job.payload as { subscriberId: string; periodEnd: string };
  const sub = await getSubscriber(deps.store, scope, subscriberId, true);
  if (!sub || !applies(sub)) return;
  const offer = await lookupOffer(deps, scope, sub.subscriptionId);
  if (!offer) return;
  const marker = `${type}:${sub._id}:${periodEnd}`;
  const event = newEvent(
    scope,
    deps.clock,
    type,
    subscriptionEventData(type, sub, offer, {
      invoice:
        type === 'invoice.upcoming'
          ? {
              id: `upcoming_${sub._id}`,
              amountCents: offer.priceCents,
              currency: offer.currency,
              paymentIntentId: null,
              periodStart: sub.currentPeriodEnd,
              periodEnd: null,
            }
          : undefined,
    }),
  );
  // Fired already for this period: the marker's condition drops the second event. A release with
  // the old marker layout fired it at most a week before the period's end.
  if (await processedBeforeUpgrade(deps, TIMERS_CONSUMER, marker, Date.parse(periodEnd) / 1000 - 7 * 86_400)) return;
  await onConditionFailed(deps.store.transact([timerMarkerPut(marker, deps.clock.nowMs()), outboxPut(event)]), () => undefined);
}

export const upcomingJob = (job: Job, deps: Deps) =>
  fire(job, deps, 'invoice.upcoming', (sub) => willRenew(sub) && sub.currentPeriodEnd === (job.payload as { periodEnd: string }).periodEnd);

export const trialWillEndJob = (job: Job, deps: Deps) =>
  fire(
    job,
    deps,
    'customer.subscription.trial_will_end',
    (sub) => sub.status === 'trialing' && !sub.cancelAtPeriodEnd && sub.trialEnd === (job.payload as { periodEnd: string }).periodEnd,
  );
