import { putNew } from '../store/conditional';
import type { Scope } from '../store/keys';
import type { Store, TransactOp } from '../store/store';
import { creditAccountEntity, creditAccountOfEntity, creditLinkEntity, type CreditLinkRecord } from './entities';
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

/** A credit account by id, read consistently. */
export const getCreditAccount = (store: Store, scope: Scope, id: string) => creditAccountEntity.get(store, 'byId', scope, id);

/** The buyer's balance link: the account it opens, with its tenant. */
export const findCreditLink = (store: Store, token: string): Promise<CreditLinkRecord | undefined> => creditLinkEntity.get(store, 'byToken', token);

/** The link's pointer, written with the account that first holds the token. */
export const creditLinkPut = (scope: Scope, token: string, creditAccountId: string): TransactOp =>
  putNew(creditLinkEntity.item(creditLinkEntity.declaration.key(token), { accountId: scope.accountId, mode: scope.mode, creditAccountId }));

/**
 * Claims a top-off: the account must still be as read (balance, `updatedAt`) and consent still
 * given. A withdrawal of consent that comes later waits for the claim to go (see below), so a
 * charge never lands after the buyer said no, and a charge in flight is never lost to a withdrawal.
 */
export const creditRefillClaim = (scope: Scope, account: CreditAccountRecord, at: string): TransactOp => ({
  update: creditAccountEntity.declaration.key(scope, account._id),
  set: { refillClaimedAt: at },
  condition: 'balanceCents = :seen AND updatedAt = :at AND autoRefill.consent = :yes',
  values: { ':seen': account.balanceCents, ':at': account.updatedAt, ':yes': true },
});

/** Writes a withdrawal of consent: as read, and with no top-off claimed since `staleBefore`. */
export const creditConsentPut = (scope: Scope, account: CreditAccountRecord, seen: CreditAccountRecord, staleBefore: string): TransactOp => ({
  put: accountItem(scope, account),
  condition: 'balanceCents = :seen AND updatedAt = :at AND (attribute_not_exists(refillClaimedAt) OR refillClaimedAt < :stale)',
  values: { ':seen': seen.balanceCents, ':at': seen.updatedAt, ':stale': staleBefore },
});

/** The pointer of a new account: a second account for the same buyer and product fails its transaction. */
export const creditAccountPointerPut = (scope: Scope, account: CreditAccountRecord): TransactOp =>
  putNew(creditAccountOfEntity.item(creditAccountOfEntity.declaration.key(scope, account.productId, account.buyerEmail), { accountId: account._id }));

/**
 * An erased buyer's account: the address, the saved card and the consent to top up go, and the
 * pointer keyed by the address with them; the balance, currency and customer id stay on the books.
 * A later purchase by the same address opens a new account.
 */
export const creditAccountErasure = (scope: Scope, account: CreditAccountRecord, at: string): TransactOp[] => [
  {
    update: creditAccountEntity.declaration.key(scope, account._id),
    set: { buyerEmail: '', autoRefill: { consent: false, paymentMethodId: null }, updatedAt: at },
    remove: ['consentToken'],
    condition: 'attribute_exists(PK)',
  },
  { delete: creditAccountOfEntity.declaration.key(scope, account.productId, account.buyerEmail) },
];
