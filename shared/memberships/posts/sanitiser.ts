import sanitizeHtml from 'sanitize-html';

/**
 * The member post sanitiser. It runs in the render function (shared/composition/render.ts): the
 * memberships functions reach it through the render port, and do not bundle sanitize-html.
 */

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
