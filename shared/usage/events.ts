import type { UsagePeriodRecord, UsageReportRecord } from './records';

/** A closed period as the API and `usage.period_closed` show it. */
export const presentPeriod = (p: UsagePeriodRecord) => ({
  periodStart: p.periodStart,
  periodEnd: p.periodEnd,
  totals: p.totals,
  meters: p.meters,
  seats: p.seats,
  amountCents: p.charge.amountCents,
  currency: p.charge.currency,
  charge: p.charge,
  closedAt: p.closedAt,
});

/** `usage.recorded` data: the report, and the subscriber it counts for. */
export const reportEventData = (report: UsageReportRecord) => ({ ...report, subscriptionCustomerId: report.subscriberId });

/** `usage.period_closed` data: the subscriber and offer, then the closed period. */
export const periodEventData = (p: UsagePeriodRecord) => ({ subscriptionCustomerId: p.subscriberId, subscriptionId: p.subscriptionId, ...presentPeriod(p) });
