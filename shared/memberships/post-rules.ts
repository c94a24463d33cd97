import sanitizeHtml from 'sanitize-html';
import type { MemberPostRecord } from './records';

/** Pure rules of members-only posts. */

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'h1', 'h2'],
  allowedAttributes: { a: ['href', 'title'], img: ['src', 'alt', 'width', 'height'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  // No style attribute is allowed, so none is parsed; said outright because the Lambda bundles
  // leave postcss out (shared/composition/esbuild-plugins.ts).
  parseStyleAttributes: false,
};

/** Scripts, event handlers and javascript: links go; formatting stays. */
export const sanitizePostHtml = (html: string) => sanitizeHtml(html, SANITIZE);

/**
 * Whether saving `next` starts a notification: published with `notify`, post emails on, and never
 * notified before (a post is announced at most once, so no member gets a second mail for it).
 */
export const startsNotification = (before: Pick<MemberPostRecord, 'notifyState'> | undefined, next: Pick<MemberPostRecord, 'status' | 'notify'>, postEmailsEnabled: boolean) =>
  next.status === 'published' && next.notify && postEmailsEnabled && !before?.notifyState;

/** Pinned first, then newest first. */
export const orderPosts = <T extends Pick<MemberPostRecord, '_id' | 'pinned'>>(posts: T[]) =>
  [...posts].sort((a, b) => Number(b.pinned) - Number(a.pinned) || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0));
