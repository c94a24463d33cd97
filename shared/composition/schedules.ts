import type { RecurringSchedule } from '../platform/capability';

/** The first occurrence of a recurring schedule strictly after `after` (UTC). */
export function nextOccurrence(every: RecurringSchedule['every'], after: Date): Date {
  if ('minutes' in every) {
    const stepMs = every.minutes * 60_000;
    return new Date((Math.floor(after.getTime() / stepMs) + 1) * stepMs);
  }
  const { hour, minute } = every.dailyAtUtc;
  const today = Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate(), hour, minute);
  return new Date(today > after.getTime() ? today : today + 86_400_000);
}

/** EventBridge Scheduler's expression for the same schedule. */
export function scheduleExpression(every: RecurringSchedule['every']): string {
  if ('minutes' in every) return every.minutes === 1 ? 'rate(1 minute)' : `rate(${every.minutes} minutes)`;
  return `cron(${every.dailyAtUtc.minute} ${every.dailyAtUtc.hour} * * ? *)`;
}

/** Name of the local timer that stands for a recurring schedule. */
export const recurringTimerName = (schedule: Pick<RecurringSchedule, 'name'>) => `recurring:${schedule.name}`;
