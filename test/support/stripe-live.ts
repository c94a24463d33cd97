import { specId } from '../../shared/adapters/processor-stripe/records';
import { ensureRef } from '../../shared/adapters/processor-stripe/refs';
import type { Deps } from '../../shared/platform/context';
import type { Scope } from '../../shared/store/keys';
import type { FakeStripe } from './fake-stripe';

/**
 * A Stripe subscription as a buyer makes it on Stripe's page (the fake's checkout), through the
 * adapter's own checkout, with the refs the webhook's checkout translation records (membership
 * and card): for adapter tests that do not run the webhook route.
 */
export async function liveSubscription(
  deps: Deps,
  fake: FakeStripe,
  scope: Scope,
  tag: string,
  options: { card?: string; interval?: 'monthly' | 'yearly' | 'weekly'; amountCents?: number } = {},
) {
  const amount = options.amountCents ?? 900;
  const interval = options.interval ?? 'monthly';
  const out = await deps.ports.processor.createCheckout(scope, {
    sessionId: `s-${tag}`,
    kind: 'subscription',
    description: 'Club',
    amountCents: amount,
    originalAmountCents: amount,
    currency: 'USD',
    interval,
    successUrl: 'https://seller.example/thanks',
    cancelUrl: 'https://seller.example/cancel',
    notifyUrl: 'http://127.0.0.1/processor/notifications',
    baseUrl: 'http://127.0.0.1',
    productId: `offer-${interval}-${amount}`,
  });
  const session = fake.completeCheckout(out.checkoutId, { email: `${tag}@example.com`, name: 'Sam Roe', card: options.card });
  const sub = fake.objects[session.subscription]!;
  const membershipId = specId('mem', scope, sub.id);
  await ensureRef(deps.store, scope, {
    specId: membershipId,
    stripeId: sub.id,
    kind: 'membership',
    status: 'active',
    periodEnd: sub.items.data[0].current_period_end,
    planId: out.planId,
  });
  const pm = fake.objects[sub.default_payment_method]!;
  const card = {
    id: specId('payt', scope, pm.id),
    type: 'card' as const,
    brand: pm.card.brand,
    last4: pm.card.last4,
    expMonth: pm.card.exp_month,
    expYear: pm.card.exp_year,
  };
  await ensureRef(deps.store, scope, { specId: card.id, stripeId: pm.id, kind: 'card', customerId: sub.customer, paymentMethod: card });
  return { membershipId, card, sub: sub.id as string, customer: sub.customer as string, pm: pm.id as string };
}
