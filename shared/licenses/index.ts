import { defineCapability } from '../platform/capability';
import { licenseOperations } from './operations';
import { licensesPrivacy } from './privacy';

/**
 * Licence keys for software: one per paid order of a product with `licenseKeys` enabled, issued
 * in the order's own transaction; public activate / validate / deactivate for the seller's app
 * (rate limited per address and per key), the seller's list, revoke and reactivate; a full
 * refund or a dispute revokes the order's keys in the sales capability's refund transaction.
 */
export const licenses = defineCapability({
  name: 'licenses',
  build: {
    manifest: { url: import.meta.url, export: 'licenses' },
    privacy: './privacy#licensesPrivacy',
    operations: './operations#licenseOperations',
  },
  operations: licenseOperations,
  privacy: licensesPrivacy,
  // Served by the checkout function: its own would cost the API stack eight more resources.
  apiFunction: 'checkout',
  needs: ['table', 'encryption'],
  eventTypes: ['license.created', 'license.activated', 'license.revoked'],
});
