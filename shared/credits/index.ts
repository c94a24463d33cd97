import { defineCapability } from '../platform/capability';
import { creditRefillEmailConsumer } from './consumers';
import { creditOperations } from './operations';

/** Prepaid credit balances with an atomic deduct and a single top-off charge. */
export const credits = defineCapability({
  name: 'credits',
  operations: creditOperations,
  needs: ['table', 'queue', 'scheduler', 'email', 'encryption'],
  consumers: [creditRefillEmailConsumer],
});
