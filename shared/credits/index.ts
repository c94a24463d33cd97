import { defineCapability } from '../platform/capability';
import { creditEmailConsumer } from './consumers';
import { creditConsentDetachConsumer } from './detach';
import { creditOperations } from './operations';
import { creditsPrivacy } from './privacy';

/** Prepaid credit balances with an atomic deduct and a single top-off charge. */
export const credits = defineCapability({
  name: 'credits',
  build: {
    manifest: { url: import.meta.url, export: 'credits' },
    privacy: './privacy#creditsPrivacy',
    operations: './operations#creditOperations',
    workers: { 'credit-refill-email': './consumers#creditEmailConsumer', 'credit-consent-detach': './detach#creditConsentDetachConsumer' },
    uses: { api: ['processor'], workers: { 'credit-consent-detach': ['processor'] } },
  },
  operations: creditOperations,
  privacy: creditsPrivacy,
  // No `email`: only the mail consumer mails, with its own needs.
  needs: ['table', 'queue', 'scheduler', 'encryption'],
  consumers: [creditEmailConsumer, creditConsentDetachConsumer],
});
