import type { Mode } from '../store/keys';
import type { InvoiceSequence } from './records';

/**
 * The printed number: a prefix per sequence (test mode's say so), then the counter padded to six
 * digits. `INV-000042`, `CN-000003`, `TEST-INV-000001`.
 */
export function formatNumber(sequence: InvoiceSequence, mode: Mode, n: number): string {
  if (!Number.isInteger(n) || n < 1) throw new Error(`Invoice counter value ${n} is not a positive integer`);
  const prefix = sequence === 'invoice' ? 'INV' : 'CN';
  return `${mode === 'test' ? 'TEST-' : ''}${prefix}-${String(n).padStart(6, '0')}`;
}
