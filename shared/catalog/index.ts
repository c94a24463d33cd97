import { defineCapability } from '../platform/capability';
import { catalogOperations } from './operations';

/** Products and subscription offers. The model capability folder: copy its shape. */
export const catalog = defineCapability({
  name: 'catalog',
  operations: catalogOperations,
  needs: ['table', 'blob'],
  eventTypes: ['product.created', 'product.updated', 'product.deleted'],
});
