import { matchLocale } from '../platform/i18n/locales';
import { loadTranslator } from '../platform/i18n/translator';
import { findContactByEmail } from '../audience/service';
import { recordEngagement, unsubscribeEmail, suppressEmail } from '../audience/suppression';
import { normalizeEmail } from '../audience/rules';
import { getAccount } from '../platform/accounts';
import type { Account, Deps } from '../platform/context';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../platform/errors';
import { newEvent, outboxPut } from '../platform/events';
import { objectId } from '../platform/ids';
import { logger } from '../platform/logger';
import { nextWatch, stalledNow, WATCHDOG_FIRST_SECONDS, type WatchState } from '../platform/watchdog';
import type { Scope } from '../store/keys';
import { ConditionFailed } from '../store/store';
import type { Audience, CheckoutOptIn, EmailSettingsRecord, PostRecord } from './records';
import * as repo from './repository';
import { getPost } from './post-reads';
import { tokenSecret, withDefaults } from './settings';
import { optInWording } from './seller-settings';
import { segmentSendProblem } from '../segments/service';
import { peekToken, verifyToken, type TokenPayload } from './tokens';

// Rendering and delivery (sanitize-html, juice, html-to-text) live in delivery.ts, which only the
// email capability's own functions import; other capabilities queue mail through outbox.ts.

export type EmailCtx = Deps & { scope: Scope; account: Account };

export const EMAIL_QUEUE = 'email-sends';
export const POST_SENDING_EVENT = 'newsletter.post.sending';
/** Destinations per provider call (SES SendBulkEmail takes at most 50). */
export const BATCH_SIZE = 50;
/** Recipients per queued batch: ten provider calls, so the per-batch reads, lease and commit are shared (docs/performance.md). */
export const SEND_PAGE = 500;
export const LEASE_MS = 30_000;

// ---- settings and sender ----

export interface SettingsView {
  senderEmail: string | null;
  fromName: string | null;
  replyTo: string | null;
  physicalAddress: string | null;
  footerText: string | null;
  senderVerified: boolean;
  verificationStatus: string;
  totalEmailsSent: number;
  checkoutOptIn: CheckoutOptIn;
  checkoutOptInWording: string;
  saleNotifications: boolean;
}

async function senderStatus(deps: Deps, account: Pick<Account, 'senderVerified'>, settings: EmailSettingsRecord) {
  if (!settings.senderEmail) return { verified: false, status: 'NOT_SET' };
  if (account.senderVerified === false) return { verified: false, status: 'NOT_VERIFIED' };
  return deps.ports.email.senderIdentity(settings.senderEmail);
}

export async function loadSettings(deps: Deps, scope: Scope, account: Pick<Account, 'email' | 'name'>): Promise<EmailSettingsRecord> {
  return withDefaults(await repo.getSettings(deps.store, scope), account);
}

/** The settings, with the sender's verification read from the provider now (refreshed on read). */
export async function readSettings(ctx: EmailCtx): Promise<SettingsView> {
  const settings = await loadSettings(ctx, ctx.scope, ctx.account);
  const status = await senderStatus(ctx, ctx.account, settings);
  const { tokenSecretCiphertext: _secret, updatedAt: _u, ...view } = settings;
  const totalEmailsSent = await repo.totalSent(ctx.store, ctx.scope, settings.totalEmailsSent);
  return {
    ...view,
    totalEmailsSent,
    checkoutOptInWording: optInWording(settings, ctx.account),
    senderVerified: status.verified,
    verificationStatus: status.status,
  };
}

export async function updateSettings(
  ctx: EmailCtx,
  change: Partial<
    Pick<
      EmailSettingsRecord,
      'senderEmail' | 'fromName' | 'replyTo' | 'physicalAddress' | 'footerText' | 'checkoutOptIn' | 'checkoutOptInWording' | 'saleNotifications'
    >
  >,
): Promise<SettingsView> {
  const set: Record<string, unknown> = { updatedAt: ctx.clock.now().toISOString() };
  for (const [field, value] of Object.entries(change))
    if (value !== undefined) set[field] = typeof value === 'string' && field.endsWith('Email') ? normalizeEmail(value) : value;
  await repo.saveSettings(ctx.store, ctx.scope, set);
  return readSettings(ctx);
}

/** A send needs a verified sender and a physical address for the footer. */
export async function requireSender(deps: Deps, scope: Scope, account: Account): Promise<EmailSettingsRecord> {
  const settings = await loadSettings(deps, scope, account);
  const status = await senderStatus(deps, account, settings);
  if (!status.verified)
    throw forbidden(`The sender email ${settings.senderEmail ?? '(not set)'} is not verified`, {
      code: 'EMAIL_SENDER_NOT_VERIFIED',
      details: { status: status.status },
    });
  if (!settings.physicalAddress)
    throw badRequest('Set a physical address in /newsletters/settings first: it goes in every footer', {
      code: 'PHYSICAL_ADDRESS_REQUIRED',
      field: 'physicalAddress',
    });
  return settings;
}

// ---- links and delivery ----

export function linkBase(deps: Deps, fallback?: string) {
  return (deps.config.PUBLIC_BASE_URL ?? fallback ?? '').replace(/\/$/, '');
}

export const footerOf = (settings: EmailSettingsRecord) => ({ physicalAddress: settings.physicalAddress!, footerText: settings.footerText });

/** The footer's unsubscribe words in a mail's language (a buyer mail queued with its `locale`); none for English. */
export async function unsubscribeWords(locale: string | null | undefined): Promise<{ link: string; line: string } | undefined> {
  const language = matchLocale(locale);
  if (!language || language === 'en') return undefined;
  const t = await loadTranslator(language);
  return { link: t.t('unsub.title'), line: t.t('mail.line', { label: t.t('unsub.title'), value: '{{u}}' }) };
}

export function newPost(deps: Deps, fields: Partial<PostRecord> & Pick<PostRecord, 'subject' | 'audience' | 'source'>): PostRecord {
  const now = deps.clock.now().toISOString();
  return {
    _id: objectId(deps.clock),
    html: null,
    text: null,
    preview: null,
    fromName: null,
    replyTo: null,
    status: 'draft',
    sendAt: null,
    failureReason: null,
    sent: 0,
    opened: 0,
    clicked: 0,
    cursor: null,
    batch: 0,
    leaseUntil: 0,
    startedAt: null,
    sentAt: null,
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
}

// ---- newsletter posts ----

export interface PostInput {
  subject?: string;
  html?: string | null;
  text?: string | null;
  preview?: string | null;
  fromName?: string | null;
  replyTo?: string | null;
  tag?: string | null;
  segmentId?: string | null;
}

function audienceOf(input: PostInput, current?: Audience): Audience {
  if (input.segmentId) return { type: 'segment', segmentId: input.segmentId };
  if (input.tag) return { type: 'tag', tag: input.tag };
  if (input.segmentId === null || input.tag === null) return { type: 'all' };
  return current ?? { type: 'all' };
}

export async function createPost(ctx: EmailCtx, input: PostInput): Promise<PostRecord> {
  if (!input.subject?.trim()) throw badRequest('subject is required', { field: 'subject' });
  if (!input.html && !input.text) throw badRequest('Either html or text is required', { field: 'html' });
  const post = newPost(ctx, {
    subject: input.subject,
    html: input.html ?? null,
    text: input.text ?? null,
    preview: input.preview ?? null,
    fromName: input.fromName ?? null,
    replyTo: input.replyTo ?? null,
    audience: audienceOf(input),
    source: 'dashboard',
  });
  await ctx.store.transact([repo.postWrites.create(ctx.scope, post)]);
  return post;
}

export { getPost };

export const listPosts = (deps: Deps, scope: Scope, page: { limit: number; cursor?: string }) => repo.listPosts(deps.store, scope, page);

const EDITABLE = ['draft', 'failed'];

export async function updatePost(ctx: EmailCtx, id: string, input: PostInput): Promise<PostRecord> {
  const current = await getPost(ctx, ctx.scope, id);
  if (!EDITABLE.includes(current.status))
    throw conflict(`A ${current.status} post cannot be edited${current.status === 'scheduled' ? '; cancel its schedule first' : ''}`, 'POST_NOT_EDITABLE');
  const next: PostRecord = {
    ...current,
    ...(input.subject !== undefined ? { subject: input.subject } : {}),
    ...(input.html !== undefined ? { html: input.html } : {}),
    ...(input.text !== undefined ? { text: input.text } : {}),
    ...(input.preview !== undefined ? { preview: input.preview } : {}),
    ...(input.fromName !== undefined ? { fromName: input.fromName } : {}),
    ...(input.replyTo !== undefined ? { replyTo: input.replyTo } : {}),
    audience: audienceOf(input, current.audience),
    updatedAt: ctx.clock.now().toISOString(),
  };
  if (!next.subject.trim()) throw badRequest('subject is required', { field: 'subject' });
  if (!next.html && !next.text) throw badRequest('Either html or text is required', { field: 'html' });
  try {
    await ctx.store.transact([repo.postWrites.replace(ctx.scope, next, current.updatedAt)]);
  } catch (error) {
    if (error instanceof ConditionFailed) throw conflict('The post changed meanwhile; read it again', 'POST_CHANGED');
    throw error;
  }
  return next;
}

export async function deletePost(ctx: EmailCtx, id: string): Promise<PostRecord> {
  const current = await getPost(ctx, ctx.scope, id);
  if (current.status === 'sending') throw conflict('A post that is sending cannot be deleted', 'POST_SENDING');
  if (current.status === 'scheduled') await ctx.ports.scheduler.cancel(scheduleName(ctx.scope, id));
  await ctx.store.transact([repo.postWrites.delete(ctx.scope, current)]);
  return current;
}

const scheduleName = (scope: Scope, postId: string) => `email-post-send:${scope.accountId}:${scope.mode}:${postId}`;
export const watchdogName = (scope: Scope, postId: string) => `email-post-watchdog:${scope.accountId}:${scope.mode}:${postId}`;

/** A post aimed at a segment fails, rather than going to anyone else, when the segment or the plan for it is gone. */
async function audienceProblem(deps: Deps, scope: Scope, account: Account, post: PostRecord): Promise<string | undefined> {
  if (post.audience.type === 'segment') return segmentSendProblem(deps, scope, account.plan, post.audience.segmentId);
  return undefined;
}

/** Starts sending (now, or when its schedule fires): state and event in one transaction. */
export async function startPostSend(
  deps: Deps,
  scope: Scope,
  account: Account,
  id: string,
  options: { baseUrl?: string; fromSchedule?: boolean } = {},
): Promise<PostRecord> {
  const current = await repo.getPost(deps.store, scope, id, true);
  if (!current) throw notFound('Post');
  const allowed = options.fromSchedule ? ['scheduled'] : ['draft', 'failed', 'scheduled'];
  if (!allowed.includes(current.status)) throw conflict(`A ${current.status} post cannot be sent`, 'POST_NOT_SENDABLE');
  const problem = await audienceProblem(deps, scope, account, current);
  if (problem) throw conflict(problem, 'SEGMENT_UNAVAILABLE');
  await requireSender(deps, scope, account);
  const now = deps.clock.now().toISOString();
  const next: PostRecord = {
    ...current,
    status: 'sending',
    failureReason: null,
    cursor: null,
    leaseUntil: 0,
    startedAt: now,
    updatedAt: now,
    linkBaseUrl: linkBase(deps, options.baseUrl),
  };
  try {
    await deps.store.transact([
      repo.postWrites.replace(scope, next, current.updatedAt),
      outboxPut(newEvent(scope, deps.clock, POST_SENDING_EVENT, { postId: id, batch: next.batch })),
    ]);
  } catch (error) {
    if (error instanceof ConditionFailed) throw conflict('The post changed meanwhile; read it again', 'POST_CHANGED');
    throw error;
  }
  if (current.status === 'scheduled' && !options.fromSchedule) await deps.ports.scheduler.cancel(scheduleName(scope, id));
  return next;
}

export async function schedulePost(ctx: EmailCtx, id: string, sendAt: Date): Promise<PostRecord> {
  if (sendAt.getTime() <= ctx.clock.nowMs()) throw badRequest('sendAt must be in the future', { field: 'sendAt' });
  const current = await getPost(ctx, ctx.scope, id);
  if (!['draft', 'failed', 'scheduled'].includes(current.status)) throw conflict(`A ${current.status} post cannot be scheduled`, 'POST_NOT_SENDABLE');
  const problem = await audienceProblem(ctx, ctx.scope, ctx.account, current);
  if (problem) throw conflict(problem, 'SEGMENT_UNAVAILABLE');
  await requireSender(ctx, ctx.scope, ctx.account);
  const next: PostRecord = { ...current, status: 'scheduled', sendAt: sendAt.toISOString(), failureReason: null, updatedAt: ctx.clock.now().toISOString() };
  await ctx.store.transact([repo.postWrites.replace(ctx.scope, next, current.updatedAt)]);
  await ctx.ports.scheduler.schedule(scheduleName(ctx.scope, id), sendAt, { type: 'email.post-send', scope: ctx.scope, payload: { postId: id } });
  return next;
}

export async function cancelSchedule(ctx: EmailCtx, id: string): Promise<PostRecord> {
  const current = await getPost(ctx, ctx.scope, id);
  if (current.status !== 'scheduled') throw conflict('The post is not scheduled', 'POST_NOT_SCHEDULED');
  const next: PostRecord = { ...current, status: 'draft', sendAt: null, updatedAt: ctx.clock.now().toISOString() };
  await ctx.store.transact([repo.postWrites.replace(ctx.scope, next, current.updatedAt)]);
  await ctx.ports.scheduler.cancel(scheduleName(ctx.scope, id));
  return next;
}

/** Job: a scheduled post falls due. A failure (sender, segment) fails the post with its reason. */
export async function runScheduledSend(deps: Deps, scope: Scope, postId: string): Promise<void> {
  const account = await getAccount(deps.store, scope.accountId);
  const post = await repo.getPost(deps.store, scope, postId, true);
  if (!account || !post || post.status !== 'scheduled') return;
  try {
    await startPostSend(deps, scope, account, postId, { fromSchedule: true });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    await repo.failPost(deps.store, scope, postId, error.message, deps.clock.now().toISOString());
  }
}

/** Bus consumer of the committed start: queue the batch and arm the watchdog. Idempotent. */
export async function kickOffSend(deps: Deps, scope: Scope, postId: string, batch: number): Promise<void> {
  await deps.ports.scheduler.schedule(watchdogName(scope, postId), new Date(deps.clock.nowMs() + WATCHDOG_FIRST_SECONDS * 1000), {
    type: 'email.post-watchdog',
    scope,
    payload: { postId },
  });
  await deps.ports.queue.send(EMAIL_QUEUE, { scope, postId, batch });
}

/**
 * Job: while a post is sending, re-queue its current batch when no worker holds it (a lost
 * message, a worker or runtime that died). Progress is committed per batch, so this resumes it.
 */
export async function watchSend(deps: Deps, scope: Scope, postId: string, previous?: Partial<WatchState>): Promise<void> {
  const post = await repo.getPost(deps.store, scope, postId, true);
  if (!post || post.status !== 'sending') return;
  if (post.leaseUntil < deps.clock.nowMs()) await deps.ports.queue.send(EMAIL_QUEUE, { scope, postId, batch: post.batch });
  const watch = nextWatch(previous, `${post.batch}:${post.sent}`);
  if (stalledNow(previous, watch)) logger.error('newsletter send made no progress for an hour; its batch is re-queued hourly', { postId, batch: post.batch });
  await deps.ports.scheduler.schedule(watchdogName(scope, postId), new Date(deps.clock.nowMs() + watch.seconds * 1000), {
    type: 'email.post-watchdog',
    scope,
    payload: { postId, watch },
  });
}

// ---- links followed by recipients ----

/** Verifies a token from a mail link: the signature of its own account and mode's secret. */
export async function openToken(deps: Deps, token: string, kind: TokenPayload['k']): Promise<{ scope: Scope; payload: TokenPayload } | undefined> {
  const payload = peekToken(token);
  if (!payload || payload.k !== kind) return undefined;
  const scope: Scope = { accountId: payload.a, mode: payload.m };
  const settings = await repo.getSettings(deps.store, scope);
  if (!settings?.tokenSecretCiphertext) return undefined;
  const secret = await tokenSecret(deps, scope, settings);
  return verifyToken(secret, token) ? { scope, payload } : undefined;
}

export async function unsubscribeByToken(deps: Deps, token: string): Promise<{ email: string; fromName: string | null } | undefined> {
  const opened = await openToken(deps, token, 'u');
  if (!opened) return undefined;
  await unsubscribeEmail(deps, opened.scope, opened.payload.e);
  const account = await getAccount(deps.store, opened.scope.accountId);
  const settings = await loadSettings(deps, opened.scope, account ?? { email: '', name: undefined });
  return { email: opened.payload.e, fromName: settings.fromName };
}

export async function describeUnsubscribe(deps: Deps, token: string): Promise<{ email: string; fromName: string | null } | undefined> {
  const opened = await openToken(deps, token, 'u');
  if (!opened) return undefined;
  const account = await getAccount(deps.store, opened.scope.accountId);
  const settings = await loadSettings(deps, opened.scope, account ?? { email: '', name: undefined });
  return { email: opened.payload.e, fromName: settings.fromName };
}

/** A unique open or click on the post the link came from, or on the sent transactional mail. */
async function countEngagement(deps: Deps, scope: Scope, id: string, kind: 'open' | 'click', email: string): Promise<boolean> {
  const target = (await repo.getPost(deps.store, scope, id)) ? 'post' : 'mail';
  return repo.recordFirstEngagement(deps.store, scope, target, id, kind, email, deps.clock.now().toISOString()).catch((error) => {
    // A link is followed whatever happens to its count; the fault is logged, never the address.
    logger.warn('mail engagement not counted', { id, kind, error: error as Error });
    return false;
  });
}

/** Open pixel or click: engagement on the contact, and a unique count on the post. */
export async function recordLinkEngagement(deps: Deps, token: string, kind: 'open' | 'click'): Promise<{ url?: string } | undefined> {
  const opened = await openToken(deps, token, kind === 'open' ? 'o' : 'c');
  if (!opened) return undefined;
  const { scope, payload } = opened;
  const contact = await findContactByEmail(deps, scope, payload.e);
  await Promise.all([
    contact ? recordEngagement(deps, scope, contact._id, kind) : Promise.resolve(),
    payload.p ? countEngagement(deps, scope, payload.p, kind, payload.e) : Promise.resolve(false),
  ]);
  return { url: payload.url };
}

// ---- bounces and complaints ----

/**
 * A bounce or complaint as the provider reports it. The scope comes from the message tags the mail
 * carried (SES returns them on the event); the address is suppressed in that account and mode.
 */
export async function recordFeedback(deps: Deps, scope: Scope, email: string, type: 'bounce' | 'complaint'): Promise<void> {
  await suppressEmail(deps, scope, email, type);
}

/** Reads an SES event (EventBridge detail of the configuration set's destination). */
export function feedbackFromSesEvent(detail: Record<string, unknown>): { scope: Scope; emails: string[]; type: 'bounce' | 'complaint' } | undefined {
  const eventType = detail.eventType as string | undefined;
  const mail = detail.mail as { tags?: Record<string, string[]> } | undefined;
  const accountId = mail?.tags?.accountId?.[0];
  const mode = mail?.tags?.mode?.[0];
  if (!accountId || (mode !== 'live' && mode !== 'test')) return undefined;
  if (eventType === 'Bounce') {
    const bounce = detail.bounce as { bounceType?: string; bouncedRecipients?: { emailAddress: string }[] } | undefined;
    // Transient bounces (mailbox full) are not suppressed.
    if (bounce?.bounceType !== 'Permanent') return undefined;
    return { scope: { accountId, mode }, emails: (bounce.bouncedRecipients ?? []).map((r) => r.emailAddress), type: 'bounce' };
  }
  if (eventType === 'Complaint') {
    const complaint = detail.complaint as { complainedRecipients?: { emailAddress: string }[] } | undefined;
    return { scope: { accountId, mode }, emails: (complaint?.complainedRecipients ?? []).map((r) => r.emailAddress), type: 'complaint' };
  }
  return undefined;
}
