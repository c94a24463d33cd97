/**
 * The newsletter composer's pure rules: text typed with blank lines becomes paragraphs, the
 * editor's empty paragraphs are dropped, and "everyone subscribed" as a segment definition.
 */

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Plain text → HTML: each run of blank lines ends a paragraph, a single line break stays a <br>. */
export function paragraphsFromText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n+/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => `<p>${escapeHtml(block).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** What the editor opens with: a post's HTML as is, or its plain text (older posts) made into paragraphs. */
export const initialHtml = (html: string | null | undefined, text: string | null | undefined) =>
  html && /<[a-z][^>]*>/i.test(html) ? html : paragraphsFromText(html || text || '');

/** The editor's HTML as sent: empty paragraphs (the blank lines between paragraphs) dropped. */
export const cleanHtml = (html: string) => html.replace(/<p>(\s|<br\s*\/?>)*<\/p>/g, '').trim();

/** Whether the body has any words in it. */
export const hasWords = (html: string) =>
  cleanHtml(html)
    .replace(/<[^>]+>/g, '')
    .trim().length > 0;

/**
 * A segment definition every subscribed contact meets (spent more than 0 cents, or less than 1
 * cent), so the segment preview counts the audience of a post sent to everyone.
 */
export const EVERYONE = {
  match: 'any',
  groups: [
    {
      match: 'any',
      rules: [
        { type: 'spent', op: 'gt', amountCents: 0 },
        { type: 'spent', op: 'lt', amountCents: 1 },
      ],
    },
  ],
} as const;

/** The definition that counts a tag's audience. */
export const withTag = (tag: string) => ({ match: 'all', groups: [{ match: 'all', rules: [{ type: 'tag', tag }] }] });

/** The page around the body in the preview: what the mail's reader sees, roughly. */
export const previewDocument = (subject: string, html: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:600px;margin:24px auto;padding:0 16px;color:#1a1a1a}img{max-width:100%}</style></head><body>${html}</body></html>`;
