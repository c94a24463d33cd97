/** Every query and write of upsells; keys come from entities.ts. */
import { KEY_EXISTS } from '../../store/conditional';
import type { Scope } from '../../store/keys';
import type { Store } from '../../store/store';
import { upsellEntity } from './entities';
import type { UpsellRecord } from './records';

const key = upsellEntity.declaration.key;
const item = (scope: Scope, upsell: UpsellRecord) => upsellEntity.item(key(scope, upsell._id), upsell);

export const loadUpsell = (store: Store, scope: Scope, id: string) => upsellEntity.get(store, 'byId', scope, id);
export const loadUpsells = (store: Store, scope: Scope) => upsellEntity.queryAll(store, 'ofTenant', [scope]);
export const insertUpsell = (store: Store, scope: Scope, upsell: UpsellRecord) => store.put(item(scope, upsell), { ifNotExists: true });
/** ConditionFailed when the upsell is gone. */
export const replaceUpsell = (store: Store, scope: Scope, upsell: UpsellRecord) => store.put(item(scope, upsell), { condition: KEY_EXISTS });
/** Whether there was an upsell to remove. */
export const removeUpsell = async (store: Store, scope: Scope, id: string) => !!(await store.delete(key(scope, id)));
