import { defineEntity } from '../store/entity';
import { keys, type Scope } from '../store/keys';
import type { DownloadGrant, DownloadToken, OrderAccessLink, ProductFileRecord, ProductFileUpload } from './records';

// Files are children of their product (one small partition per product, bounded by MAX_FILES);
// grants one item per order; tokens and access links are capability items found by their secret.
const fileKey = (scope: Scope, productId: string, fileId: string) => keys.child(scope, 'PRODUCT', productId, 'FILE', fileId);
const uploadKey = (scope: Scope, productId: string, uploadId: string) => keys.child(scope, 'PRODUCT', productId, 'FILE_UPLOAD', uploadId);
const grantKey = (scope: Scope, orderId: string) => keys.entity(scope, 'DOWNLOAD_GRANT', orderId);
const tokenKey = (token: string) => keys.capability('download', token);
const accessKey = (token: string) => keys.capability('download-access', token);

export const productFileEntity = defineEntity<ProductFileRecord>()({
  entity: 'ProductFile',
  version: 1,
  owner: 'product-files',
  key: fileKey,
  keyArgs: ['scope', 'productId', 'fileId'],
  patterns: {
    byId: { kind: 'get', summary: 'A file of a product', key: fileKey, args: ['scope', 'productId', 'fileId'] },
    ofProduct: {
      kind: 'query',
      summary: 'Files of a product, oldest first (GET /products/{id}/files, order downloads)',
      partition: (scope: Scope, productId: string) => keys.children(scope, 'PRODUCT', productId, 'FILE'),
      args: ['scope', 'productId'],
      order: 'oldest first',
      notes: 'bounded: at most MAX_FILES (20) per product',
    },
  },
});

export const productFileUploadEntity = defineEntity<ProductFileUpload>()({
  entity: 'ProductFileUpload',
  version: 1,
  owner: 'product-files',
  key: uploadKey,
  keyArgs: ['scope', 'productId', 'uploadId'],
  patterns: {
    byId: {
      kind: 'get',
      summary: 'A multipart upload of a product file (complete, abort)',
      key: uploadKey,
      args: ['scope', 'productId', 'uploadId'],
      consistent: true,
    },
  },
  notes: 'TTL a day after it began',
});

export const downloadGrantEntity = defineEntity<DownloadGrant>()({
  entity: 'DownloadGrant',
  version: 1,
  owner: 'product-files',
  key: grantKey,
  keyArgs: ['scope', 'orderId'],
  patterns: {
    byOrder: { kind: 'get', summary: 'Download count and revocation of an order', key: grantKey, args: ['scope', 'orderId'], consistent: true },
  },
  notes: 'counted with a conditional ADD (limit, not revoked) on every download',
});

export const downloadTokenEntity = defineEntity<DownloadToken>()({
  entity: 'DownloadToken',
  version: 1,
  owner: 'product-files',
  key: tokenKey,
  keyArgs: ['token'],
  patterns: {
    byToken: { kind: 'get', summary: 'Signed download by its token (GET /downloads/{token})', key: tokenKey, args: ['token'] },
  },
  notes: 'TTL a day after validUntil',
});

export const orderAccessEntity = defineEntity<OrderAccessLink>()({
  entity: 'OrderAccessLink',
  version: 1,
  owner: 'product-files',
  key: accessKey,
  keyArgs: ['token'],
  patterns: {
    byToken: { kind: 'get', summary: 'Receipt download page by its token (GET /downloads/orders/{token})', key: accessKey, args: ['token'] },
  },
  notes: 'TTL two years after the order',
});
