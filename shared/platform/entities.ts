/**
 * The platform's own items (not tenant data): accounts, API keys, the rate-limit window, the
 * outbox and consumer markers. Declared here, next to accounts.ts, rate-limit.ts and events.ts.
 */
import { defineEntity } from '../store/entity';
import { keys, type Scope } from '../store/keys';
import type { Account } from './context';

export interface ApiKeyRecord {
  keyId: string;
  accountId: string;
  mode: 'live' | 'test';
  /** First characters of the key, so a person can tell keys apart; never enough to use it. */
  hint: string;
  createdAt: string;
  revokedAt?: string;
}

export const accountEntity = defineEntity<Account>()({
  entity: 'Account',
  version: 1,
  owner: 'platform',
  key: keys.account,
  keyArgs: ['accountId'],
  indexes: { all: { index: 'GSI1', key: keys.accountIndex, args: ['accountId'] } },
  patterns: {
    byId: { kind: 'get', summary: 'Get account', key: keys.account, args: ['accountId'] },
    all: { kind: 'query', summary: 'List accounts (admin CLI only)', partition: keys.accountsPartition, args: [], order: 'oldest first' },
  },
});

export const apiKeyEntity = defineEntity<ApiKeyRecord>()({
  entity: 'ApiKey',
  version: 1,
  owner: 'platform',
  key: keys.apiKey,
  keyArgs: ['sha256(key)'],
  indexes: { ofAccount: { index: 'GSI1', key: keys.apiKeyOfAccount, args: ['accountId', 'keyId'] } },
  patterns: {
    byHash: { kind: 'get', summary: 'Authenticate an API key', key: keys.apiKey, args: ['sha256(key)'], notes: 'cached per function container for 60 s' },
    ofAccount: { kind: 'query', summary: "List an account's API keys", partition: keys.apiKeysPartition, args: ['accountId'], order: 'oldest first' },
  },
});

export const rateWindowEntity = defineEntity<{ count: number }>()({
  entity: 'RateWindow',
  version: 1,
  owner: 'platform',
  key: keys.rateWindow,
  keyArgs: ['accountId', 'window start'],
  patterns: {
    previousWindow: { kind: 'get', key: keys.rateWindow, args: ['accountId', 'previous window start'], consistent: true, summary: 'Requests admitted in the previous minute (sliding estimate)' },
  },
  summary: 'Count requests per account and minute; blocks of tokens are reserved with a conditional ADD',
  notes: 'conditional ADD per block, TTL 3 min',
});

export const outboxEntity = defineEntity<{ eventType: string; event: string }>()({
  entity: 'OutboxEvent',
  version: 1,
  owner: 'platform',
  key: keys.outbox,
  keyArgs: ['scope', 'eventId'],
  patterns: {
    ofTenant: {
      kind: 'query',
      summary: 'Outbox events of a tenant',
      partition: (scope: Scope) => keys.outboxPartition(scope),
      args: ['scope'],
      order: 'oldest first',
      notes: 'TTL 30 days; the stream dispatches inserts; read raw (eventFromItem) by the local control API',
    },
  },
});

/** A bus consumer's "done" marker for one event, so a redelivered event changes nothing twice. */
export const consumerMarkerEntity = defineEntity<{ eventId: string }>()({
  entity: 'ProcessedEvent',
  version: 1,
  owner: 'platform',
  key: keys.processed,
  keyArgs: ['consumer', 'eventId'],
  patterns: {
    byEvent: { kind: 'get', summary: 'Consumer idempotency marker', key: keys.processed, args: ['consumer', 'eventId'], consistent: true },
  },
  notes: 'TTL 7 days',
});
