import { lookupOffer } from '../catalog/service';
import type { Deps } from '../platform/context';
import { badRequest, conflict } from '../platform/errors';
import { newEvent, outboxPut } from '../platform/events';
import { objectId } from '../platform/ids';
import { toMajor } from '../platform/money';
import { ProcessorError } from '../processor/port';
import type { Scope } from '../store/keys';
import type { SubscriberRecord } from '../subscriptions/records';
import type { SaveOfferChoice, SaveOffersOnCancel } from '../subscriptions/save-offers';
import { subscriberChangeOp } from '../subscriptions/service';
import { acceptYearlySwitch, yearlySwitchFor } from './intro-yearly';
import { offerRetentionOf } from './offers';
import type { SaveFlow, SubscriberRetention } from './records';
import * as repo from './repository';
import { discountedCents, saveOfferTaken, upcomingChargeCents } from './rules';
import { isConditionFailed } from '../store/conditional';

const REASON = /^[a-z_]{1,40}$/;
const usedOffer = () => conflict('This subscription has already taken a save offer; it can be taken once', 'SAVE_OFFER_USED');
const cleanReason = (reason: string | null) => (reason && REASON.test(reason) ? reason : null);

async function activeOffers(deps: Deps, scope: Scope, sub: SubscriberRecord) {
  const config = await offerRetentionOf(deps, scope, sub.subscriptionId);
  if (!config.saveOffers.enabled) return null;
  const offer = await lookupOffer(deps, scope, sub.subscriptionId);
  if (!offer) return null;
  return { config: config.saveOffers, offer };
}

/**
 * Save offers at cancel, as the subscriptions portal asks for them (its `subscriptionSaveOffers`
 * port). Accepting applies the offer through the processor first (a pause moves the period end
 * forward with no charge; a discount lowers the next `discountMonths` renewals), then records the
 * subscriber's new period, the flow and `subscription.saved` in one transaction.
 */
export const saveOffersOnCancel: SaveOffersOnCancel = {
  async offersFor(deps, scope, sub) {
    const found = await activeOffers(deps, scope, sub);
    if (!found) return null;
    // One save offer per subscriber and offer: once taken, a cancel is a cancel.
    if (saveOfferTaken(await repo.getSubscriberRetention(deps.store, scope, sub._id))) return null;
    const { config, offer } = found;
    return {
      // A pause skips whole months, so it is offered on monthly offers.
      pauseMaxMonths: offer.frequency === 'monthly' ? config.pauseMaxMonths : null,
      discountPercent: config.discountPercent,
      discountMonths: config.discountMonths,
      discountedPrice: toMajor(discountedCents(offer.priceCents, config.discountPercent)),
      currency: offer.currency,
    };
  },

  async accept(deps, scope, sub, choice: SaveOfferChoice, reason) {
    const found = await activeOffers(deps, scope, sub);
    if (!found) throw conflict('This subscription has no save offers', 'NO_SAVE_OFFER');
    const { config, offer } = found;
    if (sub.status !== 'active' || sub.cancelAtPeriodEnd || sub.paused || !sub.membershipId)
      throw conflict('Only an active subscription can take a save offer', 'SUBSCRIPTION_INACTIVE');
    const now = deps.clock.now().toISOString();
    const row = await repo.getSubscriberRetention(deps.store, scope, sub._id);
    if (saveOfferTaken(row)) throw usedOffer();
    // Claimed before the processor is asked: a second accept (another tab, a double click) finds
    // it taken instead of applying the offer again and restarting the discount's count.
    try {
      await deps.store.transact([repo.saveOfferClaim(scope, sub._id, sub.subscriptionId, { kind: choice.kind, at: now })]);
    } catch (error) {
      if (isConditionFailed(error)) throw usedOffer();
      throw error;
    }
    const release = () => deps.store.transact([repo.saveOfferRelease(scope, sub._id)]);
    const flow: SaveFlow = {
      _id: objectId(deps.clock),
      subscriberId: sub._id,
      offerId: sub.subscriptionId,
      kind: choice.kind,
      months: null,
      percent: null,
      reason: cleanReason(reason),
      createdAt: now,
    };
    let after: SubscriberRecord = sub;
    let discount: SubscriberRetention['discount'] = null;
    try {
      if (choice.kind === 'pause') {
        const months = choice.months ?? 1;
        if (offer.frequency !== 'monthly') throw badRequest('A pause is offered on monthly subscriptions only', { field: 'months' });
        if (!Number.isInteger(months) || months < 1 || months > config.pauseMaxMonths)
          throw badRequest(`months: must be from 1 to ${config.pauseMaxMonths}`, { field: 'months' });
        const live = await deps.ports.processor.adjustMembership!(scope, sub.membershipId, { skipPeriods: months });
        after = { ...sub, currentPeriodEnd: live.currentPeriodEnd, updatedAt: now };
        flow.months = months;
      } else {
        const amountCents = discountedCents(offer.priceCents, config.discountPercent);
        await deps.ports.processor.adjustMembership!(scope, sub.membershipId, { nextPayments: { amountCents, payments: config.discountMonths } });
        flow.percent = config.discountPercent;
        flow.months = config.discountMonths;
        discount = { percent: config.discountPercent, payments: config.discountMonths, at: now, fromPayments: row?.payments ?? 0 };
      }
    } catch (error) {
      // Nothing was applied: the offer stays available.
      await release();
      if (error instanceof ProcessorError) throw conflict(`The payment processor refused: ${error.message}`, 'PROCESSOR_REFUSED');
      throw error;
    }
    const event = newEvent(scope, deps.clock, 'subscription.saved', {
      subscriptionCustomerId: sub._id,
      subscription: { id: offer._id, name: offer.name, price: toMajor(offer.priceCents), currency: offer.currency, frequency: offer.frequency },
      customer: { email: sub.buyerEmail, firstName: sub.firstName, lastName: sub.lastName },
      offer:
        choice.kind === 'pause'
          ? { type: 'pause', months: flow.months }
          : { type: 'discount', percentOff: flow.percent, payments: flow.months, price: toMajor(discountedCents(offer.priceCents, config.discountPercent)) },
      reason: flow.reason,
      currentPeriodEnd: after.currentPeriodEnd,
      savedAt: now,
    });
    const ops = [repo.flowPut(scope, flow), outboxPut(event)];
    if (discount) ops.push(repo.subscriberRetentionSet(scope, sub._id, sub.subscriptionId, { discount }));
    if (after !== sub) ops.push(subscriberChangeOp(scope, sub, after));
    await deps.store.transact(ops);
  },

  yearlySwitchFor,
  acceptYearlySwitch,

  async nextChargeCents(deps, scope, sub) {
    const offer = await lookupOffer(deps, scope, sub.subscriptionId);
    if (!offer) return null;
    return upcomingChargeCents(await repo.getSubscriberRetention(deps.store, scope, sub._id), offer.priceCents);
  },

  async declined(deps, scope, sub, reason) {
    if (!(await activeOffers(deps, scope, sub))) return;
    const flow: SaveFlow = {
      _id: objectId(deps.clock),
      subscriberId: sub._id,
      offerId: sub.subscriptionId,
      kind: 'declined',
      months: null,
      percent: null,
      reason: cleanReason(reason),
      createdAt: deps.clock.now().toISOString(),
    };
    await deps.store.transact([repo.flowPut(scope, flow)]);
  },
};
