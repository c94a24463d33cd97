import { describe, expect, it } from 'vitest';
import { getNotification, notificationItem } from '../../shared/adapters/processor-sandbox/repository';
import { SANDBOX_NOTIFICATION_SECRET, SIGNATURE_HEADER, sign } from '../../shared/adapters/processor-sandbox/signing';
import { productCreateBody } from '../../shared/catalog/schemas';
import { createProduct, type CatalogCtx } from '../../shared/catalog/service';
import { getSession } from '../../shared/checkout/repository';
import { createCheckoutSession } from '../../shared/checkout/service';
import { allEvents, getEvent, listEvents } from '../../shared/events/repository';
import { contactIdsByEmail, updateContactTagsIfUnchanged } from '../../shared/audience/bulk-store';
import { contactKey, contactKeyBefore, emailKey, emailKeyBefore } from '../../shared/audience/repository';
import { createContact, deleteContact, findContactByEmail, listContacts, updateContact } from '../../shared/audience/service';
import { createAccount } from '../../shared/platform/accounts';
import { customersPageOf, getSaleByPayment } from '../../shared/sales/repository';
import type { OperationContext } from '../../shared/platform/context';
import { newEvent, outboxPut } from '../../shared/platform/events';
import { receiveNotification } from '../../shared/processor/ingress';
import { toItem } from '../../shared/store/items';
import { keys, type Key, type Scope } from '../../shared/store/keys';
import type { Store } from '../../shared/store/store';
import { claimAttempt, getDelivery, listAttempts, recordAttempt } from '../../shared/webhooks/repository';
import type { WebhookAttempt, WebhookDelivery } from '../../shared/webhooks/records';
import { createTestDeps } from '../support/store';

/**
 * A table written by the release before write shards: its outbox, checkout sessions, webhook
 * deliveries and log entries, and sandbox notifications each in one partition per tenant
 * (`<scope>#<TYPE>`). With this release's code every record stays readable and listable in order,
 * and what was in flight (an open session, a delivery between attempts, a notification) goes on.
 */

/** Puts what the previous release wrote: the item as this release would, at the old key. */
async function writtenBefore(store: Store, item: Record<string, unknown>, before: Key) {
  await store.put({ ...item, ...before });
}

/** Moves an item this release wrote back to where the previous release kept it. */
async function movedBack(store: Store, now: Key, before: Key) {
  const item = await store.get(now, { consistent: true });
  expect(item).toBeDefined();
  await store.put({ ...item!, ...before });
  await store.delete(now);
}

async function tenant() {
  const { deps, clock, store } = await createTestDeps();
  const account = await createAccount(deps.store, clock, { email: 'c@example.com', currency: 'USD' });
  const scope: Scope = { accountId: account.accountId, mode: 'test' };
  return { deps, clock, store, account, scope };
}

describe('write shards across the key-layout upgrade', () => {
  it('events of both layouts list newest first, page by page with cursors, and read by id', async () => {
    const { clock, store, scope } = await tenant();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const event = newEvent(scope, clock, 'product.created', { n: i });
      const op = outboxPut(event) as { put: Record<string, unknown> };
      await writtenBefore(store, op.put, keys.outboxBefore(scope, event.id));
      ids.push(event.id);
      clock.advance(1);
    }
    for (let i = 5; i < 12; i++) {
      const event = newEvent(scope, clock, i % 2 ? 'product.updated' : 'product.created', { n: i });
      await store.transact([outboxPut(event)]);
      ids.push(event.id);
      clock.advance(1);
    }
    const nowSeconds = Math.floor(clock.nowMs() / 1000);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listEvents(store, scope, { limit: 3, cursor, nowSeconds });
      expect(page.events.length).toBeLessThanOrEqual(3);
      seen.push(...page.events.map((e) => e.id));
      cursor = page.cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    expect((await allEvents(store, scope)).map((e) => e.id)).toEqual(ids);
    expect(await getEvent(store, scope, ids[0]!, nowSeconds)).toMatchObject({ id: ids[0], data: { n: 0 } });
    // A type filter keeps the order across layouts too.
    const created = await listEvents(store, scope, { type: 'product.created', limit: 20, nowSeconds });
    expect(created.events.map((e) => e.data.n)).toEqual([10, 8, 6, 4, 3, 2, 1, 0]);
    // Another mode's outbox is another set of partitions.
    expect((await listEvents(store, { ...scope, mode: 'live' }, { limit: 20, nowSeconds })).events).toEqual([]);
  });

  it('a session opened before the upgrade is paid after it: moved to its shard and completed once', async () => {
    const { deps, scope, account } = await tenant();
    const ctx: OperationContext = {
      ...deps,
      account,
      scope,
      request: { requestId: 'r', method: 'POST', path: '/', headers: {}, rawBody: '', sourceIp: '127.0.0.1', baseUrl: 'https://api.example.com' },
    };
    const product = await createProduct(ctx as unknown as CatalogCtx, productCreateBody.parse({ name: 'Ebook', price: 7 }));
    const session = await createCheckoutSession(ctx, { productId: product._id, successUrl: 'https://s.example.com', cancelUrl: 'https://c.example.com' });
    await movedBack(deps.store, keys.sharded(scope, 'CHECKOUT', session.id), keys.entity(scope, 'CHECKOUT', session.id));

    const notification = {
      id: 'ntf_upgrade_integration_0001',
      type: 'checkout.completed',
      created: Math.floor(ctx.clock.nowMs() / 1000),
      accountId: scope.accountId,
      mode: 'test',
      data: {
        checkoutId: 'cs_x',
        sessionId: session.id,
        buyer: { email: 'buyer@example.com', firstName: 'B', lastName: null, country: 'NL' },
        paymentMethod: { id: 'payt_x', type: 'card', brand: 'visa', last4: '4242', expMonth: 1, expYear: 2030 },
        savedCard: false,
        payment: { id: 'pay_upgrade0000000000000001', amountCents: 700, currency: 'USD', planId: 'plan_x' },
        membership: null,
      },
    };
    const rawBody = JSON.stringify(notification);
    const headers = { [SIGNATURE_HEADER]: sign(SANDBOX_NOTIFICATION_SECRET, Math.floor(ctx.clock.nowMs() / 1000), rawBody) };
    expect(await receiveNotification(ctx, { rawBody, headers, baseUrl: 'https://api.example.com' }, JSON.parse(rawBody))).toEqual({ received: true });

    expect(await getSession(deps.store, scope, session.id)).toMatchObject({ status: 'completed' });
    expect(await deps.store.get(keys.entity(scope, 'CHECKOUT', session.id))).toBeUndefined();
    expect(await deps.store.get(keys.sharded(scope, 'CHECKOUT', session.id))).toMatchObject({ status: 'completed' });

    // The buyer's customer guard and the payment pointer as the previous release kept them: a second
    // purchase by the same buyer counts on the same customer, and the payment still finds its sale.
    const sale = await getSaleByPayment(deps.store, scope, 'pay_upgrade0000000000000001');
    expect(sale).toBeDefined();
    await movedBack(deps.store, keys.sharded(scope, 'U#PAYMENT', 'pay_upgrade0000000000000001'), keys.unique(scope, 'PAYMENT', 'pay_upgrade0000000000000001'));
    await movedBack(deps.store, keys.sharded(scope, 'U#CUSTOMER_EMAIL', 'buyer@example.com'), keys.unique(scope, 'CUSTOMER_EMAIL', 'buyer@example.com'));
    expect(await getSaleByPayment(deps.store, scope, 'pay_upgrade0000000000000001')).toMatchObject({ _id: sale!._id });
    const again = await createCheckoutSession(ctx, { productId: product._id, successUrl: 'https://s.example.com', cancelUrl: 'https://c.example.com' });
    const second = {
      ...notification,
      id: 'ntf_upgrade_integration_0002',
      data: { ...notification.data, sessionId: again.id, payment: { ...notification.data.payment, id: 'pay_upgrade0000000000000002' } },
    };
    const secondBody = JSON.stringify(second);
    const secondHeaders = { [SIGNATURE_HEADER]: sign(SANDBOX_NOTIFICATION_SECRET, Math.floor(ctx.clock.nowMs() / 1000), secondBody) };
    expect(await receiveNotification(ctx, { rawBody: secondBody, headers: secondHeaders, baseUrl: 'https://api.example.com' }, JSON.parse(secondBody))).toEqual(
      {
        received: true,
      },
    );
    const customers = (await customersPageOf(deps.store, scope, {}, { limit: 10 })).items;
    expect(customers).toHaveLength(1);
    expect(customers[0]).toMatchObject({ buyerEmail: 'buyer@example.com', numberOfOrders: 2 });
  });

  it('a delivery between attempts goes on where it is; the log lists both layouts in order', async () => {
    const { clock, store, scope } = await tenant();
    const at = clock.now().toISOString();
    const eventId = newEvent(scope, clock, 'order.completed', {}).id;
    const delivery: WebhookDelivery = {
      id: `${eventId}_wh1`,
      webhookId: 'wh1',
      eventId,
      eventType: 'order.completed',
      body: '{"id":"x"}',
      test: false,
      redelivery: false,
      status: 'pending',
      attempts: 1,
      nextAttemptAt: at,
      createdAt: at,
      updatedAt: at,
    };
    const entry = (id: string, attempt: number, status: WebhookAttempt['status']): WebhookAttempt =>
      ({
        id,
        deliveryId: delivery.id,
        webhookId: 'wh1',
        eventId,
        eventType: 'order.completed',
        attempt,
        status,
        url: 'https://hooks.example.com/a',
        finalUrl: 'https://hooks.example.com/a',
        requestHeaders: { 'Content-Type': 'application/json' },
        requestBody: '{"id":"x"}',
        responseStatus: status === 'success' ? 200 : 500,
        responseBodyExcerpt: '',
        durationMs: 5,
        test: false,
        createdAt: at,
      }) as unknown as WebhookAttempt;
    const firstId = newEvent(scope, clock, 'x', {}).id;
    const expiresAt = Math.floor(clock.nowMs() / 1000) + 3600;
    await writtenBefore(
      store,
      toItem(
        keys.entity(scope, 'WEBHOOK_DELIVERY', delivery.id),
        'WebhookDelivery',
        { ...delivery, attemptIds: new Set([firstId]) },
        { expiresAt, version: 1 },
      ),
      keys.entity(scope, 'WEBHOOK_DELIVERY', delivery.id),
    );
    const { requestHeaders: _h, ...stored } = entry(firstId, 1, 'failed');
    await writtenBefore(
      store,
      toItem(keys.entity(scope, 'WEBHOOK_ATTEMPT', firstId), 'WebhookAttempt', stored, { expiresAt, version: 1 }),
      keys.entity(scope, 'WEBHOOK_ATTEMPT', firstId),
    );

    clock.advance(1);
    const secondId = newEvent(scope, clock, 'x', {}).id;
    const claimed = await claimAttempt(store, scope, delivery.id, 2, secondId, clock.nowMs(), 60_000);
    expect(claimed).toMatchObject({ id: delivery.id, claimedAttempt: 2 });
    expect(
      await recordAttempt(
        store,
        scope,
        entry(secondId, 2, 'success'),
        { status: 'succeeded', nextAttemptAt: null, updatedAt: at },
        { claimed: claimed!, nowMs: () => clock.nowMs() },
      ),
    ).toBe(true);
    expect(await getDelivery(store, scope, delivery.id)).toMatchObject({ status: 'succeeded', attempts: 2, attemptIds: [firstId, secondId].sort() });
    // Nothing was written at the delivery's new key: the old item carried on.
    expect(await store.get(keys.sharded(scope, 'WEBHOOK_DELIVERY', delivery.id, eventId))).toBeUndefined();

    const all = await listAttempts(store, scope, {}, 10);
    expect(all.items.map((a) => a.id)).toEqual([secondId, firstId]);
    const first = await listAttempts(store, scope, {}, 1);
    expect(first).toMatchObject({ hasMore: true, next: secondId });
    expect((await listAttempts(store, scope, {}, 1, first.next)).items.map((a) => a.id)).toEqual([firstId]);
    expect((await listAttempts(store, scope, { eventId }, 10)).items.map((a) => a.id)).toEqual([secondId, firstId]);
    expect((await listAttempts(store, scope, { status: 'failed' }, 10)).items.map((a) => a.id)).toEqual([firstId]);
  });

  it('a sandbox notification recorded before the upgrade is found, and moved to its shard', async () => {
    const { clock, store, scope } = await tenant();
    const n = {
      id: 'ntf_before_upgrade_00000001',
      type: 'payment.refunded',
      accountId: scope.accountId,
      mode: scope.mode,
      created: Math.floor(clock.nowMs() / 1000),
      data: {},
      notifyUrl: 'https://api.example.com/processor',
      attempts: 0,
    };
    await writtenBefore(store, notificationItem(scope, n), keys.entity(scope, 'SBX_NOTIFICATION', n.id));
    expect(await getNotification(store, scope, n.id)).toMatchObject({ id: n.id, attempts: 0 });
    expect(await store.get(keys.entity(scope, 'SBX_NOTIFICATION', n.id))).toBeUndefined();
    expect(await store.get(keys.sharded(scope, 'SBX_NOTIFICATION', n.id))).toMatchObject({ id: n.id });
    // Read again (or by a racing reader): the same record, once.
    expect(await getNotification(store, scope, n.id)).toMatchObject({ id: n.id });
  });

  it('contacts of both layouts list in order, are found by email, change where they are and can be deleted', async () => {
    const { deps, clock, store, scope } = await tenant();
    const made = [];
    for (const email of ['old1@example.com', 'old2@example.com', 'old3@example.com']) {
      const contact = await createContact(deps, scope, { email });
      await movedBack(store, contactKey(scope, contact._id), contactKeyBefore(scope, contact._id));
      await movedBack(store, emailKey(scope, email), emailKeyBefore(scope, email));
      made.push(contact);
      clock.advance(1);
    }
    made.push(await createContact(deps, scope, { email: 'new@example.com' }));
    const [old1, old2, old3, fresh] = made as [(typeof made)[0], (typeof made)[0], (typeof made)[0], (typeof made)[0]];

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listContacts(deps, scope, {}, { limit: 1, cursor });
      seen.push(...page.contacts.map((c) => c.email));
      cursor = page.cursor;
    } while (cursor);
    expect(seen).toEqual(['new@example.com', 'old3@example.com', 'old2@example.com', 'old1@example.com']);

    // An import's lookup finds the old guards; a second create of the address is refused.
    expect(await contactIdsByEmail(store, scope, ['old1@example.com', 'new@example.com'])).toEqual(
      new Map([
        ['new@example.com', fresh._id],
        ['old1@example.com', old1._id],
      ]),
    );
    await expect(createContact(deps, scope, { email: 'old1@example.com' })).rejects.toMatchObject({ status: 409 });
    expect(await findContactByEmail(deps, scope, 'old1@example.com')).toMatchObject({ _id: old1._id });

    // A smart-tag write on a contact no read has moved yet lands where it is.
    const tagged = { ...old2, tags: ['buyer'], smartTags: ['buyer'], updatedAt: clock.now().toISOString() };
    expect(await updateContactTagsIfUnchanged(store, scope, [{ next: tagged, before: old2 }])).toEqual([true]);
    expect(await store.get(contactKeyBefore(scope, old2._id))).toMatchObject({ tags: ['buyer'] });

    expect(await updateContact(deps, scope, old3._id, { name: 'Ada' })).toMatchObject({ name: 'Ada' });
    expect(await store.get(contactKey(scope, old3._id))).toMatchObject({ name: 'Ada' });

    await deleteContact(deps, scope, old1._id);
    expect(await findContactByEmail(deps, scope, 'old1@example.com')).toBeUndefined();
    expect(await createContact(deps, scope, { email: 'old1@example.com' })).toMatchObject({ email: 'old1@example.com' });
    // The other mode sees none of them.
    expect((await listContacts(deps, { ...scope, mode: 'live' }, {}, { limit: 10 })).contacts).toEqual([]);
  });
});
