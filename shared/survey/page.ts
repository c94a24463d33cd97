import { createHash } from 'node:crypto';
import type { SurveySettings } from './rules';
import { LIMITS, OTHER_ID } from './rules';
import { translator, type Translator } from '../platform/i18n/translator';
import { escapeHtml } from '../platform/html';

/**
 * The buyer's survey page: server-rendered, no script, one inline style allowed by its hash. The
 * page's words are in the buyer's language; the seller's question and options as written.
 */

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:30rem;margin:2rem auto;padding:0 1rem;color:#222}fieldset{border:0;padding:0}label{display:block;margin:.5rem 0}input[type=text]{width:100%;padding:.5rem;box-sizing:border-box}button{margin-top:1rem;padding:.6rem 1.2rem;font-size:1rem}.error{color:#a00;border:1px solid #a00;padding:.5rem}';
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** No script at all, the one style above, and forms that post only back here. */
export const SURVEY_PAGE_HEADERS = {
  'content-security-policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

const layout = (t: Translator, title: string, body: string) => `<!doctype html>
<html lang="${t.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;

export function surveyPage(input: {
  settings: SurveySettings;
  productName: string;
  action: string;
  error?: string;
  chosen?: string;
  otherText?: string;
  t?: Translator;
}): string {
  const { settings } = input;
  const t = input.t ?? translator();
  const radio = (id: string, label: string) =>
    `<label><input type="radio" name="answer" value="${escapeHtml(id)}"${input.chosen === id ? ' checked' : ''} required> ${escapeHtml(label)}</label>`;
  const other = settings.allowOther
    ? `${radio(OTHER_ID, t.t('survey.somewhereElse'))}<label for="otherText">${t.html('survey.where')}</label><input type="text" id="otherText" name="otherText" maxlength="${LIMITS.otherText}" value="${escapeHtml(input.otherText ?? '')}">`
    : '';
  return layout(
    t,
    settings.question,
    `<p>${t.html('survey.thanksFor', { product: input.productName })}</p>
${input.error ? `<p class="error" role="alert" id="error">${escapeHtml(input.error)}</p>` : ''}
<form method="post" action="${escapeHtml(input.action)}">
<fieldset><legend><h1>${escapeHtml(settings.question)}</h1></legend>
${settings.options.map((o) => radio(o.id, o.label)).join('\n')}
${other}
</fieldset>
<button type="submit" id="submit">${t.html('survey.send')}</button>
</form>`,
  );
}

export const thanksPage = (t = translator()) => layout(t, t.t('thanks.title'), `<h1 id="thanks">${t.html('survey.thanks')}</h1>`);
export const alreadyAnsweredPage = (t = translator()) => layout(t, t.t('survey.alreadyTitle'), `<h1 id="already">${t.html('survey.already')}</h1>`);
export const closedPage = (t = translator()) => layout(t, t.t('survey.closedTitle'), `<h1 id="closed">${t.html('survey.closed')}</h1>`);
export const missingPage = (t = translator()) => layout(t, t.t('survey.missingTitle'), `<h1>${t.html('survey.missing')}</h1>`);
