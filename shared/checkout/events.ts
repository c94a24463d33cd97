import type { CheckoutSessionRecord } from './records';

/** `checkout.abandoned`: the session, what it sold, the buyer's address and the link back. */
export function abandonedEventData(
  session: Pick<
    CheckoutSessionRecord,
    '_id' | 'productId' | 'productName' | 'kind' | 'amountCents' | 'currency' | 'createdAt' | 'metadata' | 'clientReferenceId'
  >,
  input: { email: string; discountCode: string | null; recoveryUrl: string; emailSent: boolean },
): Record<string, unknown> {
  return {
    checkoutSessionId: session._id,
    product: { id: session.productId, name: session.productName, type: session.kind },
    customer: { email: input.email },
    amount: session.amountCents / 100,
    currency: session.currency,
    discountCode: input.discountCode,
    recoveryUrl: input.recoveryUrl,
    emailSent: input.emailSent,
    openedAt: session.createdAt,
    metadata: session.metadata,
    clientReferenceId: session.clientReferenceId,
  };
}
