/** Every query and write of upsells; nothing outside this file builds an upsell key. */
import { keys, type Scope } from '../../store/keys';
import { toItem } from '../../store/items';
import { KEY_EXISTS } from '../../store/conditional';
import { toRecord, type Store } from '../../store/store';
import { UPSELL, type UpsellRecord } from './records';

const item = (scope: Scope, upsell: UpsellRecord) => toItem(keys.entity(scope, UPSELL, upsell._id), 'Upsell', upsell);

export const loadUpsell = async (store: Store, scope: Scope, id: string) => toRecord<UpsellRecord>(await store.get(keys.entity(scope, UPSELL, id)));
export const loadUpsells = async (store: Store, scope: Scope) => (await store.queryAll({ pk: keys.collection(scope, UPSELL) })).map((i) => toRecord<UpsellRecord>(i)!);
export const insertUpsell = (store: Store, scope: Scope, upsell: UpsellRecord) => store.put(item(scope, upsell), { ifNotExists: true });
/** ConditionFailed when the upsell is gone. */
export const replaceUpsell = (store: Store, scope: Scope, upsell: UpsellRecord) => store.put(item(scope, upsell), { condition: KEY_EXISTS });
/** Whether there was an upsell to remove. */
export const removeUpsell = async (store: Store, scope: Scope, id: string) => !!(await store.delete(keys.entity(scope, UPSELL, id)));
