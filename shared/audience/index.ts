import { defineCapability } from '../platform/capability';
import { saleFactsConsumer } from './consumers';
import { audienceOperations } from './operations';
import { audiencePrivacy } from './privacy';

/** Newsletter contacts: tags, consent, status, purchase and engagement facts, suppression list. */
export const audience = defineCapability({
  name: 'audience',
  operations: audienceOperations,
  needs: ['table'],
  consumers: [saleFactsConsumer],
  privacy: audiencePrivacy,
});
