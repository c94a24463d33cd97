import { listOfferViews, lookupOffer, type CatalogCtx } from '../catalog/service';
import type { OfferRecord } from '../catalog/records';
import type { Deps, OperationContext } from '../platform/context';
import type { Scope } from '../store/keys';
import { notFound } from '../platform/errors';
import { toCents, toMajor } from '../platform/money';
import type { OfferRetention } from './records';
import * as repo from './repository';
import { applyOfferConfig, DEFAULT_OFFER_RETENTION } from './rules';

type OfferFacts = Pick<OfferRecord, '_id' | 'name' | 'priceCents' | 'currency' | 'frequency' | 'trialPeriod'>;

const present = (offer: OfferFacts, r: OfferRetention) => ({
  id: offer._id,
  name: offer.name,
  price: toMajor(offer.priceCents),
  currency: offer.currency,
  frequency: offer.frequency,
  saveOffers: r.saveOffers,
  intro: r.intro,
  yearlySwitch: r.yearlySwitch,
  updatedAt: r.updatedAt,
});

export type OfferRetentionView = ReturnType<typeof present>;

async function requireOffer(ctx: OperationContext, id: string): Promise<OfferRecord> {
  const offer = await lookupOffer(ctx, ctx.scope, id);
  if (!offer || offer.deletedAt) throw notFound('Subscription offer');
  return offer;
}

export const offerRetentionOf = async (deps: Pick<Deps, 'store'>, scope: Scope, offerId: string): Promise<OfferRetention> =>
  (await repo.getOfferRetention(deps.store, scope, offerId)) ?? DEFAULT_OFFER_RETENTION(offerId);

/**
 * The intro price a new subscriber of this offer gets (what the hosted checkout page shows), or
 * null when intro pricing is off: `amountCents` for each of the first `periods` charges, the
 * checkout's own included (processor/intro.ts); the checkout hands it to the processor.
 */
export async function introPricingFor(deps: Pick<Deps, 'store'>, scope: Scope, offerId: string): Promise<{ amountCents: number; periods: number } | null> {
  const { intro } = await offerRetentionOf(deps, scope, offerId);
  return intro.enabled && intro.price !== null ? { amountCents: toCents(intro.price), periods: intro.periods } : null;
}

/** Settings of every live subscription offer (defaults where none were saved). */
export async function listRetentionOffers(ctx: OperationContext) {
  const offers = await listOfferViews(ctx as CatalogCtx);
  const saved = new Map((await repo.listOfferRetention(ctx.store, ctx.scope)).map((r) => [r.offerId, r]));
  return {
    data: offers.map((o) =>
      present(
        {
          _id: o._id as string,
          name: o.name as string,
          priceCents: toCents(Number(o.price)),
          currency: o.currency as string,
          frequency: o.frequency,
          trialPeriod: o.trialPeriod,
        },
        saved.get(o._id as string) ?? DEFAULT_OFFER_RETENTION(o._id as string),
      ),
    ),
  };
}

export async function getRetentionOffer(ctx: OperationContext, id: string) {
  const offer = await requireOffer(ctx, id);
  return present(offer, await offerRetentionOf(ctx, ctx.scope, id));
}

export async function updateRetentionOffer(ctx: OperationContext, id: string, body: unknown) {
  const offer = await requireOffer(ctx, id);
  const current = await offerRetentionOf(ctx, ctx.scope, id);
  const next = { ...applyOfferConfig(current, body, offer), updatedAt: ctx.clock.now().toISOString() };
  await ctx.store.transact([repo.offerRetentionPut(ctx.scope, next)]);
  return present(offer, next);
}
