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
    byId: {
      kind: 'get',
      summary: 'Credit account by id, read consistently (the balance decides a deduction)',
      key: accountKey,
      args: ['scope', 'id'],
      consistent: true,
    },
    ofTenant: { kind: 'query', summary: 'Credit accounts of a tenant', partition: (scope: Scope) => keys.collection(scope, CREDIT_ACCOUNT), args: ['scope'] },
  },
});

// The buyer's balance link: `CAP#CREDIT_LINK / <token>` → the account and its tenant (the page has no key).
const CREDIT_LINK = 'CREDIT_LINK';
const linkKey = (token: string) => keys.capability(CREDIT_LINK, token);

export interface CreditLinkRecord {
  accountId: string;
  mode: Scope['mode'];
  creditAccountId: string;
}

export const creditLinkEntity = defineEntity<CreditLinkRecord>()({
  entity: 'CreditLink',
  version: 1,
  owner: 'credits',
  key: linkKey,
  keyArgs: ['token'],
  patterns: {
    byToken: {
      kind: 'get',
      summary: "Credit balance link (the buyer's page: balance, auto top-up off)",
      key: linkKey,
      args: ['token'],
      notes: 'holds accountId, mode and the credit account id',
    },
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
    byBuyer: {
      kind: 'get',
      summary: 'Credit account of a buyer and product',
      key: accountOfKey,
      args: ['scope', 'productId', 'email'],
      consistent: true,
      notes: 'holds accountId',
    },
  },
});
