import { createHash } from 'node:crypto';
import type { Clock } from './clock';
import type { Account } from './context';
import { objectId, randomBase62 } from './ids';
import type { Plan } from './plans';
import { keys, type Mode } from '../store/keys';
import { toItem } from '../store/items';
import { toRecord, type Store } from '../store/store';

export interface ApiKeyRecord {
  keyId: string;
  accountId: string;
  mode: Mode;
  /** First characters of the key, so a person can tell keys apart; never enough to use it. */
  hint: string;
  createdAt: string;
  revokedAt?: string;
}

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

export const KEY_PATTERN = /^pk_(live|test)_[0-9A-Za-z]{32}$/;

export async function createAccount(
  store: Store,
  clock: Clock,
  input: { email: string; name?: string; plan?: Plan; currency?: string },
): Promise<Account> {
  const account: Account = {
    accountId: objectId(clock),
    email: input.email,
    name: input.name,
    plan: input.plan ?? 'free',
    currency: input.currency ?? 'USD',
    senderVerified: true,
    createdAt: clock.now().toISOString(),
  };
  await store.put(toItem(keys.account(account.accountId), 'Account', account, { indexes: [keys.accountIndex(account.accountId)] }), { ifNotExists: true });
  return account;
}

export async function getAccount(store: Store, accountId: string): Promise<Account | undefined> {
  return toRecord<Account>(await store.get(keys.account(accountId)));
}

export async function listAccounts(store: Store): Promise<Account[]> {
  const partition = keys.accountsPartition();
  return (await store.queryAll({ index: partition.index, pk: partition.pk, ascending: true })).map((i) => toRecord<Account>(i)!);
}

export async function updateAccount(store: Store, accountId: string, change: Partial<Omit<Account, 'accountId' | 'createdAt'>>): Promise<Account> {
  return toRecord<Account>(await store.update(keys.account(accountId), { set: change }, { mustExist: true }))!;
}

/** Creates an API key; its text is returned once and only its hash is stored. */
export async function createApiKey(store: Store, clock: Clock, accountId: string, mode: Mode): Promise<{ key: string; record: ApiKeyRecord }> {
  const key = `pk_${mode}_${randomBase62(32)}`;
  const record: ApiKeyRecord = { keyId: objectId(clock), accountId, mode, hint: key.slice(0, 12), createdAt: clock.now().toISOString() };
  await store.put(toItem(keys.apiKey(hashKey(key)), 'ApiKey', record, { indexes: [keys.apiKeyOfAccount(accountId, record.keyId)] }), { ifNotExists: true });
  return { key, record };
}

export async function findApiKey(store: Store, key: string): Promise<ApiKeyRecord | undefined> {
  if (!KEY_PATTERN.test(key)) return undefined;
  return toRecord<ApiKeyRecord>(await store.get(keys.apiKey(hashKey(key))));
}

export async function listApiKeys(store: Store, accountId: string): Promise<ApiKeyRecord[]> {
  const partition = keys.apiKeysPartition(accountId);
  return (await store.queryAll({ index: partition.index, pk: partition.pk, ascending: true })).map((i) => toRecord<ApiKeyRecord>(i)!);
}

/** Revokes by key id (what the admin CLI lists); the hash stays so the key can never come back. */
export async function revokeApiKey(store: Store, clock: Clock, accountId: string, keyId: string): Promise<boolean> {
  const partition = keys.apiKeysPartition(accountId);
  const items = await store.queryAll({ index: partition.index, pk: partition.pk, beginsWith: keyId });
  const item = items[0];
  if (!item) return false;
  await store.update({ PK: item.PK as string, SK: item.SK as string }, { set: { revokedAt: clock.now().toISOString() } });
  return true;
}
