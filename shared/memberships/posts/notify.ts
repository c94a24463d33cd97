import { queueTransactional } from '../../email/outbox';
import type { Deps } from '../../platform/context';
import { logger } from '../../platform/logger';
import type { Scope } from '../../store/keys';
import { fixClaimedBatch, readClaimedBatch, sendClaimedChunks } from '../../store/claimed-batch';
import type { MemberPostRecord, MembershipRecord } from '../records';
import { advanceNotifyBatch, claimNotifyBatch, getPost, listMembers, notifyBatchKey, releaseNotifyLease } from '../repository';
import { requireMembership } from '../service';
import { escapeHtml } from '../../platform/html';
import { nextWatch, stalledNow, WATCHDOG_FIRST_SECONDS, type WatchState } from '../../platform/watchdog';

/**
 * A members-only post's notification: batched through the queue, resumable, at most once per
 * member. Apart from posts.ts (which commits the pending state), so the functions that send it
 * do not carry the HTML sanitiser that saving a post needs.
 */

/** Internal event (never delivered): a post's notification was committed as pending. */
export const NOTIFY_EVENT = 'membership.post.notify';
export const NOTIFY_QUEUE = 'membership-post-notify';
export const NOTIFY_WATCHDOG_JOB = 'memberships.notify-watchdog';
/** Members per provider call: one transactional send takes at most 100 recipients. */
export const NOTIFY_BATCH = 100;
/** Members per queued batch: several provider calls share its reads and commit. */
export const NOTIFY_PAGE = 300;
const LEASE_MS = 60_000;

const watchdogName = (scope: Scope, membershipId: string, postId: string) => `mbrnotify-${scope.accountId}-${scope.mode}-${membershipId}-${postId}`;

async function armWatchdog(deps: Deps, scope: Scope, membershipId: string, postId: string, watch?: WatchState) {
  await deps.ports.scheduler.schedule(
    watchdogName(scope, membershipId, postId),
    new Date(deps.clock.nowMs() + (watch?.seconds ?? WATCHDOG_FIRST_SECONDS) * 1000),
    { type: NOTIFY_WATCHDOG_JOB, scope, payload: { membershipId, postId, ...(watch ? { watch } : {}) } },
  );
}

/** Bus consumer of the committed `pending` state: queue the current batch and arm the watchdog. */
export async function kickOffNotify(deps: Deps, scope: Scope, membershipId: string, postId: string) {
  const post = await getPost(deps.store, scope, membershipId, postId, true);
  if (!post || post.notifyState === 'sent' || !post.notifyState) return;
  await armWatchdog(deps, scope, membershipId, postId);
  await deps.ports.queue.send(NOTIFY_QUEUE, { scope, membershipId, postId, batch: post.notifyBatch });
}

/** Job: while a notification runs, re-queue its current batch when no worker holds it (a crash, a lost message). */
export async function watchNotify(deps: Deps, scope: Scope, membershipId: string, postId: string, previous?: Partial<WatchState>) {
  const post = await getPost(deps.store, scope, membershipId, postId, true);
  if (!post || post.notifyState === 'sent' || !post.notifyState) return;
  if (post.leaseUntil < deps.clock.nowMs()) await deps.ports.queue.send(NOTIFY_QUEUE, { scope, membershipId, postId, batch: post.notifyBatch });
  const watch = nextWatch(previous, `${post.notifyBatch}:${post.notifiedCount}`);
  if (stalledNow(previous, watch)) logger.error('member post notification made no progress for an hour; its batch is re-queued hourly', { postId });
  await armWatchdog(deps, scope, membershipId, postId, watch);
}

const notificationHtml = (membership: MembershipRecord, post: MemberPostRecord) =>
  `<p>New in <strong>${escapeHtml(membership.name)}</strong>:</p><h1>${escapeHtml(post.title)}</h1>${post.html}`;

/**
 * Queue worker: one batch of active members (NOTIFY_PAGE), sent in chunks of NOTIFY_BATCH through
 * a claimed-batch marker, so a crash or a duplicate message never mails anyone twice; the cursor
 * and count are committed after the send, and the next batch is queued.
 */
export async function processNotifyBatch(deps: Deps, scope: Scope, membershipId: string, postId: string, batch: number) {
  const nowMs = deps.clock.nowMs();
  const post = await claimNotifyBatch(deps.store, scope, membershipId, postId, batch, nowMs, nowMs + LEASE_MS);
  if (!post) return;
  const markerKey = notifyBatchKey(scope, membershipId, postId, batch);
  const [membership, known] = await Promise.all([requireMembership(deps, scope, membershipId), readClaimedBatch(deps.store, markerKey)]);
  let marker = known;
  if (!marker) {
    const page = await listMembers(deps.store, scope, membershipId, { status: 'active' }, { limit: NOTIFY_PAGE, cursor: post.notifyCursor ?? undefined });
    marker = await fixClaimedBatch(deps.store, markerKey, 'MemberPostNotifyBatch', {
      recipients: page.items.map((m) => m.email),
      nextCursor: page.cursor ?? null,
    });
  }
  let outcome: Awaited<ReturnType<typeof sendClaimedChunks>>;
  try {
    outcome = await sendClaimedChunks(deps.store, markerKey, marker, NOTIFY_BATCH, async (chunk) => {
      // Queued (one write) for the email capability's worker, which renders and delivers it, at
      // most once: a delivery a crash interrupts is failed there, not repeated.
      const result = await queueTransactional(deps, scope, {
        to: chunk,
        subject: post.title,
        html: notificationHtml(membership, post),
        source: 'membership',
        once: true,
      });
      return { accepted: result.accepted, failed: [] };
    });
  } catch (error) {
    // Nobody of the chunk was mailed: its claim went back; the lease is released and the queue retries.
    logger.warn('membership post notification batch failed', { error: error as Error });
    await releaseNotifyLease(deps.store, scope, post);
    throw error;
  }
  if (outcome.taken) return;
  const done = !marker.nextCursor;
  // A chunk cut short by a crash is not counted: its recipients may not have been mailed.
  await advanceNotifyBatch(deps.store, scope, post, { cursor: marker.nextCursor, sent: outcome.accepted, done });
  if (done) await deps.ports.scheduler.cancel(watchdogName(scope, membershipId, postId));
  else await deps.ports.queue.send(NOTIFY_QUEUE, { scope, membershipId, postId, batch: batch + 1 });
}
