import { blockedRecipients } from '../audience/suppression';
import { upsertContact } from '../audience/service';
import { normalizeEmail } from '../audience/rules';
import type { ContactSource } from '../audience/records';
import { automationReport, createAutomationOps, deleteAutomation, enroll, findAutomation, setAutomationStatus } from '../automations/service';
import { stepsFromDelays, stepsMissingPosts } from '../automations/rules';
import { lookupSellable } from '../catalog/service';
import { createPost, deletePost, getPost, readSettings } from '../email/service';
import type { Account, Deps } from '../platform/context';
import { ApiError, badRequest, forbidden, notFound } from '../platform/errors';
import { newEvent, outboxPut } from '../platform/events';
import { leadEventData } from './events';
import { objectId } from '../platform/ids';
import { toMajor } from '../platform/money';
import { planAtLeast } from '../platform/plans';
import type { RequestInfo } from '../platform/context';
import { createDiscountOps } from '../storefront/discounts';
import type { Scope } from '../store/keys';
import { isConditionFailed } from '../store/conditional';
import type { FunnelRecord, LeadRecord } from './records';
import * as repo from './repository';
import { ATTRIBUTION_WINDOW_DAYS, attributable, defaultFunnelName, fillCopy, isFree, offerLink, percent } from './rules';
import type { FunnelCreateInput } from './schemas';
import { emailCopy, FUNNEL_TEMPLATES, findTemplate } from './templates';

export type FunnelCtx = Deps & { scope: Scope; account: Account; request: RequestInfo };

export const FUNNEL_LEAD_EVENT = 'funnel.lead';

export const listTemplates = () =>
  FUNNEL_TEMPLATES.map(({ id, name, description, emails }) => ({
    id,
    name,
    description,
    emails: emails.map(({ delayHours, subject }) => ({ delayHours, subject })),
  }));

export function presentFunnel(f: FunnelRecord) {
  return {
    _id: f._id,
    name: f.name,
    templateId: f.templateId,
    status: f.status,
    leadMagnetProductId: f.leadMagnetProductId,
    offerProductId: f.offerProductId,
    offerUrl: f.offerUrl,
    discountCode: f.discountCode,
    automationId: f.automationId,
    emailPostIds: f.emailPostIds,
    tag: f.tag,
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
  };
}

async function sellableName(ctx: FunnelCtx, id: string, field: string) {
  const sellable = await lookupSellable(ctx, ctx.scope, id);
  if (!sellable) throw new ApiError(404, `${field}: product ${id} not found`, { details: { field } });
  return sellable;
}

export async function createFunnel(ctx: FunnelCtx, input: FunnelCreateInput): Promise<FunnelRecord> {
  const template = findTemplate(input.templateId)!;
  const magnet = await sellableName(ctx, input.leadMagnetProductId, 'leadMagnetProductId');
  if (magnet.kind !== 'product' || !isFree(magnet.product))
    throw badRequest('The lead magnet must be a free product (price 0, or pay what you want from 0)', {
      code: 'LEAD_MAGNET_NOT_FREE',
      field: 'leadMagnetProductId',
    });
  const offer = await sellableName(ctx, input.offerProductId, 'offerProductId');
  const offerRecord = offer.kind === 'product' ? offer.product : offer.offer;
  if (offerRecord.priceCents <= 0) throw badRequest('The offer must be a paid product', { code: 'OFFER_NOT_PAID', field: 'offerProductId' });
  if (input.discount?.valueType === 'percentage' && input.discount.value > 100)
    throw badRequest('discount.value: a percentage discount is at most 100', { field: 'discount.value' });

  const id = objectId(ctx.clock);
  const now = ctx.clock.now().toISOString();
  const discount = input.discount
    ? createDiscountOps(ctx, ctx.scope, {
        name: `Funnel: ${input.discount.code}`,
        code: input.discount.code,
        valueType: input.discount.valueType,
        value: input.discount.value,
        mainProductIds: [input.offerProductId],
        expiresAt: input.discount.expiresAt ?? undefined,
      })
    : undefined;
  const values = { offerLink: offerLink(input.offerUrl, input.discount?.code), leadMagnet: magnet.product.name };
  // Mail posts first (the email capability's own writes); removed again if the funnel cannot be made.
  const posts: Awaited<ReturnType<typeof createPost>>[] = [];
  for (const email of template.emails) {
    const copy = emailCopy(email, Boolean(input.discount));
    posts.push(await createPost(ctx, { subject: fillCopy(copy.subject, values, false), html: fillCopy(copy.html, values, true) }));
  }
  const { automation, ops: automationOps } = createAutomationOps(ctx, ctx.scope, {
    name: `Funnel sequence: ${template.name}`,
    trigger: { type: 'lead_magnet_claimed', productId: input.leadMagnetProductId },
    steps: stepsFromDelays(template.emails.map((e, i) => ({ delayHours: e.delayHours, postId: posts[i]!._id }))),
    linkBaseUrl: ctx.request.baseUrl,
    owner: { kind: 'funnel', id },
  });
  const funnel: FunnelRecord = {
    _id: id,
    name: input.name ?? defaultFunnelName(magnet.product.name, offerRecord.name),
    templateId: template.id,
    leadMagnetProductId: input.leadMagnetProductId,
    offerProductId: input.offerProductId,
    offerUrl: input.offerUrl,
    discountId: discount?.discount._id ?? null,
    discountCode: discount?.discount.code ?? null,
    status: 'draft',
    automationId: automation._id,
    emailPostIds: posts.map((p) => p._id),
    tag: `funnel-${id}`,
    leads: 0,
    purchases: 0,
    buyers: 0,
    revenueCents: 0,
    currency: offerRecord.currency,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await ctx.store.transact([repo.funnelWrites.create(ctx.scope, funnel), ...automationOps, ...(discount?.ops ?? [])]);
  } catch (error) {
    for (const post of posts) await deletePost(ctx, post._id).catch(() => undefined);
    // The funnel and automation ids are new: only the code's guard can refuse.
    if (isConditionFailed(error))
      throw badRequest(`Discount code ${input.discount?.code} already exists`, { code: 'DISCOUNT_CODE_TAKEN', field: 'discount.code' });
    throw error;
  }
  return funnel;
}

export async function getFunnel(deps: Deps, scope: Scope, id: string): Promise<FunnelRecord> {
  const funnel = await repo.getFunnel(deps.store, scope, id);
  if (!funnel) throw notFound('Funnel');
  return funnel;
}

export const listFunnels = (deps: Deps, scope: Scope) => repo.listFunnels(deps.store, scope);

async function setFunnel(deps: Deps, scope: Scope, id: string, set: Partial<FunnelRecord>) {
  try {
    await deps.store.transact([repo.funnelWrites.set(scope, id, { ...set, updatedAt: deps.clock.now().toISOString() })]);
  } catch (error) {
    if (isConditionFailed(error)) throw notFound('Funnel');
    throw error;
  }
  return getFunnel(deps, scope, id);
}

export const renameFunnel = (deps: Deps, scope: Scope, id: string, name: string) => setFunnel(deps, scope, id, { name });

/** Deletes the funnel and its automation (paused first); the discount code and mails stay. */
export async function deleteFunnel(deps: Deps, scope: Scope, id: string): Promise<FunnelRecord> {
  const funnel = await getFunnel(deps, scope, id);
  if (await findAutomation(deps, scope, funnel.automationId)) {
    await setAutomationStatus(deps, scope, funnel.automationId, 'paused');
    await deleteAutomation(deps, scope, funnel.automationId);
  }
  await deps.store.transact([repo.funnelWrites.delete(scope, id)]).catch((error) => {
    if (isConditionFailed(error)) throw notFound('Funnel');
    throw error;
  });
  return funnel;
}

/** Activation checks, in the spec's order: plan, sender, mails, sequence. */
export async function activateFunnel(ctx: FunnelCtx, id: string): Promise<FunnelRecord> {
  const funnel = await getFunnel(ctx, ctx.scope, id);
  if (!planAtLeast(ctx.account.plan, 'tier2'))
    throw forbidden('Automations need a paid plan (Growth or higher)', { code: 'PAID_PLAN_REQUIRED', details: { requiredPlan: 'tier2' } });
  const settings = await readSettings(ctx);
  if (!settings.senderVerified) throw badRequest(`The sender email ${settings.senderEmail ?? '(not set)'} is not verified`, { code: 'SENDER_NOT_VERIFIED' });
  const automation = await findAutomation(ctx, ctx.scope, funnel.automationId);
  if (automation) {
    const postIds = automation.steps.flatMap((s) => (s.type === 'send_email' ? [s.postId] : []));
    const existing = new Set((await Promise.all(postIds.map((p) => getPost(ctx, ctx.scope, p).catch(() => undefined)))).flatMap((p) => (p ? [p._id] : [])));
    const missing = stepsMissingPosts(automation.steps, existing);
    if (missing.length)
      throw badRequest(`An email step has no email post (step ${missing.join(', ')})`, { code: 'EMAILS_MISSING', details: { steps: missing } });
  } else {
    throw new ApiError(409, "The funnel's automation was deleted", { code: 'SEQUENCE_MISSING' });
  }
  await setAutomationStatus(ctx, ctx.scope, funnel.automationId, 'active');
  return setFunnel(ctx, ctx.scope, id, { status: 'active' });
}

export async function pauseFunnel(deps: Deps, scope: Scope, id: string): Promise<FunnelRecord> {
  const funnel = await getFunnel(deps, scope, id);
  if (await findAutomation(deps, scope, funnel.automationId)) await setAutomationStatus(deps, scope, funnel.automationId, 'paused');
  return setFunnel(deps, scope, id, { status: 'paused' });
}

// ---- leads ----

export interface Claim {
  productId: string;
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  orderId?: string | null;
  source: ContactSource;
}

/**
 * Someone got a lead magnet (a free checkout, or a signup form linked to it): a lead once per
 * email in each active funnel that uses it. The contact, the lead, the counter and `funnel.lead`
 * are one transaction; an address that had unsubscribed is counted and never mailed.
 */
export async function claimLeadMagnet(deps: Deps, scope: Scope, claim: Claim): Promise<void> {
  const email = normalizeEmail(claim.email);
  const funnels = (await repo.listFunnels(deps.store, scope)).filter((f) => f.status === 'active' && f.leadMagnetProductId === claim.productId);
  for (const funnel of funnels) {
    if (await repo.getLead(deps.store, scope, funnel._id, email)) continue;
    const subscribed = !(await blockedRecipients(deps, scope, [email])).has(email);
    const capturedAt = deps.clock.now().toISOString();
    try {
      await upsertContact(deps, scope, { email, source: claim.source, tags: [funnel.tag], name: claim.firstName ?? null }).then(async ({ contact }) => {
        const lead: LeadRecord = {
          email,
          firstName: claim.firstName ?? null,
          lastName: claim.lastName ?? null,
          subscriberId: contact._id,
          subscribed,
          orderId: claim.orderId ?? null,
          capturedAt,
        };
        const event = newEvent(scope, deps.clock, FUNNEL_LEAD_EVENT, leadEventData(funnel, lead));
        await deps.store.transact([
          repo.leadWrites.create(scope, funnel._id, lead),
          repo.funnelWrites.count(scope, funnel._id, { leads: 1 }),
          outboxPut(event),
        ]);
      });
    } catch (error) {
      if (isConditionFailed(error)) continue; // the same lead claimed at the same moment
      throw error;
    }
  }
}

/** `funnel.lead` consumer step: a subscribed lead starts the sequence. */
export async function startSequence(deps: Deps, scope: Scope, data: { funnel: { id: string }; lead: { email: string; subscribed: boolean } }): Promise<void> {
  if (!data.lead.subscribed) return;
  const funnel = await repo.getFunnel(deps.store, scope, data.funnel.id);
  if (!funnel) return;
  await enroll(deps, scope, funnel.automationId, data.lead.email);
}

// ---- purchases ----

/** A paid sale of an offer counts for each funnel whose lead the buyer was, within the window. */
export async function recordOfferSale(
  deps: Deps,
  scope: Scope,
  sale: { saleId: string; productId: string; email: string; amountCents: number; at: string },
): Promise<void> {
  if (sale.amountCents <= 0) return;
  const email = normalizeEmail(sale.email);
  const funnels = (await repo.listFunnels(deps.store, scope)).filter((f) => f.offerProductId === sale.productId);
  for (const funnel of funnels) {
    const lead = await repo.getLead(deps.store, scope, funnel._id, email);
    if (!lead || !attributable(lead.capturedAt, sale.at)) continue;
    try {
      await deps.store.transact([
        repo.purchaseWrites.create(scope, funnel._id, { saleId: sale.saleId, email, amountCents: sale.amountCents, at: sale.at, refunded: false }),
        repo.purchaseWrites.buyer(scope, funnel._id, email, 1),
        repo.funnelWrites.count(scope, funnel._id, { purchases: 1, revenueCents: sale.amountCents }),
      ]);
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
    await syncBuyer(deps, scope, funnel._id, email);
  }
}

/** A refunded sale stops counting (purchases, revenue, and the buyer when it was their only one). */
export async function recordOfferRefund(deps: Deps, scope: Scope, saleId: string, productId: string): Promise<void> {
  const funnels = (await repo.listFunnels(deps.store, scope)).filter((f) => f.offerProductId === productId);
  for (const funnel of funnels) {
    const purchase = await repo.getPurchase(deps.store, scope, funnel._id, saleId);
    if (!purchase || purchase.refunded) continue;
    try {
      await deps.store.transact([
        repo.purchaseWrites.refund(scope, funnel._id, saleId),
        repo.purchaseWrites.buyer(scope, funnel._id, purchase.email, -1),
        repo.funnelWrites.count(scope, funnel._id, { purchases: -1, revenueCents: -purchase.amountCents }),
      ]);
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
    await syncBuyer(deps, scope, funnel._id, purchase.email);
  }
}

async function syncBuyer(deps: Deps, scope: Scope, funnelId: string, email: string) {
  const buyer = await repo.getBuyer(deps.store, scope, funnelId, email);
  if (!buyer) return;
  const shouldCount = buyer.purchases > 0;
  if (shouldCount === (buyer.counted === true)) return;
  try {
    await deps.store.transact([
      repo.purchaseWrites.buyerCounted(scope, funnelId, email, shouldCount),
      repo.funnelWrites.count(scope, funnelId, { buyers: shouldCount ? 1 : -1 }),
    ]);
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}

// ---- stats ----

export async function funnelStats(deps: Deps, scope: Scope, id: string) {
  const funnel = await getFunnel(deps, scope, id);
  const automation = await findAutomation(deps, scope, funnel.automationId);
  const report = automation ? await automationReport(deps, scope, automation) : { steps: [], uniqueOpened: 0, uniqueClicked: 0 };
  const subjects = new Map<string, string>();
  for (const postId of funnel.emailPostIds) {
    const post = await getPost(deps, scope, postId).catch(() => undefined);
    if (post) subjects.set(postId, post.subject);
  }
  const emails = report.steps.map((s) => ({ postId: s.postId, subject: subjects.get(s.postId) ?? null, sent: s.sent, opened: s.opened, clicked: s.clicked }));
  const sum = (k: 'sent' | 'opened' | 'clicked') => emails.reduce((n, e) => n + e[k], 0);
  return {
    totals: {
      leads: funnel.leads,
      emailsSent: sum('sent'),
      opens: sum('opened'),
      clicks: sum('clicked'),
      purchases: funnel.purchases,
      buyers: funnel.buyers,
      revenue: toMajor(funnel.revenueCents),
      conversionRate: percent(funnel.buyers, funnel.leads),
      currency: funnel.currency,
    },
    stages: { leads: funnel.leads, opened: report.uniqueOpened, clicked: report.uniqueClicked, bought: funnel.buyers },
    emails,
    attributionWindowDays: ATTRIBUTION_WINDOW_DAYS,
  };
}
