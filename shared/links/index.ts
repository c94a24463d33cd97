import { defineCapability } from '../platform/capability';
import { linkRefundsConsumer, linkSalesConsumer } from './consumers';
import { linkOperations } from './operations';

/** Tracked short links per channel: clicks, unique visitors, and the sales they lead to. */
export const links = defineCapability({
  name: 'links',
  build: {
    manifest: { url: import.meta.url, export: 'links' },
    operations: './operations#linkOperations',
  },
  operations: linkOperations,
  consumers: [linkSalesConsumer, linkRefundsConsumer],
});
