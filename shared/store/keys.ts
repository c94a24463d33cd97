/**
 * The one module that builds DynamoDB keys. No other file writes a PK, SK or GSI key string.
 *
 * Every tenant key starts with the scope `A#<accountId>#<mode>`, so a query built from one
 * account's scope, or one mode's, cannot reach another's items: isolation by construction.
 * Items of one kind for one tenant share a partition (`<scope>#<TYPE>`) with the 24-hex,
 * time-ordered id as sort key, so a descending query lists them newest first.
 */
import { shardOf, WRITE_SHARDS } from './shards';
import type { IndexName } from './table';

export type Mode = 'live' | 'test';
export interface Scope {
  accountId: string;
  mode: Mode;
}

export type Key = { PK: string; SK: string };
export type IndexKey = Record<string, string>;

const scopePrefix = (scope: Scope) => `A#${scope.accountId}#${scope.mode}`;
/** The shard of an id; a placeholder (`<sessionId>`, when the access-pattern table is rendered) names it instead. */
const shardName = (id: string) => (/^<.*>$/.test(id) ? `<shard(${id.slice(1, -1)})>` : String(shardOf(id)));

/** Scope-free prefixes the platform itself owns. */
const GLOBAL = {
  account: 'ACCOUNT',
  apiKey: 'APIKEY',
  rate: 'RATE',
  timer: 'TIMERS',
  local: 'LOCAL',
  person: 'PERSON',
} as const;

export const keys = {
  // ---- platform (not tenant data) ----
  account: (accountId: string): Key => ({ PK: `${GLOBAL.account}#${accountId}`, SK: 'ACCOUNT' }),
  /** Lists every account (admin tooling only, never a request path). */
  accountIndex: (accountId: string): IndexKey => ({ GSI1PK: 'ACCOUNTS', GSI1SK: accountId }),
  accountsPartition: (): { index: IndexName; pk: string } => ({ index: 'GSI1', pk: 'ACCOUNTS' }),
  /** An API key is found by the SHA-256 of its text; the key itself is never stored. */
  apiKey: (keyHash: string): Key => ({ PK: `${GLOBAL.apiKey}#${keyHash}`, SK: 'APIKEY' }),
  /** The keys of one account, for listing and revocation. */
  apiKeyOfAccount: (accountId: string, keyId: string): IndexKey => ({ GSI1PK: `${GLOBAL.account}#${accountId}#KEYS`, GSI1SK: keyId }),
  apiKeysPartition: (accountId: string): { index: IndexName; pk: string } => ({ index: 'GSI1', pk: `${GLOBAL.account}#${accountId}#KEYS` }),
  rateWindow: (accountId: string, windowStart: number): Key => ({ PK: `${GLOBAL.rate}#${accountId}`, SK: String(windowStart) }),
  /**
   * The stores a person (by lower-cased email) can sign in to: the accounts they own
   * (`OWNER#<accountId>`) and their team grants (`MEMBER#<accountId>#<mode>#<memberId>`), as index
   * keys on those items themselves, so the index is written in the same write as what it mirrors.
   */
  personIndex: (email: string, sort: string): IndexKey => ({ GSI2PK: `${GLOBAL.person}#${email}`, GSI2SK: sort }),
  personPartition: (email: string): { index: IndexName; pk: string } => ({ index: 'GSI2', pk: `${GLOBAL.person}#${email}` }),

  // ---- tenant records ----
  /** One record of a kind: `<scope>#<TYPE>` / id. */
  entity: (scope: Scope, type: string, id: string): Key => ({ PK: `${scopePrefix(scope)}#${type}`, SK: id }),
  /** The partition holding every record of one kind for one tenant. */
  collection: (scope: Scope, type: string): string => `${scopePrefix(scope)}#${type}`,

  /** A record that belongs to a parent (a subscriber's payments, a membership's posts). */
  child: (scope: Scope, parentType: string, parentId: string, type: string, id: string): Key => ({
    PK: `${scopePrefix(scope)}#${parentType}#${parentId}#${type}`,
    SK: id,
  }),
  children: (scope: Scope, parentType: string, parentId: string, type: string): string => `${scopePrefix(scope)}#${parentType}#${parentId}#${type}`,

  /**
   * One record of a hot kind in its write shard (shards.ts): `<scope>#<TYPE>#<n>` / id, n from
   * `shardBy` (the id itself unless records are grouped by another id, such as an event's deliveries).
   */
  sharded: (scope: Scope, type: string, id: string, shardBy: string = id): Key => ({ PK: `${scopePrefix(scope)}#${type}#${shardName(shardBy)}`, SK: id }),
  /** The partition of one write shard of a hot kind. */
  shard: (scope: Scope, type: string, shard: number): string => `${scopePrefix(scope)}#${type}#${shard}`,
  /** Every write shard of a hot kind, for a list's parallel queries. */
  shards: (scope: Scope, type: string): string[] => Array.from({ length: WRITE_SHARDS }, (_, n) => `${scopePrefix(scope)}#${type}#${n}`),

  /**
   * A uniqueness guard or an exact-match lookup (discount code, customer email, mem_ id):
   * written with attribute_not_exists in the same transaction as the record it points to.
   */
  unique: (scope: Scope, name: string, value: string): Key => ({ PK: `${scopePrefix(scope)}#U#${name}`, SK: value }),

  /**
   * A secondary access path on an overloaded index, always inside the tenant scope:
   * `<scope>#<pathName>#<value>` sorted by `sort`.
   */
  indexed: (index: IndexName, scope: Scope, pathName: string, value: string, sort: string): IndexKey => ({
    [`${index}PK`]: `${scopePrefix(scope)}#${pathName}#${value}`,
    [`${index}SK`]: sort,
  }),
  indexPartition: (index: IndexName, scope: Scope, pathName: string, value: string): { index: IndexName; pk: string } => ({
    index,
    pk: `${scopePrefix(scope)}#${pathName}#${value}`,
  }),
  /**
   * A hot index path in its write shard (shards.ts): `<scope>#<pathName>#<value>#<n>` sorted by
   * `sort`, n from `shardBy` (the record's id). Queries read every shard (`indexShards`) and the
   * unsharded partition earlier releases wrote (`indexPartition`) and merge them by sort key.
   */
  shardedIndexed: (index: IndexName, scope: Scope, pathName: string, value: string, sort: string, shardBy: string): IndexKey => ({
    [`${index}PK`]: `${scopePrefix(scope)}#${pathName}#${value}#${shardName(shardBy)}`,
    [`${index}SK`]: sort,
  }),
  /** Every write shard of a hot index path, for a query's parallel reads. */
  indexShards: (index: IndexName, scope: Scope, pathName: string, value: string): { index: IndexName; pk: string }[] =>
    Array.from({ length: WRITE_SHARDS }, (_, n) => ({ index, pk: `${scopePrefix(scope)}#${pathName}#${value}#${n}` })),

  /** Scope-free capability lookups (portal tokens, hosted checkout sessions): the token is the key. */
  capability: (kind: string, token: string): Key => ({ PK: `CAP#${kind}#${token}`, SK: 'CAP' }),

  /** A domain event in the outbox, in its write shard: written in the same transaction as the change it reports. */
  outbox: (scope: Scope, eventId: string): Key => ({ PK: `${scopePrefix(scope)}#EVENT#${shardName(eventId)}`, SK: eventId }),
  /** The outbox's write shards (a list merges them, with `outboxBefore`'s partition). */
  outboxShards: (scope: Scope): string[] => Array.from({ length: WRITE_SHARDS }, (_, n) => `${scopePrefix(scope)}#EVENT#${n}`),
  /** The outbox of releases before write shards: one partition per tenant, read until its 30-day TTL empties it. */
  outboxBefore: (scope: Scope, eventId: string): Key => ({ PK: `${scopePrefix(scope)}#EVENT`, SK: eventId }),
  outboxPartitionBefore: (scope: Scope): string => `${scopePrefix(scope)}#EVENT`,

  /** A client's Idempotency-Key (HTTP POST): one partition per key, so busy accounts spread out. */
  idempotency: (scope: Scope, key: string): Key => ({ PK: `${scopePrefix(scope)}#IDEMKEY#${key}`, SK: 'IDEMKEY' }),

  /**
   * Idempotency marker for a consumer that must act once per event or notification. Each marker is
   * its own partition: markers are only ever read by their key, and one partition per consumer was
   * shared by every account on every event (a deployment-wide ceiling near 500 checkouts a second).
   */
  processed: (consumer: string, id: string): Key => ({ PK: `DONE#${consumer}#${id}`, SK: 'DONE' }),
  /** The marker layout of releases before per-marker partitions, read while their markers live (markers.ts). */
  processedBefore: (consumer: string, id: string): Key => ({ PK: `DONE#${consumer}`, SK: id }),
  /** When this table's data took a key layout (`since`), written once by the first code that needs it. */
  layout: (name: string): Key => ({ PK: 'LAYOUT', SK: name }),

  // ---- local runtime only ----
  /** Local scheduler timers, sorted by due time so the clock can fire them in order. */
  timer: (dueAtMs: number, name: string): Key => ({ PK: GLOBAL.timer, SK: `${String(dueAtMs).padStart(15, '0')}#${name}` }),
  timerByName: (name: string): Key => ({ PK: `${GLOBAL.timer}#NAME`, SK: name }),
  timersPartition: (): string => GLOBAL.timer,
  localState: (name: string): Key => ({ PK: GLOBAL.local, SK: name }),
};

/** The attributes that are keys, stripped from items before they become domain records. */
export const KEY_ATTRIBUTES = ['PK', 'SK', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'GSI3PK', 'GSI3SK', 'entity', 'v', 'expiresAt'];

export const scopeOf = (accountId: string, mode: Mode): Scope => ({ accountId, mode });
