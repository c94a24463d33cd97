import { lookupOffer } from '../catalog/service';
import type { Deps, OperationContext } from '../platform/context';
import type { DomainEvent } from '../platform/events';
import { logger } from '../platform/logger';
import { toCents } from '../platform/money';
import type { Scope } from '../store/keys';
import { ConditionFailed, type TransactOp } from '../store/store';
import { lookupSubscriber } from '../subscriptions/lookups';
import type { SubscriberShare } from './entities';
import * as repo from './repository';
import {
  CHURNED_SUBSCRIBERS,
  contributionDelta,
  contributionOf,
  dayOf,
  dayRange,
  grossField,
  NEW_SUBSCRIBERS,
  productCounters,
  recoveredField,
  recoveredSalesField,
  refundsField,
  salesField,
  shardOf,
  sumDays,
  sumRecurring,
  topProducts,
  totalOf,
  type SoldLine,
} from './rules';

/**
 * Sales and recurring-revenue figures from rollups. The consumers add each committed sale and
 * refund to its day once (a marker in the same transaction) and keep each subscriber's share of
 * the recurring counters; the summary reads a few items per day, never the sales themselves.
 */

const MAX_ATTEMPTS = 6;

interface OrderData {
  amount?: number;
  currency?: string;
  product?: { id?: string | null; name?: string | null };
  lines?: { productId?: string; name?: string; amount?: number }[];
  subscriptionCustomerId?: string;
  order?: { id?: string; createdAt?: string; type?: string; billingReason?: string };
  metadata?: { recovered?: unknown };
}

const scopeOf = (event: DomainEvent): Scope => ({ accountId: event.accountId, mode: event.mode });
const eventTime = (event: DomainEvent) => new Date(event.created * 1000);

/**
 * Adds a sale (order.completed, on the day of the sale) or a refund (order.refunded, on the day it
 * was made) to the day rollups, once: a redelivered event fails on its marker and adds nothing.
 */
export async function countSaleEvent(deps: Deps, event: DomainEvent): Promise<void> {
  const data = event.data as OrderData;
  const currency = (data.currency ?? '').toUpperCase();
  if (!currency || typeof data.amount !== 'number') {
    logger.warn('analytics: order event without amount or currency', { eventId: event.id, type: event.type });
    return;
  }
  const cents = toCents(data.amount);
  const scope = scopeOf(event);
  const refund = event.type === 'order.refunded';
  const date = refund ? dayOf(eventTime(event)) : dayOf(data.order?.createdAt ?? eventTime(event));
  const products = refund ? { add: {}, names: {} } : productCounters(soldLines(data, cents), currency);
  const add = refund ? { [refundsField(currency)]: cents } : { [grossField(currency)]: cents, [salesField(currency)]: 1, ...products.add };
  // Bought through an abandoned-checkout mail's link: counted apart too, so the mail's worth shows.
  if (!refund && data.metadata?.recovered === true) Object.assign(add, { [recoveredField(currency)]: cents, [recoveredSalesField(currency)]: 1 });
  try {
    await deps.store.transact([repo.countedMarker(scope, event.id, event.created), repo.dayAdd(scope, shardOf(event.id), date, add, products.names)]);
  } catch (error) {
    // Counted by an earlier delivery of this event.
    if (error instanceof ConditionFailed) return;
    throw error;
  }
}

/** What a sale sold: its lines (an upsell checkout), else its one product for the whole amount. */
function soldLines(data: OrderData, cents: number): SoldLine[] {
  if (data.lines?.length)
    return data.lines.flatMap((l) =>
      l.productId && typeof l.amount === 'number' ? [{ productId: l.productId, name: l.name ?? '', cents: toCents(l.amount) }] : [],
    );
  return data.product?.id ? [{ productId: data.product.id, name: data.product.name ?? '', cents }] : [];
}

/** A recurring charge: the latest one decides what the subscriber pays. */
export function recurringCharge(event: DomainEvent): { subscriberId: string; saleId: string; amountCents: number; currency: string } | undefined {
  const data = event.data as OrderData;
  const reason = data.order?.billingReason;
  if (event.type !== 'order.completed' || !data.subscriptionCustomerId || !data.order?.id || (reason !== 'initial' && reason !== 'renewal')) return undefined;
  if (typeof data.amount !== 'number' || !data.currency) return undefined;
  return { subscriberId: data.subscriptionCustomerId, saleId: data.order.id, amountCents: toCents(data.amount), currency: data.currency.toUpperCase() };
}

/** The subscriber an event is about, if any. */
export const subscriberOf = (event: DomainEvent): string | undefined => {
  const id = (event.data as { subscriptionCustomerId?: unknown }).subscriptionCustomerId;
  return typeof id === 'string' && id ? id : undefined;
};

/**
 * Brings a subscriber's share of the recurring counters to what the subscriber is now (read
 * consistently), so events may come twice or out of order: a repeat finds nothing to change. The
 * share is read before the subscriber and written over the revision read, so a consumer holding
 * an older state loses to one that read a newer one and reads again. Turning active adds a new
 * subscriber to today's rollup, turning inactive a churned one.
 */
export async function refreshSubscriberShare(
  deps: Deps,
  scope: Scope,
  subscriberId: string,
  charge?: { saleId: string; amountCents: number; currency: string },
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const current = await repo.getSubscriberShare(deps.store, scope, subscriberId);
    const subscriber = await lookupSubscriber(deps, scope, subscriberId);
    if (!subscriber) {
      logger.warn('analytics: event for an unknown subscriber', { subscriberId });
      return;
    }
    const offer = await lookupOffer(deps, scope, subscriber.subscriptionId);
    if (!offer) {
      logger.warn('analytics: subscriber of an unknown offer', { subscriberId, offerId: subscriber.subscriptionId });
      return;
    }
    const newer = charge && (!current?.lastChargeSaleId || charge.saleId > current.lastChargeSaleId);
    const last = newer
      ? { saleId: charge.saleId, amountCents: charge.amountCents, currency: charge.currency }
      : current?.lastChargeSaleId
        ? { saleId: current.lastChargeSaleId, amountCents: current.lastChargeCents ?? 0, currency: current.lastChargeCurrency ?? offer.currency }
        : undefined;
    const after = contributionOf(subscriber, offer, last);
    const before = current ? { active: current.active, monthlyCents: current.monthlyCents, currency: current.currency } : undefined;
    const delta = contributionDelta(before, after);
    if (current && !newer && !Object.keys(delta).length && current.currency === after.currency) return;
    const next: SubscriberShare = {
      subscriberId,
      ...after,
      lastChargeSaleId: last?.saleId ?? null,
      lastChargeCents: last?.amountCents ?? null,
      lastChargeCurrency: last?.currency ?? null,
      rev: (current?.rev ?? 0) + 1,
    };
    const shard = shardOf(subscriberId);
    const ops: TransactOp[] = [repo.subscriberShareWrite(scope, next, current?.rev)];
    if (Object.keys(delta).length) ops.push(repo.recurringAdd(scope, shard, delta));
    const turned = !before?.active && after.active ? NEW_SUBSCRIBERS : before?.active && !after.active ? CHURNED_SUBSCRIBERS : undefined;
    if (turned) ops.push(repo.dayAdd(scope, shard, dayOf(deps.clock.now()), { [turned]: 1 }));
    try {
      await deps.store.transact(ops);
      return;
    } catch (error) {
      if (error instanceof ConditionFailed && attempt < MAX_ATTEMPTS) continue;
      throw error;
    }
  }
}

/** What the rollups consumer does with one event. */
export async function applyEvent(deps: Deps, event: DomainEvent): Promise<void> {
  if (event.type === 'order.completed' || event.type === 'order.refunded') await countSaleEvent(deps, event);
  if (event.type === 'order.refunded') return;
  const subscriberId = subscriberOf(event);
  if (!subscriberId) return;
  const charge = recurringCharge(event);
  if (event.type === 'order.completed' && !charge) return;
  await refreshSubscriberShare(deps, scopeOf(event), subscriberId, charge);
}

export interface SummaryQuery {
  from: string;
  to: string;
  currency?: string;
}

/** Figures of the key's mode between two days (UTC, both included) in one currency (the account's by default). */
export async function salesSummary(ctx: OperationContext, query: SummaryQuery) {
  const days = dayRange(query.from, query.to);
  const currency = (query.currency ?? ctx.account.currency ?? 'USD').toUpperCase();
  const [items, recurring] = await Promise.all([repo.daysBetween(ctx.store, ctx.scope, days[0]!, days.at(-1)!), repo.recurringShards(ctx.store, ctx.scope)]);
  const rows = sumDays(days, items, currency);
  const { newSubscribers, churnedSubscribers, ...totals } = totalOf(rows);
  return { currency, totals, days: rows, ...sumRecurring(recurring, currency), newSubscribers, churnedSubscribers, topProducts: topProducts(items, currency) };
}
