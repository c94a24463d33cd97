import { audiencePage, blockedRecipients, mayMarketTo, suppressedAmong } from '../audience/suppression';
import { getAccount } from '../platform/accounts';
import type { Account, Deps } from '../platform/context';
import { ApiError, badGateway, notFound } from '../platform/errors';
import { objectId } from '../platform/ids';
import { logger } from '../platform/logger';
import { fixClaimedBatch, readClaimedBatch, sendClaimedChunks, type ClaimedBatch } from '../store/claimed-batch';
import { onConditionFailed } from '../store/conditional';
import type { Scope } from '../store/keys';
import { segmentMembersPage, segmentSendProblem } from '../segments/service';
import type { MailTemplate } from '../platform/ports';
import { recipientData, unsubscribeHeaders } from './mail-recipients';
import { checkTransactional, mailContent, type TransactionalMessage } from './outbox';
import type { EmailSettingsRecord, PostRecord } from './records';
import * as repo from './repository';
import { BATCH_SIZE, EMAIL_QUEUE, footerOf, unsubscribeWords, LEASE_MS, linkBase, newPost, requireSender, SEND_PAGE, watchdogName } from './service';
import { tokenSecret, withDefaults } from './settings';
import { signToken, type TokenPayload } from './tokens';

/**
 * Rendering and delivery: the only module that imports the mail builder (sanitize-html, juice,
 * html-to-text). The email capability's own functions import it (its API for the synchronous
 * send, its `email-sends` queue and `email-transactional` consumer); every other capability
 * queues mail through outbox.ts and never bundles the renderer.
 */

export type { TransactionalMessage } from './outbox';

function urlsFor(secret: string, scope: Scope, base: string, postId: string | undefined, email: string) {
  const token = (k: TokenPayload['k'], url?: string) =>
    signToken(secret, { a: scope.accountId, m: scope.mode, e: email, k, ...(postId ? { p: postId } : {}), ...(url ? { url } : {}) });
  return {
    unsubscribe: `${base}/email/unsubscribe/${token('u')}`,
    open: `${base}/email/open/${token('o')}`,
    click: (url: string) => `${base}/email/click/${token('c', url)}`,
  };
}

interface Delivery {
  template: MailTemplate;
  settings: EmailSettingsRecord;
  fromName?: string | null;
  replyTo?: string | null;
  recipients: string[];
  postId?: string;
  base: string;
  secret: string;
}

const bulkRequest = (scope: Scope, d: Delivery, chunk: string[]) => ({
  from: d.settings.senderEmail ?? undefined,
  fromName: d.fromName ?? d.settings.fromName ?? undefined,
  replyTo: d.replyTo ?? d.settings.replyTo ?? undefined,
  subject: d.template.subject,
  html: d.template.html,
  text: d.template.text,
  tags: { accountId: scope.accountId, mode: scope.mode, ...(d.postId ? { postId: d.postId } : {}) },
  destinations: chunk.map((to) => {
    const urls = urlsFor(d.secret, scope, d.base, d.postId, to);
    return { to, data: recipientData(d.template, urls), headers: unsubscribeHeaders(urls.unsubscribe) };
  }),
});

/**
 * Hands a rendered template to the provider in bulk calls of 50; answers who was accepted. A call
 * refused before anyone was accepted throws (the caller retries the whole mail); once an earlier
 * call was accepted, a retry would mail those recipients twice, so a refused call's recipients are
 * answered as failed instead.
 */
async function deliver(deps: Deps, scope: Scope, d: Delivery): Promise<{ accepted: string[]; failed: { to: string; error: string }[] }> {
  const accepted: string[] = [];
  const failed: { to: string; error: string }[] = [];
  for (let i = 0; i < d.recipients.length; i += BATCH_SIZE) {
    const chunk = d.recipients.slice(i, i + BATCH_SIZE);
    let results: { to: string; error?: string }[];
    try {
      results = await deps.ports.email.sendBulk(bulkRequest(scope, d, chunk));
    } catch (error) {
      if (!accepted.length) throw error;
      logger.error('email provider refused a call after an earlier one was accepted', { error: error as Error });
      results = chunk.map((to) => ({ to, error: (error as Error).message }));
    }
    for (const result of results) {
      if (result.error) failed.push({ to: result.to, error: result.error });
      else accepted.push(result.to);
    }
  }
  return { accepted, failed };
}

// ---- transactional send ----

/** Renders a message once and hands it to the provider; answers who was accepted (502 when nobody was). */
async function renderAndDeliver(
  deps: Deps,
  scope: Scope,
  postId: string,
  message: TransactionalMessage,
  recipients: string[],
  settings: EmailSettingsRecord,
): Promise<string[]> {
  const words = await unsubscribeWords(message.locale);
  const template = await deps.ports.render.mailTemplate(message, { ...footerOf(settings), ...(words ? { unsubscribe: words } : {}) }, { track: message.track });
  const secret = await tokenSecret(deps, scope, settings);
  let result: Awaited<ReturnType<typeof deliver>>;
  try {
    result = await deliver(deps, scope, {
      template,
      settings,
      fromName: message.fromName,
      replyTo: message.replyTo,
      recipients,
      postId,
      base: linkBase(deps, message.baseUrl),
      secret,
    });
  } catch (error) {
    logger.error('email provider refused a send', { error: error as Error });
    throw badGateway('No email could be delivered; retry later', 'EMAIL_SEND_FAILED');
  }
  if (!result.accepted.length) throw badGateway('No email could be delivered; retry later', 'EMAIL_SEND_FAILED');
  return result.accepted;
}

const sentPost = (deps: Deps, message: TransactionalMessage, accepted: string[], id?: string): PostRecord => {
  const now = deps.clock.now().toISOString();
  return newPost(deps, {
    ...(id ? { _id: id } : {}),
    ...mailContent(message),
    // The public send's post (the spec's): its source is `api`.
    source: 'api',
    audience: { type: 'all' },
    status: 'sent',
    sent: accepted.length,
    startedAt: now,
    sentAt: now,
  });
};

/**
 * Sends one message to 1 to 100 recipients now (the public `POST /newsletters/send`, whose answer
 * lists who was accepted): lower-cased and de-duplicated, suppressed and unsubscribed addresses
 * left out, footer and per-recipient unsubscribe link added, recorded as a sent post counting
 * toward totalEmailsSent. Other capabilities queue mail through outbox.ts instead.
 */
export async function sendTransactional(
  deps: Deps,
  scope: Scope,
  message: TransactionalMessage,
  account?: Account,
): Promise<{ id: string; accepted: string[]; status: 'sent' }> {
  const owner = account ?? (await getAccount(deps.store, scope.accountId));
  if (!owner) throw notFound('Account');
  const recipients = checkTransactional(message);
  const settings = await requireSender(deps, scope, owner);
  const blocked = await blockedRecipients(deps, scope, recipients);
  const allowed = recipients.filter((r) => !blocked.has(r));
  const id = objectId(deps.clock);
  const accepted = allowed.length ? await renderAndDeliver(deps, scope, id, message, allowed, settings) : [];
  const post = sentPost(deps, message, accepted, id);
  await deps.store.transact([repo.postWrites.create(scope, post), repo.countSentOp(scope, accepted.length)]);
  return { id: post._id, accepted, status: 'sent' };
}

export const MAIL_TAKEOVER_JOB = 'email.mail-takeover';
export const mailTakeoverName = (scope: Scope, id: string) => `email-mail-takeover:${scope.accountId}:${scope.mode}:${id}`;

/** A timer at the end of the lease a worker holds the mail by: its run finds the mail sent, or takes it over. */
const watchHeldMail = (deps: Deps, scope: Scope, id: string, leaseUntil: number) =>
  deps.ports.scheduler.schedule(mailTakeoverName(scope, id), new Date(leaseUntil + 1000), { type: MAIL_TAKEOVER_JOB, scope, payload: { mailId: id } });

/** How long a worker holds a queued mail it is sending (rendering and one provider call take seconds). */
export const QUEUED_MAIL_LEASE_MS = 60_000;

/**
 * Consumer of a queued mail (outbox.ts): renders and delivers it once. `queued → sending` is
 * claimed with a lease before the provider is called, so a redelivered event or a second worker
 * sends nothing while the claim holds. A worker that dies mid-send leaves the lease to run out;
 * the event's next delivery then either takes the mail over and sends it (the one case where a
 * recipient can get it twice: the provider had accepted it just before the crash) or, for an
 * at-most-once mail (`once`: a member post's notification), fails it as interrupted and sends
 * nothing. A provider fault puts it back to `queued` and throws, so the bus retries with its
 * back-off (and finally dead-letters the event; redriving it sends the mail then). A sender that is
 * not verified, or no physical address, fails it for good (logged; nothing to retry until the
 * creator fixes the settings). Recipients suppressed or unsubscribed since it was queued are
 * left out. Delivered, it leaves a sent-mail record with the mail's id (never a newsletter post:
 * receipts and access links must not bury the seller's posts), counted in totalEmailsSent.
 */
export async function deliverQueuedMail(deps: Deps, scope: Scope, id: string): Promise<void> {
  const mail = await repo.getQueuedMail(deps.store, scope, id);
  if (!mail || mail.status === 'sent' || mail.status === 'failed') return;
  const at = () => deps.clock.now().toISOString();
  const nowMs = deps.clock.nowMs();
  if (mail.status === 'sending' && (mail.leaseUntil ?? 0) >= nowMs) {
    // Another worker holds it (or held it and died: after a crash the event comes back before the
    // lease runs out). A timer at the lease's end looks again: sent by then, nothing happens;
    // still `sending`, that worker died and the timer's run takes the mail over.
    await watchHeldMail(deps, scope, id, mail.leaseUntil ?? nowMs);
    return;
  }
  if (mail.status === 'sending' && mail.once) {
    // Its worker died mid-send: the provider may have accepted it, so it is not sent again.
    if (await repo.interruptQueuedMail(deps.store, scope, id, nowMs, at()))
      logger.warn('queued mail interrupted mid-send; not sent again', { mailId: id, recipients: mail.to.length });
    return;
  }
  if (!(await repo.claimQueuedMail(deps.store, scope, id, { nowMs, leaseUntil: nowMs + QUEUED_MAIL_LEASE_MS, updatedAt: at(), takeOver: !mail.once }))) {
    // Another worker claimed it between the read and this claim. It is watched as a held mail is:
    // were that worker to die holding it, nothing else would look at the mail again.
    const held = await repo.getQueuedMail(deps.store, scope, id);
    if (held?.status === 'sending') await watchHeldMail(deps, scope, id, held.leaseUntil ?? nowMs);
    return;
  }
  const message: TransactionalMessage = { ...mail, baseUrl: mail.baseUrl ?? undefined };
  let accepted: string[] = [];
  try {
    const account = await getAccount(deps.store, scope.accountId);
    if (!account) throw notFound('Account');
    const settings = await requireSender(deps, scope, account);
    const blocked = await blockedRecipients(deps, scope, mail.to);
    const allowed = mail.to.filter((r) => !blocked.has(r));
    if (allowed.length) accepted = await renderAndDeliver(deps, scope, id, message, allowed, settings);
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      logger.warn('queued mail not sent', { mailId: id, code: error.code, error: error as Error });
      await repo.moveQueuedMail(deps.store, scope, id, 'sending', { status: 'failed', failureReason: error.message, updatedAt: at() });
      return;
    }
    await repo.moveQueuedMail(deps.store, scope, id, 'sending', { status: 'queued', updatedAt: at() }, { attempts: 1 });
    throw error;
  }
  // A transactional mail is not a newsletter post: its record stays out of the posts' list.
  const sent = { _id: id, subject: mail.subject, source: mail.source, sent: accepted.length, opened: 0, clicked: 0, sentAt: at() };
  // The sent-mail record, new, is what says the mail went (the queued item stays `sending`): one
  // transaction with the count, so the mail counts once. A worker that took over a mail whose
  // first worker recorded it meanwhile finds it recorded.
  await onConditionFailed(deps.store.transact([repo.sentMailPut(scope, sent), repo.countSentOp(scope, accepted.length)]), async (error) => {
    if (!(await repo.getSentMail(deps.store, scope, id, true))) throw error;
  });
}

// ---- newsletter posts ----

/**
 * Queue worker: one batch of a post (up to SEND_PAGE recipients). The batch's recipients are fixed
 * in its marker when first read; before each chunk of 50 goes to the provider the marker's
 * `claimed` count is raised past it, conditionally, so no crash or duplicate message can mail
 * anyone twice and a restart resumes after the last chunk handed over. The cursor, count and
 * next batch number are committed together at the end.
 *
 * The send is a chain of round trips, so the batch keeps off it what does not need the lease: the
 * account, settings and marker are read with the claim (a marker read before the claim is safe:
 * each chunk's claim is conditional on the count read, so a stale one finds the batch taken), the
 * template renders meanwhile, and while this batch's chunks go out the next batch's recipients
 * are read and fixed in its marker from this marker's cursor (the cursor the commit stores), so the
 * next worker finds its batch planned. Chunks stay one at a time: a crash cuts short one chunk of
 * 50 at most (the at-most-once bound). See docs/performance.md, issue 43.
 */
export async function processSendBatch(deps: Deps, scope: Scope, postId: string, batch: number): Promise<void> {
  const nowMs = deps.clock.nowMs();
  const markerKey = repo.batchMarkerKey(scope, postId, batch);
  const accountRead = getAccount(deps.store, scope.accountId);
  const reads = Promise.all([
    accountRead.then((account) => account ?? { email: '', name: undefined, plan: 'free' as const }),
    repo.getSettings(deps.store, scope),
    readClaimedBatch(deps.store, markerKey),
  ]);
  reads.catch(() => undefined); // judged below, once the lease is held
  const post = await repo.claimBatch(deps.store, scope, postId, batch, nowMs, nowMs + LEASE_MS);
  if (!post) return; // finished, moved on, or held by a live worker (the watchdog covers a dead one)
  const [account, stored, known] = await reads;
  const settings = withDefaults(stored, account);
  // Rendered once per batch (up to SEND_PAGE recipients, in chunks of 50), by the render function,
  // while the segment is checked and the batch's recipients are read.
  const prepared = Promise.all([postTemplate(deps, scope, post, footerOf(settings)), tokenSecret(deps, scope, settings)]);
  prepared.catch(() => undefined); // judged below, after the plan
  // Deleted (or the plan lost segments) mid-send: stop here rather than send to anyone else.
  const problem = post.audience.type === 'segment' ? await segmentSendProblem(deps, scope, account.plan ?? 'free', post.audience.segmentId) : undefined;
  const failure = !settings.physicalAddress || !settings.senderEmail ? 'The sender or physical address was removed during the send' : problem;
  if (failure) {
    await repo.failPost(deps.store, scope, postId, failure, deps.clock.now().toISOString());
    return;
  }
  const marker = known ?? (await planBatch(deps, scope, post, batch, post.cursor ?? undefined));
  const nextPlanned = marker.nextCursor ? planNext(deps, scope, post, batch + 1, marker.nextCursor) : undefined;
  const base = post.linkBaseUrl || linkBase(deps);
  let outcome: Awaited<ReturnType<typeof sendClaimedChunks>>;
  try {
    const [template, secret] = await prepared;
    outcome = await sendClaimedChunks(deps.store, markerKey, marker, BATCH_SIZE, (chunk) =>
      deliver(deps, scope, { template, settings, fromName: post.fromName, replyTo: post.replyTo, recipients: chunk, postId, base, secret }),
    );
  } catch (error) {
    // Rendering failed, or the provider refused a whole call (its chunk was given back): the
    // batch is released and the queue retries from there.
    await Promise.all([repo.releaseBatch(deps.store, scope, postId, batch), nextPlanned]);
    throw error;
  }
  if (outcome.taken) return; // another worker is on it
  const accepted = outcome.accepted;
  const done = !marker.nextCursor;
  const now = deps.clock.now().toISOString();
  // `accepted` counts this batch's chunks whose results were recorded; a chunk cut short by a crash is not counted.
  await Promise.all([
    deps.store.transact([repo.advanceBatchOp(scope, post, { cursor: marker.nextCursor, sent: accepted, done, now }), repo.countSentOp(scope, accepted)]),
    nextPlanned,
  ]);
  if (done) await deps.ports.scheduler.cancel(watchdogName(scope, postId));
  else await deps.ports.queue.send(EMAIL_QUEUE, { scope, postId, batch: batch + 1 });
}

// A post's rendered template, kept for its next batches in this container: a sending post cannot
// be edited (an edit needs a draft or failed post, and its next send a new startedAt, which is in
// the key), so the template changes only with the footer (settings), also in the key.
// Each batch rendered it anew: a render call (the render function, or in-process rendering locally)
// on every batch's chain. A few posts at a time at most (a template is up to ~1 MB).
const templates = new Map<string, Promise<MailTemplate>>();

function postTemplate(deps: Deps, scope: Scope, post: PostRecord, footer: ReturnType<typeof footerOf>): Promise<MailTemplate> {
  const key = JSON.stringify([scope.accountId, scope.mode, post._id, post.startedAt, footer]);
  let template = templates.get(key);
  if (!template) {
    if (templates.size >= 4) templates.delete(templates.keys().next().value!);
    template = deps.ports.render.mailTemplate(post, footer);
    template.catch(() => templates.delete(key)); // a failed render is tried again by the next batch
    templates.set(key, template);
  }
  return template;
}

/**
 * Plans the next batch ahead (processSendBatch). A failure costs nothing but the head start: it
 * is logged and the next batch's worker, finding no marker, plans its batch itself.
 */
const planNext = (deps: Deps, scope: Scope, post: PostRecord, batch: number, cursor: string) =>
  planBatch(deps, scope, post, batch, cursor).then(
    () => undefined,
    (error: unknown) => logger.warn('next newsletter batch not planned ahead; its worker plans it', { postId: post._id, batch, error: error as Error }),
  );

/** Reads a batch's page of the audience from `cursor`, leaves out suppressed addresses and fixes the result in its marker. */
async function planBatch(deps: Deps, scope: Scope, post: PostRecord, batch: number, cursor: string | undefined): Promise<ClaimedBatch> {
  const page =
    post.audience.type === 'segment'
      ? await segmentMembersPage(deps, scope, post.audience.segmentId, { limit: SEND_PAGE, cursor })
      : await audiencePage(deps, scope, post.audience.type === 'tag' ? { tag: post.audience.tag } : {}, { limit: SEND_PAGE, cursor });
  // Marketing mail: only contacts who consented (a buyer who did not tick the opt-in is left out).
  const emails = page.contacts.filter(mayMarketTo).map((c) => c.email);
  const suppressed = await suppressedAmong(deps, scope, emails);
  return fixClaimedBatch(deps.store, repo.batchMarkerKey(scope, post._id, batch), 'PostBatch', {
    recipients: emails.filter((e) => !suppressed.has(e)),
    nextCursor: page.cursor ?? null,
  });
}
