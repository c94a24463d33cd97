import { convert } from 'html-to-text';
import juice from 'juice/client';
import sanitizeHtml from 'sanitize-html';
import type { MailContent, MailFooter, MailTemplate } from '../platform/ports';
import { escapeHtml } from '../platform/html';

/**
 * The one place a mail is built: layout, preview text, footer with the physical address and the
 * unsubscribe link, open pixel, tracked links and the plain-text alternative. It produces a
 * template with `{{name}}` placeholders for what differs per recipient (SES bulk sends fill them;
 * the local email adapter's `fillTemplate` does it as they do), so a post of any size is rendered once.
 *
 * Placeholders: `{{u}}` unsubscribe URL, `{{o}}` open pixel URL, `{{c<i>}}` tracked URL of link i.
 */

export type { MailContent, MailFooter, MailTemplate };

// Placeholders travel through sanitising and CSS inlining as URLs on a reserved host, and become
// `{{name}}` at the very end, after any `{{` the content itself held has been neutralised.
const PLACEHOLDER_HOST = 'https://placeholder.mail-template.invalid/';
const ph = (name: string) => `${PLACEHOLDER_HOST}${name}`;
const PLACEHOLDER_URL = /https:\/\/placeholder\.mail-template\.invalid\/([A-Za-z0-9]+)/g;
const finishHtml = (html: string) => html.replace(/\{\{/g, '{&#123;').replace(/\}\}/g, '}&#125;').replace(PLACEHOLDER_URL, '{{$1}}');
const neutraliseText = (text: string) => text.replace(/\{\{/g, '{ {').replace(/\}\}/g, '} }');

/** A simple HTML body from plain text: paragraphs on blank lines, line breaks kept. */
export function textToHtml(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'span', 'font', 'center', 'h1', 'h2', 'style'],
  allowedAttributes: {
    '*': ['style', 'align', 'class', 'dir', 'width', 'height', 'bgcolor', 'color'],
    a: ['href', 'title', 'target', 'name'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    td: ['colspan', 'rowspan', 'valign'],
    th: ['colspan', 'rowspan', 'valign'],
    table: ['cellpadding', 'cellspacing', 'border'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowVulnerableTags: true, // <style> is kept for juice to inline; scripts and handlers are removed
  // Style attributes are kept as written (escaped). Parsing them with postcss, without an
  // allow-list of properties, filtered nothing: it only re-printed them. The Lambda bundles leave
  // postcss out (shared/composition/esbuild-plugins.ts).
  parseStyleAttributes: false,
};

/**
 * Sanitises HTML that came from outside the creator's own editor (API bodies, imported posts):
 * no scripts, event handlers, forms, frames or javascript: links.
 */
export const sanitizeMailHtml = (html: string) => sanitizeHtml(html, SANITIZE);

/** Rewrites each http(s) link to a placeholder and lists the targets, in order of appearance. */
function trackLinks(html: string): { html: string; links: string[] } {
  const links: string[] = [];
  const rewritten = sanitizeHtml(html, {
    ...SANITIZE,
    transformTags: {
      a: (tagName, attribs) => {
        const href = attribs.href;
        if (!href || !/^https?:\/\//i.test(href)) return { tagName, attribs };
        let index = links.indexOf(href);
        if (index < 0) index = links.push(href) - 1;
        return { tagName, attribs: { ...attribs, href: ph(`c${index}`) } };
      },
    },
  });
  return { html: rewritten, links };
}

const LAYOUT_CSS = `
body { margin: 0; padding: 0; background: #f6f6f6; }
.wrap { max-width: 600px; margin: 0 auto; padding: 24px; background: #ffffff; font-family: -apple-system, Segoe UI, Helvetica, Arial, sans-serif; font-size: 16px; line-height: 1.5; color: #222222; }
.footer { max-width: 600px; margin: 0 auto; padding: 16px 24px; font-family: Helvetica, Arial, sans-serif; font-size: 12px; line-height: 1.5; color: #777777; text-align: center; }
.footer a { color: #777777; }
.preview { display: none; max-height: 0; overflow: hidden; opacity: 0; }
`;

export function buildMailTemplate(content: MailContent, footer: MailFooter, options: { track?: boolean } = {}): MailTemplate {
  if (!content.html && !content.text) throw new Error('A mail needs html or text');
  const source = content.html ?? textToHtml(content.text!);
  const bodyHtml = sanitizeMailHtml(source);
  const tracked = options.track === false ? { html: bodyHtml, links: [] } : trackLinks(source);
  const footerLines = [footer.footerText, footer.physicalAddress].filter((line): line is string => Boolean(line));
  const footerHtml = footerLines.map((line) => `<p>${escapeHtml(line).replace(/\n/g, '<br>')}</p>`).join('');
  // The footer in the mail's language (a buyer's mail, worded by the sender); the seller's own footer lines as written.
  const lang = content.locale && /^[a-z]{2,3}(-[A-Za-z]{2,4})?$/.test(content.locale) ? content.locale : 'en';
  const unsubscribe = footer.unsubscribe ?? { link: 'Unsubscribe', line: 'Unsubscribe: {{u}}' };
  const preview = content.preview ? `<div class="preview">${escapeHtml(content.preview)}</div>` : '';
  const pixel = options.track === false ? '' : `<img src="${ph('o')}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px">`;
  const document = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(content.subject)}</title><style>${LAYOUT_CSS}</style></head><body>${preview}<div class="wrap">${tracked.html}</div><div class="footer">${footerHtml}<p><a href="${ph('u')}">${escapeHtml(unsubscribe.link)}</a></p></div>${pixel}</body></html>`;
  const html = finishHtml(juice(document, { removeStyleTags: true, preserveMediaQueries: true }));

  const bodyText = content.text ?? convert(bodyHtml, { wordwrap: 78, selectors: [{ selector: 'img', format: 'skip' }] });
  const text = [neutraliseText(bodyText.trim()), '', '--', ...footerLines.map(neutraliseText), unsubscribe.line].join('\n');
  return { subject: neutraliseText(content.subject), html, text, links: tracked.links };
}
