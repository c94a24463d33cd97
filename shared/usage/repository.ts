import { keys, type Scope } from '../store/keys';
import { toItem } from '../store/items';
import { toRecord, type Store, type TransactOp } from '../store/store';
import type { ActivityActor } from '../platform/activity';
import { carriedEvent, type DomainEvent } from '../platform/events';
import type { DayGroup } from './rules';
import type { SeatsRecord, UsageKeyRecord, UsagePeriodRecord, UsageReportRecord } from './records';

// Layout (one subscriber's usage lives under its own partitions, so one busy subscriber never
// slows another's reads):
// - report:  PK=<scope>#USAGE#<sub>#REPORT, SK=<reportId> (time-ordered ids; latest first; carries usage.recorded)
// - day:     PK=<scope>#USAGE#<sub>#DAY, SK=<periodStart>#<yyyy-mm-dd> (m_<meter> counters, ADD)
// - key:     PK=<scope>#U#USAGE_KEY, SK=<sub>#<Idempotency-Key> (the report it stands for; TTL 30 days)
// - seats:   PK=<scope>#USAGE_SEATS, SK=<sub>
// - fold:    PK=<scope>#USAGE_FOLD, SK=<sub> (the last report id folded into the day counters)
// - period:  PK=<scope>#USAGE#<sub>#PERIOD, SK=<periodStart> (closed periods; latest first)
const USAGE = 'USAGE';
const reportKey = (scope: Scope, sub: string, id: string) => keys.child(scope, USAGE, sub, 'REPORT', id);
const dayKey = (scope: Scope, sub: string, periodStart: string, day: string) => keys.child(scope, USAGE, sub, 'DAY', `${periodStart}#${day}`);
const keyKey = (scope: Scope, sub: string, key: string) => keys.unique(scope, 'USAGE_KEY', `${sub}#${key}`);
const seatsKey = (scope: Scope, sub: string) => keys.entity(scope, 'USAGE_SEATS', sub);
const periodKey = (scope: Scope, sub: string, periodStart: string) => keys.child(scope, USAGE, sub, 'PERIOD', periodStart);
const foldKey = (scope: Scope, sub: string) => keys.entity(scope, 'USAGE_FOLD', sub);
const KEY_RETENTION_SECONDS = 30 * 86_400;

export const meterAttribute = (meter: string) => `m_${meter}`;

const REPORT_FIELDS = ['_id', 'subscriberId', 'subscriptionId', 'meter', 'quantity', 'periodStart', 'idempotencyKey', 'createdAt'] as const;
/** The report as stored (the item also carries its `usage.recorded` event, which is not part of the record). */
const reportFrom = (item: Record<string, unknown>): UsageReportRecord =>
  Object.fromEntries(REPORT_FIELDS.map((f) => [f, item[f]])) as unknown as UsageReportRecord;

/**
 * The report item: the report and its `usage.recorded` event in one small item (the stream
 * dispatches the insert's event, as for an outbox item), so a keyless report is one PutItem.
 */
export const reportItem = (scope: Scope, report: UsageReportRecord, event: DomainEvent, reportedBy?: ActivityActor) => ({
  ...toItem(reportKey(scope, report.subscriberId, report._id), 'UsageReport', report),
  ...carriedEvent(event),
  // Compact (the item must stay under 1 KB): `owner_key`, `system` or `member:<memberId>`.
  ...(reportedBy ? { reportedBy: reportedBy.memberId ? `member:${reportedBy.memberId}` : reportedBy.type } : {}),
});

/** A keyless report: one PutItem (ids are unique; the condition only guards against a clash). */
export const putReport = (store: Store, scope: Scope, report: UsageReportRecord, event: DomainEvent, reportedBy?: ActivityActor) =>
  store.put(reportItem(scope, report, event, reportedBy), { ifNotExists: true });

/** A keyed report: the report item and the key's guard, each put only if absent, in one transaction. */
export function keyedReportWrites(scope: Scope, report: UsageReportRecord, event: DomainEvent, fingerprint: string, nowSeconds: number): TransactOp[] {
  return [
    { put: reportItem(scope, report, event), condition: 'attribute_not_exists(PK)' },
    {
      put: toItem(keyKey(scope, report.subscriberId, report.idempotencyKey!), 'UsageIdempotencyKey', { fingerprint, report } satisfies UsageKeyRecord, {
        expiresAt: nowSeconds + KEY_RETENTION_SECONDS,
      }),
      condition: 'attribute_not_exists(PK)',
    },
  ];
}

/** Reports with ids in (`after`, `before`), oldest first, at most `limit` (consistent: a fold and a read must see every committed one). */
export async function reportsBetween(
  store: Store,
  scope: Scope,
  sub: string,
  range: { after: string; before?: string; limit?: number },
): Promise<UsageReportRecord[]> {
  const pk = keys.children(scope, USAGE, sub, 'REPORT');
  const out: UsageReportRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.query({
      pk,
      ...(range.before ? { between: [range.after || '0', range.before] as [string, string] } : range.after ? { after: range.after } : {}),
      ascending: true,
      consistent: true,
      cursor,
      limit: Math.min(1000, (range.limit ?? Infinity) - out.length),
    });
    for (const item of page.items) if (item.SK !== range.after) out.push(reportFrom(item));
    cursor = page.cursor;
  } while (cursor && out.length < (range.limit ?? Infinity));
  return out;
}

/** How far a subscriber's reports are folded into its day counters (`through`: last report id folded). */
export interface FoldState {
  subscriberId: string;
  through: string;
  foldedAt: string;
}

export const getFoldState = async (store: Store, scope: Scope, sub: string) => toRecord<FoldState>(await store.get(foldKey(scope, sub), { consistent: true }));

/**
 * One fold: an ADD per (period, day) counter and the moved fold state, in one transaction guarded
 * by the state it was read with, so a fold repeated or racing another adds nothing twice.
 */
export function foldWrites(scope: Scope, sub: string, before: FoldState | undefined, after: FoldState, groups: DayGroup[]): TransactOp[] {
  return [
    ...groups.map(
      (g): TransactOp => ({
        update: dayKey(scope, sub, g.periodStart, g.day),
        set: { entity: 'UsageDay', v: 1, day: g.day, periodStart: g.periodStart },
        add: Object.fromEntries(Object.entries(g.totals).map(([meter, q]) => [meterAttribute(meter), q])),
      }),
    ),
    before
      ? { put: toItem(foldKey(scope, sub), 'UsageFold', after), condition: 'through = :before', values: { ':before': before.through } }
      : { put: toItem(foldKey(scope, sub), 'UsageFold', after), condition: 'attribute_not_exists(PK)' },
  ];
}

export const getKey = async (store: Store, scope: Scope, sub: string, key: string) =>
  toRecord<UsageKeyRecord>(await store.get(keyKey(scope, sub, key), { consistent: true }));

/** The latest reports, newest first (at most `limit`, which is at most 100). */
export const latestReports = async (store: Store, scope: Scope, sub: string, limit: number) =>
  (await store.query({ pk: keys.children(scope, USAGE, sub, 'REPORT'), limit })).items.map(reportFrom);

export interface DayCounters {
  day: string;
  totals: Record<string, number>;
}

/** The day counters of one period (at most one item per day of the period: 366 for a yearly offer). */
export async function periodDays(store: Store, scope: Scope, sub: string, periodStart: string): Promise<DayCounters[]> {
  const items = await store.queryAll({ pk: keys.children(scope, USAGE, sub, 'DAY'), beginsWith: `${periodStart}#`, ascending: true, consistent: true });
  return items.map((item) => {
    const totals: Record<string, number> = {};
    for (const [name, value] of Object.entries(item)) if (name.startsWith('m_') && typeof value === 'number') totals[name.slice(2)] = value;
    return { day: String(item.day), totals };
  });
}

export const getSeats = async (store: Store, scope: Scope, sub: string) => toRecord<SeatsRecord>(await store.get(seatsKey(scope, sub), { consistent: true }));

export const seatsPut = (scope: Scope, seats: SeatsRecord): TransactOp => ({ put: toItem(seatsKey(scope, seats.subscriberId), 'UsageSeats', seats) });

/** Replaces the seats record, guarded by the `updatedAt` it was read with. */
export const seatsReplace = (scope: Scope, before: SeatsRecord, after: SeatsRecord): TransactOp => ({
  put: toItem(seatsKey(scope, after.subscriberId), 'UsageSeats', after),
  condition: 'updatedAt = :before',
  values: { ':before': before.updatedAt },
});

export const getPeriod = async (store: Store, scope: Scope, sub: string, periodStart: string) =>
  toRecord<UsagePeriodRecord>(await store.get(periodKey(scope, sub, periodStart), { consistent: true }));

export const latestPeriods = async (store: Store, scope: Scope, sub: string, limit: number) =>
  (await store.query({ pk: keys.children(scope, USAGE, sub, 'PERIOD'), limit })).items.map((i) => toRecord<UsagePeriodRecord>(i)!);

export const periodPutNew = (scope: Scope, period: UsagePeriodRecord): TransactOp => ({
  put: toItem(periodKey(scope, period.subscriberId, period.periodStart), 'UsagePeriod', period),
  condition: 'attribute_not_exists(PK)',
});

/** Replaces a period, guarded by the `updatedAt` it was read with (one charge attempt at a time). */
export const periodReplace = (scope: Scope, before: UsagePeriodRecord, after: UsagePeriodRecord): TransactOp => ({
  put: toItem(periodKey(scope, after.subscriberId, after.periodStart), 'UsagePeriod', after),
  condition: 'updatedAt = :before',
  values: { ':before': before.updatedAt },
});
