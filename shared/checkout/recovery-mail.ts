import type { SellerBrand } from '../account/branding';

import type { Translator } from '../platform/i18n/translator';
import { escapeHtml } from '../platform/html';

/** The abandoned-checkout mail, in the buyer's language: the product, the way back, the code. */
export interface RecoveryMailInput {
  brand: SellerBrand;
  productName: string;
  url: string;
  discountCode: string | null;
  testMode: boolean;
}

export function recoveryMail(t: Translator, input: RecoveryMailInput) {
  const { brand } = input;
  const product = input.productName;
  const button = `<p><a href="${escapeHtml(input.url)}" style="display:inline-block;padding:10px 18px;border-radius:6px;background:${brand.accent};color:${brand.onAccent};text-decoration:none;font-weight:bold">${escapeHtml(t.t('recovery.button'))}</a></p>`;
  const html = [
    `<h1>${t.html('recovery.heading', { product })}</h1>`,
    input.testMode ? `<p><strong>${escapeHtml(t.t('mail.testMode'))}</strong></p>` : '',
    `<p>${t.html('recovery.body', { seller: brand.name })}</p>`,
    input.discountCode ? `<p>${t.html('recovery.code', { code: { __html: `<strong>${escapeHtml(input.discountCode)}</strong>` } })}</p>` : '',
    button,
    `<p style="color:#57606a">${escapeHtml(t.t('recovery.ignore'))}</p>`,
    brand.supportEmail
      ? `<p>${t.html('mail.questionsReply', { email: { __html: `<a href="mailto:${escapeHtml(brand.supportEmail)}">${escapeHtml(brand.supportEmail)}</a>` } })}</p>`
      : '',
  ].join('\n');
  const text = [
    t.t('recovery.heading', { product }),
    input.testMode ? t.t('mail.testMode') : '',
    t.t('recovery.body', { seller: brand.name }),
    input.discountCode ? t.t('recovery.code', { code: input.discountCode }) : '',
    t.t('mail.line', { label: t.t('recovery.button'), value: input.url }),
    t.t('recovery.ignore'),
    brand.supportEmail ? t.t('mail.questions', { email: brand.supportEmail }) : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  return { subject: t.t('recovery.subject', { product }), preview: t.t('recovery.preview', { seller: brand.name }), html, text, locale: t.locale };
}
