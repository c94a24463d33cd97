import { getAccount } from '../platform/accounts';
import type { Deps, OperationContext, PublicContext } from '../platform/context';
import { badRequest, notFound } from '../platform/errors';
import type { DomainEvent } from '../platform/events';
import { objectId, randomBase62 } from '../platform/ids';
import { toMajor } from '../platform/money';
import { planAtLeast, type Plan } from '../platform/plans';
import { ConditionFailed } from '../store/store';
import type { Scope } from '../store/keys';
import {
  CHANNELS,
  LINK_LIMITS,
  VISITOR_COOKIE,
  checkTargetUrl,
  cookieValue,
  linkCodeOf,
  redirectLocation,
  visitorIdOf,
  visitorKeyOf,
  type Channel,
} from './rules';
import { REFUNDS_CONSUMER, SALES_CONSUMER, clickField, revenueField, saleField, visitorField, type LinkRecord, type LinkSaleRecord } from './records';
import * as repo from './repository';
import { markerSeen } from '../platform/markers';

export { CHANNELS, type Channel };

/** Tracked-link stats (per link and in the attribution report) are a Pro feature. */
export const STATS_PLAN: Plan = 'tier3';
export const hasLinkStats = (plan: Plan) => planAtLeast(plan, STATS_PLAN);

const dayOf = (iso: string) => iso.slice(0, 10);

export function presentLink(link: LinkRecord, baseUrl: string, plan: Plan) {
  return {
    _id: link._id,
    name: link.name,
    channel: link.channel,
    targetUrl: link.targetUrl,
    url: `${baseUrl}/l/${link.code}`,
    code: link.code,
    createdAt: link.createdAt,
    stats: hasLinkStats(plan)
      ? { locked: false as const, clicks: link.clicks ?? 0, visitors: link.visitors ?? 0, sales: link.sales ?? 0, revenue: toMajor(link.revenueCents ?? 0) }
      : { locked: true as const },
  };
}

export async function createLink(ctx: OperationContext, input: { channel: Channel; targetUrl: string; name: string }) {
  const name = input.name.trim();
  if (!name) throw badRequest('name is empty', { field: 'name' });
  const link: LinkRecord = {
    _id: objectId(ctx.clock),
    code: randomBase62(12),
    channel: input.channel,
    targetUrl: checkTargetUrl(input.targetUrl),
    name,
    createdAt: ctx.clock.now().toISOString(),
  };
  await ctx.store.transact(repo.linkCreateOps(ctx.scope, link));
  return presentLink(link, ctx.request.baseUrl, ctx.account.plan);
}

export async function listLinks(ctx: OperationContext, query: { limit?: number; after?: string }) {
  const page = await repo.linksPage(ctx.store, ctx.scope, query.limit ?? LINK_LIMITS.defaultPageSize, query.after).catch((error) => {
    if (query.after) throw badRequest('after is not a cursor this list gave', { field: 'after' });
    throw error;
  });
  return { data: page.items.map((l) => presentLink(l, ctx.request.baseUrl, ctx.account.plan)), nextCursor: page.cursor ?? null };
}

async function requireLink(ctx: OperationContext, id: string) {
  const link = await repo.getLink(ctx.store, ctx.scope, id);
  if (!link) throw notFound('Tracked link');
  return link;
}

export const readLink = async (ctx: OperationContext, id: string) => presentLink(await requireLink(ctx, id), ctx.request.baseUrl, ctx.account.plan);

/** Deletes the link and its short address; the sales and clicks it brought stay in past reports. */
export async function deleteLink(ctx: OperationContext, id: string) {
  const link = await requireLink(ctx, id);
  await ctx.store.transact(repo.linkDeleteOps(ctx.scope, link)).catch((error) => {
    if (error instanceof ConditionFailed) throw notFound('Tracked link');
    throw error;
  });
  return { _id: link._id, deleted: true as const };
}

/**
 * A click on `/l/{code}`: counts it (and the visitor, the first time), and answers where to send
 * the browser, with `tl=<code>` added for the shop to pass into its checkout's metadata, and the
 * visitor cookie to set when the browser had none.
 */
export async function followLink(ctx: PublicContext, code: string): Promise<{ location: string; setCookie?: string } | undefined> {
  if (!/^[A-Za-z0-9]{8,32}$/.test(code)) return undefined;
  const pointer = await repo.getLinkCode(ctx.store, code);
  if (!pointer) return undefined;
  const scope: Scope = { accountId: pointer.accountId, mode: pointer.mode };
  const link = await repo.getLink(ctx.store, scope, pointer.linkId);
  if (!link) return undefined;
  const now = ctx.clock.now().toISOString();
  const visitor = visitorIdOf({
    cookie: cookieValue(ctx.request.headers.cookie, VISITOR_COOKIE),
    ip: ctx.request.sourceIp,
    userAgent: ctx.request.headers['user-agent'] ?? '',
  });
  const newVisitor = await repo.firstVisit(ctx.store, scope, visitorKeyOf(link._id, visitor.id), now);
  // A link deleted between the read and the count: the click still goes through, uncounted.
  await ctx.store.transact(repo.clickOps(scope, link, dayOf(now), newVisitor)).catch((error) => {
    if (!(error instanceof ConditionFailed)) throw error;
  });
  const secure = ctx.request.baseUrl.startsWith('https:') ? '; Secure' : '';
  return {
    location: redirectLocation(link.targetUrl, link.code),
    ...(visitor.fromCookie ? {} : { setCookie: `${VISITOR_COOKIE}=${visitor.id}; Path=/l; Max-Age=31536000; HttpOnly; SameSite=Lax${secure}` }),
  };
}

interface OrderEventData {
  order?: { id?: string; billingReason?: string; createdAt?: string };
  amount?: number;
  currency?: string;
  metadata?: unknown;
}

/** `order.completed` with `metadata.trackedLink`: the sale is attributed to the link's channel, once. */
export async function attributeSale(deps: Deps, event: DomainEvent): Promise<void> {
  const data = event.data as OrderEventData;
  const code = linkCodeOf(data.metadata);
  const saleId = data.order?.id;
  if (!code || !saleId || !(data.amount && data.amount > 0)) return;
  if (data.order?.billingReason && data.order.billingReason !== 'initial') return;
  const scope: Scope = { accountId: event.accountId, mode: event.mode };
  const pointer = await repo.getLinkCode(deps.store, code);
  // Another tenant's (or mode's) code never attributes a sale here.
  if (!pointer || pointer.accountId !== scope.accountId || pointer.mode !== scope.mode) return;
  const link = await repo.getLink(deps.store, scope, pointer.linkId);
  if (!link) return;
  if (await markerSeen(deps, SALES_CONSUMER, event.id, event.created)) return;
  const account = await getAccount(deps.store, scope.accountId);
  const inCurrency = !account || !data.currency || data.currency.toUpperCase() === account.currency.toUpperCase();
  const sale: LinkSaleRecord = {
    saleId,
    linkId: link._id,
    channel: link.channel,
    day: dayOf(data.order?.createdAt ?? new Date(event.created * 1000).toISOString()),
    revenueCents: inCurrency ? Math.round(data.amount * 100) : 0,
  };
  await deps.store.transact([repo.markerPut(SALES_CONSUMER, event.id, event.created), ...repo.attributeOps(scope, sale, true)]).catch(async (error) => {
    if (
      error instanceof ConditionFailed &&
      ((await repo.markerExists(deps.store, SALES_CONSUMER, event.id)) || (await repo.getLinkSale(deps.store, scope, saleId)))
    )
      return;
    throw error;
  });
}

/** `order.refunded`: an attributed sale leaves its channel's sales and revenue, once. */
export async function unattributeSale(deps: Deps, event: DomainEvent): Promise<void> {
  const saleId = (event.data as OrderEventData).order?.id;
  if (!saleId) return;
  const scope: Scope = { accountId: event.accountId, mode: event.mode };
  const sale = await repo.getLinkSale(deps.store, scope, saleId);
  if (!sale || sale.refunded) return;
  const link = await repo.getLink(deps.store, scope, sale.linkId);
  await deps.store
    .transact([repo.markerPut(REFUNDS_CONSUMER, event.id, event.created), ...repo.unattributeOps(scope, sale, Boolean(link))])
    .catch(async (error) => {
      if (
        error instanceof ConditionFailed &&
        ((await repo.markerExists(deps.store, REFUNDS_CONSUMER, event.id)) || (await repo.getLinkSale(deps.store, scope, saleId))?.refunded)
      )
        return;
      throw error;
    });
}

export interface ChannelStats {
  channel: Channel;
  clicks: number;
  visitors: number;
  sales: number;
  revenue: number;
}

/** Per-channel clicks, visitors, sales and revenue of a day range (for the attribution report). */
export async function channelStats(deps: Deps, scope: Scope, plan: Plan, start: string, end: string): Promise<{ locked: boolean; channels: ChannelStats[] }> {
  if (!hasLinkStats(plan)) return { locked: true, channels: [] };
  const days = await repo.dayStats(deps.store, scope, start, end);
  const n = (item: Record<string, unknown>, field: string) => (typeof item[field] === 'number' ? (item[field] as number) : 0);
  const channels = CHANNELS.map((channel) => {
    let clicks = 0,
      visitors = 0,
      sales = 0,
      revenueCents = 0;
    for (const d of days) {
      clicks += n(d, clickField(channel));
      visitors += n(d, visitorField(channel));
      sales += n(d, saleField(channel));
      revenueCents += n(d, revenueField(channel));
    }
    return { channel, clicks, visitors, sales, revenue: toMajor(revenueCents) };
  }).filter((c) => c.clicks || c.visitors || c.sales || c.revenue);
  return { locked: false, channels };
}
