import { toItem } from '../store/items';
import { keys, type Scope } from '../store/keys';
import { toRecord, type Store, type TransactOp } from '../store/store';
import { CREDIT_ACCOUNT, type CreditAccountRecord } from './records';

// A credit account lives at `<scope>#CREDIT_ACCOUNT / <id>`; the unique pointer
// `CREDIT_ACCOUNT_OF <productId>#<email>` finds a buyer's account of one product.
const CREDIT_ACCOUNT_OF = 'CREDIT_ACCOUNT_OF';

const accountKey = (scope: Scope, id: string) => keys.entity(scope, CREDIT_ACCOUNT, id);

/** The buyer's account of a product, read consistently (the balance decides a deduction). */
export async function findCreditAccount(store: Store, scope: Scope, productId: string, email: string): Promise<CreditAccountRecord | undefined> {
  const pointer = await store.get<{ accountId: string }>(keys.unique(scope, CREDIT_ACCOUNT_OF, `${productId}#${email}`), { consistent: true });
  return pointer ? toRecord<CreditAccountRecord>(await store.get(accountKey(scope, pointer.accountId), { consistent: true })) : undefined;
}

/** Every credit account of the tenant and mode. */
export async function listCreditAccountRecords(store: Store, scope: Scope): Promise<CreditAccountRecord[]> {
  return (await store.queryAll({ pk: keys.collection(scope, CREDIT_ACCOUNT) })).map((item) => toRecord<CreditAccountRecord>(item)!);
}

/**
 * Writes an account. With `seen` (the record as read) the write holds only if neither the balance
 * nor `updatedAt` moved since, so a balance never goes below zero under racing deductions; without
 * it the account must be new.
 */
export const creditAccountPut = (scope: Scope, account: CreditAccountRecord, seen?: CreditAccountRecord): TransactOp =>
  seen
    ? { put: toItem(accountKey(scope, account._id), 'CreditAccount', account), condition: 'balanceCents = :seen AND updatedAt = :at', values: { ':seen': seen.balanceCents, ':at': seen.updatedAt } }
    : { put: toItem(accountKey(scope, account._id), 'CreditAccount', account), condition: 'attribute_not_exists(PK)' };

/** The pointer of a new account: a second account for the same buyer and product fails its transaction. */
export const creditAccountPointerPut = (scope: Scope, account: CreditAccountRecord): TransactOp => ({
  put: toItem(keys.unique(scope, CREDIT_ACCOUNT_OF, `${account.productId}#${account.buyerEmail}`), 'CreditAccountOf', { accountId: account._id }),
  condition: 'attribute_not_exists(PK)',
});
