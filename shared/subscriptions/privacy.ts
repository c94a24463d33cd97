import type { Deps } from '../platform/context';
import type { PrivacyPart } from '../platform/privacy';
import type { Scope } from '../store/keys';
import type { SubscriberRecord } from './records';
import { subscriberErasure, subscribersOfEmailPage } from './repository';

async function* subscribersOf(deps: Deps, scope: Scope, email: string): AsyncIterable<SubscriberRecord[]> {
  let cursor: string | undefined;
  do {
    const page = await subscribersOfEmailPage(deps.store, scope, email, cursor, 100);
    if (page.items.length) yield page.items;
    cursor = page.cursor;
  } while (cursor);
}

/** Subscriptions: the buyer's subscribers of every offer (their payments are the orders part's). */
const subscriptionsPart: PrivacyPart = {
  name: 'subscriptions',
  export: (deps, scope, subject) => subscribersOf(deps, scope, subject.email),
  async check(deps, scope, subject) {
    // The processor would go on charging a buyer nobody can reach: the seller cancels first (at
    // period end is enough: nothing is charged again).
    for await (const page of subscribersOf(deps, scope, subject.email)) {
      if (page.some((s) => s.status !== 'canceled' && !s.cancelAtPeriodEnd))
        return 'This buyer has a subscription that is not canceled: cancel it first, then erase the buyer';
    }
    return undefined;
  },
  async erase(deps, scope, subject) {
    const at = deps.clock.now().toISOString();
    for await (const page of subscribersOf(deps, scope, subject.email)) {
      for (const sub of page) await deps.store.transact(subscriberErasure(scope, sub, at));
    }
  },
};

export const subscriptionsPrivacy: PrivacyPart[] = [subscriptionsPart];
