import { defineEntity } from '../store/entity';
import { keys, type Scope } from '../store/keys';
import type { CounterRecord, InvoiceRecord, InvoiceSequence } from './records';

const INVOICE = 'INVOICE';
const INVOICE_COUNTER = 'INVOICE_COUNTER';

const invoiceKey = (scope: Scope, saleId: string) => keys.entity(scope, INVOICE, saleId);
const counterKey = (scope: Scope, sequence: InvoiceSequence) => keys.unique(scope, INVOICE_COUNTER, sequence);

export const invoiceEntity = defineEntity<InvoiceRecord>()({
  entity: 'Invoice',
  version: 1,
  owner: 'invoices',
  key: invoiceKey,
  keyArgs: ['scope', 'saleId'],
  patterns: {
    bySale: { kind: 'get', summary: 'The invoice (and credit note) of a sale', key: invoiceKey, args: ['scope', 'saleId'], consistent: true },
  },
});

/** The last number given in a sequence, per account and mode; moved only by a conditional write. */
export const counterEntity = defineEntity<CounterRecord>()({
  entity: 'InvoiceCounter',
  version: 1,
  owner: 'invoices',
  key: counterKey,
  keyArgs: ['scope', 'sequence'],
  patterns: {
    ofSequence: { kind: 'get', summary: 'Last invoice or credit-note number of a seller', key: counterKey, args: ['scope', 'sequence'], consistent: true },
  },
});
