import { escapeHtml } from '../platform/html';

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title>` +
  `<style>body{font-family:system-ui,sans-serif;max-width:480px;margin:10vh auto;padding:0 16px;color:#222}button{font-size:16px;padding:8px 16px}</style></head><body>${body}</body></html>`;

export const unsubscribeConfirmPage = (email: string, fromName: string | null, action: string) =>
  page(
    'Unsubscribe',
    `<h1>Unsubscribe</h1><p>Stop emails${fromName ? ` from <strong>${escapeHtml(fromName)}</strong>` : ''} to <strong>${escapeHtml(email)}</strong>?</p>` +
      `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="confirm" value="yes"><button type="submit">Unsubscribe</button></form>`,
  );

export const unsubscribedPage = (email: string, fromName: string | null) =>
  page('Unsubscribed', `<h1>You are unsubscribed</h1><p><strong>${escapeHtml(email)}</strong> will get no more emails${fromName ? ` from ${escapeHtml(fromName)}` : ''}.</p>`);

export const invalidLinkPage = () => page('Link not valid', '<h1>This link is not valid</h1><p>It may have been copied incompletely.</p>');

/** A transparent 1×1 GIF. */
export const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
