import { putNew } from '../store/conditional';
import type { Scope } from '../store/keys';
import type { Store, TransactOp } from '../store/store';
import { creditAccountEntity, creditAccountOfEntity } from './entities';
import type { CreditAccountRecord } from './records';

// Keys and patterns are declared in entities.ts.
const accountItem = (scope: Scope, account: CreditAccountRecord) => creditAccountEntity.item(creditAccountEntity.declaration.key(scope, account._id), account);

/** The buyer's account of a product, read consistently (the balance decides a deduction). */
export async function findCreditAccount(store: Store, scope: Scope, productId: string, email: string): Promise<CreditAccountRecord | undefined> {
  const pointer = await creditAccountOfEntity.get(store, 'byBuyer', scope, productId, email);
  return pointer ? creditAccountEntity.get(store, 'byId', scope, pointer.accountId) : undefined;
}

/** Every credit account of the tenant and mode. */
export async function listCreditAccountRecords(store: Store, scope: Scope): Promise<CreditAccountRecord[]> {
  return creditAccountEntity.queryAll(store, 'ofTenant', [scope]);
}

/**
 * Writes an account. With `seen` (the record as read) the write holds only if neither the balance
 * nor `updatedAt` moved since, so a balance never goes below zero under racing deductions; without
 * it the account must be new.
 */
export const creditAccountPut = (scope: Scope, account: CreditAccountRecord, seen?: CreditAccountRecord): TransactOp =>
  seen
    ? { put: accountItem(scope, account), condition: 'balanceCents = :seen AND updatedAt = :at', values: { ':seen': seen.balanceCents, ':at': seen.updatedAt } }
    : putNew(accountItem(scope, account));

/** The pointer of a new account: a second account for the same buyer and product fails its transaction. */
export const creditAccountPointerPut = (scope: Scope, account: CreditAccountRecord): TransactOp =>
  putNew(creditAccountOfEntity.item(creditAccountOfEntity.declaration.key(scope, account.productId, account.buyerEmail), { accountId: account._id }));
