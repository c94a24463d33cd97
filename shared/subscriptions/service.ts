import { lookupOffer } from '../catalog/service';
import type { OfferRecord } from '../catalog/records';
import { toMajor } from '../platform/money';
import { newEvent, outboxPut } from '../platform/events';
import type { Deps, OperationContext } from '../platform/context';
import { ApiError, badGateway, badRequest, conflict, notFound } from '../platform/errors';
import { isObjectId } from '../platform/ids';
import { ProcessorError, type LiveMembership } from '../processor/port';
import { subscriberPayments } from '../sales/service';
import type { Scope } from '../store/keys';
import { failOnCondition } from '../store/conditional';
import { offerBlock, subscriptionEventData } from './events';
import type { ProcessorSync, SubscriberRecord } from './records';
import { findPortalToken, findSubscriberByMembership, getSubscriber, locateSubscriber, subscriberReplace, subscribersPage } from './repository';
import { transition, type Trigger } from './state';
import { withSubscriberLease } from './lease';
import { cardUpdateUrlOf } from './lookups';

// The plain reads other capabilities use are in lookups.ts (they reach no processor, so their
// callers' functions do not bundle it); re-exported here for the capability's own callers.
export { cardUpdateUrlFor, findSubscriberByAnyId, lookupSubscriber, offerSubscribersPage, portalUrlOf } from './lookups';
import type { SaveOfferChoice } from './save-offers';

export const portalUrlFor = (baseUrl: string, offerId: string, subscriberId: string, token: string) =>
  `${baseUrl}/subscriptions/sub/portal-data/${offerId}/${subscriberId}?token=${token}`;

export function presentSubscriber(sub: SubscriberRecord) {
  return {
    _id: sub._id,
    subscriptionId: sub.subscriptionId,
    customerId: sub.customerId,
    buyerEmail: sub.buyerEmail,
    firstName: sub.firstName,
    lastName: sub.lastName,
    country: sub.country,
    status: sub.status,
    active: sub.active,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    paused: sub.paused,
    membershipId: sub.membershipId,
    paymentMethod: sub.paymentMethod,
    clientReferenceId: sub.clientReferenceId,
    metadata: sub.metadata ?? {},
    currentPeriodStart: sub.currentPeriodStart,
    currentPeriodEnd: sub.currentPeriodEnd,
    trialEnd: sub.trialEnd,
    failureMessage: sub.failureMessage,
    portalUrl: sub.portalUrl,
    /** A portal change the processor has not confirmed yet (it is being retried). */
    processorSyncPending: sub.processorSync?.action ?? null,
    testMode: sub.testMode,
    createdAt: sub.createdAt,
    updatedAt: sub.updatedAt,
    canceledAt: sub.canceledAt,
  };
}

const joinedOffer = (offer: OfferRecord | undefined) => (offer ? offerBlock(offer) : null);

/** Page numbers walk the cursor pages before the one asked (at most this deep); `cursor` goes anywhere. */
const PAGE_WALK_LIMIT = 50;

/**
 * One page of subscribers. `cursor` (from `nextCursor`) is the way through a large list; `page`
 * walks the pages before it, for clients that count pages (at most 50 deep). `total` is known only
 * on the last page (counting every subscriber would read them all on each request): null before.
 */
export async function listSubscribersOf(
  ctx: OperationContext,
  query: { status?: string; email?: string; subscriptionId?: string; page: number; pageSize: number; limit?: number; cursor?: string },
) {
  const size = query.limit ?? query.pageSize;
  if (query.page > PAGE_WALK_LIMIT && !query.cursor) throw badRequest(`page: at most ${PAGE_WALK_LIMIT}; use nextCursor to go further`, { field: 'page' });
  const filter = { status: query.status, email: query.email?.trim().toLowerCase(), subscriptionId: query.subscriptionId };
  let result = await subscribersPage(ctx.store, ctx.scope, filter, { limit: size, cursor: query.cursor });
  const page = query.cursor ? 1 : query.page;
  // Rows on the pages walked past, for the total once the last page is reached.
  let before = 0;
  for (let p = 1; !query.cursor && p < query.page; p++) {
    before += result.items.length;
    if (!result.nextCursor) {
      result = { items: [], nextCursor: null };
      break;
    }
    result = await subscribersPage(ctx.store, ctx.scope, filter, { limit: size, cursor: result.nextCursor });
  }
  const offers = new Map<string, OfferRecord | undefined>();
  for (const id of new Set(result.items.map((s) => s.subscriptionId))) offers.set(id, await lookupOffer(ctx, ctx.scope, id));
  return {
    data: result.items.map((sub) => ({ ...presentSubscriber(sub), subscription: joinedOffer(offers.get(sub.subscriptionId)) })),
    page,
    pageSize: size,
    total: result.nextCursor || query.cursor ? null : before + result.items.length,
    nextCursor: result.nextCursor,
  };
}

const payments = (deps: Deps, scope: Scope, subscriberId: string) => subscriberPayments(deps, scope, subscriberId);

export async function getSubscriberDetail(ctx: OperationContext, id: string, live: boolean) {
  if (id.startsWith('mem_')) throw badRequest('Use the 24-hex subscriber _id here; mem_ ids are accepted on cancel, pause and resume', { field: 'id' });
  const sub = isObjectId(id) ? await getSubscriber(ctx.store, ctx.scope, id) : undefined;
  if (!sub) throw notFound('Subscriber');
  const offer = await lookupOffer(ctx, ctx.scope, sub.subscriptionId);
  const answer: ReturnType<typeof presentSubscriber> & Record<string, unknown> = {
    ...presentSubscriber(sub),
    subscription: joinedOffer(offer),
    payments: await payments(ctx, ctx.scope, sub._id),
  };
  if (live) answer.processorMembership = sub.membershipId ? await liveMembership(ctx, ctx.scope, sub.membershipId) : null;
  return answer;
}

export async function getSubscriptionOrder(ctx: OperationContext, id: string) {
  const sub = isObjectId(id) ? await getSubscriber(ctx.store, ctx.scope, id) : undefined;
  if (!sub) throw notFound('Subscriber');
  const offer = await lookupOffer(ctx, ctx.scope, sub.subscriptionId);
  return { subscriber: { ...presentSubscriber(sub), subscription: joinedOffer(offer) }, status: sub.status, sales: await payments(ctx, ctx.scope, sub._id) };
}

async function liveMembership(deps: Deps, scope: Scope, membershipId: string): Promise<LiveMembership | null> {
  try {
    return await deps.ports.processor.getMembership(scope, membershipId);
  } catch {
    return null;
  }
}

/** `{id}` on cancel, pause and resume: the subscriber _id or its mem_ id. */
async function resolve(deps: Deps, scope: Scope, id: string): Promise<SubscriberRecord> {
  const sub = id.startsWith('mem_')
    ? await findSubscriberByMembership(deps.store, scope, id)
    : isObjectId(id)
      ? await getSubscriber(deps.store, scope, id, true)
      : undefined;
  if (!sub) throw notFound('Subscriber');
  return sub;
}

/** Applies a state move with its events in one transaction; answers the record after the move. */
export async function applyTrigger(
  deps: Deps,
  scope: Scope,
  sub: SubscriberRecord,
  trigger: Trigger,
  extra: Partial<SubscriberRecord> = {},
): Promise<SubscriberRecord> {
  const move = transition(sub, trigger);
  if (!move) return sub;
  const now = deps.clock.now().toISOString();
  const after: SubscriberRecord = { ...sub, ...move.patch, ...extra, updatedAt: now };
  if (after.status === 'canceled' && sub.status !== 'canceled') after.canceledAt = now;
  const offer = await lookupOffer(deps, scope, sub.subscriptionId);
  const events = offer ? move.events.map((type) => newEvent(scope, deps.clock, type, subscriptionEventData(type, after, offer))) : [];
  await failOnCondition(deps.store.transact([subscriberReplace(scope, sub, after), ...events.map(outboxPut)]), () =>
    conflict('The subscription changed at the same time; read it again and retry', 'CONCURRENT_UPDATE'),
  );
  return after;
}

function processorFailure(error: unknown): never {
  if (error instanceof ProcessorError) {
    if (error.code === 'invalid') throw conflict(error.message, 'PROCESSOR_INVALID_STATE');
    throw badGateway(`The payment processor refused: ${error.message}`, 'PROCESSOR_REFUSED');
  }
  throw error;
}

function requireMembership(sub: SubscriberRecord): string {
  if (!sub.membershipId) throw badRequest('This subscriber has no membership on record', { field: 'id', code: 'NO_MEMBERSHIP' });
  return sub.membershipId;
}

/**
 * Under the lease, after the processor accepted: the record is written from a fresh read, so a
 * processor notification landing in between (which takes no lease) cannot turn an accepted change
 * into a 409 that leaves the processor changed and the record not.
 */
async function applyAfterProcessor(
  deps: Deps,
  scope: Scope,
  subscriberId: string,
  trigger: Trigger,
  extra: Partial<SubscriberRecord> = {},
): Promise<SubscriberRecord> {
  for (let attempt = 1; ; attempt++) {
    const fresh = await getSubscriber(deps.store, scope, subscriberId, true);
    if (!fresh) throw notFound('Subscriber');
    try {
      return await applyTrigger(deps, scope, fresh, trigger, extra);
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'CONCURRENT_UPDATE') || attempt >= 5) throw error;
    }
  }
}

/**
 * A seller's or buyer's change of one subscriber: holds the subscriber's lease across the
 * processor call and the write, and decides on the record read under it, so racing changes apply
 * one after another and the processor and the record end in the same state.
 */
async function serialised<T>(deps: Deps, scope: Scope, subscriberId: string, change: (sub: SubscriberRecord) => Promise<T>): Promise<T> {
  return withSubscriberLease(deps, scope, subscriberId, async () => {
    const sub = await getSubscriber(deps.store, scope, subscriberId, true);
    if (!sub) throw notFound('Subscriber');
    return change(sub);
  });
}

/** Processor first: when it refuses, nothing changes here. */
export async function cancelSubscription(ctx: OperationContext, id: string) {
  const found = await resolve(ctx, ctx.scope, id);
  return serialised(ctx, ctx.scope, found._id, async (sub) => {
    const membershipId = requireMembership(sub);
    if (sub.status === 'canceled') throw conflict('The subscription is already canceled', 'ALREADY_CANCELED');
    if (!sub.cancelAtPeriodEnd) await ctx.ports.processor.cancelMembership(ctx.scope, membershipId, { atPeriodEnd: true }).catch(processorFailure);
    return presentSubscriber(await applyAfterProcessor(ctx, ctx.scope, sub._id, { type: 'cancel_scheduled' }));
  });
}

export async function pauseSubscription(ctx: OperationContext, id: string) {
  const found = await resolve(ctx, ctx.scope, id);
  return serialised(ctx, ctx.scope, found._id, async (sub) => {
    const membershipId = requireMembership(sub);
    if (sub.status === 'canceled') throw conflict('A canceled subscription cannot be paused', 'ALREADY_CANCELED');
    if (!sub.paused) await ctx.ports.processor.pauseMembership(ctx.scope, membershipId).catch(processorFailure);
    const after = await applyAfterProcessor(ctx, ctx.scope, sub._id, { type: 'paused' });
    return { ...presentSubscriber(after), paused: after.paused };
  });
}

export async function resumeSubscription(ctx: OperationContext, id: string) {
  const found = await resolve(ctx, ctx.scope, id);
  return serialised(ctx, ctx.scope, found._id, async (sub) => {
    const membershipId = requireMembership(sub);
    const now = ctx.clock.now().toISOString();
    if (!transition(sub, { type: 'resumed', now })) {
      if (sub.status === 'canceled') throw conflict('The subscription has ended and cannot be resumed', 'SUBSCRIPTION_ENDED');
      return presentSubscriber(sub);
    }
    await ctx.ports.processor.resumeMembership(ctx.scope, membershipId).catch(processorFailure);
    return presentSubscriber(await applyAfterProcessor(ctx, ctx.scope, sub._id, { type: 'resumed', now }));
  });
}

/** A subscriber found by its id alone, with its tenant (scope-free locator): local control API only. */
export async function locateSubscriberById(
  deps: Pick<Deps, 'store'>,
  subscriberId: string,
): Promise<{ scope: Scope; subscriber: SubscriberRecord } | undefined> {
  const scope = await locateSubscriber(deps.store, subscriberId);
  const subscriber = scope ? await getSubscriber(deps.store, scope, subscriberId, true) : undefined;
  return scope && subscriber ? { scope, subscriber } : undefined;
}

// ---- buyer portal ----

/**
 * The portal pair. The ids alone give read-only access; the `token` query parameter (the one in
 * portalUrl) permits cancel and resume. Every mismatch answers the same 404.
 */
async function portalSubscriber(deps: Deps, subscriptionId: string | undefined, subscriberId: string) {
  const scope = isObjectId(subscriberId) ? await locateSubscriber(deps.store, subscriberId) : undefined;
  const sub = scope ? await getSubscriber(deps.store, scope, subscriberId) : undefined;
  if (!scope || !sub || (subscriptionId !== undefined && sub.subscriptionId !== subscriptionId)) throw notFound('Subscription');
  return { scope, sub };
}

async function tokenValid(deps: Deps, sub: SubscriberRecord, token: string | undefined) {
  if (!token) return false;
  const found = await findPortalToken(deps.store, token);
  return Boolean(found && found.subscriberId === sub._id && token === sub.portalToken);
}

const manageUrlOf = (sub: SubscriberRecord) => sub.portalUrl;

/**
 * The portal's card-update link (it carries the portal token): opening it asks the processor for a
 * fresh card-update page. Only while there is a membership to charge.
 */

/**
 * Opening the card-update link: checks the portal token, then asks the processor for its
 * card-update page. The processor sends the buyer back to the read-only portal address: the
 * token is never handed to the processor.
 */
export async function portalCardUpdate(
  deps: Deps,
  subscriptionId: string,
  subscriberId: string,
  token: string | undefined,
  baseUrl: string,
): Promise<{ url: string }> {
  const { scope, sub } = await portalSubscriber(deps, subscriptionId, subscriberId);
  if (!(await tokenValid(deps, sub, token))) throw notFound('Subscription');
  if (!sub.membershipId || sub.status === 'canceled') throw new ApiError(409, 'This subscription has no card to update', { code: 'NO_MEMBERSHIP' });
  const returnUrl = `${baseUrl}/subscriptions/sub/portal-data/${sub.subscriptionId}/${sub._id}`;
  try {
    return await deps.ports.processor.cardUpdateSession!(scope, sub.membershipId, { returnUrl, baseUrl });
  } catch (error) {
    if (error instanceof ProcessorError) throw new ApiError(409, error.message, { code: 'CARD_UPDATE_UNAVAILABLE' });
    throw error;
  }
}

export async function portalData(deps: Deps, subscriptionId: string, subscriberId: string, token: string | undefined) {
  const { scope, sub } = await portalSubscriber(deps, subscriptionId, subscriberId);
  const offer = await lookupOffer(deps, scope, sub.subscriptionId);
  const canManage = await tokenValid(deps, sub, token);
  return {
    subscriptionCustomerId: sub._id,
    subscriptionId: sub.subscriptionId,
    subscription: joinedOffer(offer),
    status: sub.status,
    active: sub.active,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    paused: sub.paused,
    currentPeriodEnd: sub.currentPeriodEnd,
    trialEnd: sub.trialEnd,
    customer: { email: sub.buyerEmail, firstName: sub.firstName, lastName: sub.lastName },
    canManage,
    manageUrl: canManage ? manageUrlOf(sub) : null,
    cardUpdateUrl: canManage ? cardUpdateUrlOf(sub) : null,
    /** With the token, the save offers a cancel shows first (retention), or null. */
    saveOffers:
      canManage && deps.ports.subscriptionSaveOffers && sub.status === 'active' && !sub.cancelAtPeriodEnd && !sub.paused
        ? await deps.ports.subscriptionSaveOffers.offersFor(deps, scope, sub)
        : null,
    /** With the token, the switch to yearly billing on offer (retention), or null. */
    yearlySwitch:
      canManage && sub.status === 'active' && !sub.cancelAtPeriodEnd
        ? ((await deps.ports.subscriptionSaveOffers?.yearlySwitchFor?.(deps, scope, sub)) ?? null)
        : null,
    payments: await payments(deps, scope, sub._id),
    /** The next renewal's price when retention changed it (a save discount or an intro price running), or null: the regular charge. */
    upcomingPrice: sub.status === 'canceled' ? null : await upcomingPrice(deps, scope, sub),
  };
}

async function upcomingPrice(deps: Deps, scope: Scope, sub: SubscriberRecord): Promise<number | null> {
  const cents = await deps.ports.subscriptionSaveOffers?.nextChargeCents?.(deps, scope, sub);
  return cents === null || cents === undefined ? null : toMajor(cents);
}

/** Portal writes record the buyer's intent even when the processor call fails. */
export async function portalChange(
  deps: Deps,
  subscriberId: string,
  token: string | undefined,
  action: { type: 'cancel'; immediate: boolean } | { type: 'resume' },
) {
  if (!token) throw new ApiError(403, 'The portal token is required to change a subscription', { field: 'token' });
  const { scope, sub: found } = await portalSubscriber(deps, undefined, subscriberId);
  if (!(await tokenValid(deps, found, token))) throw notFound('Subscription');
  return serialised(deps, scope, found._id, async (sub) => {
    let processorSynced = true;
    const processor = deps.ports.processor;
    const now = deps.clock.now().toISOString();
    let trigger: Trigger;
    if (action.type === 'cancel') {
      trigger = action.immediate ? { type: 'canceled' } : { type: 'cancel_scheduled' };
      if (sub.status !== 'canceled' && sub.membershipId) {
        processorSynced = await processor.cancelMembership(scope, sub.membershipId, { atPeriodEnd: !action.immediate }).then(
          () => true,
          () => false,
        );
      }
    } else {
      trigger = { type: 'resumed', now };
      if (transition(sub, trigger) && sub.membershipId)
        processorSynced = await processor.resumeMembership(scope, sub.membershipId).then(
          () => true,
          () => false,
        );
    }
    if (!sub.membershipId) processorSynced = false;
    // An unconfirmed change is recorded with the change itself; its event drives the retries.
    const pending: ProcessorSync | null =
      !processorSynced && sub.membershipId
        ? { action: action.type === 'resume' ? 'resume' : action.immediate ? 'cancel_now' : 'cancel_at_period_end', recordedAt: now }
        : null;
    const after = await applyAfterProcessor(deps, scope, sub._id, trigger, { processorSync: pending });
    return {
      subscriptionCustomerId: after._id,
      status: after.status,
      active: after.active,
      cancelAtPeriodEnd: after.cancelAtPeriodEnd,
      paused: after.paused,
      processorSynced,
      manageUrl: manageUrlOf(after),
    };
  });
}

/** The subscriber's record replaced by `after` (guarded by the `updatedAt` read), for a capability's own transaction (retention). */
export const subscriberChangeOp = (scope: Scope, before: SubscriberRecord, after: SubscriberRecord) => subscriberReplace(scope, before, after);

/** The save offers a portal cancel shows first (retention), or null: needs the portal token. */
export async function portalSaveOffers(deps: Deps, subscriberId: string, token: string | undefined) {
  const hook = deps.ports.subscriptionSaveOffers;
  if (!hook || !token) return null;
  const { scope, sub } = await portalSubscriber(deps, undefined, subscriberId);
  if (!(await tokenValid(deps, sub, token))) throw notFound('Subscription');
  if (sub.status !== 'active' || sub.cancelAtPeriodEnd || sub.paused) return null;
  return hook.offersFor(deps, scope, sub);
}

/** The buyer accepts a save offer instead of canceling: applied under the subscriber's lease. */
export async function portalSave(deps: Deps, subscriberId: string, token: string | undefined, choice: SaveOfferChoice, reason: string | null) {
  if (!token) throw new ApiError(403, 'The portal token is required to change a subscription', { field: 'token' });
  const hook = deps.ports.subscriptionSaveOffers;
  const { scope, sub: found } = await portalSubscriber(deps, undefined, subscriberId);
  if (!(await tokenValid(deps, found, token))) throw notFound('Subscription');
  if (!hook) throw conflict('This subscription has no save offers', 'NO_SAVE_OFFER');
  return serialised(deps, scope, found._id, async (sub) => {
    await hook.accept(deps, scope, sub, choice, reason);
    const after = (await getSubscriber(deps.store, scope, sub._id, true)) ?? sub;
    return {
      subscriptionCustomerId: after._id,
      status: after.status,
      saved: choice.kind,
      currentPeriodEnd: after.currentPeriodEnd,
      manageUrl: manageUrlOf(after),
    };
  });
}

/** The buyer accepts the switch to yearly billing (retention), from the next period boundary. */
export async function portalYearlySwitch(deps: Deps, subscriberId: string, token: string | undefined) {
  if (!token) throw new ApiError(403, 'The portal token is required to change a subscription', { field: 'token' });
  const hook = deps.ports.subscriptionSaveOffers;
  const { scope, sub: found } = await portalSubscriber(deps, undefined, subscriberId);
  if (!(await tokenValid(deps, found, token))) throw notFound('Subscription');
  if (!hook?.acceptYearlySwitch) throw conflict('No switch to yearly billing is offered', 'NO_YEARLY_SWITCH');
  return serialised(deps, scope, found._id, async (sub) => {
    await hook.acceptYearlySwitch!(deps, scope, sub);
    return { subscriptionCustomerId: sub._id, status: sub.status, yearlySwitch: 'scheduled', switchesAt: sub.currentPeriodEnd };
  });
}

/** The buyer saw the save offers and canceled anyway (retention's report). */
export async function portalSaveDeclined(deps: Deps, subscriberId: string, reason: string | null) {
  const hook = deps.ports.subscriptionSaveOffers;
  if (!hook) return;
  const { scope, sub } = await portalSubscriber(deps, undefined, subscriberId);
  await hook.declined(deps, scope, sub, reason);
}
