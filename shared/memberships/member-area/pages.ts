import { publicAuthor } from '../community/rules';
import type { MemberPostRecord, MembershipRecord, ReplyRecord, ThreadRecord } from '../records';

/**
 * The member area's server-rendered pages: no script, one nonce'd style block, no external
 * assets. Everything a person wrote is escaped; post HTML was sanitised when it was written.
 */
/** Why a member-area link is refused. */
export type AreaRefusal = 'invalid' | 'ended' | 'banned' | 'closed';

export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Strict policy: nothing loads but the nonce'd style and https images of posts; forms post only here. */
export const areaHeaders = (nonce: string) => ({
  'content-security-policy': `default-src 'none'; style-src 'nonce-${nonce}'; img-src https: data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
});

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#222}' +
  'nav a{margin-right:1rem}.meta{color:#666;font-size:.9rem}.item{border-bottom:1px solid #ddd;padding:.75rem 0}' +
  'textarea,input[type=text]{width:100%;box-sizing:border-box;padding:.4rem;margin:.25rem 0 .75rem}button{padding:.4rem 1rem}' +
  '.pinned{font-size:.8rem;background:#eef;padding:0 .4rem;border-radius:.3rem;margin-right:.4rem}.body{white-space:pre-wrap}';

export interface PageFrame {
  nonce: string;
  /** `{base}/member-area/{token}` */
  area: string;
  membership: Pick<MembershipRecord, 'name' | 'communityEnabled'>;
}

function page(frame: PageFrame, title: string, body: string) {
  const nav = `<nav><a href="${escapeHtml(frame.area)}">Posts</a>${frame.membership.communityEnabled ? `<a href="${escapeHtml(frame.area)}/community">Community</a>` : ''}</nav>`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)} · ${escapeHtml(frame.membership.name)}</title>` +
    `<style nonce="${frame.nonce}">${STYLE}</style></head><body><header><p class="meta">${escapeHtml(frame.membership.name)}</p>${nav}</header><main>${body}</main></body></html>`
  );
}

const day = (iso: string | null) => (iso ?? '').slice(0, 10);
const olderLink = (href: string, cursor: string | undefined) => (cursor ? `<p><a href="${escapeHtml(href)}?cursor=${encodeURIComponent(cursor)}">Older</a></p>` : '');
const text = (value: string) => `<div class="body">${escapeHtml(value)}</div>`;

export function postsPage(frame: PageFrame, posts: MemberPostRecord[], cursor: string | undefined) {
  const items = posts.length
    ? posts.map((p) => `<div class="item">${p.pinned ? '<span class="pinned">Pinned</span>' : ''}<a href="${escapeHtml(frame.area)}/posts/${p._id}">${escapeHtml(p.title)}</a> <span class="meta">${day(p.publishedAt)}</span></div>`).join('')
    : '<p>No posts yet.</p>';
  return page(frame, 'Posts', `<h1>Posts</h1>${items}${olderLink(frame.area, cursor)}`);
}

export function postPage(frame: PageFrame, post: MemberPostRecord) {
  return page(frame, post.title, `<article><h1>${escapeHtml(post.title)}</h1><p class="meta">${day(post.publishedAt)}</p><div class="post">${post.html}</div></article>`);
}

const csrfField = (csrf: string) => `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">`;

export function threadsPage(frame: PageFrame, threads: ThreadRecord[], cursor: string | undefined, csrf: string) {
  const creator = frame.membership.name;
  const items = threads.length
    ? threads
        .map(
          (t) =>
            `<div class="item">${t.pinned ? '<span class="pinned">Pinned</span>' : ''}<a href="${escapeHtml(frame.area)}/community/${t._id}">${escapeHtml(t.title)}</a>` +
            ` <span class="meta">by ${escapeHtml(publicAuthor(t, creator))} · ${t.replyCount} ${t.replyCount === 1 ? 'reply' : 'replies'}${t.locked ? ' · locked' : ''}</span></div>`,
        )
        .join('')
    : '<p>No threads yet. Start the first one.</p>';
  const form =
    `<h2>Start a thread</h2><form method="post" action="${escapeHtml(frame.area)}/community">${csrfField(csrf)}` +
    `<label for="title">Title</label><input type="text" id="title" name="title" maxlength="200" required>` +
    `<label for="body">Message</label><textarea id="body" name="body" rows="5" maxlength="10000" required></textarea>` +
    `<button type="submit">Post thread</button></form>`;
  return page(frame, 'Community', `<h1>Community</h1>${items}${olderLink(`${frame.area}/community`, cursor)}${form}`);
}

export function threadPage(frame: PageFrame, thread: ThreadRecord, replies: ReplyRecord[], cursor: string | undefined, csrf: string) {
  const creator = frame.membership.name;
  const items = replies.map((r) => `<div class="item reply"><p class="meta">${escapeHtml(publicAuthor(r, creator))} · ${day(r.createdAt)}</p>${text(r.body)}</div>`).join('');
  const form = thread.locked
    ? '<p class="meta">This thread is locked: no new replies.</p>'
    : `<h2>Reply</h2><form method="post" action="${escapeHtml(frame.area)}/community/${thread._id}/replies">${csrfField(csrf)}` +
      `<label for="body">Your reply</label><textarea id="body" name="body" rows="4" maxlength="10000" required></textarea><button type="submit">Reply</button></form>`;
  return page(
    frame,
    thread.title,
    `<article><h1>${escapeHtml(thread.title)}</h1><p class="meta">by ${escapeHtml(publicAuthor(thread, creator))} · ${day(thread.createdAt)} · ${thread.replyCount} ${thread.replyCount === 1 ? 'reply' : 'replies'}</p>${text(thread.body)}</article>` +
      `<section>${items}${olderLink(`${frame.area}/community/${thread._id}`, cursor)}</section>${form}`,
  );
}

const REFUSALS: Record<AreaRefusal | 'not_found' | 'forbidden' | 'community_off', { status: number; title: string; text: string }> = {
  invalid: { status: 404, title: 'This link is not valid', text: 'Use the most recent link from your membership email.' },
  ended: { status: 403, title: 'Your membership has ended', text: 'This area is open to active members only.' },
  banned: { status: 403, title: 'You cannot access this community', text: 'The creator has removed your access.' },
  closed: { status: 403, title: 'This membership is closed', text: 'The creator has closed this membership.' },
  not_found: { status: 404, title: 'Not found', text: 'This page does not exist or was removed.' },
  forbidden: { status: 403, title: 'The form expired', text: 'Reload the page and try again.' },
  community_off: { status: 404, title: 'No community here', text: 'The community of this membership is switched off.' },
};

export function refusedPage(reason: keyof typeof REFUSALS, nonce: string) {
  const r = REFUSALS[reason];
  return {
    status: r.status,
    html:
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>${escapeHtml(r.title)}</title>` +
      `<style nonce="${nonce}">${STYLE}</style></head><body><h1>${escapeHtml(r.title)}</h1><p>${escapeHtml(r.text)}</p></body></html>`,
  };
}

export function accessMail(input: { membershipName: string; url: string }) {
  return {
    subject: `Your access to ${input.membershipName}`,
    text: `Welcome to ${input.membershipName}.\n\nRead the members-only posts and join the community here: ${input.url}\n\nThis link is personal: do not share it.`,
    html: `<p>Welcome to <strong>${escapeHtml(input.membershipName)}</strong>.</p><p><a href="${escapeHtml(input.url)}">Open the member area</a> to read the members-only posts and join the community.</p><p>This link is personal: do not share it.</p>`,
  };
}
