/** What a business buyer adds before downloading their invoice. */
export interface InvoiceBuyerDetails {
  companyName: string | null;
  address: string | null;
  vatId: string | null;
}

/**
 * The invoice of one sale: its number is taken once, from the seller's counter, in the same
 * transaction that writes this record, so numbers run without gaps and never change. A refund
 * gets a credit note with a number of its own sequence.
 */
export interface InvoiceRecord {
  saleId: string;
  number: string;
  issuedAt: string;
  buyer: InvoiceBuyerDetails;
  creditNote?: { number: string; issuedAt: string; amountCents: number };
}

export type InvoiceSequence = 'invoice' | 'credit_note';

export interface CounterRecord {
  last: number;
}
