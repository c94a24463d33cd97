import { createHash } from 'node:crypto';
import type { Clock } from './clock';
import type { Account } from './context';
import { objectId, randomBase62 } from './ids';
import type { Plan } from './plans';
import { accountEntity, apiKeyEntity, type ApiKeyRecord } from './entities';
import type { Mode } from '../store/keys';
import { ConditionFailed, toRecord, type Store } from '../store/store';

export type { ApiKeyRecord } from './entities';

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

export const KEY_PATTERN = /^pk_(live|test)_[0-9A-Za-z]{32}$/;

export async function createAccount(store: Store, clock: Clock, input: { email: string; name?: string; plan?: Plan; currency?: string }): Promise<Account> {
  const account: Account = {
    accountId: objectId(clock),
    email: input.email,
    name: input.name,
    plan: input.plan ?? 'free',
    currency: input.currency ?? 'USD',
    senderVerified: true,
    createdAt: clock.now().toISOString(),
  };
  await store.put(
    accountEntity.item(accountEntity.declaration.key(account.accountId), account, {
      indexes: [
        accountEntity.declaration.indexes!.all!.key(account.accountId),
        accountEntity.declaration.indexes!.byOwnerEmail!.key(account.email, account.accountId),
      ],
    }),
    { ifNotExists: true },
  );
  return account;
}

export async function getAccount(store: Store, accountId: string): Promise<Account | undefined> {
  return accountEntity.get(store, 'byId', accountId);
}

export async function listAccounts(store: Store): Promise<Account[]> {
  return accountEntity.queryAll(store, 'all', []);
}

export async function updateAccount(store: Store, accountId: string, change: Partial<Omit<Account, 'accountId' | 'createdAt'>>): Promise<Account> {
  return toRecord<Account>(await store.update(accountEntity.declaration.key(accountId), { set: change }, { mustExist: true }))!;
}

/** Creates an API key; its text is returned once and only its hash is stored. */
export async function createApiKey(store: Store, clock: Clock, accountId: string, mode: Mode, name?: string): Promise<{ key: string; record: ApiKeyRecord }> {
  const key = `pk_${mode}_${randomBase62(32)}`;
  const record: ApiKeyRecord = {
    keyId: objectId(clock),
    accountId,
    mode,
    hint: key.slice(0, 12),
    createdAt: clock.now().toISOString(),
    ...(name ? { name } : {}),
  };
  await store.put(
    apiKeyEntity.item(apiKeyEntity.declaration.key(hashKey(key)), record, {
      indexes: [apiKeyEntity.declaration.indexes!.ofAccount!.key(accountId, record.keyId)],
    }),
    { ifNotExists: true },
  );
  return { key, record };
}

export async function findApiKey(store: Store, key: string): Promise<ApiKeyRecord | undefined> {
  if (!KEY_PATTERN.test(key)) return undefined;
  return apiKeyEntity.get(store, 'byHash', hashKey(key));
}

export async function listApiKeys(store: Store, accountId: string): Promise<ApiKeyRecord[]> {
  return apiKeyEntity.queryAll(store, 'ofAccount', [accountId]);
}

/**
 * Revokes by key id (what the admin CLI lists); the hash stays so the key can never come back.
 * A key revoked already keeps its first revocation time. This process's authentication cache
 * forgets the key at once (auth.ts); other containers' caches within their TTL (60 s).
 */
export async function revokeApiKey(store: Store, clock: Clock, accountId: string, keyId: string): Promise<boolean> {
  // The record carries no hash (the table key), so the key is read from the index item.
  const [key] = await apiKeyEntity.queryKeys(store, 'ofAccount', [accountId], { beginsWith: keyId });
  if (!key) return false;
  try {
    await store.update(key, { set: { revokedAt: clock.now().toISOString() } }, { condition: 'attribute_not_exists(revokedAt)' });
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
  }
  for (const listener of revocationListeners) listener(keyId);
  return true;
}

const revocationListeners = new Set<(keyId: string) => void>();
/** auth.ts listens, so a revoked key leaves this process's cache with the revocation. */
export const onApiKeyRevoked = (listener: (keyId: string) => void) => revocationListeners.add(listener);
