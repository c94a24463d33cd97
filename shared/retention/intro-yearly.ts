import { buyerLanguage } from '../account/buyer-language';
import { sellerBrand } from '../account/branding';

import { lookupOffer } from '../catalog/service';
import { prepareTransactional, type TransactionalMessage } from '../email/outbox';
import type { Deps } from '../platform/context';
import { conflict } from '../platform/errors';
import type { DomainEvent } from '../platform/events';
import { logger } from '../platform/logger';
import { toCents, toMajor } from '../platform/money';
import { ProcessorError } from '../processor/port';
import { isConditionFailed } from '../store/conditional';
import type { Scope } from '../store/keys';
import type { TransactOp } from '../store/store';
import type { SubscriberRecord } from '../subscriptions/records';
import { lookupSubscriber } from '../subscriptions/lookups';
import { offerRetentionOf } from './offers';
import type { SubscriberRetention } from './records';
import * as repo from './repository';
import { yearlyCents } from './rules';
import { escapeHtml } from '../platform/html';

const CONSUMER = 'retention-intro-yearly';
const blank = (sub: SubscriberRecord): SubscriberRetention => ({
  subscriberId: sub._id,
  offerId: sub.subscriptionId,
  intro: null,
  yearlyPromptedAt: null,
  yearlySwitch: null,
  discount: null,
  payments: 0,
});

const COUNT = 'retention-payment-count';

async function commit(deps: Deps, scope: Scope, eventId: string, ops: TransactOp[], marker = CONSUMER) {
  try {
    await deps.store.transact([...ops, repo.eventMarkerPut(scope, marker, eventId, Math.floor(deps.clock.nowMs() / 1000))]);
    return true;
  } catch (error) {
    if (isConditionFailed(error) && (await repo.hasEventMarker(deps.store, scope, marker, eventId))) return false;
    throw error;
  }
}

/**
 * Intro pricing: a new subscriber of an offer with intro on pays `intro.price` for its first
 * `periods` charges, counted from the first (the checkout's): the checkout hands the intro to the
 * processor with the first charge (checkout/service.ts, processor/intro.ts), so nothing is left to
 * change here. This records it once per subscriber (the intro report), then counts the payment.
 */
export async function onSubscriptionCreated(deps: Deps, event: DomainEvent): Promise<void> {
  const scope: Scope = { accountId: event.accountId, mode: event.mode };
  const subscriberId = event.data.subscriptionCustomerId;
  if (typeof subscriberId !== 'string') return;
  const sub = await lookupSubscriber(deps, scope, subscriberId);
  if (!sub?.membershipId) return;
  if (!(await repo.hasEventMarker(deps.store, scope, CONSUMER, event.id))) {
    const config = await offerRetentionOf(deps, scope, sub.subscriptionId);
    const existing = await repo.getSubscriberRetention(deps.store, scope, sub._id);
    if (config.intro.enabled && config.intro.price !== null && !existing?.intro) {
      const intro = { amountCents: toCents(config.intro.price), periods: config.intro.periods, at: deps.clock.now().toISOString() };
      await commit(deps, scope, event.id, [
        repo.subscriberRetentionSet(scope, sub._id, sub.subscriptionId, { intro }),
        repo.countersAdd(scope, { introStarted: 1 }),
      ]);
    }
  }
  // The first payment's invoice events carry no subscriber yet: it is counted here (at the intro
  // price when there is one, so after the intro is recorded).
  if (sub.status === 'active') await countPayment(deps, scope, sub, event);
}

/**
 * Counts a subscriber's payments; once a monthly subscriber of an offer with the yearly switch on
 * has made `afterPayments`, the portal offers the switch and the buyer gets one mail about it.
 */
export async function onInvoicePaid(deps: Deps, event: DomainEvent): Promise<void> {
  const scope: Scope = { accountId: event.accountId, mode: event.mode };
  const subscriberId = event.data.subscriptionCustomerId;
  if (typeof subscriberId !== 'string') return;
  const sub = await lookupSubscriber(deps, scope, subscriberId);
  if (!sub) return;
  await countPayment(deps, scope, sub, event);
}

async function countPayment(deps: Deps, scope: Scope, sub: SubscriberRecord, event: DomainEvent): Promise<void> {
  if (await repo.hasEventMarker(deps.store, scope, COUNT, event.id)) return;
  const row = (await repo.getSubscriberRetention(deps.store, scope, sub._id)) ?? blank(sub);
  const next: SubscriberRetention = { ...row, payments: (row.payments ?? 0) + 1 };
  const config = await offerRetentionOf(deps, scope, sub.subscriptionId);
  const offer = await lookupOffer(deps, scope, sub.subscriptionId);
  const prompt = Boolean(
    config.yearlySwitch.enabled &&
      offer?.frequency === 'monthly' &&
      !row.yearlyPromptedAt &&
      !row.yearlySwitch &&
      next.payments! >= config.yearlySwitch.afterPayments,
  );
  const ops: TransactOp[] = [];
  // The intro's charges are the subscriber's first `periods` ones, the checkout's included.
  if (row.intro && (row.payments ?? 0) < row.intro.periods) ops.push(repo.countersAdd(scope, { introPayments: 1 }));
  if (prompt) {
    next.yearlyPromptedAt = deps.clock.now().toISOString();
    ops.push(repo.countersAdd(scope, { yearlyPrompted: 1 }));
  }
  ops.push(repo.subscriberRetentionSet(scope, sub._id, sub.subscriptionId, prompt ? { yearlyPromptedAt: next.yearlyPromptedAt } : {}, { payments: 1 }));
  // One mail, queued for the email worker in the transaction that records the prompt: it goes
  // exactly when the prompt commits, and a redelivered event queues nothing.
  if (prompt && offer) ops.push(...(await yearlyPromptMail(deps, scope, sub, offer, config.yearlySwitch.percentOff)));
  await commit(deps, scope, event.id, ops, COUNT);
}

async function yearlyPromptMail(
  deps: Deps,
  scope: Scope,
  sub: SubscriberRecord,
  offer: { name: string; priceCents: number; currency: string },
  percentOff: number,
): Promise<TransactOp[]> {
  const base = deps.config.PUBLIC_BASE_URL?.replace(/\/$/, '') ?? new URL(sub.portalUrl).origin;
  const brand = await sellerBrand(deps, scope, base);
  // The buyer's language: saved at their checkout, else the seller's default.
  const t = await buyerLanguage(deps, scope, { email: sub.buyerEmail, sellerDefault: brand.locale ?? null });
  const yearly = t.money(yearlyCents(offer.priceCents, percentOff), offer.currency);
  const values = { percent: percentOff, product: offer.name, price: yearly };
  const message: TransactionalMessage = {
    to: [sub.buyerEmail],
    subject: t.t('yearly.subject', values),
    preview: t.t('yearly.preview', values),
    html: `<h1>${t.html('yearly.heading', values)}</h1><p>${t.html('yearly.body', values)}</p><p><a href="${escapeHtml(sub.portalUrl)}">${t.html('yearly.button')}</a></p><p>${escapeHtml(brand.name)}</p>`,
    text: [t.t('yearly.heading', values), t.t('yearly.body', values), t.t('mail.line', { label: t.t('yearly.button'), value: sub.portalUrl })].join('\n\n'),
    locale: t.locale,
    source: 'retention',
    baseUrl: base,
  };
  try {
    return (await prepareTransactional(deps, scope, message)).ops;
  } catch (error) {
    // The prompt is recorded (the portal offers the switch) even when the mail cannot go.
    logger.warn('yearly-switch mail not queued', { subscriberId: sub._id, error: error as Error });
    return [];
  }
}

export async function yearlySwitchFor(deps: Deps, scope: Scope, sub: SubscriberRecord) {
  const row = await repo.getSubscriberRetention(deps.store, scope, sub._id);
  if (!row?.yearlyPromptedAt) return null;
  const config = await offerRetentionOf(deps, scope, sub.subscriptionId);
  const offer = await lookupOffer(deps, scope, sub.subscriptionId);
  if (!offer || (!config.yearlySwitch.enabled && !row.yearlySwitch)) return null;
  const cents = row.yearlySwitch?.amountCents ?? yearlyCents(offer.priceCents, config.yearlySwitch.percentOff);
  return { percentOff: config.yearlySwitch.percentOff, yearlyPrice: toMajor(cents), currency: offer.currency, accepted: Boolean(row.yearlySwitch) };
}

/** The buyer accepts: the processor switches interval and price at the next period boundary. */
export async function acceptYearlySwitch(deps: Deps, scope: Scope, sub: SubscriberRecord) {
  const offered = await yearlySwitchFor(deps, scope, sub);
  if (!offered) throw conflict('No switch to yearly billing is offered', 'NO_YEARLY_SWITCH');
  if (offered.accepted) return;
  if (!sub.membershipId || sub.status !== 'active') throw conflict('Only an active subscription can switch', 'SUBSCRIPTION_INACTIVE');
  const amountCents = toCents(offered.yearlyPrice);
  try {
    await deps.ports.processor.adjustMembership!(scope, sub.membershipId, { switchAtNextRenewal: { interval: 'yearly', amountCents } });
  } catch (error) {
    if (error instanceof ProcessorError) throw conflict(`The payment processor refused: ${error.message}`, 'PROCESSOR_REFUSED');
    throw error;
  }
  await deps.store.transact([
    repo.subscriberRetentionSet(scope, sub._id, sub.subscriptionId, { yearlySwitch: { amountCents, at: deps.clock.now().toISOString() } }),
    repo.countersAdd(scope, { yearlyAccepted: 1 }),
  ]);
}
