import type { SaleRecord } from './records';

export type RefundCheck = { ok: true; amountCents: number } | { ok: false; code: string; reason: string };

/**
 * Whether a seller may refund a sale, and how much: never a free order, a disputed one (the
 * dispute decides), or more than is left after earlier refunds. Without an amount, all that is left.
 */
export function refundCheck(
  sale: Pick<SaleRecord, 'paymentIntentId' | 'free' | 'status' | 'amountCents' | 'refundedCents'>,
  amountCents?: number,
): RefundCheck {
  if (sale.free || !sale.paymentIntentId) return { ok: false, code: 'NOTHING_TO_REFUND', reason: 'A free order has no payment to refund' };
  if (sale.status === 'disputed') return { ok: false, code: 'PAYMENT_DISPUTED', reason: 'A disputed payment cannot be refunded: the dispute decides' };
  const left = sale.amountCents - sale.refundedCents;
  if (sale.status === 'refunded' || left <= 0) return { ok: false, code: 'ALREADY_REFUNDED', reason: 'This payment is already refunded in full' };
  if (amountCents === undefined) return { ok: true, amountCents: left };
  if (amountCents > left) return { ok: false, code: 'REFUND_TOO_LARGE', reason: `At most ${left} cents of this payment are left to refund` };
  return { ok: true, amountCents };
}
