import { defineEntity } from '../store/entity';
import { keys, type Scope } from '../store/keys';

/**
 * Rollup items. Every per-event write goes to one of WRITE_SHARDS partitions chosen by a hash of
 * the event (or subscriber) id, so a launch spreads its writes over several items and partitions
 * instead of rewriting one; reads sum the shards (rules.ts).
 */
const DAY = 'ANALYTICS_DAY';
const RECURRING = 'ANALYTICS_MRR';
const SUBSCRIBER = 'ANALYTICS_SUBSCRIBER';
const DONE = 'ANALYTICS_DONE';

const dayKey = (scope: Scope, shard: number, date: string) => keys.entity(scope, `${DAY}#${shard}`, date);
const recurringKey = (scope: Scope, shard: number) => keys.entity(scope, `${RECURRING}#${shard}`, 'MRR');
const subscriberKey = (scope: Scope, shard: number, subscriberId: string) => keys.entity(scope, `${SUBSCRIBER}#${shard}`, subscriberId);
const doneKey = (scope: Scope, shard: number, eventId: string) => keys.entity(scope, `${DONE}#${shard}`, eventId);

/** Counters of one day in one shard: `gross_<CUR>`, `refunds_<CUR>`, `sales_<CUR>`, new and churned subscribers. */
export type DayItem = { date: string } & Record<string, unknown>;

export const analyticsDayEntity = defineEntity<DayItem>()({
  entity: 'AnalyticsDay',
  version: 1,
  owner: 'analytics',
  key: dayKey,
  keyArgs: ['scope', 'shard', 'date'],
  patterns: {
    range: {
      kind: 'query',
      summary: 'Day rollups of one write shard between two dates (the summary sums every shard)',
      partition: (scope: Scope, shard: number) => keys.collection(scope, `${DAY}#${shard}`),
      args: ['scope', 'shard'],
      order: 'oldest first',
      condition: 'SK BETWEEN <from> AND <to>',
      notes: 'one item per day and shard with counters per currency; at most 366 per query',
    },
  },
  notes: 'written with ADD by the analytics consumers',
});

/** The recurring-revenue counters of one shard: `mrr_<CUR>` and `activeSubscribers`. */
export const analyticsRecurringEntity = defineEntity<Record<string, unknown>>()({
  entity: 'AnalyticsRecurring',
  version: 1,
  owner: 'analytics',
  key: recurringKey,
  keyArgs: ['scope', 'shard'],
  patterns: {
    byShard: {
      kind: 'get',
      summary: 'Recurring revenue and active subscribers of one write shard (the summary reads every shard)',
      key: recurringKey,
      args: ['scope', 'shard'],
    },
  },
  notes: 'written with ADD by the subscriber consumer',
});

/** What one subscriber adds to the recurring counters now, and the latest recurring charge seen. */
export interface SubscriberShare {
  subscriberId: string;
  active: boolean;
  monthlyCents: number;
  currency: string;
  lastChargeSaleId: string | null;
  lastChargeCents: number | null;
  lastChargeCurrency: string | null;
  /** Bumped on every change: a racing consumer's write fails and it reads again. */
  rev: number;
}

export const analyticsSubscriberEntity = defineEntity<SubscriberShare>()({
  entity: 'AnalyticsSubscriber',
  version: 1,
  owner: 'analytics',
  key: subscriberKey,
  keyArgs: ['scope', 'shard(subscriberId)', 'subscriberId'],
  patterns: {
    byId: {
      kind: 'get',
      summary: "A subscriber's share of the recurring counters",
      key: subscriberKey,
      args: ['scope', 'shard(subscriberId)', 'subscriberId'],
      consistent: true,
    },
  },
});

/** The sales consumer's marker of one event, written in the same transaction as the counters it added. */
export const analyticsDoneEntity = defineEntity<{ eventId: string }>()({
  entity: 'AnalyticsEventCounted',
  version: 1,
  owner: 'analytics',
  key: doneKey,
  keyArgs: ['scope', 'shard(eventId)', 'eventId'],
  patterns: {},
  summary: 'An event already added to the day rollups: its put fails the transaction of a redelivery',
  notes: 'TTL 30 days; tenant-scoped and write-sharded (no partition shared by all accounts)',
});
