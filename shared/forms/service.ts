import { buyerLanguage, withLanguage } from '../account/buyer-language';
import { upsertContact } from '../audience/service';
import { isValidEmail, normalizeEmail } from '../audience/rules';
import { lookupProduct } from '../catalog/service';
import { prepareTransactional } from '../email/outbox';
import { claimLeadMagnet } from '../funnels/service';
import type { Account, Deps, RequestInfo } from '../platform/context';
import { badRequest, conflict, notFound, tooManyRequests } from '../platform/errors';
import { objectId, randomBase62 } from '../platform/ids';
import { scopeOf, type Scope } from '../store/keys';
import { slidingAllowance, slidingRetryAfterSeconds } from '../platform/sliding-window';
import { isConditionFailed } from '../store/conditional';
import type { TransactOp } from '../store/store';
import type { FormRecord, FormStatus } from './records';
import * as repo from './repository';
import {
  CONFIRM_TTL_DAYS,
  CONSENT_WORDING,
  conversionRate,
  dailySeries,
  DAILY_DAYS,
  DEFAULT_COPY,
  IP_WINDOW_MS,
  ipWindowOf,
  isLikelyBot,
  publicView,
  SIGNUPS_PER_IP,
  utcDay,
} from './rules';
import type { FormCreateInput, FormUpdateInput, SubscribeInput } from './schemas';
import { escapeHtml } from '../platform/html';

export type FormCtx = Deps & { scope: Scope; account: Account; request: RequestInfo };

export const baseUrlOf = (deps: Deps, request?: { baseUrl: string }) => (deps.config.PUBLIC_BASE_URL ?? request?.baseUrl ?? '').replace(/\/$/, '');

/** The snippets a creator pastes into a page; both load only this API's own assets. */
export function embedOf(base: string, id: string) {
  return {
    script: `<script src="${base}/forms/public/${id}/embed.js" async></script>`,
    iframe: `<iframe src="${base}/forms/public/${id}/frame" title="Signup form" style="width:100%;max-width:480px;height:320px;border:0" loading="lazy"></iframe>`,
    preview: `${base}/forms/public/${id}/preview`,
  };
}

export function presentForm(form: FormRecord, base: string, daily?: ReturnType<typeof dailySeries>) {
  const { views, signups, ...rest } = form;
  return { ...rest, stats: { views, signups, conversionRate: conversionRate(views, signups) }, embed: embedOf(base, form._id), ...(daily ? { daily } : {}) };
}

/** The lead magnet must be a product of this account and mode that costs nothing. */
async function checkLeadMagnet(deps: Deps, scope: Scope, productId: string | null | undefined) {
  if (!productId) return;
  const product = await lookupProduct(deps, scope, productId);
  if (!product || product.deletedAt) throw badRequest(`Product ${productId} not found`, { field: 'leadMagnetProductId', code: 'LEAD_MAGNET_NOT_FOUND' });
  const free = product.priceCents === 0 || (product.payWhatYouWant?.enabled && product.payWhatYouWant.minimumCents === 0);
  if (!free) throw badRequest('The lead magnet must be a free product', { field: 'leadMagnetProductId', code: 'LEAD_MAGNET_NOT_FREE' });
}

export async function createForm(ctx: FormCtx, input: FormCreateInput): Promise<FormRecord> {
  await checkLeadMagnet(ctx, ctx.scope, input.leadMagnetProductId);
  const type = input.type ?? 'inline';
  const now = ctx.clock.now().toISOString();
  const copy = DEFAULT_COPY[type];
  const form: FormRecord = {
    _id: objectId(ctx.clock),
    name: input.name,
    type,
    status: input.status ?? 'active',
    headline: input.headline || copy.headline,
    body: input.body ?? copy.body,
    buttonLabel: input.buttonLabel || copy.buttonLabel,
    placeholder: input.placeholder || copy.placeholder,
    collectName: input.collectName ?? false,
    successHeadline: input.successHeadline || copy.successHeadline,
    successMessage: input.successMessage ?? copy.successMessage,
    leadMagnetProductId: input.leadMagnetProductId ?? null,
    leadMagnetUrl: input.leadMagnetUrl ?? null,
    tags: [...new Set(input.tags ?? [])],
    doubleOptIn: input.doubleOptIn ?? false,
    accentColor: input.accentColor ?? '#4f46e5',
    position: input.position ?? 'bottom_right',
    trigger: input.trigger ?? { delaySeconds: type === 'inline' ? 0 : 5, scrollPercent: 0, exitIntent: false },
    frequencyDays: input.frequencyDays ?? 7,
    views: 0,
    signups: 0,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.store.transact(repo.formWrites.create(ctx.scope, form));
  return form;
}

export const listForms = (deps: Deps, scope: Scope) => repo.listForms(deps.store, scope);

export async function getForm(deps: Deps, scope: Scope, id: string): Promise<FormRecord> {
  const form = await repo.getForm(deps.store, scope, id);
  if (!form) throw notFound('Signup form');
  return form;
}

/** Views and signups per UTC day over the last 30 days, today included. */
export async function dailyOf(deps: Deps, scope: Scope, id: string) {
  const now = deps.clock.now();
  const from = utcDay(new Date(now.getTime() - (DAILY_DAYS - 1) * 86_400_000));
  return dailySeries(now, await repo.listDays(deps.store, scope, id, from, utcDay(now)));
}

export async function updateForm(ctx: FormCtx, id: string, change: FormUpdateInput): Promise<FormRecord> {
  const current = await getForm(ctx, ctx.scope, id);
  if (change.leadMagnetProductId !== undefined) await checkLeadMagnet(ctx, ctx.scope, change.leadMagnetProductId);
  const set: Partial<FormRecord> = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined));
  if (set.tags) set.tags = [...new Set(set.tags)];
  set.updatedAt = ctx.clock.now().toISOString();
  try {
    await ctx.store.transact([repo.formWrites.set(ctx.scope, id, set)]);
  } catch (error) {
    if (isConditionFailed(error)) throw notFound('Signup form');
    throw error;
  }
  return { ...current, ...set };
}

export async function deleteForm(deps: Deps, scope: Scope, id: string) {
  try {
    await deps.store.transact(repo.formWrites.delete(scope, id));
  } catch (error) {
    if (isConditionFailed(error)) throw notFound('Signup form');
    throw error;
  }
  return { _id: id, deleted: true as const };
}

// ---- public side (no key: the form id finds its account and mode) ----

async function locate(deps: Deps, id: string): Promise<{ scope: Scope; form: FormRecord }> {
  const pointer = await repo.getPointer(deps.store, id);
  const form = pointer && (await repo.getForm(deps.store, scopeOf(pointer.accountId, pointer.mode), id));
  if (!pointer || !form) throw notFound('Signup form');
  return { scope: scopeOf(pointer.accountId, pointer.mode), form };
}

/** What a page renders; a paused or archived form renders nothing (a preview shows it anyway). */
export async function readPublicForm(deps: Deps, id: string, options: { preview?: boolean } = {}) {
  const { form } = await locate(deps, id);
  if (form.status !== 'active' && !options.preview) return { id, status: form.status as FormStatus, render: false as const };
  return publicView(form);
}

/** The embed counts a view each time it shows the form. */
export async function recordView(deps: Deps, id: string): Promise<void> {
  const { scope, form } = await locate(deps, id);
  if (form.status !== 'active') return;
  await deps.store.transact(repo.formWrites.count(scope, id, utcDay(deps.clock.now()), { views: 1 }));
}

export type SubscribeAnswer = { status: 'subscribed'; leadMagnet: { name: string; url: string | null } | null } | { status: 'confirm_email' };

async function leadMagnetOf(deps: Deps, scope: Scope, form: FormRecord) {
  if (!form.leadMagnetProductId) return null;
  const product = await lookupProduct(deps, scope, form.leadMagnetProductId);
  return product && !product.deletedAt ? { name: product.name, url: form.leadMagnetUrl } : null;
}

/**
 * A public signup. Order: the form must be active, the address valid, the IP within 10 signups
 * per 15 minutes (429 past it); then a bot (honeypot filled, submit under 1.5 s) gets the success
 * answer a person would and nothing is stored. The answer is the same whether or not the address
 * was already subscribed.
 */
export async function subscribe(
  deps: Deps,
  request: Pick<RequestInfo, 'sourceIp' | 'baseUrl'> & { headers?: Record<string, string> },
  id: string,
  input: SubscribeInput,
): Promise<SubscribeAnswer> {
  const { scope, form } = await locate(deps, id);
  if (form.status !== 'active') throw conflict('This form is not accepting signups', 'FORM_NOT_ACTIVE');
  const email = normalizeEmail(input.email);
  if (!isValidEmail(email)) throw badRequest(`Invalid email address: ${input.email}`, { field: 'email' });
  const nowMs = deps.clock.nowMs();
  const windowStart = ipWindowOf(nowMs);
  // Sliding window (platform/sliding-window.ts): the previous 15 minutes weigh in, so no 2× burst
  // across a window boundary.
  const previous = await repo.ipSignupCount(deps.store, request.sourceIp, windowStart - IP_WINDOW_MS);
  const allowed = slidingAllowance(SIGNUPS_PER_IP, previous, nowMs, IP_WINDOW_MS);
  const admitted = await repo.countIpSignup(deps.store, request.sourceIp, windowStart, allowed, Math.floor((windowStart + 2 * IP_WINDOW_MS) / 1000));
  if (!admitted) {
    const current = await repo.ipSignupCount(deps.store, request.sourceIp, windowStart);
    const retry = slidingRetryAfterSeconds(SIGNUPS_PER_IP, previous, current, nowMs, IP_WINDOW_MS);
    throw tooManyRequests(retry, `At most ${SIGNUPS_PER_IP} signups per 15 minutes from one address; try again later`, 'SIGNUP_RATE_LIMITED');
  }
  const leadMagnet = await leadMagnetOf(deps, scope, form);
  if (isLikelyBot(input)) return form.doubleOptIn ? { status: 'confirm_email' } : { status: 'subscribed', leadMagnet };

  const name = input.name?.trim() || null;
  if (form.doubleOptIn) {
    await requestConfirmation(deps, scope, form, email, name, baseUrlOf(deps, request), request.headers?.['accept-language']);
    return { status: 'confirm_email' };
  }
  await join(deps, scope, form, email, name, 'Subscribed through the form');
  return { status: 'subscribed', leadMagnet };
}

/** The pending confirmation and its mail (queued for the email worker) are one transaction. */
async function requestConfirmation(
  deps: Deps,
  scope: Scope,
  form: FormRecord,
  email: string,
  name: string | null,
  base: string,
  acceptLanguage: string | undefined,
) {
  const token = randomBase62(32);
  const now = deps.clock.now();
  // The browser's language of the signup (else the address's saved one, the creator's default); the link keeps it for the page.
  const t = await buyerLanguage(deps, scope, { email, acceptLanguage });
  const link = withLanguage(`${base}/forms/public/${form._id}/confirm/${token}`, t.locale);
  const mail = await prepareTransactional(deps, scope, {
    to: [email],
    subject: t.t('form.confirmSubject'),
    preview: t.t('form.confirmPreview'),
    locale: t.locale,
    source: 'form',
    html: `<h1>${escapeHtml(form.headline)}</h1><p>${t.html('form.confirmAsk', { email })}</p><p><a href="${escapeHtml(link)}">${t.html('form.confirmButton')}</a></p><p>${t.html('form.confirmIgnore')}</p>`,
    baseUrl: base,
  });
  await deps.store.transact([
    repo.confirmationWrites.create(
      token,
      { accountId: scope.accountId, mode: scope.mode, formId: form._id, email, name, requestedAt: now.toISOString() },
      Math.floor(now.getTime() / 1000) + CONFIRM_TTL_DAYS * 86_400,
    ),
    ...mail.ops,
  ]);
}

/** The contact with the form's tags and consent, the signup counted, the lead magnet claimed. */
async function join(deps: Deps, scope: Scope, form: FormRecord, email: string, name: string | null, how: string, extraOps: TransactOp[] = []) {
  const now = deps.clock.now();
  const optedInAt = now.toISOString();
  await upsertContact(
    deps,
    scope,
    {
      email,
      name,
      source: 'form',
      tags: form.tags,
      consent: { source: 'form', wording: `${CONSENT_WORDING} "${form.headline}" (${how}, form ${form._id})`, optedInAt },
    },
    { extraOps: [...repo.formWrites.count(scope, form._id, utcDay(now), { signups: 1 }), ...extraOps] },
  );
  if (form.leadMagnetProductId) await claimLeadMagnet(deps, scope, { productId: form.leadMagnetProductId, email, firstName: name, source: 'form' });
}

/** Following the mailed link: joins once; a used or unknown link answers 404. */
export async function confirmSubscription(
  deps: Deps,
  id: string,
  token: string,
): Promise<{ form: FormRecord; scope: Scope; leadMagnet: { name: string; url: string | null } | null }> {
  const pending = await repo.getConfirmation(deps.store, token);
  if (!pending || pending.formId !== id || (pending.expiresAt && pending.expiresAt * 1000 < deps.clock.nowMs())) throw notFound('Confirmation link');
  const scope = scopeOf(pending.accountId, pending.mode);
  const form = await repo.getForm(deps.store, scope, id);
  if (!form) throw notFound('Signup form');
  try {
    // Taking the link is in the contact's transaction: a crash leaves the link usable, a second
    // follow finds it gone.
    await join(deps, scope, form, pending.email, pending.name, 'confirmed by email', [repo.confirmationWrites.take(token)]);
  } catch (error) {
    if (isConditionFailed(error)) throw notFound('Confirmation link');
    throw error;
  }
  return { form, scope, leadMagnet: await leadMagnetOf(deps, scope, form) };
}
