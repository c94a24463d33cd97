import { lookupSellable } from '../catalog/service';
import type { Deps } from '../platform/context';
import { conflict } from '../platform/errors';
import type { Scope } from '../store/keys';
import type { TransactOp } from '../store/store';
import { resolveDiscount } from '../storefront/discounts';
import { imageUrlById } from '../storefront/images/references';
import { upsellForCheckout } from '../storefront/upsells/service';
import { badRequest } from '../platform/errors';
import { getSession, sessionAmountSet, sessionRepriced, sessionUpsellSet } from './repository';
import { chosenAmountProblem } from './service';
import type { SessionUpsellLine } from './records';

/**
 * What a hosted checkout page shows of the thing sold: the session (price after any code, the
 * code) joined with the catalog (description, image, billing frequency, trial). The processor's
 * page renders it; the service owns what it says.
 */
export interface HostedCheckoutView {
  sessionId: string;
  /** The catalog product or offer sold. */
  productId: string;
  kind: 'one_time' | 'subscription';
  productName: string;
  description: string | null;
  imageUrl: string | null;
  amountCents: number;
  originalAmountCents: number;
  currency: string;
  interval: 'weekly' | 'monthly' | 'yearly' | null;
  trialDays: number | null;
  /**
   * Intro pricing of the offer (retention): the first `periods` charges, today's included, cost
   * `amountCents` each; then the regular price (the view's `amountCents`).
   */
  intro: { amountCents: number; periods: number } | null;
  discountCode: string | null;
  /**
   * The upsell offered with this one-time product (shown with its price and an "add" button), and
   * whether the buyer took it: then `amountCents` is the product after any code plus the upsell.
   */
  upsell: {
    upsellId: string;
    productId: string;
    productName: string;
    description: string | null;
    amountCents: number;
    regularCents: number;
    taken: boolean;
  } | null;
  /** The lines charged, when there is more than the product (an upsell taken). */
  lines: { productName: string; amountCents: number }[] | null;
  /** Seats bought, when the session carries a quantity. */
  quantity: number | null;
  /** Pay what you want: the buyer types the amount (at least the minimum; the suggestion first). */
  payWhatYouWant: { minimumCents: number; suggestedCents: number; chosenCents: number } | null;
  successUrl: string;
  cancelUrl: string;
  status: 'open' | 'completed';
  testMode: boolean;
  /** The buyer's address when known (prefills the page): `customerEmail` at creation or a buy link's `?email=`, or typed here before. */
  customerEmail: string | null;
  /** The language the buyer chose on an earlier visit of this checkout. */
  buyerLocale: string | null;
}

export async function hostedCheckoutView(deps: Pick<Deps, 'store'>, scope: Scope, sessionId: string, baseUrl: string): Promise<HostedCheckoutView | undefined> {
  const session = await getSession(deps.store, scope, sessionId);
  if (!session) return undefined;
  const sellable = await lookupSellable(deps, scope, session.productId);
  const record = sellable ? (sellable.kind === 'product' ? sellable.product : sellable.offer) : undefined;
  const imageId = record?.imageIds?.[0];
  const quantity = (session as { quantity?: unknown }).quantity;
  const offered = session.kind === 'one_time' ? await upsellForCheckout(deps, scope, session.productId, session.currency) : undefined;
  const taken = session.upsell ?? null;
  // A taken upsell stays on the page (as its line) even if the seller changed it meanwhile.
  const upsell = taken
    ? {
        upsellId: taken.upsellId,
        productId: taken.productId,
        productName: taken.productName,
        description: offered?.upsellId === taken.upsellId ? offered.description : null,
        amountCents: taken.amountCents,
        regularCents: offered?.upsellId === taken.upsellId ? offered.regularCents : taken.amountCents,
        taken: true,
      }
    : offered && session.status === 'open'
      ? { ...offered, taken: false }
      : null;
  return {
    sessionId: session._id,
    productId: session.productId,
    kind: session.kind,
    productName: session.productName,
    description: record?.description?.trim() || null,
    imageUrl: imageId ? await imageUrlById(deps, scope, imageId, baseUrl) : null,
    amountCents: session.amountCents,
    originalAmountCents: session.originalAmountCents,
    currency: session.currency,
    interval: sellable?.kind === 'offer' ? sellable.offer.frequency : null,
    trialDays: sellable?.kind === 'offer' && sellable.offer.trialPeriod ? sellable.offer.trialPeriod : null,
    intro: session.kind === 'subscription' ? (session.intro ?? null) : null,
    discountCode: session.discountCode,
    upsell,
    lines: taken
      ? [
          { productName: session.productName, amountCents: session.amountCents - taken.amountCents },
          { productName: taken.productName, amountCents: taken.amountCents },
        ]
      : null,
    quantity: typeof quantity === 'number' ? quantity : null,
    payWhatYouWant: session.payWhatYouWant ? { ...session.payWhatYouWant, chosenCents: session.amountCents - (taken?.amountCents ?? 0) } : null,
    successUrl: session.successUrl,
    cancelUrl: session.cancelUrl,
    status: session.status,
    testMode: session.testMode,
    customerEmail: session.customerEmail ?? null,
    buyerLocale: session.buyerLocale ?? null,
  };
}

/**
 * A discount code typed on the hosted page: the new price and the session's write, for the
 * processor to commit together with its own checkout's new amount (so the page, the session and
 * the charge never disagree). Refusals are the storefront's 4xx (unknown, expired, used up, not
 * for this product).
 */
export async function sessionDiscountChange(
  deps: Deps,
  scope: Scope,
  sessionId: string,
  code: string,
): Promise<{ amountCents: number; code: string; op: TransactOp }> {
  const session = await getSession(deps.store, scope, sessionId);
  if (!session || session.status !== 'open') throw conflict('This checkout is no longer open', 'CHECKOUT_CLOSED');
  if (session.payWhatYouWant) throw badRequest('You choose the price of this product, so discount codes do not apply', { field: 'discountCode' });
  if (session.intro) throw badRequest('This subscription has an intro price, so discount codes do not apply', { field: 'discountCode' });
  const resolved = await resolveDiscount(deps as Deps, scope, code, session.productId, session.originalAmountCents);
  // The code is for the product; seats bought and an upsell taken keep their own prices on top.
  const amountCents = resolved.finalPriceCents + (session.seatsAmountCents ?? 0) + (session.upsell?.amountCents ?? 0);
  return {
    amountCents,
    code: resolved.code,
    op: sessionRepriced(scope, sessionId, { amountCents, discountCode: resolved.code, discountId: resolved.discountId }),
  };
}

/**
 * The buyer adds (`take`) or removes the upsell on the hosted page: the session's new total and
 * line, for the processor to commit with its own checkout's new amount in one transaction (as a
 * discount code). Only the upsell the catalog offers for this product now can be added.
 */
export async function sessionUpsellChange(
  deps: Pick<Deps, 'store'>,
  scope: Scope,
  sessionId: string,
  take: boolean,
): Promise<{ amountCents: number; line: SessionUpsellLine | null; op: TransactOp }> {
  const session = await getSession(deps.store, scope, sessionId);
  if (!session || session.status !== 'open') throw conflict('This checkout is no longer open', 'CHECKOUT_CLOSED');
  const productCents = session.amountCents - (session.upsell?.amountCents ?? 0);
  let line: SessionUpsellLine | null = null;
  if (take) {
    if (session.upsell)
      return {
        amountCents: session.amountCents,
        line: session.upsell,
        op: sessionUpsellSet(scope, sessionId, { amountCents: session.amountCents, upsell: session.upsell }, session.amountCents),
      };
    const offered = session.kind === 'one_time' ? await upsellForCheckout(deps, scope, session.productId, session.currency) : undefined;
    if (!offered) throw badRequest('This checkout has no upsell to add', { field: 'upsell' });
    line = { upsellId: offered.upsellId, productId: offered.productId, productName: offered.productName, amountCents: offered.amountCents };
  }
  const amountCents = productCents + (line?.amountCents ?? 0);
  return { amountCents, line, op: sessionUpsellSet(scope, sessionId, { amountCents, upsell: line }, session.amountCents) };
}

/** The language the buyer chose earlier on this checkout (saved by its form posts), if any. */
export async function checkoutBuyerLocale(deps: Pick<Deps, 'store'>, scope: Scope, sessionId: string): Promise<string | null> {
  return (await getSession(deps.store, scope, sessionId))?.buyerLocale ?? null;
}

/**
 * Pay what you want: the amount the buyer typed on the hosted page (cents), checked against the
 * product's minimum; the session's new total (with a taken upsell on top) and its write, for the
 * processor to commit with its own checkout's new amount in one transaction.
 */
export async function sessionAmountChange(
  deps: Pick<Deps, 'store'>,
  scope: Scope,
  sessionId: string,
  chosenCents: number,
): Promise<{ amountCents: number; op: TransactOp }> {
  const session = await getSession(deps.store, scope, sessionId);
  if (!session || session.status !== 'open') throw conflict('This checkout is no longer open', 'CHECKOUT_CLOSED');
  const problem = chosenAmountProblem(session.payWhatYouWant ?? null, chosenCents, session.currency);
  if (problem) throw badRequest(problem.replace(/^amountCents: /, ''), { field: 'amount' });
  const amountCents = chosenCents + (session.upsell?.amountCents ?? 0);
  return { amountCents, op: sessionAmountSet(scope, sessionId, amountCents, session.amountCents) };
}
