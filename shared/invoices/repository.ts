import type { Scope } from '../store/keys';
import type { Store, TransactOp } from '../store/store';
import { counterEntity, invoiceEntity } from './entities';
import type { InvoiceRecord, InvoiceSequence } from './records';

export const getInvoice = (store: Store, scope: Scope, saleId: string) => invoiceEntity.get(store, 'bySale', scope, saleId);

export async function lastNumber(store: Store, scope: Scope, sequence: InvoiceSequence): Promise<number> {
  return (await counterEntity.get(store, 'ofSequence', scope, sequence))?.last ?? 0;
}

/** The counter moved from `previous` to `previous + 1`: fails when another issue moved it first. */
export function counterStep(scope: Scope, sequence: InvoiceSequence, previous: number): TransactOp {
  const key = counterEntity.declaration.key(scope, sequence);
  if (previous === 0) return { put: counterEntity.item(key, { last: 1 }), condition: 'attribute_not_exists(PK)' };
  return { update: key, set: { last: previous + 1 }, condition: '#last = :previous', names: { '#last': 'last' }, values: { ':previous': previous } };
}

/** A sale's invoice, once: the put fails when the sale already has one. */
export const invoicePut = (scope: Scope, invoice: InvoiceRecord): TransactOp => ({
  put: invoiceEntity.item(invoiceEntity.declaration.key(scope, invoice.saleId), invoice),
  condition: 'attribute_not_exists(PK)',
});

/** The credit note on an invoice, once. */
export const creditNoteSet = (scope: Scope, saleId: string, creditNote: NonNullable<InvoiceRecord['creditNote']>): TransactOp => ({
  update: invoiceEntity.declaration.key(scope, saleId),
  set: { creditNote },
  condition: 'attribute_exists(PK) AND attribute_not_exists(creditNote)',
});
