/**
 * Every query and write builder of images: the record in the tenant's partition and the public
 * file capability (found by its unguessable token). Keys come from entities.ts.
 */
import { KEY_EXISTS, putNew } from '../../store/conditional';
import type { Scope } from '../../store/keys';
import type { Store, TransactOp } from '../../store/store';
import { imageEntity, imageFileEntity } from './entities';
import type { ImageFileCapability, ImageRecord } from './records';

const imageKey = imageEntity.declaration.key;
const fileKey = imageFileEntity.declaration.key;

export const loadImage = (store: Store, scope: Scope, id: string) => imageEntity.get(store, 'byId', scope, id);
export const loadImages = (store: Store, scope: Scope) => imageEntity.queryAll(store, 'ofTenant', [scope]);

export const imagePutOps = (scope: Scope, image: ImageRecord): TransactOp[] => [
  putNew(imageEntity.item(imageKey(scope, image._id), image)),
  putNew(
    imageFileEntity.item(fileKey(image.fileToken), {
      accountId: scope.accountId,
      mode: scope.mode,
      imageId: image._id,
      blobKey: image.blobKey,
      contentType: image.contentType,
    } satisfies ImageFileCapability),
  ),
];

export const imageDeleteOps = (scope: Scope, image: ImageRecord): TransactOp[] => [
  { delete: imageKey(scope, image._id), condition: KEY_EXISTS },
  { delete: fileKey(image.fileToken) },
];

export const findImageFile = (store: Store, fileToken: string) => imageFileEntity.get(store, 'byToken', fileToken);
