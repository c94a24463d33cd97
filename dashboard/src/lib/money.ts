/** Money in the API: `amount`/`price` are decimal major units; fields ending in `Cents` are integer cents. */
export function formatMoney(amount: number, currency = 'USD'): string {
  const code = (currency || 'USD').toUpperCase();
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: code }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${code}`;
  }
}

export const formatCents = (cents: number, currency = 'USD') => formatMoney(cents / 100, currency);

/** Sums per currency, never across currencies. */
export function sumByCurrency<T>(rows: T[], amount: (row: T) => number, currency: (row: T) => string): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const row of rows) {
    const code = (currency(row) || 'USD').toUpperCase();
    totals[code] = Math.round(((totals[code] ?? 0) + amount(row)) * 100) / 100;
  }
  return totals;
}

export function formatDate(iso: string | number | null | undefined): string {
  if (iso === null || iso === undefined || iso === '') return '—';
  const date = typeof iso === 'number' ? new Date(iso < 1e12 ? iso * 1000 : iso) : new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
