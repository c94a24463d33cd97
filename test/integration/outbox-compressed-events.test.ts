import { describe, expect, it } from 'vitest';
import { marshall } from '@aws-sdk/util-dynamodb';
import { eventsMentioningPage, getEvent, rewriteEvent } from '../../shared/events/repository';
import { eventFromItem, mayCarryEvent, newEvent, outboxPut, PLAIN_EVENT_BYTES } from '../../shared/platform/events';
import { withoutEmail } from '../../shared/platform/privacy';
import { keys } from '../../shared/store/keys';
import { createTestDeps } from '../support/store';

const customer = { id: 'c'.repeat(24), email: "Ann.O'Lee@Launch.example.com", firstName: 'Ann', lastName: 'Lee', country: 'DE' };
const bigData = {
  order: { id: 'a'.repeat(24), paymentIntentId: 'pi_'.padEnd(40, 'x'), productId: 'p'.repeat(24), status: 'completed', amount: 49, currency: 'usd' },
  product: { id: 'p'.repeat(24), name: 'A launch course with a long name '.repeat(6), type: 'one_time' },
  customer,
  note: 'mailto:other@example.com; (cc: third@example.org)',
};

/**
 * An event too large for one KiB is stored compressed, its addresses kept apart in plain text so
 * the erasure's search in DynamoDB still finds it; small events stay plain text.
 */
describe('outbox events stored compressed', () => {
  it('reads back in field order, is found by any address it names, and is rewritten by an erasure', async () => {
    const { clock, store } = await createTestDeps();
    const scope = { accountId: 'd'.repeat(24), mode: 'test' as const };
    const event = newEvent(scope, clock, 'order.completed', bigData);
    expect(JSON.stringify(event).length).toBeGreaterThan(PLAIN_EVENT_BYTES);
    const op = outboxPut(event);
    if (!('put' in op)) throw new Error('a put');
    expect(op.put.event).toBeUndefined();
    expect(op.put.eventZ).toBeInstanceOf(Uint8Array);
    expect(op.put.mentions).toBe(` ${customer.email} other@example.com third@example.org `);
    await store.transact([op]);

    const read = await getEvent(store, scope, event.id, event.created);
    expect(JSON.stringify(read)).toBe(JSON.stringify(event));
    // A stream image: the local reader's wire form and Lambda's (binary as base64 text).
    const wire = marshall(op.put, { convertClassInstanceToMap: true });
    expect(mayCarryEvent({ eventName: 'INSERT', newImage: wire })).toBe(true);
    expect(mayCarryEvent({ eventName: 'MODIFY', newImage: wire })).toBe(false);
    const base64 = { ...op.put, eventZ: Buffer.from(op.put.eventZ as Uint8Array).toString('base64') };
    expect(JSON.stringify(eventFromItem(base64))).toBe(JSON.stringify(event));

    const partition = keys.outbox(scope, event.id).PK;
    for (const needle of [customer.email, 'other@example.com']) {
      const page = await eventsMentioningPage(store, partition, needle, undefined);
      expect(page.items.map((i) => i.text)).toEqual([JSON.stringify(event)]);
    }
    expect((await eventsMentioningPage(store, partition, 'nobody@example.com', undefined)).items).toEqual([]);

    const found = (await eventsMentioningPage(store, partition, customer.email, undefined)).items[0]!;
    await rewriteEvent(store, found.key, withoutEmail(found.text, customer.email)!);
    expect((await eventsMentioningPage(store, partition, customer.email, undefined)).items).toEqual([]);
    const erased = await getEvent(store, scope, event.id, event.created);
    expect(erased?.data.customer).toMatchObject({ email: '', firstName: null });
    expect(erased?.data.order).toEqual(bigData.order);
    // Still found by the other addresses it names.
    expect((await eventsMentioningPage(store, partition, 'third@example.org', undefined)).items).toHaveLength(1);
  });

  it('keeps a small event as plain text, searched as before', async () => {
    const { clock, store } = await createTestDeps();
    const scope = { accountId: 'e'.repeat(24), mode: 'live' as const };
    const event = newEvent(scope, clock, 'customer.created', { customer: { id: 'c1', email: 'b@example.com' } });
    const op = outboxPut(event);
    if (!('put' in op)) throw new Error('a put');
    expect(op.put.event).toBe(JSON.stringify(event));
    expect(op.put.eventZ).toBeUndefined();
    await store.transact([op]);
    const partition = keys.outbox(scope, event.id).PK;
    expect((await eventsMentioningPage(store, partition, 'b@example.com', undefined)).items).toHaveLength(1);
    // The other mode's outbox is another partition.
    expect((await eventsMentioningPage(store, keys.outbox({ ...scope, mode: 'test' }, event.id).PK, 'b@example.com', undefined)).items).toEqual([]);
  });
});
