import { describe, expect, it } from 'vitest';
import { refundCheck } from '../../shared/sales/refund-rules';

const sale = { paymentIntentId: 'pi_1', free: false, status: 'completed' as const, amountCents: 5000, refundedCents: 0 };

describe('refundCheck', () => {
  it('refunds what is left when no amount is given', () => {
    expect(refundCheck(sale)).toEqual({ ok: true, amountCents: 5000 });
    expect(refundCheck({ ...sale, refundedCents: 1200 })).toEqual({ ok: true, amountCents: 3800 });
  });
  it('takes an amount up to what is left, and no more', () => {
    expect(refundCheck({ ...sale, refundedCents: 1000 }, 4000)).toEqual({ ok: true, amountCents: 4000 });
    expect(refundCheck({ ...sale, refundedCents: 1000 }, 4001)).toMatchObject({ ok: false, code: 'REFUND_TOO_LARGE' });
  });
  it('refuses free, disputed and fully refunded sales', () => {
    expect(refundCheck({ ...sale, free: true, paymentIntentId: null })).toMatchObject({ ok: false, code: 'NOTHING_TO_REFUND' });
    expect(refundCheck({ ...sale, status: 'disputed' })).toMatchObject({ ok: false, code: 'PAYMENT_DISPUTED' });
    expect(refundCheck({ ...sale, status: 'refunded', refundedCents: 5000 })).toMatchObject({ ok: false, code: 'ALREADY_REFUNDED' });
    expect(refundCheck({ ...sale, refundedCents: 5000 })).toMatchObject({ ok: false, code: 'ALREADY_REFUNDED' });
  });
});
