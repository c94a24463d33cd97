import type { ChargeStatus, MeterCharge, SeatSegment } from './rules';

/** One accepted usage report. */
export interface UsageReportRecord {
  _id: string;
  subscriberId: string;
  subscriptionId: string;
  meter: string;
  quantity: number;
  /** Start of the billing period it counts in. */
  periodStart: string;
  idempotencyKey: string | null;
  createdAt: string;
}

/** The guard of one Idempotency-Key of one subscriber: the report it stands for. */
export interface UsageKeyRecord {
  fingerprint: string;
  report: UsageReportRecord;
}

/** A subscriber's seats: bought at checkout, held now, and the counts held this period. */
export interface SeatsRecord {
  subscriberId: string;
  purchased: number;
  quantity: number;
  periodStart: string;
  /** Seat counts since the period started (the first at its start), for seat-periods. */
  segments: SeatSegment[];
  updatedAt: string;
}

export interface PeriodCharge {
  status: ChargeStatus;
  amountCents: number;
  currency: string;
  saleId: string | null;
  paymentId: string | null;
  retries: number;
  nextRetryAt: string | null;
  firstFailedAt: string | null;
  failureMessage: string | null;
  paidAt: string | null;
}

/** A closed billing period: totals, overage, seat-periods and the charge of its overage. */
export interface UsagePeriodRecord {
  subscriberId: string;
  subscriptionId: string;
  periodStart: string;
  periodEnd: string;
  totals: Record<string, number>;
  meters: MeterCharge[];
  seats: { purchased: number; quantity: number; extraSeatPeriods: number; unitPriceCents: number; amountCents: number } | null;
  charge: PeriodCharge;
  closedAt: string;
  updatedAt: string;
}
