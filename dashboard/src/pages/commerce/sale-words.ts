/**
 * A sale in words for people: what was bought, by whom, from where, with which code. The API's
 * sale carries productName, firstName, lastName, country and discountCode beside its declared
 * fields; these read them safely and never show an enum code.
 */
interface SaleLike {
  type: string;
  billingReason: string | null;
  buyerEmail: string;
  lines?: { productName: string }[];
  [key: string]: unknown;
}

const str = (value: unknown) => (typeof value === 'string' && value.trim() ? value : null);

export function productNameOf(sale: SaleLike): string {
  if (sale.lines?.length) return sale.lines.map((l) => l.productName).join(' + ');
  return str(sale.productName) ?? (sale.type === 'subscription' ? 'a subscription' : 'a product');
}

export const buyerName = (sale: SaleLike): string => [str(sale.firstName), str(sale.lastName)].filter(Boolean).join(' ') || sale.buyerEmail;

export const discountCodeOf = (sale: SaleLike): string | null => str(sale.discountCode);

/** "France" for FR, in the reader's language; the code itself when the browser has no name for it. */
export function countryName(code: unknown): string | null {
  const value = str(code);
  if (!value) return null;
  try {
    return new Intl.DisplayNames(undefined, { type: 'region' }).of(value.toUpperCase()) ?? value;
  } catch {
    return value;
  }
}

const REASONS: Record<string, string> = { initial: 'First payment', renewal: 'Renewal', usage: 'Usage charge' };

/** What kind of charge, in words: "One-time purchase", "Renewal"… */
export const chargeKind = (sale: SaleLike): string =>
  sale.type === 'subscription' ? (REASONS[sale.billingReason ?? ''] ?? 'Subscription payment') : 'One-time purchase';

const STATUS_WORDS: Record<string, string> = { completed: 'Paid', refunded: 'Refunded', partially_refunded: 'Partly refunded', disputed: 'Disputed' };

/** The sale's status in words; a sale partly refunded says so. */
export function saleStatus(sale: SaleLike & { status: string; refundedAmount: number }): string {
  if (sale.status === 'completed' && sale.refundedAmount > 0) return STATUS_WORDS.partially_refunded!;
  return STATUS_WORDS[sale.status] ?? sale.status.replace(/_/g, ' ');
}
