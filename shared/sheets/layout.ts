import type { Cell, SheetTab } from './port';

/** The two tabs and their header rows, exactly as the spec lists the columns. */
export const SALES_TAB = 'Sales';
export const CUSTOMERS_TAB = 'Customers';
export const SALES_HEADER = [
  'Date (UTC)',
  'Order ID',
  'Product',
  'Type',
  'Buyer email',
  'Buyer name',
  'Country',
  'Amount',
  'Tax',
  'Platform fee',
  'Net',
  'Currency',
  'Status',
];
export const CUSTOMERS_HEADER = ['First purchase (UTC)', 'Email', 'Name', 'Country', 'First order ID', 'First product'];
export const TABS: SheetTab[] = [
  { title: SALES_TAB, header: SALES_HEADER },
  { title: CUSTOMERS_TAB, header: CUSTOMERS_HEADER },
];
/** Column of the order id (Sales) and of the email (Customers): the key a written row is found by. */
export const KEY_COLUMN = 'B';
/** Column of the status on the Sales tab. */
export const STATUS_COLUMN = 'M';
export const STATUS_INDEX = 12;
/** The buyer's email and name on the Sales tab (blanked for an erased buyer), and the name on Customers. */
export const EMAIL_COLUMN = 'E';
export const NAME_COLUMN = 'F';
export const EMAIL_INDEX = 4;
export const NAME_INDEX = 5;
export const CUSTOMER_NAME_COLUMN = 'C';

export type SaleKind = 'one-time' | 'subscription' | 'renewal' | 'usage';
export type RowStatus = 'paid' | 'refunded' | 'disputed';

/** What a Sales row is made of, whether it comes from an event or from a past sale (backfill). */
export interface SaleFacts {
  orderId: string;
  createdAt: string;
  product: string;
  kind: SaleKind;
  email: string;
  name: string;
  country: string;
  /** Integer cents. */
  amountCents: number;
  taxCents: number;
  feeCents: number;
  currency: string;
  status: RowStatus;
}

export const saleKind = (type: string, billingReason?: string | null): SaleKind => {
  if (type !== 'subscription') return 'one-time';
  if (billingReason === 'renewal') return 'renewal';
  if (billingReason === 'usage') return 'usage';
  return 'subscription';
};

/** A sale's status as the sheet shows it: completed is paid; a partial refund stays paid. */
export const rowStatus = (status: string): RowStatus => (status === 'refunded' ? 'refunded' : status === 'disputed' ? 'disputed' : 'paid');

/** `2024-05-01 13:04:05`: UTC, readable, and sorted correctly as text. */
export const utcCell = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '');

// Money is written as numbers in major units (two decimals), never as text.
const major = (cents: number) => Math.round(cents) / 100;

export const fullName = (first?: string | null, last?: string | null) => [first, last].filter((part) => part && part.trim()).join(' ');

export function salesRow(facts: SaleFacts): Cell[] {
  const net = facts.amountCents - facts.taxCents - facts.feeCents;
  return [
    utcCell(facts.createdAt),
    facts.orderId,
    facts.product,
    facts.kind,
    facts.email,
    facts.name,
    facts.country,
    major(facts.amountCents),
    major(facts.taxCents),
    major(facts.feeCents),
    major(net),
    facts.currency.toUpperCase(),
    facts.status,
  ];
}

export function customersRow(facts: Pick<SaleFacts, 'createdAt' | 'email' | 'name' | 'country' | 'orderId' | 'product'>): Cell[] {
  return [utcCell(facts.createdAt), facts.email, facts.name, facts.country, facts.orderId, facts.product];
}

const cents = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? Math.round(value * 100) : 0);
const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The facts of an `order.completed` event's data (amounts there are major units). */
export function factsFromOrderEvent(data: Record<string, unknown>): SaleFacts | undefined {
  const order = (data.order ?? {}) as Record<string, unknown>;
  const product = (data.product ?? {}) as Record<string, unknown>;
  const customer = (data.customer ?? {}) as Record<string, unknown>;
  const tax = (data.tax ?? {}) as Record<string, unknown>;
  if (typeof order.id !== 'string' || typeof customer.email !== 'string') return undefined;
  return {
    orderId: order.id,
    createdAt: text(order.createdAt),
    product: text(product.name),
    kind: saleKind(text(order.type), text(order.billingReason)),
    email: customer.email.toLowerCase(),
    name: fullName(customer.firstName as string | null, customer.lastName as string | null),
    country: text(customer.country),
    amountCents: cents(order.amount ?? data.amount),
    taxCents: cents(tax.taxAmount ?? tax.amount),
    // The service charges no platform fee on the seller's own processor account; the column is
    // kept so a fee-charging deployment only has to fill it in.
    feeCents: cents(data.platformFee),
    currency: text(order.currency ?? data.currency),
    status: rowStatus(text(order.status)),
  };
}
