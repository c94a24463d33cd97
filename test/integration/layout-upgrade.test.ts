import { describe, expect, it } from 'vitest';
import { recordSaleFacts } from '../../shared/audience/sale-facts';
import { findContactByEmail } from '../../shared/audience/service';
import { createAccount } from '../../shared/platform/accounts';
import { newEvent } from '../../shared/platform/events';
import { applyNotification } from '../../shared/processor/ingress';
import { keys } from '../../shared/store/keys';
import { countSentOp, totalSent } from '../../shared/email/repository';
import { createTestDeps } from '../support/store';

const sale = (email: string) => ({
  order: { id: 'o1', productId: 'p1', createdAt: '2026-01-02T03:04:05.000Z' },
  amount: 10,
  currency: 'USD',
  product: { id: 'p1' },
  customer: { email, firstName: 'Ada', lastName: 'L', country: 'de' },
});

/**
 * A table upgraded from a release that kept every consumer's processed markers in one partition
 * (`DONE#<consumer>`, sort key the event id): the markers it left keep an event it processed from
 * being processed again after the upgrade, while new markers go one per partition.
 */
describe('processed markers across the key-layout upgrade', () => {
  it('an event the earlier release processed is not processed again; new events write the new layout', async () => {
    const { deps, clock, store } = await createTestDeps();
    const account = await createAccount(deps.store, clock, { email: 'c@example.com', currency: 'USD' });
    const scope = { accountId: account.accountId, mode: 'test' as const };

    // What the previous release left: this event processed, its marker in the old layout.
    const before = newEvent(scope, clock, 'order.completed', sale('old@example.com'));
    await store.put({ ...keys.processedBefore('audience-sale-facts', before.id), entity: 'ProcessedEvent', eventId: before.id });

    await recordSaleFacts(deps, before);
    expect(await findContactByEmail(deps, scope, 'old@example.com')).toBeUndefined();

    const after = newEvent(scope, clock, 'order.completed', sale('new@example.com'));
    await recordSaleFacts(deps, after);
    expect(await findContactByEmail(deps, scope, 'new@example.com')).toMatchObject({ totalSpentCents: 1000 });
    expect(await store.get(keys.processed('audience-sale-facts', after.id))).toBeDefined();
    expect(await store.get(keys.processedBefore('audience-sale-facts', after.id))).toBeUndefined();

    // Events created well after the switch are never looked up in the old layout.
    clock.advance(2 * 3600);
    const later = newEvent(scope, clock, 'order.completed', sale('later@example.com'));
    await store.put({ ...keys.processedBefore('audience-sale-facts', later.id), entity: 'ProcessedEvent', eventId: later.id });
    await recordSaleFacts(deps, later);
    expect(await findContactByEmail(deps, scope, 'later@example.com')).toMatchObject({ totalSpentCents: 1000 });
  });

  it('a processor notification the earlier release applied is answered as a duplicate', async () => {
    const { deps, clock, store } = await createTestDeps();
    const account = await createAccount(deps.store, clock, { email: 'c@example.com', currency: 'USD' });
    const notification = {
      id: 'evt_before_upgrade',
      type: 'checkout.completed',
      created: Math.floor(clock.nowMs() / 1000) - 60,
      accountId: account.accountId,
      mode: 'test' as const,
      data: { sessionId: 'cs_unknown' },
    };
    await store.put({ ...keys.processedBefore('processor-ingress', notification.id), entity: 'ProcessedNotification', notificationId: notification.id });
    expect(await applyNotification(deps, notification, 'http://127.0.0.1:0')).toEqual({ received: true, duplicate: true });
  });

  it('the mail count kept on the settings item before sharding is kept and added to', async () => {
    const { deps, clock, store } = await createTestDeps();
    const account = await createAccount(deps.store, clock, { email: 'c@example.com', currency: 'USD' });
    const scope = { accountId: account.accountId, mode: 'live' as const };
    await store.put({ ...keys.entity(scope, 'EMAIL_SETTINGS', 'SETTINGS'), entity: 'EmailSettings', totalEmailsSent: 5 });
    for (const count of [2, 3, 1, 4]) await store.transact([countSentOp(scope, count)]);
    expect(await totalSent(store, scope, 5)).toBe(15);
    expect(await totalSent(store, { ...scope, mode: 'test' }, 0)).toBe(0);
  });
});
