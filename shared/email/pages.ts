import { translator, type Translator } from '../platform/i18n/translator';
import { escapeHtml } from '../platform/html';

const strong = (text: string) => ({ __html: `<strong>${escapeHtml(text)}</strong>` });

/** The pages a mail's links open, in the reader's language (`?lang=`, the browser's); the sender's name as written. */
const page = (t: Translator, title: string, body: string) =>
  `<!doctype html><html lang="${t.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title>` +
  `<style>body{font-family:system-ui,sans-serif;max-width:480px;margin:10vh auto;padding:0 16px;color:#222}button{font-size:16px;padding:8px 16px}</style></head><body>${body}</body></html>`;

export const unsubscribeConfirmPage = (email: string, fromName: string | null, action: string, t: Translator = translator()) =>
  page(
    t,
    t.t('unsub.title'),
    `<h1>${t.html('unsub.title')}</h1><p>${fromName ? t.html('unsub.askFrom', { sender: strong(fromName), email: strong(email) }) : t.html('unsub.ask', { email: strong(email) })}</p>` +
      `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="confirm" value="yes"><button type="submit">${t.html('unsub.title')}</button></form>`,
  );

export const unsubscribedPage = (email: string, fromName: string | null, t: Translator = translator()) =>
  page(
    t,
    t.t('unsub.doneTitle'),
    `<h1>${t.html('unsub.doneTitle')}</h1><p>${fromName ? t.html('unsub.doneFrom', { email: strong(email), sender: fromName }) : t.html('unsub.done', { email: strong(email) })}</p>`,
  );

export const invalidLinkPage = (t: Translator = translator()) =>
  page(t, t.t('unsub.invalidTitle'), `<h1>${t.html('unsub.invalidTitle')}</h1><p>${t.html('unsub.invalid')}</p>`);

/** A transparent 1×1 GIF. */
export const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
