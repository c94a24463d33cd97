import { defineEntity } from '../../store/entity';
import { keys, type Scope } from '../../store/keys';
import { IMAGE, type ImageFileCapability, type ImageRecord } from './records';

const IMAGE_FILE = 'image';
const imageKey = (scope: Scope, id: string) => keys.entity(scope, IMAGE, id);
const fileKey = (token: string) => keys.capability(IMAGE_FILE, token);

export const imageEntity = defineEntity<ImageRecord>()({
  entity: 'Image',
  version: 1,
  owner: 'storefront/images',
  key: imageKey,
  keyArgs: ['scope', 'id'],
  patterns: {
    byId: { kind: 'get', summary: 'Image by id (list, delete, catalog references)', key: imageKey, args: ['scope', 'id'] },
    ofTenant: {
      kind: 'query',
      summary: 'Images of a tenant',
      partition: (scope: Scope) => keys.collection(scope, IMAGE),
      args: ['scope'],
      notes: 'bounded per-tenant list',
    },
  },
});

/** The public file capability: the unguessable token is the key. */
export const imageFileEntity = defineEntity<ImageFileCapability>()({
  entity: 'ImageFile',
  version: 1,
  owner: 'storefront/images',
  key: fileKey,
  keyArgs: ['token'],
  patterns: {
    byToken: { kind: 'get', summary: 'Public image file by token', key: fileKey, args: ['token'], notes: 'holds blobKey and contentType' },
  },
});
