import type { CreditAccountRecord } from './records';

/** Payloads of the credit events: the account block first, then what changed. */
export const creditAccountBlock = (a: CreditAccountRecord) => ({
  id: a._id,
  productId: a.productId,
  customerId: a.customerId,
  email: a.buyerEmail,
  status: a.status,
});

export const creditGrantedData = (account: CreditAccountRecord, amountCents: number, orderId: string) => ({
  account: creditAccountBlock(account),
  amountCents,
  reason: 'purchase',
  order: { id: orderId },
});

export const balanceChangedData = (account: CreditAccountRecord, changeCents: number, reason: string) => ({
  account: creditAccountBlock(account),
  balanceCents: account.balanceCents,
  changeCents,
  reason,
});

export const consentEnabledData = (account: CreditAccountRecord, paymentMethodId: string | null | undefined) => ({
  account: creditAccountBlock(account),
  paymentMethodId,
});

/** `by`: who withdrew it, the seller (API) or the buyer (their link); `paymentMethodId` is the card no longer charged. */
export const consentDisabledData = (account: CreditAccountRecord, paymentMethodId: string | null | undefined, by: 'seller' | 'buyer') => ({
  account: creditAccountBlock(account),
  paymentMethodId: paymentMethodId ?? null,
  by,
});

export const autoRefillFailedData = (account: CreditAccountRecord, amountCents: number, failureMessage: string) => ({
  account: creditAccountBlock(account),
  amountCents,
  failureMessage,
});

export const autoRefillSucceededData = (account: CreditAccountRecord, amountCents: number, orderId: string, paymentIntentId: string | null | undefined) => ({
  account: creditAccountBlock(account),
  amountCents,
  order: { id: orderId },
  paymentIntentId,
});
