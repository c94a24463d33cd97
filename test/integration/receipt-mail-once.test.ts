import { describe, expect, it } from 'vitest';
import { getQueuedMail } from '../../shared/email/repository';
import { createAccount } from '../../shared/platform/accounts';
import { newEvent } from '../../shared/platform/events';
import { claimMarkerKey } from '../../shared/receipts/repository';
import { mailIdFor, sendOnce } from '../../shared/receipts/send';
import { createTestDeps } from '../support/store';

const mail = { subject: 'Your receipt', preview: 'Thanks', html: '<p>Thanks</p>', text: 'Thanks' };

/**
 * A receipt's mail id comes from its consumer and event, and the queued mail is put only when the
 * id is new: that one write is the once-guard (no claim marker). Events from before the switch may
 * have been claimed by the release before; those claims still count.
 */
describe('receipt mails once per event, with no marker', () => {
  it('racing and repeated deliveries queue one mail; another consumer of the same event queues its own', async () => {
    const { deps, clock, store } = await createTestDeps();
    const account = await createAccount(deps.store, clock, { email: 'c@example.com', currency: 'USD' });
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const event = newEvent(scope, clock, 'order.completed', {});
    await Promise.all([1, 2, 3].map(() => sendOnce(deps, 'buyer-receipts', event, scope, 'b@example.com', mail, 'https://shop.example.com')));
    await sendOnce(deps, 'buyer-receipts', event, scope, 'b@example.com', { ...mail, subject: 'Second try' }, 'https://shop.example.com');
    const id = mailIdFor('buyer-receipts', event.id);
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(id.slice(0, 8)).toBe(event.id.slice(0, 8));
    expect(await getQueuedMail(store, scope, id)).toMatchObject({ _id: id, subject: 'Your receipt', to: ['b@example.com'], status: 'queued' });
    expect(await store.get(claimMarkerKey('buyer-receipts', event.id))).toBeUndefined();

    const notice = mailIdFor('seller-sale-notices', event.id);
    expect(notice).not.toBe(id);
    await sendOnce(deps, 'seller-sale-notices', event, scope, 'c@example.com', mail, '', 'seller');
    expect(await getQueuedMail(store, scope, notice)).toMatchObject({ to: ['c@example.com'], source: 'seller' });
    // Another mode holds nothing of it.
    expect(await getQueuedMail(store, { ...scope, mode: 'live' }, id)).toBeUndefined();
  });

  it('an event the release before claimed queues nothing; an event created well after the switch ignores old claims', async () => {
    const { deps, clock, store } = await createTestDeps();
    const account = await createAccount(deps.store, clock, { email: 'c@example.com', currency: 'USD' });
    const scope = { accountId: account.accountId, mode: 'live' as const };
    const before = newEvent(scope, clock, 'order.completed', {});
    await store.put({ ...claimMarkerKey('buyer-receipts', before.id), entity: 'ProcessedEvent', eventId: before.id });
    await sendOnce(deps, 'buyer-receipts', before, scope, 'b@example.com', mail, '');
    expect(await getQueuedMail(store, scope, mailIdFor('buyer-receipts', before.id))).toBeUndefined();

    clock.advance(2 * 3600);
    const later = newEvent(scope, clock, 'order.completed', {});
    await store.put({ ...claimMarkerKey('buyer-receipts', later.id), entity: 'ProcessedEvent', eventId: later.id });
    await sendOnce(deps, 'buyer-receipts', later, scope, 'b@example.com', mail, '');
    expect(await getQueuedMail(store, scope, mailIdFor('buyer-receipts', later.id))).toMatchObject({ status: 'queued' });
  });
});
