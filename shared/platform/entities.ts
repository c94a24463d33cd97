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
  /** What the key is for, as its creator named it (keys made by the admin CLI have none). */
  name?: string;
  createdAt: string;
  revokedAt?: string;
}

export const accountEntity = defineEntity<Account>()({
  entity: 'Account',
  version: 1,
  owner: 'platform',
  key: keys.account,
  keyArgs: ['accountId'],
  indexes: {
    all: { index: 'GSI1', key: keys.accountIndex, args: ['accountId'] },
    byOwnerEmail: {
      index: 'GSI2',
      key: (email: string, accountId: string) => keys.personIndex(email.trim().toLowerCase(), `OWNER#${accountId}`),
      args: ['email', 'accountId'],
    },
  },
  patterns: {
    byId: { kind: 'get', summary: 'Get account', key: keys.account, args: ['accountId'] },
    ownedBy: {
      kind: 'query',
      summary: 'Accounts owned by an email (dashboard sign-in)',
      partition: keys.personPartition,
      args: ['email'],
      condition: 'begins_with(GSI2SK, OWNER#)',
      notes: 'accounts created before the index existed are not found until their owner email is written again',
    },
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

/**
 * A team member's grant (member-access.ts; the team capability writes it with every change of the
 * member or their teams). Its person index lets sign-in find a person's stores without a scan.
 */
export interface MemberAccessItem {
  memberId: string;
  email: string;
  role: 'owner' | 'admin' | 'member';
  areas: string[];
  status: 'active' | 'suspended';
  /** Written since the person index exists (older grants lack them, and the index key). */
  accountId?: string;
  mode?: 'live' | 'test';
}

export const memberAccessEntity = defineEntity<MemberAccessItem>()({
  entity: 'MemberAccess',
  version: 1,
  owner: 'platform',
  key: (scope: Scope, memberId: string) => keys.entity(scope, 'MEMBER_ACCESS', memberId),
  keyArgs: ['scope', 'memberId'],
  indexes: {
    ofPerson: {
      index: 'GSI2',
      key: (email: string, scope: Scope, memberId: string) =>
        keys.personIndex(email.trim().toLowerCase(), `MEMBER#${scope.accountId}#${scope.mode}#${memberId}`),
      args: ['email', 'scope', 'memberId'],
    },
  },
  patterns: {
    byId: {
      kind: 'get',
      summary: "A team member's grant (every request made with a member's session token)",
      key: (scope: Scope, memberId: string) => keys.entity(scope, 'MEMBER_ACCESS', memberId),
      args: ['scope', 'memberId'],
    },
    ofPerson: {
      kind: 'query',
      summary: 'Team grants of an email across stores (dashboard sign-in)',
      partition: keys.personPartition,
      args: ['email'],
      condition: 'begins_with(GSI2SK, MEMBER#)',
      notes: 'one item per store and mode the person is a member of',
    },
  },
});

/** A dashboard sign-in (issue 22): every session token it issued names it in `sid`; deleting it signs them all out. */
export interface DashboardSessionRecord {
  sid: string;
  email: string;
  createdAt: string;
  validUntil: string;
}

export const dashboardSessionEntity = defineEntity<DashboardSessionRecord>()({
  entity: 'DashboardSession',
  version: 1,
  owner: 'platform',
  key: (sid: string) => keys.capability('DASHSESSION', sid),
  keyArgs: ['sid'],
  patterns: {
    bySid: {
      kind: 'get',
      summary: 'Is a dashboard sign-in still open (every request with a session token that has a sid)',
      key: (sid: string) => keys.capability('DASHSESSION', sid),
      args: ['sid'],
      consistent: true,
      notes: "consistent read, so a sign-out applies to the very next request; TTL at the tokens' expiry",
    },
  },
});

export const rateWindowEntity = defineEntity<{ count: number }>()({
  entity: 'RateWindow',
  version: 1,
  owner: 'platform',
  key: keys.rateWindow,
  keyArgs: ['accountId', 'window start'],
  patterns: {
    previousWindow: {
      kind: 'get',
      key: keys.rateWindow,
      args: ['accountId', 'previous window start'],
      consistent: true,
      summary: 'Requests admitted in the previous minute (sliding estimate)',
    },
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
      summary: 'Outbox events of a tenant, one write shard (lists merge the 16 shards and the pre-shard partition in id order)',
      partition: (scope: Scope, shard: number) => keys.shard(scope, 'EVENT', shard),
      args: ['scope', 'shard 0..15'],
      notes: 'TTL 30 days; the stream dispatches inserts; read raw (eventFromItem) by events/repository.ts',
    },
    ofTenantBefore: {
      kind: 'query',
      summary: 'Outbox events a release before write shards wrote (read as one more shard until their TTL)',
      partition: (scope: Scope) => keys.outboxPartitionBefore(scope),
      args: ['scope'],
      notes: 'TTL 30 days',
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

export interface ErasedEmailRecord {
  hash: string;
  erasedAt: string;
}

const ERASED_EMAIL = 'ERASED_EMAIL';
const erasedEmailKey = (scope: Scope, hash: string) => keys.unique(scope, ERASED_EMAIL, hash);

export const erasedEmailEntity = defineEntity<ErasedEmailRecord>()({
  entity: 'ErasedEmail',
  version: 1,
  owner: 'platform',
  key: erasedEmailKey,
  keyArgs: ['scope', 'sha256(email)'],
  patterns: {
    byHash: { kind: 'get', summary: 'Do-not-recreate list: an erased email (imports, late events)', key: erasedEmailKey, args: ['scope', 'sha256(email)'] },
  },
});
