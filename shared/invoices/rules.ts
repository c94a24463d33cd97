import { badRequest } from '../platform/errors';
import type { InvoiceBuyerDetails } from './records';

/**
 * A VAT ID as EU and UK tax offices print it: the country's two letters, then 2 to 13 letters and
 * digits (spaces, dots and dashes people type are dropped). The number itself is not checked
 * against VIES: that is the seller's call, and it needs a network round trip.
 */
export function normaliseVatId(raw: string): string {
  const compact = raw.replace(/[\s.-]/g, '').toUpperCase();
  if (!/^[A-Z]{2}[0-9A-Z+*]{2,13}$/.test(compact))
    throw badRequest('VAT ID: two letters for the country, then the number (for example DE123456789)', { field: 'vatId' });
  return compact;
}

const text = (value: unknown, field: string, label: string, max: number): string | null => {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw badRequest(`${label}: text expected`, { field });
  const trimmed = value.replace(/\r\n/g, '\n').trim();
  if (!trimmed) return null;
  if (trimmed.length > max) throw badRequest(`${label}: at most ${max} characters`, { field });
  return trimmed;
};

/** The buyer's company details from the invoice page's form (or JSON); every field optional. */
export function buyerDetails(input: Record<string, unknown>): InvoiceBuyerDetails {
  const vat = text(input.vatId, 'vatId', 'VAT ID', 40);
  return {
    companyName: text(input.companyName, 'companyName', 'Company name', 200),
    address: text(input.address, 'address', 'Address', 500),
    vatId: vat ? normaliseVatId(vat) : null,
  };
}
