import { isConditionFailed, putNew } from '../store/conditional';
import type { Scope } from '../store/keys';
import type { Store, TransactOp } from '../store/store';
import { downloadGrantEntity, downloadTokenEntity, orderAccessEntity, productFileEntity, productFileUploadEntity } from './entities';
import type { DownloadGrant, DownloadToken, OrderAccessLink, ProductFileRecord, ProductFileUpload } from './records';

/** Every query of the product files capability (keys in entities.ts). */

export const fileOfProduct = (store: Store, scope: Scope, productId: string, fileId: string) => productFileEntity.get(store, 'byId', scope, productId, fileId);

export const filesOfProduct = (store: Store, scope: Scope, productId: string) => productFileEntity.queryAll(store, 'ofProduct', [scope, productId]);

export const filePut = (scope: Scope, file: ProductFileRecord): TransactOp =>
  putNew(productFileEntity.item(productFileEntity.declaration.key(scope, file.productId, file._id), file));

/** Removes a file; the removed record, or undefined when it was not there. */
export async function deleteFile(store: Store, scope: Scope, productId: string, fileId: string): Promise<ProductFileRecord | undefined> {
  const key = productFileEntity.declaration.key(scope, productId, fileId);
  const file = await fileOfProduct(store, scope, productId, fileId);
  if (!file) return undefined;
  await store.delete(key);
  return file;
}

export const grantOf = (store: Store, scope: Scope, orderId: string) => downloadGrantEntity.get(store, 'byOrder', scope, orderId);

/**
 * Counts one download of an order, only while access stands and the limit is not reached: one
 * conditional write, so two racing downloads cannot both take the last one. False when refused.
 */
export async function countDownload(store: Store, scope: Scope, orderId: string, limit: number | undefined): Promise<boolean> {
  try {
    await store.update(
      downloadGrantEntity.declaration.key(scope, orderId),
      { set: { orderId, entity: 'DownloadGrant', v: 1 }, add: { used: 1 } },
      {
        condition:
          limit === undefined ? 'attribute_not_exists(#revoked)' : 'attribute_not_exists(#revoked) AND (attribute_not_exists(#used) OR #used < :limit)',
        names: limit === undefined ? { '#revoked': 'revokedAt' } : { '#revoked': 'revokedAt', '#used': 'used' },
        ...(limit === undefined ? {} : { values: { ':limit': limit } }),
      },
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

/** Ends an order's access (full refund, dispute), for the refund's own transaction; idempotent. */
export const revokeGrantOp = (scope: Scope, orderId: string, reason: NonNullable<DownloadGrant['revokedReason']>, at: string): TransactOp => ({
  update: downloadGrantEntity.declaration.key(scope, orderId),
  set: { orderId, entity: 'DownloadGrant', v: 1, revokedAt: at, revokedReason: reason },
});

export async function putToken(store: Store, token: DownloadToken, expiresAt: number): Promise<void> {
  await store.put(downloadTokenEntity.item(downloadTokenEntity.declaration.key(token.token), token, { expiresAt }), { ifNotExists: true });
}

export const tokenOf = (store: Store, token: string) => downloadTokenEntity.get(store, 'byToken', token);

export async function putAccessLink(store: Store, link: OrderAccessLink, expiresAt: number): Promise<void> {
  await store.put(orderAccessEntity.item(orderAccessEntity.declaration.key(link.token), link, { expiresAt }), { ifNotExists: true });
}

export const accessLinkOf = (store: Store, token: string) => orderAccessEntity.get(store, 'byToken', token);

/** A multipart upload begun; expires (TTL) `expiresAt` seconds. */
export async function putUpload(store: Store, scope: Scope, upload: ProductFileUpload, expiresAt: number): Promise<void> {
  await store.put(productFileUploadEntity.item(productFileUploadEntity.declaration.key(scope, upload.productId, upload._id), upload, { expiresAt }), {
    ifNotExists: true,
  });
}

export const uploadOf = (store: Store, scope: Scope, productId: string, uploadId: string) =>
  productFileUploadEntity.get(store, 'byId', scope, productId, uploadId);

/** Ends an upload record, only while it is there: the completion's transaction fails when another completion took it. */
export const uploadDelete = (scope: Scope, productId: string, uploadId: string): TransactOp => ({
  delete: productFileUploadEntity.declaration.key(scope, productId, uploadId),
  condition: 'attribute_exists(PK)',
});

export async function deleteUpload(store: Store, scope: Scope, productId: string, uploadId: string): Promise<void> {
  await store.delete(productFileUploadEntity.declaration.key(scope, productId, uploadId));
}
