/** The creator page (one per account and mode) and its links as children; the only place their keys are built. */
import { keys, type Scope } from '../../store/keys';
import { toItem } from '../../store/items';
import { toRecord, type Store } from '../../store/store';
import { CREATOR_PAGE, type CreatorLinkRecord, type CreatorPageRecord } from './records';

const PAGE_ID = 'PAGE';
const LINK = 'LINK';
const pageKey = (scope: Scope) => keys.entity(scope, CREATOR_PAGE, PAGE_ID);
const linkKey = (scope: Scope, id: string) => keys.child(scope, CREATOR_PAGE, PAGE_ID, LINK, id);

export const loadCreatorPage = async (store: Store, scope: Scope) => toRecord<CreatorPageRecord>(await store.get(pageKey(scope)));
/** Creates the page; ConditionFailed when another request made it first. */
export async function insertCreatorPage(store: Store, scope: Scope, page: CreatorPageRecord): Promise<void> {
  await store.put(toItem(pageKey(scope), 'CreatorPage', page), { ifNotExists: true });
}
export const patchCreatorPage = async (store: Store, scope: Scope, set: Record<string, unknown>) =>
  toRecord<CreatorPageRecord>(await store.update(pageKey(scope), { set }, { mustExist: true }))!;

/** In the order they were added (ids are time-ordered). */
export const loadCreatorLinks = async (store: Store, scope: Scope) =>
  (await store.queryAll({ pk: keys.children(scope, CREATOR_PAGE, PAGE_ID, LINK), ascending: true })).map((i) => toRecord<CreatorLinkRecord>(i)!);
export const loadCreatorLink = async (store: Store, scope: Scope, id: string) => toRecord<CreatorLinkRecord>(await store.get(linkKey(scope, id)));
export const insertCreatorLink = (store: Store, scope: Scope, link: CreatorLinkRecord) => store.put(toItem(linkKey(scope, link._id), 'CreatorPageLink', link), { ifNotExists: true });
/** ConditionFailed when the link is gone. */
export const patchCreatorLink = async (store: Store, scope: Scope, id: string, set: Record<string, unknown>) =>
  toRecord<CreatorLinkRecord>(await store.update(linkKey(scope, id), { set }, { mustExist: true }))!;
/** Whether there was a link to remove. */
export const removeCreatorLink = async (store: Store, scope: Scope, id: string) => !!(await store.delete(linkKey(scope, id)));
