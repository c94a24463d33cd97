import { createHash } from 'node:crypto';
import { prefixedId, randomBase62 } from '../../platform/ids';
import { introCharges } from '../../processor/intro';
import {
  ProcessorError,
  type Buyer,
  type CreateCheckoutInput,
  type PayInput,
  type PayResult,
  type PaymentClaim,
  type PaymentMethod,
} from '../../processor/port';
import { isConditionFailed, putNew } from '../../store/conditional';
import type { Scope } from '../../store/keys';
import type { TransactOp } from '../../store/store';
import { enqueue, notification, notificationPut, scheduleRenewal, type SandboxCore } from './core';
import { addDays, addInterval, cardBrand, cardOutcome } from './periods';
import type { SandboxCheckout, SandboxMembership, SandboxPayment } from './records';
import * as repo from './repository';

type Card = PaymentMethod & { declines: boolean };

/**
 * The simulated tax of a sandbox checkout (processor settings `tax.simulatedRatePercent`): the
 * rate on top of the price, as Stripe Tax reports it (a test stand-in, not a tax engine).
 */
function simulatedTax(checkout: SandboxCheckout, amountCents: number, vatNumber: string | undefined) {
  const rate = checkout.tax?.simulatedRatePercent;
  if (!rate || amountCents <= 0) return null;
  return { amountCents: Math.round((amountCents * rate) / 100), ratePercent: rate, vatNumber: vatNumber?.trim() || null };
}

// ---- the hosted checkout ----

export async function createCheckout(core: SandboxCore, scope: Scope, input: CreateCheckoutInput) {
  const checkout: SandboxCheckout = {
    id: `cs_${randomBase62(32)}`,
    scope,
    sessionId: input.sessionId,
    kind: input.kind,
    description: input.description,
    amountCents: input.amountCents,
    currency: input.currency,
    interval: input.interval,
    trialDays: input.trialDays,
    offerSaveCard: input.offerSaveCard,
    successUrl: input.successUrl,
    cancelUrl: input.cancelUrl,
    notifyUrl: input.notifyUrl,
    ...(input.tax?.simulatedRatePercent ? { tax: { simulatedRatePercent: input.tax.simulatedRatePercent } } : {}),
    ...(input.kind === 'subscription' && input.intro ? { intro: { ...input.intro } } : {}),
    planId: prefixedId('plan'),
    status: 'open',
    createdAt: core.now().toISOString(),
  };
  // The pointer first: one left by a checkout whose own write then failed points at nothing.
  await core.deps.store.put(repo.sessionPointerItem(checkout));
  await core.deps.store.put(repo.checkoutItem(checkout), { ifNotExists: true });
  return { checkoutId: checkout.id, url: `${input.baseUrl}/processor/sandbox/checkout/${checkout.id}`, planId: checkout.planId };
}

export async function getCheckout(core: SandboxCore, checkoutId: string): Promise<SandboxCheckout | undefined> {
  if (!/^cs_[0-9A-Za-z]{32}$/.test(checkoutId)) return undefined;
  return repo.getCheckout(core.deps.store, checkoutId);
}

export async function payCheckout(core: SandboxCore, checkoutId: string, input: PayInput): Promise<PayResult> {
  const checkout = await getCheckout(core, checkoutId);
  if (!checkout) throw new ProcessorError('No such checkout', 'not_found');
  if (checkout.status === 'paid')
    return { status: 'already_paid', paymentId: checkout.paymentId, membershipId: checkout.membershipId, redirectUrl: checkout.successUrl };
  const digits = (input.cardNumber ?? '4242424242424242').replace(/[\s-]/g, '');
  const outcome = cardOutcome(digits);
  if (outcome === 'invalid') throw new ProcessorError('The card number is not valid', 'invalid');
  const charging = checkout.amountCents > 0 && !(checkout.kind === 'subscription' && checkout.trialDays);
  if (outcome === 'declines' || (charging && core.refused('charge'))) {
    return { status: 'declined', failureMessage: 'Your card was declined.', redirectUrl: undefined };
  }
  const card = cardFor(core, checkout.scope, input.buyer.email, digits);
  return complete(core, checkout, input.buyer, card, Boolean(input.saveCard && checkout.offerSaveCard), input.claim);
}

export async function completeFreeCheckout(core: SandboxCore, checkoutId: string, buyer: Buyer, claim?: PaymentClaim): Promise<PayResult> {
  const checkout = await getCheckout(core, checkoutId);
  if (!checkout) throw new ProcessorError('No such checkout', 'not_found');
  if (checkout.amountCents !== 0) throw new ProcessorError('This checkout needs a card', 'invalid');
  if (checkout.status === 'paid') return { status: 'already_paid', redirectUrl: checkout.successUrl };
  return complete(core, checkout, buyer, null, false, claim);
}

function cardFor(core: SandboxCore, scope: Scope, email: string, digits: string): Card {
  // Stable per card and buyer, like a processor's saved payment method id.
  const hash = createHash('sha256').update(`${scope.accountId}|${scope.mode}|${email.toLowerCase()}|${digits}`).digest('hex');
  const year = core.now().getUTCFullYear();
  return {
    id: `payt_${hash.slice(0, 24)}`,
    type: 'card',
    brand: cardBrand(digits),
    last4: digits.slice(-4),
    expMonth: 12,
    expYear: year + 3,
    declines: cardOutcome(digits) === 'declines',
  };
}

/**
 * Records the paid checkout: its payment (the intro price when the offer has one, processor/intro.ts),
 * the membership it starts (with the intro's remaining renewals), the card, the service's claim and
 * the `checkout.completed` notification, in one transaction.
 */
async function complete(
  core: SandboxCore,
  checkout: SandboxCheckout,
  buyer: Buyer,
  card: Card | null,
  saveCard: boolean,
  claim: PaymentClaim | undefined,
): Promise<PayResult> {
  const { scope } = checkout;
  const now = core.now();
  const paymentMethod: PaymentMethod | null = card
    ? { id: card.id, type: 'card', brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear }
    : null;
  const ops: TransactOp[] = [];
  let payment: SandboxPayment | undefined;
  let membership: SandboxMembership | undefined;
  const trial = checkout.kind === 'subscription' && checkout.trialDays ? checkout.trialDays : 0;
  const intro = introCharges(checkout.amountCents, checkout.kind === 'subscription' ? checkout.intro : null, !trial);
  if (checkout.amountCents > 0 && !trial) {
    payment = {
      id: prefixedId('pay'),
      amountCents: intro.firstChargeCents,
      refundedCents: 0,
      currency: checkout.currency,
      status: 'succeeded',
      membershipId: null,
      paymentMethod,
      notifyUrl: checkout.notifyUrl,
      createdAt: now.toISOString(),
    };
  }
  if (checkout.kind === 'subscription') {
    const end = trial ? addDays(now, trial) : addInterval(now, checkout.interval ?? 'monthly');
    membership = {
      id: prefixedId('mem'),
      subscriptionId: prefixedId('sub'),
      planId: checkout.planId,
      status: trial ? 'trialing' : 'active',
      paused: false,
      cancelAtPeriodEnd: false,
      currentPeriodStart: now.toISOString(),
      currentPeriodEnd: end.toISOString(),
      trialEnd: trial ? end.toISOString() : null,
      amountCents: checkout.amountCents,
      currency: checkout.currency,
      interval: checkout.interval ?? 'monthly',
      failures: 0,
      declining: false,
      paymentMethod,
      notifyUrl: checkout.notifyUrl,
      createdAt: now.toISOString(),
      nextPayments: intro.next,
    };
    if (payment) payment.membershipId = membership.id;
    ops.push(putNew(repo.membershipItem(scope, membership)));
  }
  if (payment) ops.push(putNew(repo.paymentItem(scope, payment)));
  if (card) ops.push({ put: repo.cardItem(scope, { ...card, email: buyer.email.toLowerCase(), saved: saveCard }) });
  ops.push({
    update: repo.checkoutKey(checkout.id),
    set: { status: 'paid', paymentId: payment?.id, membershipId: membership?.id },
    condition: '#status = :open',
    names: { '#status': 'status' },
    values: { ':open': 'open' },
  });
  const n = notification(core, scope, 'checkout.completed', checkout.notifyUrl, {
    checkoutId: checkout.id,
    sessionId: checkout.sessionId,
    buyer: { email: buyer.email, firstName: buyer.firstName ?? null, lastName: buyer.lastName ?? null, country: buyer.country ?? null },
    paymentMethod,
    savedCard: saveCard,
    payment: payment ? { id: payment.id, amountCents: payment.amountCents, currency: payment.currency, planId: checkout.planId } : null,
    tax: simulatedTax(checkout, payment?.amountCents ?? 0, (buyer as { vatNumber?: string }).vatNumber),
    membership: membership
      ? {
          id: membership.id,
          status: membership.status,
          currentPeriodStart: membership.currentPeriodStart,
          currentPeriodEnd: membership.currentPeriodEnd,
          trialEnd: membership.trialEnd,
        }
      : null,
    // What the service asked to hear back with the payment (the buyer's newsletter consent).
    ...(claim?.notify ?? {}),
  });
  ops.push(notificationPut(scope, n));
  // The service's claim rides in the payment's transaction: both happen or neither does.
  if (claim) ops.push(...claim.ops);
  try {
    await core.deps.store.transact(ops);
  } catch (error) {
    if (isConditionFailed(error)) {
      const again = await getCheckout(core, checkout.id);
      if (again?.status === 'paid')
        return { status: 'already_paid', paymentId: again.paymentId, membershipId: again.membershipId, redirectUrl: checkout.successUrl };
      if (claim) throw new ProcessorError(claim.refusal.message, 'invalid', claim.refusal.code);
      return { status: 'already_paid', paymentId: again?.paymentId, membershipId: again?.membershipId, redirectUrl: checkout.successUrl };
    }
    throw error;
  }
  if (membership) await scheduleRenewal(core, scope, membership.id, new Date(membership.currentPeriodEnd));
  await enqueue(core, scope, n.id);
  return { status: 'paid', paymentId: payment?.id, membershipId: membership?.id, redirectUrl: checkout.successUrl };
}
