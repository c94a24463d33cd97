import { defineCapability } from '../platform/capability';
import { salesOperations } from './operations';

/** Sales, orders, payments and customers, as the processor's notifications leave them. */
export const sales = defineCapability({
  name: 'sales',
  build: {
    manifest: { url: import.meta.url, export: 'sales' },
    operations: './operations#salesOperations',
    uses: { api: ['processor', 'subscriptionSaveOffers'] },
  },
  operations: salesOperations,
  needs: ['table', 'encryption'],
});
