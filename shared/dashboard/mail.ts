import { escapeHtml } from '../platform/html';

/** The sign-in mail: the link, how long it works, and what to do if it was not you. */
export function signInMail(input: { link: string; stores: string[] }) {
  const where = input.stores.length === 1 ? input.stores[0]! : `${input.stores.length} stores`;
  return {
    subject: `Your sign-in link for ${where}`,
    text:
      `Sign in to the dashboard (${where}):\n\n${input.link}\n\n` +
      'The link works once, for 15 minutes. If you did not ask for it, ignore this mail: nobody can sign in without it.',
    html:
      `<p>Sign in to the dashboard (${escapeHtml(where)}):</p><p><a href="${escapeHtml(input.link)}">Sign in</a></p>` +
      '<p>The link works once, for 15 minutes. If you did not ask for it, ignore this mail: nobody can sign in without it.</p>',
  };
}
