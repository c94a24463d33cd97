import type { Locale } from '../platform/i18n/locales';
import { lookupSellable } from '../catalog/service';
import type { Deps } from '../platform/context';
import { badRequest, notFound } from '../platform/errors';
import { seatsForCheckout } from '../usage/service';
import { objectId } from '../platform/ids';
import type { PaymentClaim } from '../processor/port';
import { claimDiscountUse, resolveDiscount } from '../storefront/discounts';
import { getSession, locateSession, sessionDiscountClaimed, sessionPut } from './repository';
import { checkoutOptIn } from '../email/seller-settings';
import type { CheckoutSessionRecord } from './records';
import type { Scope } from '../store/keys';
import type { CreateSessionInput } from './schemas';
import { normalizeEmail } from '../sales/records';
import { scheduleRecovery } from './recovery-timer';
import { introPricingFor } from '../retention/offers';

export const INGRESS_PATH = '/processor/notifications';

export const publicBaseUrl = (ctx: Pick<Deps, 'config'> & { request?: { baseUrl: string } }) =>
  (ctx.config.PUBLIC_BASE_URL ?? ctx.request?.baseUrl ?? '').replace(/\/$/, '');

/** What opening a checkout needs: the tenant, the ports and the address it was reached at. */
export type CheckoutCtx = Deps & { scope: Scope; request: { baseUrl: string } };

/** An unpaid checkout opened by a public buy link disappears after a day (bots and prefetchers leave no litter). */
export const BUY_LINK_SESSION_SECONDS = 24 * 3600;

/**
 * Why an amount a buyer chose cannot be charged, or undefined: only pay-what-you-want products
 * take one, at least their minimum (0 allowed: free with an optional tip).
 */
export function chosenAmountProblem(pwyw: { minimumCents: number } | null, amountCents: number, currency: string): string | undefined {
  if (!pwyw) return 'amountCents: this product has a fixed price; only pay-what-you-want products take an amount';
  if (!Number.isInteger(amountCents) || amountCents < 0) return 'amountCents: must be a whole number of cents, 0 or more';
  if (amountCents < pwyw.minimumCents) return `amountCents: the minimum for this product is ${(pwyw.minimumCents / 100).toFixed(2)} ${currency}`;
  if (amountCents > 100_000_000) return 'amountCents: must be at most 1000000.00';
  return undefined;
}

/**
 * Opens a hosted checkout for a product or a subscription offer. The price (after a discount code)
 * is fixed here; the buyer pays on the processor's hosted page and the purchase is recorded when
 * the processor's signed notification arrives.
 */
export async function createCheckoutSession(ctx: CheckoutCtx, input: CreateSessionInput, options: { viaBuyLink?: boolean } = {}) {
  return openCheckoutSession(ctx, ctx.scope, publicBaseUrl(ctx), input, {}, options);
}

/** What a session opened by a recovery link carries over from the abandoned one. */
export interface SessionCarryOver {
  buyerLocale?: string | null;
  recoveredFrom?: string;
}

/**
 * Opens a session (the API's create, and a recovery link's fresh session). A session that knows
 * its buyer's address gets its abandoned-checkout timer when the seller has recovery on.
 */
export async function openCheckoutSession(
  ctx: Deps,
  scope: Scope,
  base: string,
  input: CreateSessionInput,
  carry: SessionCarryOver = {},
  options: { viaBuyLink?: boolean } = {},
) {
  const sellable = await lookupSellable(ctx, scope, input.productId);
  const record = sellable ? (sellable.kind === 'product' ? sellable.product : sellable.offer) : undefined;
  if (!sellable || !record || record.deletedAt) throw notFound('Product');
  const original = record.priceCents;
  let amountCents = original;
  let discount: { discountId: string; code: string } | undefined;
  const pwyw =
    sellable.kind === 'product' && sellable.product.payWhatYouWant?.enabled
      ? { minimumCents: sellable.product.payWhatYouWant.minimumCents, suggestedCents: original }
      : null;
  if (input.amountCents !== undefined) {
    const problem = chosenAmountProblem(pwyw, input.amountCents, record.currency);
    if (problem) throw badRequest(problem, { field: 'amountCents' });
    if (input.discountCode) throw badRequest('discountCode: a discount code does not apply to an amount the buyer chooses', { field: 'discountCode' });
    amountCents = input.amountCents;
  }
  if (input.discountCode) {
    const resolved = await resolveDiscount(ctx, scope, input.discountCode, record._id, original);
    amountCents = resolved.finalPriceCents;
    discount = { discountId: resolved.discountId, code: resolved.code };
  }
  // Offers sold per seat: the discounted price plus each seat bought (usage billing owns the rule).
  const seats = sellable.kind === 'offer' ? await seatsForCheckout(ctx, sellable.offer, input.quantity) : undefined;
  if (sellable.kind !== 'offer' && input.quantity !== undefined) throw badRequest('quantity: only offers sold per seat take a quantity', { field: 'quantity' });
  const seatsCents = seats ? seats.quantity * seats.unitPriceCents : 0;
  amountCents += seatsCents;
  // An intro price counts from the first charge, today's (processor/intro.ts); it does not stack
  // with a code, so the buyer is told rather than charged a price nobody promised.
  const intro = sellable.kind === 'offer' && !sellable.offer.trialPeriod ? await introPricingFor(ctx, scope, record._id) : null;
  if (intro && input.discountCode)
    throw badRequest('discountCode: this subscription has an intro price, so discount codes do not apply', { field: 'discountCode' });
  const sessionIntro = intro ? { amountCents: intro.amountCents + seatsCents, periods: intro.periods } : null;
  const sessionId = objectId(ctx.clock);
  const isOffer = sellable.kind === 'offer';
  const product = sellable.kind === 'product' ? sellable.product : undefined;
  const processorCheckout = await ctx.ports.processor.createCheckout(scope, {
    sessionId,
    kind: isOffer ? 'subscription' : 'one_time',
    description: record.name,
    amountCents,
    currency: record.currency,
    interval: isOffer ? sellable.offer.frequency : undefined,
    trialDays: isOffer && sellable.offer.trialPeriod ? sellable.offer.trialPeriod : undefined,
    offerSaveCard: Boolean(product?.productType === 'credits' && product.creditAutoRefill?.enabled),
    successUrl: input.successUrl,
    cancelUrl: input.cancelUrl,
    notifyUrl: `${base}${INGRESS_PATH}`,
    baseUrl: base,
    // Seats are part of the price the processor bills: one price per offer and seat count (Stripe).
    productId: seats ? `${record._id}-seats-${seats.quantity}` : record._id,
    originalAmountCents: original + seatsCents,
    discountCode: discount?.code ?? null,
    intro: sessionIntro ? { amountCents: sessionIntro.amountCents, payments: sessionIntro.periods } : null,
    clientReferenceId: input.clientReferenceId ?? input.externalId ?? null,
    ...(input.customerEmail ? { buyerEmail: input.customerEmail } : {}),
    metadata: input.metadata ?? {},
  });
  const session: CheckoutSessionRecord = {
    _id: sessionId,
    productId: record._id,
    kind: isOffer ? 'subscription' : 'one_time',
    productName: record.name,
    amountCents,
    originalAmountCents: original,
    currency: record.currency,
    discountCode: discount?.code ?? null,
    discountId: discount?.discountId ?? null,
    referralCode: input.referralCode ?? null,
    ...(pwyw ? { payWhatYouWant: pwyw } : {}),
    ...(options.viaBuyLink ? { viaBuyLink: true } : {}),
    ...(seats ? { seats: seats.quantity, seatsAmountCents: seatsCents } : {}),
    ...(sessionIntro ? { intro: sessionIntro } : {}),
    successUrl: input.successUrl,
    cancelUrl: input.cancelUrl,
    clientReferenceId: input.clientReferenceId ?? input.externalId ?? null,
    metadata: input.metadata ?? {},
    processorCheckoutId: processorCheckout.checkoutId,
    planId: processorCheckout.planId,
    url: processorCheckout.url,
    status: 'open',
    saleId: null,
    subscriberId: null,
    testMode: scope.mode === 'test',
    createdAt: ctx.clock.now().toISOString(),
    completedAt: null,
    ...(input.customerEmail ? { customerEmail: normalizeEmail(input.customerEmail) } : {}),
    ...(carry.buyerLocale ? { buyerLocale: carry.buyerLocale } : {}),
    ...(carry.recoveredFrom ? { recoveredFrom: carry.recoveredFrom } : {}),
  };
  // The timer is set before the session is written: a write that then fails leaves a timer that
  // finds no session and does nothing, never a session that silently has no timer.
  if (session.customerEmail && !session.recoveredFrom) session.recoveryDueAt = await scheduleRecovery(ctx, scope, session);
  await ctx.store.put(sessionPut(scope, session, options.viaBuyLink ? Math.floor(ctx.clock.nowMs() / 1000) + BUY_LINK_SESSION_SECONDS : undefined), {
    ifNotExists: true,
  });
  return { id: session._id, url: session.url };
}

/**
 * A session found by its id alone, with its tenant and the processor's checkout id (scope-free
 * locator): the local control API's pay route, which acts as the buyer.
 */
export async function locateSessionById(
  deps: Pick<Deps, 'store'>,
  sessionId: string,
  /** The tenant, when the caller knows it (the sandbox's pointer); otherwise the locator a session of a release before has. */
  known?: Scope,
): Promise<{ scope: Scope; session: CheckoutSessionRecord; processorCheckoutId: string } | undefined> {
  const located = known ? undefined : await locateSession(deps.store, sessionId);
  const scope: Scope | undefined = known ?? (located ? { accountId: located.accountId, mode: located.mode } : undefined);
  if (!scope) return undefined;
  const session = await getSession(deps.store, scope, sessionId);
  return session ? { scope, session, processorCheckoutId: session.processorCheckoutId } : undefined;
}

/**
 * What paying a session claims in the payment's own transaction (PaymentClaim): one use of its
 * discount code, counted against maxUses, and the mark that tells completion it is counted. A code
 * checked only when the session opened would let every open session be paid at the discount.
 */
export function paymentClaim(scope: Scope, session: CheckoutSessionRecord): PaymentClaim | undefined {
  if (!session.discountId || session.status !== 'open') return undefined;
  const claim = claimDiscountUse(scope, session.discountId, session.discountCode ?? '');
  return { ops: [...claim.ops, sessionDiscountClaimed(scope, session._id)], refusal: claim.refusal };
}

/** The claim of the session a processor checkout belongs to (the sandbox's hosted page). */
export async function paymentClaimFor(deps: Pick<Deps, 'store'>, scope: Scope, sessionId: string): Promise<PaymentClaim | undefined> {
  const session = await getSession(deps.store, scope, sessionId);
  return session ? paymentClaim(scope, session) : undefined;
}

/** The order a paid session became, once its completion was recorded (the thank-you page). */
export async function sessionSaleId(deps: Pick<Deps, 'store'>, scope: Scope, sessionId: string): Promise<string | null | undefined> {
  return (await getSession(deps.store, scope, sessionId))?.saleId;
}

/**
 * Adds the buyer's newsletter consent to a payment's claim: carried on the payment's completion
 * notice (written in the payment's own transaction: no consent without a payment), with the words
 * the box showed, and recorded on the session by its completion. Not a write of its own on the
 * open session: that was one more item billed twice in the payment's transaction. The seller's
 * setting decides whether the box is offered at all; a tick on a box not offered counts for nothing.
 */
export async function withMarketingConsent(
  deps: Pick<Deps, 'store' | 'clock'>,
  scope: Scope,
  _sessionId: string,
  claim: PaymentClaim | undefined,
  ticked: boolean,
  locale?: Locale,
): Promise<PaymentClaim | undefined> {
  if (!ticked) return claim;
  // The consent keeps the words the buyer saw, in the language they read them.
  const offered = await checkoutOptIn(deps, scope, locale);
  if (!offered) return claim;
  const consent = { wording: offered.wording, optedInAt: deps.clock.now().toISOString() };
  return {
    ops: claim?.ops ?? [],
    refusal: claim?.refusal ?? { message: 'This checkout is closed', code: 'CHECKOUT_CLOSED' },
    notify: { ...claim?.notify, marketingConsent: consent },
  };
}
