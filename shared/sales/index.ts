import { defineCapability } from '../platform/capability';
import { salesOperations } from './operations';
import { salesPrivacy } from './privacy';

/** Sales, orders, payments and customers, as the processor's notifications leave them. */
export const sales = defineCapability({
  name: 'sales',
  build: {
    manifest: { url: import.meta.url, export: 'sales' },
    operations: './operations#salesOperations',
    privacy: './privacy#salesPrivacy',
    uses: { api: ['processor', 'subscriptionSaveOffers'] },
  },
  operations: salesOperations,
  needs: ['table', 'encryption'],
  privacy: salesPrivacy,
});
