import { defineEntity } from '../store/entity';
import { keys, type Scope } from '../store/keys';
import { CREDIT_ACCOUNT, type CreditAccountRecord } from './records';

// A credit account lives at `<scope>#CREDIT_ACCOUNT / <id>`; the unique pointer
// `CREDIT_ACCOUNT_OF <productId>#<email>` finds a buyer's account of one product.
const CREDIT_ACCOUNT_OF = 'CREDIT_ACCOUNT_OF';

const accountKey = (scope: Scope, id: string) => keys.entity(scope, CREDIT_ACCOUNT, id);
const accountOfKey = (scope: Scope, productId: string, email: string) => keys.unique(scope, CREDIT_ACCOUNT_OF, `${productId}#${email}`);

export const creditAccountEntity = defineEntity<CreditAccountRecord>()({
  entity: 'CreditAccount',
  version: 1,
  owner: 'credits',
  key: accountKey,
  keyArgs: ['scope', 'id'],
  patterns: {
    byId: { kind: 'get', summary: 'Credit account by id, read consistently (the balance decides a deduction)', key: accountKey, args: ['scope', 'id'], consistent: true },
    ofTenant: { kind: 'query', summary: 'Credit accounts of a tenant', partition: (scope: Scope) => keys.collection(scope, CREDIT_ACCOUNT), args: ['scope'] },
  },
});

/** One account per buyer and credits product: a second one fails its transaction. */
export const creditAccountOfEntity = defineEntity<{ accountId: string }>()({
  entity: 'CreditAccountOf',
  version: 1,
  owner: 'credits',
  key: accountOfKey,
  keyArgs: ['scope', 'productId', 'email'],
  patterns: {
    byBuyer: { kind: 'get', summary: 'Credit account of a buyer and product', key: accountOfKey, args: ['scope', 'productId', 'email'], consistent: true, notes: 'holds accountId' },
  },
});
