import { putNew } from '../store/conditional';
import type { Scope } from '../store/keys';
import type { Store, TransactOp } from '../store/store';
import { erasureEntity, exportLinkEntity } from './entities';
import type { ErasureRecord, ExportLinkRecord } from './records';

const erasureKey = erasureEntity.declaration.key;

export const getErasure = (store: Store, scope: Scope, customerId: string) => erasureEntity.get(store, 'byCustomer', scope, customerId);

/** A new erasure; the put fails the transaction when one exists for the customer. */
export const erasurePut = (scope: Scope, erasure: ErasureRecord): TransactOp => putNew(erasureEntity.item(erasureKey(scope, erasure._id), erasure));

/** One more part finished (added to a set, so parts finishing in any order never overwrite each other). */
export async function markPartDone(store: Store, scope: Scope, customerId: string, part: string): Promise<void> {
  await store.update(erasureKey(scope, customerId), { add: { done: new Set([part]) } }, { mustExist: true });
}

export async function countRun(store: Store, scope: Scope, customerId: string): Promise<void> {
  await store.update(erasureKey(scope, customerId), { add: { runs: 1 } }, { mustExist: true });
}

export async function noteFailure(store: Store, scope: Scope, customerId: string, message: string): Promise<void> {
  await store.update(erasureKey(scope, customerId), { set: { lastError: message.slice(0, 500) } }, { mustExist: true });
}

/** The end of an erasure: the email goes, and `customer.erased` is written with it. */
export function erasureCompleted(scope: Scope, customerId: string, at: string): TransactOp {
  return {
    update: erasureKey(scope, customerId),
    set: { status: 'completed', completedAt: at },
    remove: ['email', 'lastError'],
    condition: 'attribute_exists(PK) AND #s = :running',
    names: { '#s': 'status' },
    values: { ':running': 'running' },
  };
}

export const getExportLink = (store: Store, token: string) => exportLinkEntity.get(store, 'byToken', token);

/** The link's item goes a day after it stops working (TTL). */
export async function putExportLink(store: Store, token: string, link: ExportLinkRecord): Promise<void> {
  const expiresAt = Math.floor(Date.parse(link.validUntil) / 1000) + 24 * 3600;
  await store.put(exportLinkEntity.item(exportLinkEntity.declaration.key(token), link, { expiresAt }), { ifNotExists: true });
}
