/**
 * postcss in the Lambda bundle: absent. sanitize-html loads it only to parse style attributes, and
 * our sanitisers turn that off (`parseStyleAttributes: false` in shared/email/mail-builder.ts and
 * shared/memberships/posts/sanitiser.ts). See sanitizeHtmlWithoutPostcssPlugin.
 */
export function parse(): never {
  throw new Error('postcss is not in the Lambda bundle: sanitize-html must run with parseStyleAttributes: false');
}
