import type { SellerBrand } from '../account/branding';
import { escapeHtml as esc, formatMoney, perInterval } from '../account/buyer-page';

/**
 * The content of the mails a buyer gets after a charge, as plain functions: subject, preview,
 * HTML body and text. The email capability's mail builder adds the layout, footer and links.
 */
export interface MailBody {
  subject: string;
  preview: string;
  html: string;
  text: string;
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

const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

const button = (brand: SellerBrand, href: string, label: string) =>
  `<p><a href="${esc(href)}" style="display:inline-block;padding:10px 18px;border-radius:6px;background:${brand.accent};color:${brand.onAccent};text-decoration:none;font-weight:bold">${esc(label)}</a></p>`;

export function receiptMail(input: ReceiptInput): MailBody {
  const { brand } = input;
  const total = formatMoney(input.amountCents, input.currency);
  const what = input.billingReason === 'renewal' ? `Renewal of ${input.productName}` : input.productName;
  const subject = input.amountCents === 0 ? `Your order from ${brand.name}: ${input.productName}` : `Your receipt from ${brand.name}: ${total}`;
  const test = input.testMode ? '<p><strong>Test mode</strong>: no real money moved.</p>' : '';
  const lines = input.lines?.length ? input.lines : null;
  // With lines, the first is the product after its code: the code's row is shown before it.
  const rows = lines ? [
    input.discount ? `<tr><td>Discount ${esc(input.discount.code)} on ${esc(input.productName)}</td><td align="right">-${esc(formatMoney(input.discount.amountOffCents, input.currency))}</td></tr>` : '',
    ...lines.map((l) => `<tr><td>${esc(l.name)}</td><td align="right">${esc(formatMoney(l.amountCents, input.currency))}</td></tr>`),
    `<tr><td><strong>Total paid</strong></td><td align="right"><strong>${esc(total)}</strong></td></tr>`,
  ].join('') : [
    `<tr><td>${esc(what)}${input.kind === 'subscription' ? ` (${esc(perInterval(input.interval).slice(3) || 'period')}ly plan)` : ''}</td><td align="right">${esc(formatMoney(input.amountCents + (input.discount?.amountOffCents ?? 0), input.currency))}</td></tr>`,
    input.discount ? `<tr><td>Discount ${esc(input.discount.code)}</td><td align="right">-${esc(formatMoney(input.discount.amountOffCents, input.currency))}</td></tr>` : '',
    `<tr><td><strong>Total paid</strong></td><td align="right"><strong>${esc(total)}</strong></td></tr>`,
  ].join('');
  const html = [
    `<h1>Thank you for your ${input.billingReason === 'renewal' ? 'payment' : 'order'}</h1>`,
    test,
    `<p>Order ${esc(input.orderId)} · ${esc(day(input.paidAt))}</p>`,
    `<table width="100%" cellpadding="6" cellspacing="0" border="0">${rows}</table>`,
    ...(input.licenseKeys ?? []).map((key) => `<p>Your licence key: <code>${esc(key)}</code></p>`),
    input.downloadsUrl ? `<p>Your files are ready:</p>${button(brand, input.downloadsUrl, 'Download your files')}<p class="muted">Keep this mail: the button always gives you fresh download links.</p>` : '',
    input.portalUrl ? `<p>Manage your subscription (see payments, cancel or resume) any time:</p>${button(brand, input.portalUrl, 'Manage subscription')}` : '',
    input.reviewUrl ? `<p><a href="${esc(input.reviewUrl)}">Leave a review of ${esc(input.productName)}</a></p>` : '',
    input.invoiceUrl ? `<p>Need an invoice, with your company's name and VAT ID? <a href="${esc(input.invoiceUrl)}">Get your invoice</a></p>` : '',
    input.surveyUrl ? `<p>One question, if you have a moment: <a href="${esc(input.surveyUrl)}">where did you hear about us?</a></p>` : '',
    brand.supportEmail ? `<p>Questions? Reply to this mail or write to <a href="mailto:${esc(brand.supportEmail)}">${esc(brand.supportEmail)}</a>.</p>` : '',
  ].join('\n');
  const text = [
    `Thank you for your ${input.billingReason === 'renewal' ? 'payment' : 'order'}.`,
    input.testMode ? 'Test mode: no real money moved.' : '',
    `Order ${input.orderId}, ${day(input.paidAt)}`,
    ...(lines ? lines.map((l) => `${l.name}: ${formatMoney(l.amountCents, input.currency)}`) : [`${what}: ${formatMoney(input.amountCents + (input.discount?.amountOffCents ?? 0), input.currency)}`]),
    input.discount ? `Discount ${input.discount.code}: -${formatMoney(input.discount.amountOffCents, input.currency)}` : '',
    `Total paid: ${total}`,
    ...(input.licenseKeys ?? []).map((key) => `Your licence key: ${key}`),
    input.downloadsUrl ? `Download your files: ${input.downloadsUrl}` : '',
    input.portalUrl ? `Manage your subscription: ${input.portalUrl}` : '',
    input.reviewUrl ? `Leave a review: ${input.reviewUrl}` : '',
    input.invoiceUrl ? `Your invoice: ${input.invoiceUrl}` : '',
    input.surveyUrl ? `Where did you hear about us? ${input.surveyUrl}` : '',
    brand.supportEmail ? `Questions? ${brand.supportEmail}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  return { subject, preview: `${what}: ${total}`, html, text };
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
export function failedPaymentMail(input: FailedPaymentInput): MailBody {
  const { brand } = input;
  const total = formatMoney(input.amountCents, input.currency);
  const retry = input.nextRetryAt ? `We will try again on ${day(input.nextRetryAt)}.` : 'We will not try this card again.';
  const html = [
    `<h1>Your payment for ${esc(input.productName)} did not go through</h1>`,
    input.testMode ? '<p><strong>Test mode</strong>: no real money moved.</p>' : '',
    `<p>We could not charge ${esc(total)}${input.failureMessage ? `: ${esc(input.failureMessage)}` : '.'} ${esc(retry)}</p>`,
    `<p>Please update your card so that your subscription continues.</p>`,
    input.cardUpdateUrl ? button(brand, input.cardUpdateUrl, 'Update your card') : '',
    input.portalUrl ? (input.cardUpdateUrl ? `<p><a href="${esc(input.portalUrl)}">Manage your subscription</a></p>` : button(brand, input.portalUrl, 'Update card and manage subscription')) : '',
    brand.supportEmail ? `<p>Questions? Write to <a href="mailto:${esc(brand.supportEmail)}">${esc(brand.supportEmail)}</a>.</p>` : '',
  ].join('\n');
  const text = [
    `Your payment for ${input.productName} did not go through.`,
    `We could not charge ${total}${input.failureMessage ? `: ${input.failureMessage}` : '.'} ${retry}`,
    'Please update your card so that your subscription continues.',
    input.cardUpdateUrl ? `Update your card: ${input.cardUpdateUrl}` : '',
    input.portalUrl ? `${input.cardUpdateUrl ? 'Manage your subscription' : 'Update card and manage subscription'}: ${input.portalUrl}` : '',
    brand.supportEmail ? `Questions? ${brand.supportEmail}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  return { subject: `Action needed: your payment to ${brand.name} failed`, preview: `We could not charge ${total}. Update your card to keep ${input.productName}.`, html, text };
}
