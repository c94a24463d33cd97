import { lookupSellable } from '../catalog/service';
import type { Deps } from '../platform/context';
import { conflict } from '../platform/errors';
import type { Scope } from '../store/keys';
import type { TransactOp } from '../store/store';
import { resolveDiscount } from '../storefront/discounts';
import { imageUrlById } from '../storefront/images/service';
import { getSession, sessionRepriced } from './repository';

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
  discountCode: string | null;
  /** Seats bought, when the session carries a quantity. */
  quantity: number | null;
  successUrl: string;
  cancelUrl: string;
  status: 'open' | 'completed';
  testMode: boolean;
}

export async function hostedCheckoutView(deps: Pick<Deps, 'store'>, scope: Scope, sessionId: string, baseUrl: string): Promise<HostedCheckoutView | undefined> {
  const session = await getSession(deps.store, scope, sessionId);
  if (!session) return undefined;
  const sellable = await lookupSellable(deps, scope, session.productId);
  const record = sellable ? (sellable.kind === 'product' ? sellable.product : sellable.offer) : undefined;
  const imageId = record?.imageIds?.[0];
  const quantity = (session as { quantity?: unknown }).quantity;
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
    discountCode: session.discountCode,
    quantity: typeof quantity === 'number' ? quantity : null,
    successUrl: session.successUrl,
    cancelUrl: session.cancelUrl,
    status: session.status,
    testMode: session.testMode,
  };
}

/**
 * A discount code typed on the hosted page: the new price and the session's write, for the
 * processor to commit together with its own checkout's new amount (so the page, the session and
 * the charge never disagree). Refusals are the storefront's 4xx (unknown, expired, used up, not
 * for this product).
 */
export async function sessionDiscountChange(deps: Deps, scope: Scope, sessionId: string, code: string): Promise<{ amountCents: number; code: string; op: TransactOp }> {
  const session = await getSession(deps.store, scope, sessionId);
  if (!session || session.status !== 'open') throw conflict('This checkout is no longer open', 'CHECKOUT_CLOSED');
  const resolved = await resolveDiscount(deps as Deps, scope, code, session.productId, session.originalAmountCents);
  return {
    amountCents: resolved.finalPriceCents,
    code: resolved.code,
    op: sessionRepriced(scope, sessionId, { amountCents: resolved.finalPriceCents, discountCode: resolved.code, discountId: resolved.discountId }),
  };
}
