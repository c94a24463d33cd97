import { keys, type Scope } from '../store/keys';
import { toItem } from '../store/items';
import { toRecord, type Store, type TransactOp } from '../store/store';
import type { SeatsRecord, UsageKeyRecord, UsagePeriodRecord, UsageReportRecord } from './records';

// Layout (one subscriber's usage lives under its own partitions, so one busy subscriber never
// slows another's reads):
// - report:  PK=<scope>#USAGE#<sub>#REPORT, SK=<reportId> (time-ordered ids; latest first)
// - day:     PK=<scope>#USAGE#<sub>#DAY, SK=<periodStart>#<yyyy-mm-dd> (m_<meter> counters, ADD)
// - key:     PK=<scope>#U#USAGE_KEY, SK=<sub>#<Idempotency-Key> (the report it stands for; TTL 30 days)
// - seats:   PK=<scope>#USAGE_SEATS, SK=<sub>
// - period:  PK=<scope>#USAGE#<sub>#PERIOD, SK=<periodStart> (closed periods; latest first)
const USAGE = 'USAGE';
const reportKey = (scope: Scope, sub: string, id: string) => keys.child(scope, USAGE, sub, 'REPORT', id);
const dayKey = (scope: Scope, sub: string, periodStart: string, day: string) => keys.child(scope, USAGE, sub, 'DAY', `${periodStart}#${day}`);
const keyKey = (scope: Scope, sub: string, key: string) => keys.unique(scope, 'USAGE_KEY', `${sub}#${key}`);
const seatsKey = (scope: Scope, sub: string) => keys.entity(scope, 'USAGE_SEATS', sub);
const periodKey = (scope: Scope, sub: string, periodStart: string) => keys.child(scope, USAGE, sub, 'PERIOD', periodStart);
const KEY_RETENTION_SECONDS = 30 * 86_400;

export const meterAttribute = (meter: string) => `m_${meter}`;

/** A report's writes: the report, its day's counter (ADD), and with a key the key's guard. */
export function reportWrites(scope: Scope, report: UsageReportRecord, fingerprint: string | null, nowSeconds: number): TransactOp[] {
  const day = report.createdAt.slice(0, 10);
  const ops: TransactOp[] = [
    { put: toItem(reportKey(scope, report.subscriberId, report._id), 'UsageReport', report), condition: 'attribute_not_exists(PK)' },
    { update: dayKey(scope, report.subscriberId, report.periodStart, day), set: { entity: 'UsageDay', v: 1, day, periodStart: report.periodStart }, add: { [meterAttribute(report.meter)]: report.quantity } },
  ];
  if (report.idempotencyKey && fingerprint) {
    ops.push({
      put: toItem(keyKey(scope, report.subscriberId, report.idempotencyKey), 'UsageIdempotencyKey', { fingerprint, report } satisfies UsageKeyRecord, { expiresAt: nowSeconds + KEY_RETENTION_SECONDS }),
      condition: 'attribute_not_exists(PK)',
    });
  }
  return ops;
}

export const getKey = async (store: Store, scope: Scope, sub: string, key: string) => toRecord<UsageKeyRecord>(await store.get(keyKey(scope, sub, key), { consistent: true }));

/** The latest reports, newest first (at most `limit`, which is at most 100). */
export const latestReports = async (store: Store, scope: Scope, sub: string, limit: number) =>
  (await store.query({ pk: keys.children(scope, USAGE, sub, 'REPORT'), limit })).items.map((i) => toRecord<UsageReportRecord>(i)!);

export interface DayCounters {
  day: string;
  totals: Record<string, number>;
}

/** The day counters of one period (at most one item per day of the period: 366 for a yearly offer). */
export async function periodDays(store: Store, scope: Scope, sub: string, periodStart: string): Promise<DayCounters[]> {
  const items = await store.queryAll({ pk: keys.children(scope, USAGE, sub, 'DAY'), beginsWith: `${periodStart}#`, ascending: true });
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

export const getPeriod = async (store: Store, scope: Scope, sub: string, periodStart: string) => toRecord<UsagePeriodRecord>(await store.get(periodKey(scope, sub, periodStart), { consistent: true }));

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
