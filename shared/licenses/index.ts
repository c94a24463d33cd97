import { defineCapability } from '../platform/capability';
import { revokeLicensesConsumer } from './consumers';
import { licenseOperations } from './operations';

/**
 * Licence keys for software: one per paid order of a product with `licenseKeys` enabled, issued
 * in the order's own transaction; public activate / validate / deactivate for the seller's app
 * (rate limited per address and per key), the seller's list, revoke and reactivate; a full
 * refund or a dispute revokes the order's keys.
 */
export const licenses = defineCapability({
  name: 'licenses',
  operations: licenseOperations,
  needs: ['table', 'encryption'],
  consumers: [revokeLicensesConsumer],
  eventTypes: ['license.created', 'license.activated', 'license.revoked'],
});
