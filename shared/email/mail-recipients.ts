import type { MailTemplate } from '../platform/ports';

/**
 * What a rendered mail needs per recipient: the values of its placeholders and the unsubscribe
 * headers. Apart from mail-builder.ts, which renders (in the render function), so the functions
 * that send do not bundle the renderer.
 */

export interface RecipientUrls {
  unsubscribe: string;
  open: string;
  /** The tracked URL of link `index` (its target is `url`). */
  click: (url: string, index: number) => string;
}

/** The placeholder values of one recipient. */
export function recipientData(template: MailTemplate, urls: RecipientUrls): Record<string, string> {
  const data: Record<string, string> = { u: urls.unsubscribe, o: urls.open };
  for (const [i, url] of template.links.entries()) data[`c${i}`] = urls.click(url, i);
  return data;
}

/** RFC 2369 / RFC 8058: mail clients show an unsubscribe button that posts to the URL. */
export const unsubscribeHeaders = (oneClickUrl: string): Record<string, string> => ({
  'List-Unsubscribe': `<${oneClickUrl}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
});
