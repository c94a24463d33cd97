import type { SellerBrand } from '../account/branding';
import { formatMoney } from '../account/buyer-page';
import type { MailBody } from './mails';
import { safeHtml, translator, type Translator } from '../platform/i18n/translator';
import { escapeHtml } from '../platform/html';

/**
 * The notices around a sale that are not receipts, as plain functions: the buyer's refund mail and
 * the store owner's new-sale mail. Words for people: amounts, product and buyer, never ids.
 */

const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

export interface RefundInput {
  brand: SellerBrand;
  productName: string;
  refundedCents: number;
  /** What the buyer paid for the order. */
  paidCents: number;
  currency: string;
  full: boolean;
  refundedAt: string;
  testMode: boolean;
}

/** The buyer's refund mail, in their language (`t`); the product's name as the seller wrote it. */
export function refundMail(input: RefundInput, t: Translator = translator()): MailBody {
  const { brand } = input;
  const refunded = t.money(input.refundedCents, input.currency);
  const values = {
    seller: brand.name,
    amount: refunded,
    paid: t.money(input.paidCents, input.currency),
    product: input.productName,
    date: t.date(input.refundedAt),
  };
  const what = input.full ? 'refund.full' : 'refund.partial';
  const support = brand.supportEmail;
  const html = [
    `<h1>${t.html('refund.heading')}</h1>`,
    input.testMode ? `<p><strong>${t.html('mail.testMode')}</strong></p>` : '',
    `<p>${t.html(what, values)}</p>`,
    `<p>${t.html('refund.when')}</p>`,
    support ? `<p>${t.html('mail.questionsReply', { email: safeHtml(`<a href="mailto:${escapeHtml(support)}">${escapeHtml(support)}</a>`) })}</p>` : '',
  ].join('\n');
  const text = [
    t.t('refund.heading'),
    input.testMode ? t.t('mail.testMode') : '',
    t.t(what, values),
    t.t('refund.when'),
    support ? t.t('mail.questions', { email: support }) : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  return {
    subject: t.t('refund.subject', { product: input.productName, amount: refunded }),
    preview: t.t('refund.preview', { amount: refunded }),
    html,
    text,
    locale: t.locale,
  };
}

export interface NewSaleInput {
  productName: string;
  amountCents: number;
  currency: string;
  renewal: boolean;
  buyer: { email: string; name: string | null };
  soldAt: string;
  /** The orders page of the dashboard. */
  ordersUrl: string | null;
  testMode: boolean;
}

export function newSaleMail(input: NewSaleInput): MailBody {
  const total = formatMoney(input.amountCents, input.currency);
  const who = input.buyer.name ? `${input.buyer.name} (${input.buyer.email})` : input.buyer.email;
  const what = input.renewal ? `${who} renewed ${input.productName} for ${total}` : `${who} bought ${input.productName} for ${total}`;
  const off = 'You get this mail for every paid order; turn it off under Email sending in your dashboard.';
  const html = [
    `<h1>${input.renewal ? 'A renewal came in' : 'You made a sale'}</h1>`,
    input.testMode ? '<p><strong>Test mode</strong>: a test order, no real money moved.</p>' : '',
    `<p>${escapeHtml(what)} on ${escapeHtml(day(input.soldAt))}.</p>`,
    input.ordersUrl ? `<p><a href="${escapeHtml(input.ordersUrl)}">See your orders</a></p>` : '',
    `<p>${escapeHtml(off)}</p>`,
  ].join('\n');
  const text = [
    input.testMode ? 'Test mode: a test order, no real money moved.' : '',
    `${what} on ${day(input.soldAt)}.`,
    input.ordersUrl ? `See your orders: ${input.ordersUrl}` : '',
    off,
  ]
    .filter(Boolean)
    .join('\n\n');
  return { subject: `${input.testMode ? '[Test] ' : ''}New ${input.renewal ? 'renewal' : 'sale'}: ${input.productName} (${total})`, preview: what, html, text };
}
