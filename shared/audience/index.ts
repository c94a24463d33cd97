import { defineCapability } from '../platform/capability';
import { saleFactsConsumer } from './consumers';
import { audienceOperations } from './operations';
import { audiencePrivacy } from './privacy';

/** Newsletter contacts: tags, consent, status, purchase and engagement facts, suppression list. */
export const audience = defineCapability({
  name: 'audience',
  build: {
    manifest: { url: import.meta.url, export: 'audience' },
    operations: './operations#audienceOperations',
    privacy: './privacy#audiencePrivacy',
  },
  operations: audienceOperations,
  needs: ['table'],
  consumers: [saleFactsConsumer],
  privacy: audiencePrivacy,
});
