import { getAccount } from '../platform/accounts';
import type { Deps } from '../platform/context';
import type { DomainEvent } from '../platform/events';
import { toCents } from '../platform/money';
import { markerSeen } from '../platform/markers';
import { findSale } from '../sales/lookups';
import type { Scope } from '../store/keys';
import { ConditionFailed } from '../store/store';
import * as repo from './repository';
import { normalizeEmail } from './rules';
import { SALE_FACTS_CONSUMER } from './sale-facts';

/**
 * A refund or a dispute takes money off the buyer's purchase total at once, as a sale put it on
 * (segments such as "spent more than $50" and the contact's `totalSpentCents` read it). Only sales
 * in the account currency count, as in the sum; a total never goes below zero. Once per event: the
 * processed marker goes in the contact's transaction. The weekly full read of the segments' facts
 * checks every total against the sales, so a refund consumed before its sale (the bus does not
 * order them) is corrected within a week.
 */

interface OrderRefundedData {
  refund?: { amount?: number };
  currency?: string;
  customer?: { email?: string };
}

interface OrderDisputedData {
  order?: { id?: string };
}

const MAX_ATTEMPTS = 5;

export async function recordRefund(deps: Deps, event: DomainEvent): Promise<void> {
  const data = event.data as OrderRefundedData;
  const cents = toCents(data.refund?.amount ?? 0);
  if (!data.customer?.email || cents <= 0) return;
  await takeOffTotal(deps, event, data.customer.email, data.currency, cents);
}

/** A disputed sale counts nothing: what was left of it after refunds comes off. */
export async function recordDispute(deps: Deps, event: DomainEvent): Promise<void> {
  const saleId = (event.data as OrderDisputedData).order?.id;
  if (!saleId) return;
  const sale = await findSale(deps, { accountId: event.accountId, mode: event.mode }, saleId);
  const cents = sale ? Math.max(0, sale.amountCents - sale.refundedCents) : 0;
  if (!sale || cents <= 0) return;
  await takeOffTotal(deps, event, sale.buyerEmail, sale.currency, cents);
}

async function takeOffTotal(deps: Deps, event: DomainEvent, email: string, currency: string | undefined, cents: number): Promise<void> {
  const scope: Scope = { accountId: event.accountId, mode: event.mode };
  if (await markerSeen(deps, SALE_FACTS_CONSUMER, event.id, event.created)) return;
  const account = await getAccount(deps.store, scope.accountId);
  if (account && currency && currency.toUpperCase() !== account.currency.toUpperCase()) return;
  for (let attempt = 1; ; attempt++) {
    const id = await repo.findContactId(deps.store, scope, normalizeEmail(email), attempt > 1);
    const current = id ? await repo.getContact(deps.store, scope, id) : undefined;
    // No contact: erased, deleted, or its sale not consumed yet. Nothing to take off.
    if (!current) return;
    const contact = { ...current, totalSpentCents: Math.max(0, current.totalSpentCents - cents), updatedAt: deps.clock.now().toISOString() };
    try {
      await deps.store.transact([...repo.contactWrites.replace(scope, contact, current), repo.processedMarker(SALE_FACTS_CONSUMER, event.id, event.created)]);
      return;
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
      // Another delivery of this event got there first, or the contact changed meanwhile: read again.
      if (await deps.store.get(repo.markerKey(SALE_FACTS_CONSUMER, event.id), { consistent: true })) return;
      if (attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}
