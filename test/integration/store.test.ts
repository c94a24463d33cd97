import { beforeAll, describe, expect, it } from 'vitest';
import { OffsetClock } from '../../shared/platform/clock';
import { objectId } from '../../shared/platform/ids';
import { keys, type Scope } from '../../shared/store/keys';
import { toItem } from '../../shared/store/items';
import { ConditionFailed, toRecord, type Store } from '../../shared/store/store';
import { newEvent, outboxPut, eventFromItem } from '../../shared/platform/events';
import { createTestDeps } from '../support/store';

let store: Store;
const clock = new OffsetClock();
const alice: Scope = { accountId: 'a'.repeat(24), mode: 'test' };
const aliceLive: Scope = { accountId: 'a'.repeat(24), mode: 'live' };
const bob: Scope = { accountId: 'b'.repeat(24), mode: 'test' };

beforeAll(async () => {
  ({ store } = await createTestDeps());
});

const put = (scope: Scope, id: string, name: string) => store.put(toItem(keys.entity(scope, 'THING', id), 'Thing', { _id: id, name }));

describe('tenant isolation by key construction', () => {
  it("never reads another account's or another mode's record with the same id", async () => {
    const id = objectId(clock);
    await put(alice, id, 'alice test');
    await put(aliceLive, id, 'alice live');
    await put(bob, id, 'bob test');
    expect(toRecord<{ name: string }>(await store.get(keys.entity(alice, 'THING', id)))!.name).toBe('alice test');
    expect(toRecord<{ name: string }>(await store.get(keys.entity(aliceLive, 'THING', id)))!.name).toBe('alice live');
    const aliceList = await store.queryAll({ pk: keys.collection(alice, 'THING') });
    expect(aliceList.map((i) => i.name)).toEqual(['alice test']);
  });

  it("refuses a cursor forged for another tenant's partition", async () => {
    for (let i = 0; i < 3; i++) await put(bob, objectId(clock), `bob ${i}`);
    const bobPage = await store.query({ pk: keys.collection(bob, 'THING'), limit: 1 });
    expect(bobPage.cursor).toBeTruthy();
    await expect(store.query({ pk: keys.collection(alice, 'THING'), limit: 1, cursor: bobPage.cursor })).rejects.toMatchObject({ status: 400 });
    await expect(store.query({ pk: keys.collection(alice, 'THING'), cursor: 'not-base64-json' })).rejects.toMatchObject({ status: 400 });
  });
});

describe('store', () => {
  it('lists newest first with cursor pagination over time-ordered ids', async () => {
    const scope: Scope = { accountId: objectId(clock), mode: 'test' };
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock.advance(1);
      ids.push(objectId(clock));
      await put(scope, ids[i]!, `n${i}`);
    }
    const first = await store.query<{ _id: string }>({ pk: keys.collection(scope, 'THING'), limit: 2 });
    const second = await store.query<{ _id: string }>({ pk: keys.collection(scope, 'THING'), limit: 2, cursor: first.cursor });
    const third = await store.query<{ _id: string }>({ pk: keys.collection(scope, 'THING'), limit: 2, cursor: second.cursor });
    expect([...first.items, ...second.items, ...third.items].map((i) => i._id)).toEqual([...ids].reverse());
    const page2 = await store.queryPage<{ _id: string }>({ pk: keys.collection(scope, 'THING') }, 2, 2);
    expect(page2).toMatchObject({ total: 5, page: 2, pageSize: 2 });
    expect(page2.items.map((i) => i._id)).toEqual([ids[2], ids[1]]);
  });

  it('makes a create fail when the key is taken', async () => {
    const id = objectId(clock);
    await store.put(toItem(keys.entity(alice, 'THING', id), 'Thing', { v: 1 }), { ifNotExists: true });
    await expect(store.put(toItem(keys.entity(alice, 'THING', id), 'Thing', { v: 2 }), { ifNotExists: true })).rejects.toBeInstanceOf(ConditionFailed);
  });

  it('writes a change and its outbox event together, or neither', async () => {
    const id = objectId(clock);
    const event = newEvent(alice, clock, 'thing.created', { id });
    await store.transact([{ put: toItem(keys.entity(alice, 'THING', id), 'Thing', { _id: id }), condition: 'attribute_not_exists(PK)' }, outboxPut(event)]);
    const stored = await store.get(keys.outbox(alice, event.id));
    expect(eventFromItem(stored!)).toEqual(event);

    // Same record again: the condition fails, and the second event must not exist either.
    const second = newEvent(alice, clock, 'thing.created', { id });
    await expect(
      store.transact([{ put: toItem(keys.entity(alice, 'THING', id), 'Thing', { _id: id }), condition: 'attribute_not_exists(PK)' }, outboxPut(second)]),
    ).rejects.toBeInstanceOf(ConditionFailed);
    expect(await store.get(keys.outbox(alice, second.id))).toBeUndefined();
  });

  it('keeps the order of event fields through the outbox, as deliveries need it', async () => {
    const data = { zeta: 1, alpha: { second: 2, first: 1 }, metadata: {}, middle: [3, { b: 1, a: 2 }] };
    const event = newEvent(alice, clock, 'order.completed', data);
    await store.transact([outboxPut(event)]);
    const back = eventFromItem((await store.get(keys.outbox(alice, event.id)))!)!;
    expect(JSON.stringify(back.data)).toBe(JSON.stringify(data));
    expect(Object.keys(back)).toEqual(['id', 'type', 'accountId', 'mode', 'created', 'data']);
  });

  it('updates named fields atomically and refuses to create on mustExist', async () => {
    const key = keys.entity(alice, 'COUNTER', objectId(clock));
    await store.put(toItem(key, 'Counter', { balance: 5 }));
    const after = await store.update<{ balance: number; note: string }>(
      key,
      { set: { note: 'x' }, add: { balance: -2 } },
      { condition: 'balance >= :n', values: { ':n': 2 } },
    );
    expect(after).toMatchObject({ balance: 3, note: 'x' });
    await expect(store.update(key, { add: { balance: -5 } }, { condition: 'balance >= :n', values: { ':n': 5 } })).rejects.toBeInstanceOf(ConditionFailed);
    await expect(store.update(keys.entity(alice, 'COUNTER', 'missing'), { set: { a: 1 } }, { mustExist: true })).rejects.toBeInstanceOf(ConditionFailed);
  });

  it('meters the capacity a unit of work consumed', async () => {
    const meter = { read: 0, write: 0 };
    const view = store.forRequest({ meter });
    await view.put(toItem(keys.entity(alice, 'THING', objectId(clock)), 'Thing', { name: 'metered' }));
    await view.get(keys.entity(alice, 'THING', 'nothing'));
    expect(meter.write).toBeGreaterThan(0);
    expect(meter.read).toBeGreaterThan(0);
    // The base store and its other views are not metered by it.
    const before = { ...meter };
    await store.get(keys.entity(alice, 'THING', 'nothing'));
    await store.forRequest({}).get(keys.entity(alice, 'THING', 'nothing'));
    expect(meter).toEqual(before);
  });
});
