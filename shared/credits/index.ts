import { defineCapability } from '../platform/capability';
import { creditRefillEmailConsumer } from './consumers';
import { creditOperations } from './operations';

/** Prepaid credit balances with an atomic deduct and a single top-off charge. */
export const credits = defineCapability({
  name: 'credits',
  build: {
    manifest: { url: import.meta.url, export: 'credits' },
    operations: './operations#creditOperations',
    workers: { 'credit-refill-email': './consumers#creditRefillEmailConsumer' },
    uses: { api: ['processor'] },
  },
  operations: creditOperations,
  // No `email`: only the refill consumer mails, with its own needs.
  needs: ['table', 'queue', 'scheduler', 'encryption'],
  consumers: [creditRefillEmailConsumer],
});
