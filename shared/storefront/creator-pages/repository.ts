/** The creator page (one per account and mode) and its links as children; keys come from entities.ts. */
import type { Scope } from '../../store/keys';
import type { Store } from '../../store/store';
import { toRecord } from '../../store/store';
import { creatorLinkEntity, creatorPageEntity } from './entities';
import type { CreatorLinkRecord, CreatorPageRecord } from './records';

const pageKey = creatorPageEntity.declaration.key;
const linkKey = creatorLinkEntity.declaration.key;

export const loadCreatorPage = (store: Store, scope: Scope) => creatorPageEntity.get(store, 'ofTenant', scope);
/** Creates the page; ConditionFailed when another request made it first. */
export async function insertCreatorPage(store: Store, scope: Scope, page: CreatorPageRecord): Promise<void> {
  await store.put(creatorPageEntity.item(pageKey(scope), page), { ifNotExists: true });
}
export const patchCreatorPage = async (store: Store, scope: Scope, set: Record<string, unknown>) =>
  toRecord<CreatorPageRecord>(await store.update(pageKey(scope), { set }, { mustExist: true }))!;

/** In the order they were added (ids are time-ordered). */
export const loadCreatorLinks = (store: Store, scope: Scope) => creatorLinkEntity.queryAll(store, 'ofPage', [scope]);
export const loadCreatorLink = (store: Store, scope: Scope, id: string) => creatorLinkEntity.get(store, 'byId', scope, id);
export const insertCreatorLink = (store: Store, scope: Scope, link: CreatorLinkRecord) =>
  store.put(creatorLinkEntity.item(linkKey(scope, link._id), link), { ifNotExists: true });
/** ConditionFailed when the link is gone. */
export const patchCreatorLink = async (store: Store, scope: Scope, id: string, set: Record<string, unknown>) =>
  toRecord<CreatorLinkRecord>(await store.update(linkKey(scope, id), { set }, { mustExist: true }))!;
/** Whether there was a link to remove. */
export const removeCreatorLink = async (store: Store, scope: Scope, id: string) => !!(await store.delete(linkKey(scope, id)));
