import type { SellerBrand } from '../account/branding';

import { translator, type Translator } from '../platform/i18n/translator';
import { escapeHtml } from '../platform/html';

const EN = translator('en');
const link = (href: string, label: string) => ({ __html: `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>` });

/**
 * The content of the mails a buyer gets after a charge, as plain functions: subject, preview,
 * HTML body and text. The email capability's mail builder adds the layout, footer and links.
 */
export interface MailBody {
  subject: string;
  preview: string;
  html: string;
  text: string;
  /** The language it is written in: the footer the mail gets speaks it too. */
  locale?: string;
}

export interface ReceiptInput {
  brand: SellerBrand;
  orderId: string;
  productName: string;
  amountCents: number;
  currency: string;
  kind: 'one_time' | 'subscription';
  billingReason: 'initial' | 'renewal' | 'usage' | null;
  interval: 'weekly' | 'monthly' | 'yearly' | null;
  discount: { code: string; amountOffCents: number } | null;
  /** The order's lines when it has more than the product (an upsell taken at checkout). */
  lines?: { name: string; amountCents: number }[] | null;
  paidAt: string;
  reviewUrl: string | null;
  /** The attribution survey's question for this order, when the seller asks it. */
  surveyUrl?: string | null;
  /** The buyer's invoice page (company details and VAT ID, then the PDF). */
  invoiceUrl?: string | null;
  portalUrl: string | null;
  /** The page that signs fresh download links for the files bought (it keeps working). */
  downloadsUrl?: string | null;
  /** The order's licence keys. */
  licenseKeys?: string[];
  testMode: boolean;
}

const button = (brand: SellerBrand, href: string, label: string) =>
  `<p><a href="${escapeHtml(href)}" style="display:inline-block;padding:10px 18px;border-radius:6px;background:${brand.accent};color:${brand.onAccent};text-decoration:none;font-weight:bold">${escapeHtml(label)}</a></p>`;

export function receiptMail(input: ReceiptInput, t: Translator = EN): MailBody {
  const { brand } = input;
  const formatMoney = (cents: number, currency: string) => t.money(cents, currency);
  const day = (iso: string) => t.date(iso);
  const line = (label: string, value: string) => t.t('mail.line', { label, value });
  const total = formatMoney(input.amountCents, input.currency);
  const what = input.billingReason === 'renewal' ? t.t('receipt.renewalOf', { product: input.productName }) : input.productName;
  const subject =
    input.amountCents === 0
      ? t.t('receipt.subjectFree', { seller: brand.name, product: input.productName })
      : t.t('receipt.subject', { seller: brand.name, total });
  const test = input.testMode ? `<p><strong>${escapeHtml(t.t('mail.testMode'))}</strong></p>` : '';
  const heading = t.t('receipt.heading', { renewal: String(input.billingReason === 'renewal') });
  const lines = input.lines?.length ? input.lines : null;
  // With lines, the first is the product after its code: the code's row is shown before it.
  const rows = lines
    ? [
        input.discount
          ? `<tr><td>${t.html('receipt.discountOn', { code: input.discount.code, product: input.productName })}</td><td align="right">-${escapeHtml(formatMoney(input.discount.amountOffCents, input.currency))}</td></tr>`
          : '',
        ...lines.map((l) => `<tr><td>${escapeHtml(l.name)}</td><td align="right">${escapeHtml(formatMoney(l.amountCents, input.currency))}</td></tr>`),
        `<tr><td><strong>${t.html('receipt.totalPaid')}</strong></td><td align="right"><strong>${escapeHtml(total)}</strong></td></tr>`,
      ].join('')
    : [
        `<tr><td>${input.kind === 'subscription' ? t.html('receipt.plan', { product: what, interval: input.interval ?? 'other' }) : escapeHtml(what)}</td><td align="right">${escapeHtml(formatMoney(input.amountCents + (input.discount?.amountOffCents ?? 0), input.currency))}</td></tr>`,
        input.discount
          ? `<tr><td>${t.html('receipt.discount', { code: input.discount.code })}</td><td align="right">-${escapeHtml(formatMoney(input.discount.amountOffCents, input.currency))}</td></tr>`
          : '',
        `<tr><td><strong>${t.html('receipt.totalPaid')}</strong></td><td align="right"><strong>${escapeHtml(total)}</strong></td></tr>`,
      ].join('');
  const html = [
    `<h1>${escapeHtml(heading)}</h1>`,
    test,
    `<p>${t.html('receipt.order', { id: input.orderId, date: day(input.paidAt) })}</p>`,
    `<table width="100%" cellpadding="6" cellspacing="0" border="0">${rows}</table>`,
    ...(input.licenseKeys ?? []).map((key) => `<p>${t.html('receipt.licenseKey', { key: { __html: `<code>${escapeHtml(key)}</code>` } })}</p>`),
    input.downloadsUrl
      ? `<p>${t.html('receipt.filesReady')}</p>${button(brand, input.downloadsUrl, t.t('receipt.filesButton'))}<p class="muted">${t.html('receipt.filesKeep')}</p>`
      : '',
    input.portalUrl ? `<p>${t.html('receipt.manage')}</p>${button(brand, input.portalUrl, t.t('receipt.manageButton'))}` : '',
    input.reviewUrl ? `<p><a href="${escapeHtml(input.reviewUrl)}">${t.html('receipt.review', { product: input.productName })}</a></p>` : '',
    input.invoiceUrl ? `<p>${t.html('receipt.invoice', { link: link(input.invoiceUrl, t.t('receipt.invoiceLink')) })}</p>` : '',
    input.surveyUrl ? `<p>${t.html('receipt.survey', { link: link(input.surveyUrl, t.t('receipt.surveyLink')) })}</p>` : '',
    brand.supportEmail ? `<p>${t.html('mail.questionsReply', { email: link(`mailto:${brand.supportEmail}`, brand.supportEmail) })}</p>` : '',
  ].join('\n');
  const text = [
    `${heading}.`,
    input.testMode ? t.t('mail.testMode') : '',
    t.t('receipt.orderText', { id: input.orderId, date: day(input.paidAt) }),
    ...(lines
      ? lines.map((l) => line(l.name, formatMoney(l.amountCents, input.currency)))
      : [line(what, formatMoney(input.amountCents + (input.discount?.amountOffCents ?? 0), input.currency))]),
    input.discount ? line(t.t('receipt.discount', { code: input.discount.code }), `-${formatMoney(input.discount.amountOffCents, input.currency)}`) : '',
    line(t.t('receipt.totalPaid'), total),
    ...(input.licenseKeys ?? []).map((key) => t.t('receipt.licenseKey', { key })),
    input.downloadsUrl ? t.t('receipt.filesText', { url: input.downloadsUrl }) : '',
    input.portalUrl ? t.t('receipt.manageText', { url: input.portalUrl }) : '',
    input.reviewUrl ? t.t('receipt.reviewText', { url: input.reviewUrl }) : '',
    input.invoiceUrl ? t.t('receipt.invoiceText', { url: input.invoiceUrl }) : '',
    input.surveyUrl ? t.t('receipt.surveyText', { url: input.surveyUrl }) : '',
    brand.supportEmail ? t.t('mail.questions', { email: brand.supportEmail }) : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  return { subject, preview: `${what}: ${total}`, html, text, locale: t.locale };
}

export interface FailedPaymentInput {
  brand: SellerBrand;
  productName: string;
  amountCents: number;
  currency: string;
  failureMessage: string | null;
  nextRetryAt: string | null;
  portalUrl: string | null;
  /** The processor's card-update page, through the portal's card link. */
  cardUpdateUrl?: string | null;
  testMode: boolean;
}

/**
 * A charge of a subscription failed: what happened, when it is tried again, and the portal link
 * where the buyer updates the card (the card-update request the past-due state implies).
 */
export function failedPaymentMail(input: FailedPaymentInput, t: Translator = EN): MailBody {
  const { brand } = input;
  const total = t.money(input.amountCents, input.currency);
  const retry = input.nextRetryAt ? t.t('failed.retryOn', { date: t.date(input.nextRetryAt) }) : t.t('failed.noRetry');
  // The processor's reason is its own words (English); the sentence around it is the buyer's language.
  const charge = input.failureMessage
    ? t.t('failed.couldNotChargeReason', { amount: total, reason: input.failureMessage })
    : t.t('failed.couldNotCharge', { amount: total });
  const html = [
    `<h1>${t.html('failed.heading', { product: input.productName })}</h1>`,
    input.testMode ? `<p><strong>${escapeHtml(t.t('mail.testMode'))}</strong></p>` : '',
    `<p>${escapeHtml(charge)} ${escapeHtml(retry)}</p>`,
    `<p>${t.html('failed.pleaseUpdate')}</p>`,
    input.cardUpdateUrl ? button(brand, input.cardUpdateUrl, t.t('failed.updateCard')) : '',
    input.portalUrl
      ? input.cardUpdateUrl
        ? `<p><a href="${escapeHtml(input.portalUrl)}">${t.html('failed.manage')}</a></p>`
        : button(brand, input.portalUrl, t.t('failed.updateAndManage'))
      : '',
    brand.supportEmail ? `<p>${t.html('mail.questionsWrite', { email: link(`mailto:${brand.supportEmail}`, brand.supportEmail) })}</p>` : '',
  ].join('\n');
  const text = [
    `${t.t('failed.heading', { product: input.productName })}.`,
    `${charge} ${retry}`,
    t.t('failed.pleaseUpdate'),
    input.cardUpdateUrl ? t.t('mail.line', { label: t.t('failed.updateCard'), value: input.cardUpdateUrl }) : '',
    input.portalUrl ? t.t('mail.line', { label: t.t(input.cardUpdateUrl ? 'failed.manage' : 'failed.updateAndManage'), value: input.portalUrl }) : '',
    brand.supportEmail ? t.t('mail.questions', { email: brand.supportEmail }) : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  return {
    subject: t.t('failed.subject', { seller: brand.name }),
    preview: t.t('failed.preview', { amount: total, product: input.productName }),
    html,
    text,
    locale: t.locale,
  };
}
