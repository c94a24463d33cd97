/**
 * Every query and write builder of images: the record in the tenant's partition and the public
 * file capability (found by its unguessable token). Nothing outside this file builds an image key.
 */
import { keys, type Scope } from '../../store/keys';
import { toItem } from '../../store/items';
import { KEY_EXISTS, putNew } from '../../store/conditional';
import { toRecord, type Store, type TransactOp } from '../../store/store';
import { IMAGE, type ImageFileCapability, type ImageRecord } from './records';

const IMAGE_FILE = 'image';

export const loadImage = async (store: Store, scope: Scope, id: string) => toRecord<ImageRecord>(await store.get(keys.entity(scope, IMAGE, id)));
export const loadImages = async (store: Store, scope: Scope) => (await store.queryAll({ pk: keys.collection(scope, IMAGE) })).map((i) => toRecord<ImageRecord>(i)!);

export const imagePutOps = (scope: Scope, image: ImageRecord): TransactOp[] => [
  putNew(toItem(keys.entity(scope, IMAGE, image._id), 'Image', image)),
  putNew(
    toItem(keys.capability(IMAGE_FILE, image.fileToken), 'ImageFile', {
      accountId: scope.accountId,
      mode: scope.mode,
      imageId: image._id,
      blobKey: image.blobKey,
      contentType: image.contentType,
    } satisfies ImageFileCapability),
  ),
];

export const imageDeleteOps = (scope: Scope, image: ImageRecord): TransactOp[] => [
  { delete: keys.entity(scope, IMAGE, image._id), condition: KEY_EXISTS },
  { delete: keys.capability(IMAGE_FILE, image.fileToken) },
];

export const findImageFile = async (store: Store, fileToken: string) => toRecord<ImageFileCapability>(await store.get(keys.capability(IMAGE_FILE, fileToken)));
