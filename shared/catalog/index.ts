import { defineCapability } from '../platform/capability';
import { catalogOperations } from './operations';

/** Products and subscription offers. The model capability folder: copy its shape. */
export const catalog = defineCapability({
  name: 'catalog',
  build: {
    manifest: { url: import.meta.url, export: 'catalog' },
    operations: './operations#catalogOperations',
  },
  operations: catalogOperations,
  needs: ['table', 'blob'],
  eventTypes: ['product.created', 'product.updated', 'product.deleted'],
});
