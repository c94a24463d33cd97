import type { Frequency } from '../../catalog/records';

const DAY_MS = 24 * 3600 * 1000;

/** The end of a billing period that starts at `start` (calendar months and years, UTC). */
export function addInterval(start: Date, interval: Frequency): Date {
  const end = new Date(start.getTime());
  if (interval === 'weekly') return new Date(start.getTime() + 7 * DAY_MS);
  if (interval === 'monthly') {
    const day = end.getUTCDate();
    end.setUTCDate(1);
    end.setUTCMonth(end.getUTCMonth() + 1);
    // Jan 31 + 1 month is the last day of February, not March 3.
    const last = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
    end.setUTCDate(Math.min(day, last));
    return end;
  }
  end.setUTCFullYear(end.getUTCFullYear() + 1);
  if (end.getUTCDate() !== start.getUTCDate()) end.setUTCDate(0);
  return end;
}

export const addDays = (at: Date, days: number) => new Date(at.getTime() + days * DAY_MS);

/** Failed renewals are retried this many days after the previous attempt; then the membership ends. */
export const RETRY_DELAYS_DAYS = [1, 2, 4];

/** Card numbers of the sandbox. Any other well-formed number pays. */
export const TEST_CARDS = { pays: '4242424242424242', declines: '4000000000000002' } as const;

export function cardOutcome(cardNumber: string): 'pays' | 'declines' | 'invalid' {
  const digits = cardNumber.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits)) return 'invalid';
  return digits === TEST_CARDS.declines ? 'declines' : 'pays';
}

export const cardBrand = (digits: string) =>
  digits.startsWith('4') ? 'visa' : digits.startsWith('5') ? 'mastercard' : digits.startsWith('3') ? 'amex' : 'card';
