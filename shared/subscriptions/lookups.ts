import type { Deps } from '../platform/context';
import { isObjectId } from '../platform/ids';
import type { Scope } from '../store/keys';
import type { SubscriberRecord } from './records';
import { findSubscriberByMembership, getSubscriber, subscribersOfOfferPage } from './repository';

// Reads other capabilities use (receipts, memberships, retention, usage), apart from service.ts:
// nothing here reaches the payment processor, so a function that only reads subscribers does not
// bundle the processor and Stripe (functions get the processor port only where their code names it).

/** Where a subscriber updates the card: the portal's card page, while the subscription can still be charged. */
export const cardUpdateUrlOf = (sub: SubscriberRecord) =>
  sub.membershipId && sub.status !== 'canceled' ? sub.portalUrl.replace('/portal-data/', '/portal-card/') : null;

/** A subscriber by its _id or mem_ id, read consistently (usage billing's `{id}`); undefined when none. */
export async function findSubscriberByAnyId(deps: Pick<Deps, 'store'>, scope: Scope, id: string): Promise<SubscriberRecord | undefined> {
  return id.startsWith('mem_') ? findSubscriberByMembership(deps.store, scope, id) : isObjectId(id) ? getSubscriber(deps.store, scope, id, true) : undefined;
}

/** A subscriber of the tenant and mode as stored now (consistent read), for consumers deriving state from it. */
export const lookupSubscriber = (deps: Pick<Deps, 'store'>, scope: Scope, id: string): Promise<SubscriberRecord | undefined> =>
  isObjectId(id) ? getSubscriber(deps.store, scope, id, true) : Promise.resolve(undefined);

/** One page of an offer's subscribers (every status), oldest first; pass the cursor back for the next. */
export const offerSubscribersPage = (deps: Pick<Deps, 'store'>, scope: Scope, offerId: string, cursor?: string, limit = 200) =>
  subscribersOfOfferPage(deps.store, scope, offerId, cursor, limit);

/** The card-update link of a subscriber (failed-payment mails), or null. */
export async function cardUpdateUrlFor(deps: Pick<Deps, 'store'>, scope: Scope, subscriberId: string): Promise<string | null> {
  const sub = await getSubscriber(deps.store, scope, subscriberId);
  return sub ? cardUpdateUrlOf(sub) : null;
}

/** The buyer's portal link of a subscriber (receipts and reminder mails), or null. */
export async function portalUrlOf(deps: Pick<Deps, 'store'>, scope: Scope, subscriberId: string): Promise<string | null> {
  return (await getSubscriber(deps.store, scope, subscriberId))?.portalUrl ?? null;
}
