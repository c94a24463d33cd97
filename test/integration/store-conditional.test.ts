import { beforeAll, describe, expect, it } from 'vitest';
import { OffsetClock } from '../../shared/platform/clock';
import { notFound } from '../../shared/platform/errors';
import { objectId } from '../../shared/platform/ids';
import { createUnique, failOnCondition, isConditionFailed, KEY_EXISTS, onConditionFailed, putNew } from '../../shared/store/conditional';
import { keys, type Scope } from '../../shared/store/keys';
import { toItem } from '../../shared/store/items';
import { type ConditionFailed, toRecord, type Store } from '../../shared/store/store';
import { createTestDeps } from '../support/store';

let store: Store;
const clock = new OffsetClock();
const scope: Scope = { accountId: 'c'.repeat(24), mode: 'test' };
const thing = (id: string, name: string) => toItem(keys.entity(scope, 'CTHING', id), 'Thing', { _id: id, name });
const read = async (id: string) => toRecord<{ name: string }>(await store.get(keys.entity(scope, 'CTHING', id)));

beforeAll(async () => {
  ({ store } = await createTestDeps());
});

describe('conditional-write helpers', () => {
  it('createUnique creates once and answers false, writing nothing, when the key is taken', async () => {
    const id = objectId(clock);
    expect(await createUnique(store, thing(id, 'first'))).toBe(true);
    expect(await createUnique(store, thing(id, 'second'))).toBe(false);
    expect((await read(id))!.name).toBe('first');
  });

  it('putNew fails the whole transaction when its key is taken', async () => {
    const [a, b] = [objectId(clock), objectId(clock)];
    await store.put(thing(a, 'there'));
    const error = await store.transact([putNew(thing(b, 'new')), putNew(thing(a, 'again'))]).catch((e) => e);
    expect(isConditionFailed(error)).toBe(true);
    expect((error as ConditionFailed).reasons).toEqual(['None', 'ConditionalCheckFailed']);
    expect(await read(b)).toBeUndefined();
    expect((await read(a))!.name).toBe('there');
  });

  it('onConditionFailed answers the fallback only for a failed condition, and lets other errors through', async () => {
    const missing = objectId(clock);
    expect(await onConditionFailed(store.update(keys.entity(scope, 'CTHING', missing), { set: { name: 'x' } }, { mustExist: true }), () => 'gone')).toBe(
      'gone',
    );
    expect(
      await onConditionFailed(
        async () => 'written',
        () => 'gone',
      ),
    ).toBe('written');
    await expect(onConditionFailed(Promise.reject(new Error('network')), () => 'gone')).rejects.toThrow('network');
    expect(isConditionFailed(new Error('Condition failed'))).toBe(false);
  });

  it("failOnCondition turns a failed condition into the caller's error", async () => {
    const missing = objectId(clock);
    await expect(
      failOnCondition(store.delete(keys.entity(scope, 'CTHING', missing), { condition: KEY_EXISTS }), () => notFound('Thing')),
    ).rejects.toMatchObject({ status: 404 });
    const id = objectId(clock);
    await store.put(thing(id, 'here'));
    await expect(failOnCondition(store.delete(keys.entity(scope, 'CTHING', id), { condition: KEY_EXISTS }), () => notFound('Thing'))).resolves.toMatchObject({
      name: 'here',
    });
  });
});
