import { defineCapability } from '../platform/capability';
import { privacyOperations } from './operations';
import { erasureQueue } from './worker';

/**
 * A buyer's data-access and erasure requests, answered by asking each capability's privacy part
 * (shared/platform/privacy.ts) through the `privacy` port; never by reading their records.
 */
export const privacy = defineCapability({
  name: 'privacy',
  // Its routes are under /customers: served by the sales function (one function less in the API
  // stack, whose CloudFormation resources are near their limit), which then carries the parts.
  apiFunction: 'sales',
  build: {
    manifest: { url: import.meta.url, export: 'privacy' },
    operations: './operations#privacyOperations',
    workers: { 'privacy-erasure': './worker#erasureQueue' },
    // Every capability's privacy parts, through the privacy port.
    uses: { api: ['privacy'], workers: { 'privacy-erasure': ['privacy'] } },
  },
  operations: privacyOperations,
  needs: ['table', 'queue', 'blob'],
  queues: [erasureQueue],
  eventTypes: ['customer.erased'],
});
