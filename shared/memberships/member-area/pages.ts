import { translator, type Translator } from '../../platform/i18n/translator';
import { publicAuthor } from '../community/rules';
import type { MemberPostRecord, MembershipRecord, ReplyRecord, ThreadRecord } from '../records';
import { escapeHtml } from '../../platform/html';
import type { SellerBrand } from '../../account/branding';
import { buyerStyle, sellerHeader } from '../../account/buyer-page';

/**
 * The member area's server-rendered pages: no script, one nonce'd style block, no external
 * assets. Everything a person wrote is escaped; post HTML was sanitised when it was written.
 * The words are the member's language (`frame.t`); what the creator and members wrote is shown
 * as written.
 */
/** Why a member-area link is refused. */
export type AreaRefusal = 'invalid' | 'ended' | 'banned' | 'closed';

/** Strict policy: nothing loads but the nonce'd style and https images of posts; forms post only here. */
export const areaHeaders = (nonce: string) => ({
  'content-security-policy': `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self' https: data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
});

/** What the member area adds to the buyer pages' style (the seller's colours, the same frame as the checkout). */
const STYLE =
  'main{max-width:44rem}nav{margin:0 0 1rem}nav a{margin-right:1rem}.meta{color:#57606a;font-size:.9rem}.item{border-bottom:1px solid #d8dee4;padding:.75rem 0}' +
  'textarea,input[type=text]{width:100%;box-sizing:border-box;padding:.5rem;margin:.25rem 0 .75rem;font:inherit;border:1px solid #8c959f;border-radius:8px}' +
  '.pinned{font-size:.8rem;background:#eef1f4;padding:0 .4rem;border-radius:.3rem;margin-right:.4rem}.body{white-space:pre-wrap}';

export interface PageFrame {
  nonce: string;
  /** `{base}/member-area/{token}` */
  area: string;
  membership: Pick<MembershipRecord, 'name' | 'communityEnabled'>;
  /** The member's language. */
  t: Translator;
  /** The creator's name, logo and colours, as on their checkout. */
  brand: SellerBrand;
}

function page(frame: PageFrame, title: string, body: string) {
  const { t } = frame;
  const nav = `<nav><a href="${escapeHtml(frame.area)}">${t.html('area.posts')}</a>${frame.membership.communityEnabled ? `<a href="${escapeHtml(frame.area)}/community">${t.html('area.community')}</a>` : ''}</nav>`;
  return (
    `<!doctype html><html lang="${t.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="referrer" content="no-referrer"><link rel="icon" href="data:,"><title>${escapeHtml(title)} · ${escapeHtml(frame.membership.name)}</title>` +
    `<style nonce="${frame.nonce}">${buyerStyle(frame.brand)}${STYLE}</style></head><body><main>${sellerHeader(frame.brand)}<p class="meta">${escapeHtml(frame.membership.name)}</p>${nav}<section class="card">${body}</section></main></body></html>`
  );
}

const day = (t: Translator, iso: string | null) => (iso ? escapeHtml(t.date(iso)) : '');
const olderLink = (t: Translator, href: string, cursor: string | undefined) =>
  cursor ? `<p><a href="${escapeHtml(href)}?cursor=${encodeURIComponent(cursor)}">${t.html('area.older')}</a></p>` : '';
const pinned = (t: Translator) => `<span class="pinned">${t.html('area.pinned')}</span>`;
const text = (value: string) => `<div class="body">${escapeHtml(value)}</div>`;

export function postsPage(frame: PageFrame, posts: MemberPostRecord[], cursor: string | undefined) {
  const { t } = frame;
  const items = posts.length
    ? posts
        .map(
          (p) =>
            `<div class="item">${p.pinned ? pinned(t) : ''}<a href="${escapeHtml(frame.area)}/posts/${p._id}">${escapeHtml(p.title)}</a> <span class="meta">${day(t, p.publishedAt)}</span></div>`,
        )
        .join('')
    : `<p>${t.html('area.noPosts')}</p>`;
  return page(frame, t.t('area.posts'), `<h1>${t.html('area.posts')}</h1>${items}${olderLink(t, frame.area, cursor)}`);
}

export function postPage(frame: PageFrame, post: MemberPostRecord) {
  return page(
    frame,
    post.title,
    `<article><h1>${escapeHtml(post.title)}</h1><p class="meta">${day(frame.t, post.publishedAt)}</p><div class="post">${post.html}</div></article>`,
  );
}

/** "by Ann · 3 replies · locked": who wrote it, how many replies, and whether it is closed. */
const threadMeta = (t: Translator, thread: ThreadRecord, creator: string, date?: string | null) =>
  [
    t.html('area.by', { author: publicAuthor(thread, creator) }),
    date ? day(t, date) : '',
    t.html('area.replies', { count: thread.replyCount }),
    thread.locked ? t.html('area.locked') : '',
  ]
    .filter(Boolean)
    .join(' · ');

const csrfField = (csrf: string) => `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">`;

export function threadsPage(frame: PageFrame, threads: ThreadRecord[], cursor: string | undefined, csrf: string) {
  const { t } = frame;
  const creator = frame.membership.name;
  const items = threads.length
    ? threads
        .map(
          (thread) =>
            `<div class="item">${thread.pinned ? pinned(t) : ''}<a href="${escapeHtml(frame.area)}/community/${thread._id}">${escapeHtml(thread.title)}</a>` +
            ` <span class="meta">${threadMeta(t, thread, creator)}</span></div>`,
        )
        .join('')
    : `<p>${t.html('area.noThreads')}</p>`;
  const form =
    `<h2>${t.html('area.startThread')}</h2><form method="post" action="${escapeHtml(frame.area)}/community">${csrfField(csrf)}` +
    `<label for="title">${t.html('area.threadTitle')}</label><input type="text" id="title" name="title" maxlength="200" required>` +
    `<label for="body">${t.html('area.message')}</label><textarea id="body" name="body" rows="5" maxlength="10000" required></textarea>` +
    `<button type="submit">${t.html('area.postThread')}</button></form>`;
  return page(frame, t.t('area.community'), `<h1>${t.html('area.community')}</h1>${items}${olderLink(t, `${frame.area}/community`, cursor)}${form}`);
}

export function threadPage(frame: PageFrame, thread: ThreadRecord, replies: ReplyRecord[], cursor: string | undefined, csrf: string) {
  const { t } = frame;
  const creator = frame.membership.name;
  const items = replies
    .map((r) => `<div class="item reply"><p class="meta">${escapeHtml(publicAuthor(r, creator))} · ${day(t, r.createdAt)}</p>${text(r.body)}</div>`)
    .join('');
  const form = thread.locked
    ? `<p class="meta">${t.html('area.threadLocked')}</p>`
    : `<h2>${t.html('area.reply')}</h2><form method="post" action="${escapeHtml(frame.area)}/community/${thread._id}/replies">${csrfField(csrf)}` +
      `<label for="body">${t.html('area.yourReply')}</label><textarea id="body" name="body" rows="4" maxlength="10000" required></textarea><button type="submit">${t.html('area.reply')}</button></form>`;
  return page(
    frame,
    thread.title,
    `<article><h1>${escapeHtml(thread.title)}</h1><p class="meta">${threadMeta(t, thread, creator, thread.createdAt)}</p>${text(thread.body)}</article>` +
      `<section>${items}${olderLink(t, `${frame.area}/community/${thread._id}`, cursor)}</section>${form}`,
  );
}

type RefusalReason = AreaRefusal | 'not_found' | 'forbidden' | 'community_off';
const REFUSALS = {
  invalid: { status: 404, title: 'area.invalidTitle', text: 'area.invalid' },
  ended: { status: 403, title: 'area.endedTitle', text: 'area.ended' },
  banned: { status: 403, title: 'area.bannedTitle', text: 'area.banned' },
  closed: { status: 403, title: 'area.closedTitle', text: 'area.closed' },
  not_found: { status: 404, title: 'area.notFoundTitle', text: 'area.notFound' },
  forbidden: { status: 403, title: 'area.formExpiredTitle', text: 'area.formExpired' },
  community_off: { status: 404, title: 'area.communityOffTitle', text: 'area.communityOff' },
} as const satisfies Record<RefusalReason, { status: number; title: string; text: string }>;

/** Why a page or a form post was refused, in the member's language; `detail` replaces the text (a post refused with a reason). */
export function refusedPage(reason: RefusalReason, nonce: string, t: Translator = translator(), detail?: { title: 'area.notSentTitle'; text: string }) {
  const r = REFUSALS[reason];
  const title = detail ? t.t(detail.title) : t.t(r.title);
  const text = detail ? detail.text : t.t(r.text);
  return {
    status: r.status,
    html:
      `<!doctype html><html lang="${t.locale}"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title>` +
      `<style nonce="${nonce}">${STYLE}</style></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`,
  };
}

/** The mail with the member's link, in their language; the membership's name as the creator wrote it. */
export function accessMail(input: { membershipName: string; url: string }, t: Translator = translator()) {
  const link = `<a href="${escapeHtml(input.url)}">${t.html('access.open')}</a>`;
  return {
    subject: t.t('access.subject', { membership: input.membershipName }),
    text: [t.t('access.welcome', { membership: input.membershipName }), t.t('access.readHere', { url: input.url }), t.t('access.personal')].join('\n\n'),
    locale: t.locale,
    html: `<p>${t.html('access.welcome', { membership: { __html: `<strong>${escapeHtml(input.membershipName)}</strong>` } })}</p><p>${t.html('access.openToRead', { link: { __html: link } })}</p><p>${t.html('access.personal')}</p>`,
  };
}
