import type { Role } from '../platform/permissions';
import { escapeHtml } from '../platform/html';

/** The invite mail and the accept pages: plain HTML, no script, no external assets. */

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>` +
  `<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5}code{word-break:break-all;display:block;background:#f4f4f4;padding:.5rem}label,input,button{display:block;margin:.5rem 0}</style>` +
  `</head><body>${body}</body></html>`;

export function inviteMail(input: { storeName: string; role: Role; link: string; expiresAt: string }) {
  const until = input.expiresAt.slice(0, 10);
  return {
    subject: `You're invited to join ${input.storeName}`,
    text: `You have been invited to join ${input.storeName} as ${input.role}.\n\nAccept the invite: ${input.link}\n\nThe link works until ${until}.`,
    html: `<p>You have been invited to join <strong>${escapeHtml(input.storeName)}</strong> as ${escapeHtml(input.role)}.</p><p><a href="${escapeHtml(input.link)}">Accept the invite</a></p><p>The link works until ${until}.</p>`,
  };
}

export function joinPage(input: { email: string; role: Role; token: string }) {
  return page(
    'Accept your invite',
    `<h1>Join the team</h1><p>You were invited as <strong>${escapeHtml(input.role)}</strong> with <strong>${escapeHtml(input.email)}</strong>.</p>` +
      `<form method="post" action="join"><input type="hidden" name="token" value="${escapeHtml(input.token)}">` +
      `<label for="name">Your name</label><input id="name" name="name" autocomplete="name" maxlength="120">` +
      `<button type="submit">Accept invite</button></form>`,
  );
}

/** Shown only to a client that does not follow the redirect to the dashboard. */
export function joinedPage(input: { email: string; signInUrl: string }) {
  return page(
    'Welcome to the team',
    `<h1>You joined the team</h1><p>${escapeHtml(input.email)} is on the team now. <a id="open-dashboard" href="${escapeHtml(input.signInUrl)}">Open the dashboard</a> (the link signs you in once, within 15 minutes).</p>`,
  );
}

const REFUSALS: Record<string, { status: number; title: string; text: string }> = {
  expired: { status: 410, title: 'This invite has expired', text: 'Invites are valid for 7 days. Ask the store to send you a new one.' },
  canceled: { status: 410, title: 'This invite was cancelled', text: 'The store cancelled this invite.' },
  accepted: { status: 410, title: 'This invite was already accepted', text: 'Each invite can be accepted once.' },
  replaced: { status: 410, title: 'This link was replaced', text: 'A newer invite email was sent to you; use the link in that one.' },
  invalid: { status: 404, title: 'This invite link is not valid', text: 'Check that you copied the whole link from the email.' },
  disabled: { status: 501, title: 'Invites are not enabled', text: 'This deployment has no session secret configured.' },
};

export function refusedPage(reason: string) {
  const refusal = REFUSALS[reason] ?? REFUSALS.invalid!;
  return { status: refusal.status, html: page(refusal.title, `<h1>${escapeHtml(refusal.title)}</h1><p>${escapeHtml(refusal.text)}</p>`) };
}
