import { brotliCompressSync, brotliDecompressSync, constants as zlib, gunzipSync } from 'node:zlib';
import { randomInt } from 'node:crypto';
import { withClaims } from '../store/claimed-batch';
import { keys, type Scope } from '../store/keys';
import { toItem } from '../store/items';
import { ConditionFailed, toRecord, type Store, type TransactOp } from '../store/store';
import { POST, SETTINGS, type EmailSettingsRecord, type PostRecord, type QueuedMailRecord, type QueuedMailStatus, type SentMailRecord } from './records';

// - settings:          PK=<scope>#EMAIL_SETTINGS, SK=SETTINGS (its totalEmailsSent: the count before
//                      the count was sharded, kept and added to the shards)
// - sent count:        PK=<scope>#EMAIL_SENT#<shard>, SK=COUNT, one of SENT_SHARDS picked at random per
//                      write: every mail adds to the count, and one item rewritten per mail would
//                      cap an account's mail (and so its checkouts) at one item's write rate
// - post:              PK=<scope>#NEWSLETTER_POST, SK=<postId> (newest first)
// - batch marker:      PK=<scope>#NEWSLETTER_POST#<postId>#BATCH, SK=<batch, zero-padded>; the batch's
//                      recipients and next cursor, fixed when first read, and `claimed`: how many of
//                      them were handed to the provider (raised before each chunk of 50 goes out, so
//                      it is the at-most-once guard per recipient and a restart resumes after it)
// - engagement marker: PK=<scope>#NEWSLETTER_POST#<postId>#OPEN | #CLICK, SK=<email>; first open or
//                      click of a recipient, so the post's counts are unique recipients

const settingsKey = (scope: Scope) => keys.entity(scope, SETTINGS, 'SETTINGS');
const postKey = (scope: Scope, id: string) => keys.entity(scope, POST, id);
const engagementKey = (scope: Scope, postId: string, kind: 'OPEN' | 'CLICK', email: string) => keys.child(scope, POST, postId, kind, email);

export async function getSettings(store: Store, scope: Scope): Promise<Partial<EmailSettingsRecord> | undefined> {
  return toRecord<Partial<EmailSettingsRecord>>(await store.get(settingsKey(scope)));
}

export async function saveSettings(store: Store, scope: Scope, change: Partial<EmailSettingsRecord>): Promise<Partial<EmailSettingsRecord>> {
  return toRecord<Partial<EmailSettingsRecord>>(await store.update(settingsKey(scope), { set: { ...change, entity: 'EmailSettings', v: 1 } }))!;
}

/** Stores the token secret unless one exists; answers the one that won. */
export async function saveTokenSecret(store: Store, scope: Scope, ciphertext: string): Promise<string> {
  try {
    await store.update(
      settingsKey(scope),
      { set: { tokenSecretCiphertext: ciphertext, entity: 'EmailSettings', v: 1 } },
      { condition: 'attribute_not_exists(tokenSecretCiphertext)' },
    );
    return ciphertext;
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    return (await store.get<{ tokenSecretCiphertext: string }>(settingsKey(scope), { consistent: true }))!.tokenSecretCiphertext;
  }
}

const SENT_SHARDS = 16;
const sentCountKey = (scope: Scope, shard: number) => keys.entity(scope, `EMAIL_SENT#${shard}`, 'COUNT');

export const countSentOp = (scope: Scope, count: number): TransactOp => ({
  update: sentCountKey(scope, randomInt(SENT_SHARDS)),
  set: { entity: 'EmailSentCount' },
  add: { count },
});

/** Mails sent in this scope: the shards (one batched read) plus the count kept before sharding. */
export async function totalSent(store: Store, scope: Scope, before: number): Promise<number> {
  const shards = await store.batchGet(Array.from({ length: SENT_SHARDS }, (_, shard) => sentCountKey(scope, shard)));
  return shards.reduce((sum, item) => sum + Number(item.count ?? 0), before);
}

// ---- posts ----

const postItem = (scope: Scope, post: PostRecord) => toItem(postKey(scope, post._id), 'NewsletterPost', post);

export async function getPost(store: Store, scope: Scope, id: string, consistent = false): Promise<PostRecord | undefined> {
  return toRecord<PostRecord>(await store.get(postKey(scope, id), { consistent }));
}

export async function listPosts(store: Store, scope: Scope, page: { limit: number; cursor?: string }) {
  const result = await store.query({ pk: keys.collection(scope, POST), limit: page.limit, cursor: page.cursor });
  return { posts: result.items.map((i) => toRecord<PostRecord>(i)!), cursor: result.cursor };
}

export const postWrites = {
  create: (scope: Scope, post: PostRecord): TransactOp => ({ put: postItem(scope, post), condition: 'attribute_not_exists(PK)' }),
  /** Replaces the post only if it is unchanged since read (`updatedAt` is the version). */
  replace: (scope: Scope, post: PostRecord, readUpdatedAt: string): TransactOp => ({
    put: postItem(scope, post),
    condition: 'attribute_exists(PK) AND #updatedAt = :readUpdatedAt',
    names: { '#updatedAt': 'updatedAt' },
    values: { ':readUpdatedAt': readUpdatedAt },
  }),
  delete: (scope: Scope, post: PostRecord): TransactOp => ({
    delete: postKey(scope, post._id),
    condition: '#updatedAt = :readUpdatedAt',
    names: { '#updatedAt': 'updatedAt' },
    values: { ':readUpdatedAt': post.updatedAt },
  }),
};

/** Takes batch `batch` of a sending post until `leaseUntil`; undefined when another worker holds it or it moved on. */
export async function claimBatch(
  store: Store,
  scope: Scope,
  postId: string,
  batch: number,
  nowMs: number,
  leaseUntil: number,
): Promise<PostRecord | undefined> {
  try {
    const item = await store.update(
      postKey(scope, postId),
      { set: { leaseUntil } },
      {
        condition: '#status = :sending AND #batch = :batch AND #lease < :now',
        names: { '#status': 'status', '#batch': 'batch', '#lease': 'leaseUntil' },
        values: { ':sending': 'sending', ':batch': batch, ':now': nowMs },
      },
    );
    return toRecord<PostRecord>(item);
  } catch (error) {
    if (error instanceof ConditionFailed) return undefined;
    throw error;
  }
}

/** Commits a batch: the next cursor, the sent count, and `done` ends the send. Only the lease holder can. */
export function advanceBatchOp(scope: Scope, post: PostRecord, next: { cursor: string | null; sent: number; done: boolean; now: string }): TransactOp {
  return {
    update: postKey(scope, post._id),
    set: {
      cursor: next.cursor,
      batch: post.batch + 1,
      leaseUntil: 0,
      updatedAt: next.now,
      ...(next.done ? { status: 'sent', sentAt: next.now } : {}),
    },
    add: { sent: next.sent },
    condition: '#status = :sending AND #batch = :batch AND #lease = :lease',
    names: { '#status': 'status', '#batch': 'batch', '#lease': 'leaseUntil' },
    values: { ':sending': 'sending', ':batch': post.batch, ':lease': post.leaseUntil },
  };
}

export async function failPost(store: Store, scope: Scope, postId: string, reason: string, now: string): Promise<void> {
  await store.update(postKey(scope, postId), { set: { status: 'failed', failureReason: reason, leaseUntil: 0, updatedAt: now } }, { mustExist: true });
}

// ---- batch markers (shared/store/claimed-batch.ts: the at-most-once guard) ----

export const batchMarkerKey = (scope: Scope, postId: string, batch: number) => keys.child(scope, POST, postId, 'BATCH', String(batch).padStart(8, '0'));

/** A page of a post's batch markers, oldest first (support and tests: who got which batch). */
export async function listBatchMarkers(store: Store, scope: Scope, postId: string, page: { limit: number; cursor?: string }) {
  const result = await store.query({ pk: keys.children(scope, POST, postId, 'BATCH'), ascending: true, limit: page.limit, cursor: page.cursor });
  return { markers: await withClaims(store, result.items), cursor: result.cursor };
}

/**
 * Records the first open or click of a recipient and bumps the count of the post, or of the sent
 * transactional mail (`target`); later ones change nothing.
 */
export async function recordFirstEngagement(
  store: Store,
  scope: Scope,
  target: 'post' | 'mail',
  postId: string,
  kind: 'open' | 'click',
  email: string,
  at: string,
): Promise<boolean> {
  try {
    await store.transact([
      {
        put: toItem(engagementKey(scope, postId, kind === 'open' ? 'OPEN' : 'CLICK', email), 'PostEngagement', { email, at }),
        condition: 'attribute_not_exists(PK)',
      },
      {
        update: target === 'post' ? postKey(scope, postId) : sentMailKey(scope, postId),
        set: {},
        add: { [kind === 'open' ? 'opened' : 'clicked']: 1 },
        condition: 'attribute_exists(PK)',
      },
    ]);
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
}

export async function releaseBatch(store: Store, scope: Scope, postId: string, batch: number): Promise<void> {
  await store
    .update(postKey(scope, postId), { set: { leaseUntil: 0 } }, { condition: '#batch = :batch', names: { '#batch': 'batch' }, values: { ':batch': batch } })
    .catch((error) => {
      if (!(error instanceof ConditionFailed)) throw error;
    });
}

// ---- queued transactional mail (shared/email/outbox.ts) ----
// - queued mail: PK=<scope>#NEWSLETTER_POST#<id>#QUEUED, SK=MAIL; the message until the email
//   worker delivers it (its id is the id of the post recorded for the send); it carries the
//   event that wakes the worker, and `status` is the at-most-once guard (queued → sending). Sent
//   is the sent-mail record's existence: the item is not written a third time to say so (it is
//   the largest item of a checkout, and a write is billed by its size); releases before wrote
//   `sent` on it, which still reads as sent

export const QUEUED_MAIL_ENTITY = 'QueuedTransactionalMail';
// A 22-bit window makes a brotli stream's first byte end in 0xB, so it never starts like gzip (1f 8b).
const BROTLI_OPTIONS = {
  params: { [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_LGWIN]: 22 },
};
const decompress = (content: Uint8Array) => (content[0] === 0x1f && content[1] === 0x8b ? gunzipSync(content) : brotliDecompressSync(content));
const QUEUED_MAIL_SECONDS = 30 * 24 * 3600;
const queuedMailKey = (scope: Scope, id: string) => keys.child(scope, POST, id, 'QUEUED', 'MAIL');

/**
 * The mail's words (subject, preview, html and text) are kept compressed in one binary attribute
 * (`content`), and its empty fields are left off: the item is written twice (queued, claimed),
 * each billed per started KiB of the item. Brotli (text mode, best quality) takes a receipt's
 * words to about 500 bytes (the subject repeats in the html) where gzip left 640, which is what
 * keeps the item, with the event it carries, within one KiB. Items queued before are gzip (read by
 * their magic bytes), with subject and preview as attributes.
 */
type PackedWords = Pick<QueuedMailRecord, 'html' | 'text'> & Partial<Pick<QueuedMailRecord, 'subject' | 'preview'>>;
const LEFT_OFF_WHEN_EMPTY = ['fromName', 'replyTo', 'baseUrl', 'failureReason'] as const;
// Left off at their starting value too (absent reads as it): not at-most-once, no attempt yet.
const leftOff = (name: string, value: unknown) =>
  (value === null && (LEFT_OFF_WHEN_EMPTY as readonly string[]).includes(name)) || (name === 'once' && value === false) || (name === 'attempts' && value === 0);

export const queuedMailPut = (scope: Scope, mail: QueuedMailRecord, event: Record<string, unknown>, createdSeconds: number): TransactOp => {
  const { html, text, subject, preview, ...rest } = mail;
  const content = brotliCompressSync(JSON.stringify({ subject, preview, html, text } satisfies PackedWords), BROTLI_OPTIONS);
  const kept = Object.fromEntries(Object.entries(rest).filter(([name, value]) => !leftOff(name, value)));
  return {
    put: toItem(queuedMailKey(scope, mail._id), QUEUED_MAIL_ENTITY, { ...kept, content, ...event }, { expiresAt: createdSeconds + QUEUED_MAIL_SECONDS }),
    condition: 'attribute_not_exists(PK)',
  };
};

/** A queued mail; `sending` with its sent-mail record written reads as `sent` (see the layout above). */
export async function getQueuedMail(store: Store, scope: Scope, id: string): Promise<QueuedMailRecord | undefined> {
  const stored = toRecord<QueuedMailRecord & { content?: Uint8Array }>(await store.get(queuedMailKey(scope, id), { consistent: true }));
  if (stored?.status === 'sending' && (await store.get(sentMailKey(scope, id), { consistent: true }))) stored.status = 'sent';
  if (!stored?.content) return stored; // queued by a release that kept html and text as they are
  const { content, ...record } = stored;
  const words = JSON.parse(decompress(content).toString('utf8')) as PackedWords;
  const empty = Object.fromEntries(LEFT_OFF_WHEN_EMPTY.map((name) => [name, record[name] ?? null]));
  return {
    ...record,
    ...empty,
    attempts: record.attempts ?? 0,
    ...words,
    subject: words.subject ?? record.subject,
    preview: words.preview ?? record.preview ?? null,
  };
}

/** Moves a queued mail from one status to the next; false when it was not in `from` (another worker, a redelivery). */
export async function moveQueuedMail(
  store: Store,
  scope: Scope,
  id: string,
  from: QueuedMailStatus,
  set: Partial<QueuedMailRecord> & { status: QueuedMailStatus },
  add: Record<string, number> = {},
): Promise<boolean> {
  try {
    await store.update(queuedMailKey(scope, id), { set, add }, { condition: '#status = :from', names: { '#status': 'status' }, values: { ':from': from } });
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
}

/**
 * Claims a queued mail for sending until `leaseUntil`: one still queued, or, with `takeOver`, one
 * whose worker's lease ran out (it died between the claim and recording the outcome). False when
 * another worker holds it or it is done.
 */
export async function claimQueuedMail(
  store: Store,
  scope: Scope,
  id: string,
  claim: { nowMs: number; leaseUntil: number; updatedAt: string; takeOver: boolean },
): Promise<boolean> {
  const condition = claim.takeOver ? '#status = :queued OR (#status = :sending AND (attribute_not_exists(#lease) OR #lease < :now))' : '#status = :queued';
  try {
    await store.update(
      queuedMailKey(scope, id),
      { set: { status: 'sending', leaseUntil: claim.leaseUntil, updatedAt: claim.updatedAt } },
      {
        condition,
        names: { '#status': 'status', ...(claim.takeOver ? { '#lease': 'leaseUntil' } : {}) },
        values: { ':queued': 'queued', ...(claim.takeOver ? { ':sending': 'sending', ':now': claim.nowMs } : {}) },
      },
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
}

export const INTERRUPTED_REASON = 'Interrupted mid-send (the worker stopped before recording the outcome); not sent again, so that nobody gets it twice';

/** An at-most-once mail whose worker's lease ran out mid-send: failed, never sent again. False when it moved meanwhile. */
export async function interruptQueuedMail(store: Store, scope: Scope, id: string, nowMs: number, updatedAt: string): Promise<boolean> {
  try {
    await store.update(
      queuedMailKey(scope, id),
      { set: { status: 'failed', failureReason: INTERRUPTED_REASON, updatedAt } },
      {
        condition: '#status = :sending AND (attribute_not_exists(#lease) OR #lease < :now)',
        names: { '#status': 'status', '#lease': 'leaseUntil' },
        values: { ':sending': 'sending', ':now': nowMs },
      },
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
}

// ---- sent transactional mail ----
// - sent mail: PK=<scope>#NEWSLETTER_POST#<id>#SENT, SK=MAIL; a delivered queued mail's count and
//   engagement, apart from the posts' partition so that it is never listed as a newsletter post.
//   Small (no content) and kept: automation reports read its opens and clicks.

const sentMailKey = (scope: Scope, id: string) => keys.child(scope, POST, id, 'SENT', 'MAIL');

export const sentMailPut = (scope: Scope, mail: SentMailRecord): TransactOp => ({
  put: toItem(sentMailKey(scope, mail._id), 'SentTransactionalMail', mail),
  condition: 'attribute_not_exists(PK)',
});

export async function getSentMail(store: Store, scope: Scope, id: string, consistent = false): Promise<SentMailRecord | undefined> {
  return toRecord<SentMailRecord>(await store.get(sentMailKey(scope, id), { consistent }));
}
