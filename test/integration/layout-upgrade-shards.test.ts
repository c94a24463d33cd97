import { describe, expect, it } from 'vitest';
import { getNotification, notificationItem } from '../../shared/adapters/processor-sandbox/repository';
import { SANDBOX_NOTIFICATION_SECRET, SIGNATURE_HEADER, sign } from '../../shared/adapters/processor-sandbox/signing';
import { productCreateBody } from '../../shared/catalog/schemas';
import { createProduct, type CatalogCtx } from '../../shared/catalog/service';
import { getSession } from '../../shared/checkout/repository';
import { createCheckoutSession } from '../../shared/checkout/service';
import { allEvents, getEvent, listEvents } from '../../shared/events/repository';
import { contactIdsByEmail, updateContactTagsIfUnchanged } from '../../shared/audience/bulk-store';
import { subscribedFactsPage, subscribedIdRanges } from '../../shared/audience/facts-store';
import { audiencePage, contactKey, contactKeyBefore, emailKey, emailKeyBefore } from '../../shared/audience/repository';
import type { ContactRecord } from '../../shared/audience/records';
import { createContact, deleteContact, findContactByEmail, listContacts, updateContact } from '../../shared/audience/service';
import { createAccount } from '../../shared/platform/accounts';
import { activityWrite, listActivity, queryActivity } from '../../shared/platform/activity';
import { objectId } from '../../shared/platform/ids';
import type { CustomerRecord, SaleRecord } from '../../shared/sales/records';
import {
  customerPuts,
  customersPageOf,
  getCustomer,
  getSale,
  getSaleByPayment,
  saleItem,
  salesPage,
  salesPageOf,
  saleUpdate,
} from '../../shared/sales/repository';
import type { OperationContext } from '../../shared/platform/context';
import { newEvent, outboxPut } from '../../shared/platform/events';
import { receiveNotification } from '../../shared/processor/ingress';
import { toItem } from '../../shared/store/items';
import { keys, type Key, type Scope } from '../../shared/store/keys';
import type { Item, Store } from '../../shared/store/store';
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

/** Pages through a list to its end: every item once, in the order answered. */
async function pageAll<T>(read: (cursor: string | undefined) => Promise<{ items: T[]; cursor?: string | null }>): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await read(cursor);
    all.push(...page.items);
    cursor = page.cursor ?? undefined;
    if (!cursor) return all;
  }
  throw new Error('the list did not end');
}

/**
 * An item as the previous release wrote it: at its key before write shards, with the unsharded
 * index partitions (`<scope>#<path>#<value>`, without the shard number this release appends).
 */
async function toPreviousRelease(store: Store, now: Key, before: Key, indexes: string[] = []) {
  const item = await store.get<Item>(now, { consistent: true });
  expect(item).toBeDefined();
  const unsharded = Object.fromEntries(
    indexes.filter((name) => typeof item![name] === 'string').map((name) => [name, String(item![name]).replace(/#\d+$/, '')]),
  );
  await store.put({ ...item!, ...unsharded, ...before });
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

  it('sales and customers of both layouts list in id order page by page, by type and product, and move when read by id', async () => {
    const { clock, store, scope } = await tenant();
    const sales: SaleRecord[] = [];
    const customers: CustomerRecord[] = [];
    for (let i = 0; i < 8; i++) {
      const customer = {
        _id: objectId(clock),
        buyerEmail: `b${i}@example.com`,
        productIds: [i % 2 ? 'odd' : 'even'],
        numberOfOrders: 1,
      } as unknown as CustomerRecord;
      const sale = { _id: objectId(clock), type: i % 3 ? 'one_time' : 'subscription', customerId: customer._id, amountCents: 100 + i } as unknown as SaleRecord;
      await store.transact([...customerPuts(scope, customer), { put: saleItem(scope, sale) }]);
      // The first four as the previous release wrote them (one partition each, unsharded index).
      if (i < 4) {
        await toPreviousRelease(store, keys.sharded(scope, 'SALE', sale._id), keys.entity(scope, 'SALE', sale._id), ['GSI1PK']);
        await toPreviousRelease(store, keys.sharded(scope, 'CUSTOMER', customer._id), keys.entity(scope, 'CUSTOMER', customer._id));
      }
      sales.push(sale);
      customers.push(customer);
      clock.advance(1);
    }
    const ids = (list: { _id: string }[]) => list.map((r) => r._id);
    const newestFirst = (list: { _id: string }[]) => ids(list).reverse();
    const saleIds = (type?: SaleRecord['type']) => (cursor: string | undefined) =>
      salesPageOf(store, scope, type, { limit: 3, cursor }).then((p) => ({ items: ids(p.items), cursor: p.nextCursor }));
    expect(await pageAll(saleIds())).toEqual(newestFirst(sales));
    expect(await pageAll(saleIds('one_time'))).toEqual(newestFirst(sales.filter((s) => s.type === 'one_time')));
    expect(ids(await salesPage(store, scope, sales[1]!._id, 4))).toEqual(ids(sales.slice(2, 6)));

    const customerIds = (filter: { productId?: string; oldestFirst?: boolean }) => (cursor: string | undefined) =>
      customersPageOf(store, scope, filter, { limit: 2, cursor }).then((p) => ({ items: ids(p.items), cursor: p.nextCursor }));
    expect(await pageAll(customerIds({}))).toEqual(newestFirst(customers));
    expect(await pageAll(customerIds({ oldestFirst: true }))).toEqual(ids(customers));
    expect(await pageAll(customerIds({ productId: 'odd' }))).toEqual(newestFirst(customers.filter((c) => c.productIds.includes('odd'))));

    // A read by id moves an old record to its shard, where updates by key look.
    expect(await getSale(store, scope, sales[0]!._id)).toMatchObject({ amountCents: 100 });
    expect(await store.get(keys.entity(scope, 'SALE', sales[0]!._id))).toBeUndefined();
    await store.transact([saleUpdate(scope, sales[0]!._id, { status: 'refunded' } as Partial<SaleRecord>)]);
    expect(await getSale(store, scope, sales[0]!._id)).toMatchObject({ status: 'refunded' });
    expect(await getCustomer(store, scope, customers[1]!._id)).toMatchObject({ buyerEmail: 'b1@example.com' });
    expect(await store.get(keys.sharded(scope, 'CUSTOMER', customers[1]!._id))).toMatchObject({ buyerEmail: 'b1@example.com' });
    // Moved records keep their place in every list.
    expect(await pageAll(saleIds())).toEqual(newestFirst(sales));
    expect(await pageAll(customerIds({}))).toEqual(newestFirst(customers));

    // A cursor is the tenant's own: another mode's list refuses it, and lists none of these.
    const first = await salesPageOf(store, scope, undefined, { limit: 3 });
    const live = { ...scope, mode: 'live' as const };
    await expect(salesPageOf(store, live, undefined, { limit: 3, cursor: first.nextCursor! })).rejects.toMatchObject({ status: 400 });
    // ... and so does another list of the same tenant.
    await expect(customersPageOf(store, scope, {}, { limit: 3, cursor: first.nextCursor! })).rejects.toMatchObject({ status: 400 });
    expect((await salesPageOf(store, live, undefined, { limit: 10 })).items).toEqual([]);
    expect((await customersPageOf(store, live, {}, { limit: 10 })).items).toEqual([]);
  });

  it('activity entries of both layouts list newest first, page by page, filtered and by time', async () => {
    const { clock, store, scope } = await tenant();
    const made: string[] = [];
    for (let i = 0; i < 9; i++) {
      const op = activityWrite({ clock }, scope, {
        action: i % 2 ? 'product.updated' : 'product.created',
        target: { type: 'product', id: `p${i}` },
        actor: { type: 'system' },
      });
      const item = (op as { put: Item }).put;
      if (i < 4) await writtenBefore(store, item, keys.entity(scope, 'ACTIVITY', String(item._id)));
      else await store.transact([op]);
      made.push(String(item._id));
      clock.advance(2);
    }
    const newest = [...made].reverse();
    const listed = await pageAll((cursor) =>
      listActivity(store, scope, { before: cursor, limit: 2 }).then((p) => ({ items: p.entries.map((e) => e._id), cursor: p.nextBefore })),
    );
    expect(listed).toEqual(newest);
    const audited = await pageAll((cursor) =>
      queryActivity(store, scope, {}, { cursor, limit: 4 }).then((p) => ({ items: p.entries.map((e) => e._id), cursor: p.next })),
    );
    expect(audited).toEqual(newest);
    const updates = await pageAll((cursor) =>
      queryActivity(store, scope, { action: 'product.updated' }, { cursor, limit: 1 }).then((p) => ({
        items: p.entries.map((e) => e.target.id),
        cursor: p.next,
      })),
    );
    expect(updates).toEqual(['p7', 'p5', 'p3', 'p1']);
    // A time range is a key range of every shard: entries 2..6 (two seconds apart).
    const start = Number.parseInt(made[2]!.slice(0, 8), 16) * 1000;
    const window = await queryActivity(store, scope, { from: new Date(start), to: new Date(start + 8000) }, { limit: 10 });
    expect(window.entries.map((e) => e._id)).toEqual(made.slice(2, 7).reverse());
    expect((await queryActivity(store, { ...scope, mode: 'live' }, {}, { limit: 10 })).entries).toEqual([]);
  });

  it('contacts the previous release indexed (unsharded status and email index) are found by both indexes and an audience read', async () => {
    const { deps, clock, store, scope } = await tenant();
    const contacts: ContactRecord[] = [];
    for (let i = 0; i < 10; i++) {
      const contact = await createContact(deps, scope, { email: `${i % 2 ? 'odd' : 'even'}${i}@example.com`, status: i === 3 ? 'unsubscribed' : 'subscribed' });
      if (i < 5) await toPreviousRelease(store, contactKey(scope, contact._id), contactKeyBefore(scope, contact._id), ['GSI1PK', 'GSI2PK']);
      contacts.push(contact);
      clock.advance(1);
    }
    const before = await store.get<Item>(contactKeyBefore(scope, contacts[0]!._id));
    expect(before).toMatchObject({ GSI1PK: keys.indexPartition('GSI1', scope, 'CONTACTS_BY_STATUS', 'subscribed').pk });
    const subscribed = contacts.filter((c) => c.status === 'subscribed');
    const emails = (filter: Parameters<typeof listContacts>[2]) => (cursor: string | undefined) =>
      listContacts(deps, scope, filter, { limit: 2, cursor }).then((p) => ({ items: p.contacts.map((c) => c.email), cursor: p.cursor }));
    expect(await pageAll(emails({ status: 'subscribed' }))).toEqual(subscribed.map((c) => c.email).reverse());
    expect(await pageAll(emails({ status: 'unsubscribed' }))).toEqual(['odd3@example.com']);
    // The email prefix search: ascending by email across both layouts, with and without a status.
    const odd = contacts.filter((c) => c.email.startsWith('odd')).map((c) => c.email);
    expect(await pageAll(emails({ q: 'odd' }))).toEqual([...odd].sort());
    expect(await pageAll(emails({ q: 'odd', status: 'subscribed' }))).toEqual(odd.filter((e) => e !== 'odd3@example.com').sort());
    expect(await pageAll(emails({ q: 'even' }))).toHaveLength(5);

    // An audience read (a newsletter send) walks the subscribed contacts oldest first.
    const audience = (cursor: string | undefined) =>
      audiencePage(store, scope, {}, { limit: 3, cursor }).then((p) => ({ items: p.contacts.map((c) => c._id), cursor: p.cursor }));
    expect(await pageAll(audience)).toEqual(subscribed.map((c) => c._id));
    // A rebuild of the contact facts reads the same set by id ranges.
    const rows: string[] = [];
    for (const range of await subscribedIdRanges(store, scope, 3)) {
      let cursor: string | undefined;
      do {
        const page = await subscribedFactsPage(store, scope, range, cursor);
        rows.push(...page.contacts.map((c) => c._id));
        cursor = page.cursor;
      } while (cursor);
    }
    expect(rows).toEqual(subscribed.map((c) => c._id));

    // A change written by this release re-indexes the contact in its shard: still found once.
    expect(await updateContact(deps, scope, contacts[1]!._id, { name: 'Ada' })).toMatchObject({ name: 'Ada' });
    expect(await store.get<Item>(contactKey(scope, contacts[1]!._id))).toMatchObject({ GSI1PK: expect.stringMatching(/#CONTACTS_BY_STATUS#subscribed#\d+$/) });
    expect(await pageAll(emails({ status: 'subscribed' }))).toEqual(subscribed.map((c) => c.email).reverse());
    expect(await pageAll(emails({ q: 'odd1' }))).toEqual(['odd1@example.com']);
    expect(await pageAll(audience)).toEqual(subscribed.map((c) => c._id));
    expect((await listContacts(deps, { ...scope, mode: 'live' }, { status: 'subscribed' }, { limit: 10 })).contacts).toEqual([]);
  });

  it("a send's audience cursor stored by the previous release goes on after the same contact, none lost or repeated", async () => {
    const { deps, clock, store, scope } = await tenant();
    const contacts: ContactRecord[] = [];
    for (let i = 0; i < 8; i++) {
      const contact = await createContact(deps, scope, { email: `r${i}@example.com` });
      await toPreviousRelease(store, contactKey(scope, contact._id), contactKeyBefore(scope, contact._id), ['GSI1PK', 'GSI2PK']);
      contacts.push(contact);
      clock.advance(1);
    }
    // The previous release's read of the first 3 (one partition of the status index) and the cursor it stored.
    const byStatus = keys.indexPartition('GSI1', scope, 'CONTACTS_BY_STATUS', 'subscribed');
    const old = await store.query<ContactRecord>({ ...byStatus, ascending: true, limit: 3 });
    expect(old.items.map((c) => c._id)).toEqual(contacts.slice(0, 3).map((c) => c._id));
    expect(old.cursor).toBeDefined();
    // After the upgrade: a contact on each side of the cursor is rewritten (re-indexed in its shard),
    // and a new one subscribes.
    await updateContact(deps, scope, contacts[1]!._id, { name: 'Sent before' });
    await updateContact(deps, scope, contacts[5]!._id, { name: 'Not yet sent' });
    contacts.push(await createContact(deps, scope, { email: 'late@example.com' }));
    const rest = await pageAll((cursor) =>
      audiencePage(store, scope, {}, { limit: 2, cursor: cursor ?? old.cursor }).then((p) => ({ items: p.contacts.map((c) => c._id), cursor: p.cursor })),
    );
    expect(rest).toEqual(contacts.slice(3).map((c) => c._id));
    // A stored cursor of another tenant's partition is refused.
    const forged = Buffer.from(JSON.stringify({ GSI1PK: `A#${'f'.repeat(24)}#test#CONTACTS_BY_STATUS#subscribed`, GSI1SK: contacts[0]!._id })).toString(
      'base64url',
    );
    await expect(audiencePage(store, scope, {}, { limit: 2, cursor: forged })).rejects.toMatchObject({ status: 400 });
  });
});
