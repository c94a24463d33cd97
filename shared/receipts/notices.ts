import type { SellerBrand } from '../account/branding';
import { escapeHtml as esc, formatMoney } from '../account/buyer-page';
import type { MailBody } from './mails';

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

export function refundMail(input: RefundInput): MailBody {
  const { brand } = input;
  const refunded = formatMoney(input.refundedCents, input.currency);
  const paid = formatMoney(input.paidCents, input.currency);
  const what = input.full ? `your payment of ${refunded} for ${input.productName}` : `${refunded} of your ${paid} payment for ${input.productName}`;
  const when = 'The money goes back to the card you paid with; most banks show it within 5 to 10 business days.';
  const html = [
    `<h1>Your refund is on its way</h1>`,
    input.testMode ? '<p><strong>Test mode</strong>: no real money moved.</p>' : '',
    `<p>${esc(brand.name)} refunded ${esc(what)} on ${esc(day(input.refundedAt))}.</p>`,
    `<p>${esc(when)}</p>`,
    brand.supportEmail ? `<p>Questions? Reply to this mail or write to <a href="mailto:${esc(brand.supportEmail)}">${esc(brand.supportEmail)}</a>.</p>` : '',
  ].join('\n');
  const text = [
    'Your refund is on its way.',
    input.testMode ? 'Test mode: no real money moved.' : '',
    `${brand.name} refunded ${what} on ${day(input.refundedAt)}.`,
    when,
    brand.supportEmail ? `Questions? ${brand.supportEmail}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  return { subject: `Your refund for ${input.productName}: ${refunded}`, preview: `${refunded} is on its way back to your card.`, html, text };
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
    `<p>${esc(what)} on ${esc(day(input.soldAt))}.</p>`,
    input.ordersUrl ? `<p><a href="${esc(input.ordersUrl)}">See your orders</a></p>` : '',
    `<p>${esc(off)}</p>`,
  ].join('\n');
  const text = [input.testMode ? 'Test mode: a test order, no real money moved.' : '', `${what} on ${day(input.soldAt)}.`, input.ordersUrl ? `See your orders: ${input.ordersUrl}` : '', off]
    .filter(Boolean)
    .join('\n\n');
  return { subject: `${input.testMode ? '[Test] ' : ''}New ${input.renewal ? 'renewal' : 'sale'}: ${input.productName} (${total})`, preview: what, html, text };
}
