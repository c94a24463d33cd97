import { putNew } from '../store/conditional';
import type { Scope } from '../store/keys';
import type { Store, TransactOp } from '../store/store';
import { licenseEntity, licenseInstanceEntity } from './entities';
import type { LicenseInstance, LicenseRecord } from './records';

/** Every query of the licences capability (keys in entities.ts). */

const keyOf = (keyHash: string) => licenseEntity.declaration.key(keyHash);

export function licensePut(license: LicenseRecord): TransactOp {
  const idx = licenseEntity.declaration.indexes!;
  return putNew(
    licenseEntity.item(keyOf(license.keyHash), license, {
      indexes: [
        idx.ofTenant.key(license.scope, license._id),
        idx.ofOrder.key(license.scope, license.orderId, license._id),
        idx.ofProduct.key(license.scope, license.productId, license._id),
      ],
    }),
  );
}

export const licenseByHash = (store: Store, keyHash: string) => licenseEntity.get(store, 'byKeyHash', keyHash);

export async function licenseById(store: Store, scope: Scope, id: string): Promise<LicenseRecord | undefined> {
  const page = await licenseEntity.query(store, 'ofTenant', [scope], { beginsWith: id, limit: 1 });
  const found = page.items[0];
  // The index is eventually consistent: the item itself is read again, consistently.
  return found && found._id === id ? licenseByHash(store, found.keyHash) : undefined;
}

export const licensesOfOrder = (store: Store, scope: Scope, orderId: string) => licenseEntity.queryAll(store, 'ofOrder', [scope, orderId], { ascending: true });

export async function licensePage(store: Store, scope: Scope, filter: { productId?: string; orderId?: string }, limit: number, cursor?: string) {
  if (filter.orderId) {
    const items = await licensesOfOrder(store, scope, filter.orderId);
    return { items: filter.productId ? items.filter((l) => l.productId === filter.productId) : items, cursor: undefined };
  }
  if (filter.productId) return licenseEntity.query(store, 'ofProduct', [scope, filter.productId], { limit, cursor });
  return licenseEntity.query(store, 'ofTenant', [scope], { limit, cursor });
}

/** Changes a licence's status, guarded by the status it was read with. */
export const statusChange = (license: LicenseRecord, status: LicenseRecord['status'], now: string): TransactOp => ({
  update: keyOf(license.keyHash),
  set: { status, updatedAt: now },
  condition: '#status = :was',
  names: { '#status': 'status' },
  values: { ':was': license.status },
});

/** Takes one activation: only while active and under the limit (two racing activations cannot both take the last). */
export const activationTaken = (license: LicenseRecord, now: string): TransactOp => ({
  update: keyOf(license.keyHash),
  set: { updatedAt: now },
  add: { activations: 1 },
  condition: '#status = :active AND #activations < #limit',
  names: { '#status': 'status', '#activations': 'activations', '#limit': 'activationLimit' },
  values: { ':active': 'active' },
});

export const activationReleased = (license: LicenseRecord, now: string): TransactOp => ({
  update: keyOf(license.keyHash),
  set: { updatedAt: now },
  add: { activations: -1 },
  condition: '#activations > :zero',
  names: { '#activations': 'activations' },
  values: { ':zero': 0 },
});

export const instancePut = (scope: Scope, instance: LicenseInstance): TransactOp =>
  putNew(licenseInstanceEntity.item(licenseInstanceEntity.declaration.key(scope, instance.licenseId, instance.id), instance));

export const instanceDelete = (scope: Scope, licenseId: string, instanceId: string): TransactOp => ({
  delete: licenseInstanceEntity.declaration.key(scope, licenseId, instanceId),
  condition: 'attribute_exists(PK)',
});

export const instanceOf = (store: Store, scope: Scope, licenseId: string, instanceId: string) =>
  licenseInstanceEntity.get(store, 'byId', scope, licenseId, instanceId);

/** An erased buyer's address off a licence; the key keeps working for whoever holds it. */
export const licenseEmailErasure = (store: Store, license: LicenseRecord) =>
  store.update(keyOf(license.keyHash), { set: { customerEmail: '' } }, { mustExist: true });
