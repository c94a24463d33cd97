import { defineCapability } from '../platform/capability';
import { processorOperations } from './operations';
import { ports } from './ports';
import { processorPrivacy } from './privacy';

/**
 * The payment processor: its port (port.ts, with the notification types), the router that picks a
 * provider per account and mode, and the signed notification ingress. Providers implement the port
 * as adapters with their own manifest (shared/adapters/processor-sandbox/, processor-stripe/).
 */
export const processor = defineCapability({
  name: 'processor',
  build: {
    manifest: { url: import.meta.url, export: 'processor' },
    operations: './operations#processorOperations',
    ports: './ports#ports',
    privacy: './privacy#processorPrivacy',
    uses: { api: ['processor', 'subscriptionSaveOffers'], ports: ['processor', 'processorSandbox', 'processorStripe'], privacy: ['processor'] },
  },
  operations: processorOperations,
  // encryption: completing a checkout issues licence keys (kept encrypted); the thank-you page shows them.
  needs: ['table', 'queue', 'scheduler', 'encryption'],
  ports,
  privacy: processorPrivacy,
});
