import { defineCapability } from '../platform/capability';
import { rollupsConsumer } from './consumers';
import { analyticsOperations } from './operations';

/** Daily sales rollups and recurring revenue, kept by a bus consumer; read by the dashboard's Home. */
export const analytics = defineCapability({
  name: 'analytics',
  build: {
    manifest: { url: import.meta.url, export: 'analytics' },
    operations: './operations#analyticsOperations',
    workers: { 'analytics-rollups': './consumers#rollupsConsumer' },
  },
  operations: analyticsOperations,
  needs: ['table'],
  consumers: [rollupsConsumer],
});
