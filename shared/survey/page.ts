import { createHash } from 'node:crypto';
import type { SurveySettings } from './rules';
import { LIMITS, OTHER_ID } from './rules';

/** The buyer's survey page: server-rendered, no script, one inline style allowed by its hash. */

const escape = (value: string) => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = 'body{font-family:system-ui,sans-serif;max-width:30rem;margin:2rem auto;padding:0 1rem;color:#222}fieldset{border:0;padding:0}label{display:block;margin:.5rem 0}input[type=text]{width:100%;padding:.5rem;box-sizing:border-box}button{margin-top:1rem;padding:.6rem 1.2rem;font-size:1rem}.error{color:#a00;border:1px solid #a00;padding:.5rem}';
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** No script at all, the one style above, and forms that post only back here. */
export const SURVEY_PAGE_HEADERS = {
  'content-security-policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

const layout = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;

export function surveyPage(input: { settings: SurveySettings; productName: string; action: string; error?: string; chosen?: string; otherText?: string }): string {
  const { settings } = input;
  const radio = (id: string, label: string) =>
    `<label><input type="radio" name="answer" value="${escape(id)}"${input.chosen === id ? ' checked' : ''} required> ${escape(label)}</label>`;
  const other = settings.allowOther
    ? `${radio(OTHER_ID, 'Somewhere else')}<label for="otherText">Where?</label><input type="text" id="otherText" name="otherText" maxlength="${LIMITS.otherText}" value="${escape(input.otherText ?? '')}">`
    : '';
  return layout(
    settings.question,
    `<p>Thanks for buying ${escape(input.productName)}.</p>
${input.error ? `<p class="error" role="alert" id="error">${escape(input.error)}</p>` : ''}
<form method="post" action="${escape(input.action)}">
<fieldset><legend><h1>${escape(settings.question)}</h1></legend>
${settings.options.map((o) => radio(o.id, o.label)).join('\n')}
${other}
</fieldset>
<button type="submit" id="submit">Send answer</button>
</form>`,
  );
}

export const thanksPage = () => layout('Thank you', '<h1 id="thanks">Thank you for your answer!</h1>');
export const alreadyAnsweredPage = () => layout('Already answered', '<h1 id="already">You have already answered. Thank you!</h1>');
export const closedPage = () => layout('Survey closed', '<h1 id="closed">This survey is not open.</h1>');
export const missingPage = () => layout('Not found', '<h1>This link does not exist</h1>');
