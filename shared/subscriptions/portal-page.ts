import type { SellerBrand } from '../account/branding';
import { buyerPage, escapeHtml as escape, formatMoney, perInterval, type BuyerPage } from '../account/buyer-page';
import type { portalData } from './service';

type PortalData = Awaited<ReturnType<typeof portalData>>;

const STATUS_WORD: Record<string, string> = { trialing: 'Trial', active: 'Active', past_due: 'Payment overdue', paused: 'Paused', canceled: 'Canceled' };

const day = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }) : '');

/** The next charge the buyer should expect, or null when none is coming. */
export function nextCharge(data: PortalData): { date: string; amountCents: number; currency: string } | null {
  if (data.status === 'canceled' || data.status === 'paused' || data.cancelAtPeriodEnd || !data.subscription) return null;
  const date = data.status === 'trialing' ? (data.trialEnd ?? data.currentPeriodEnd) : data.currentPeriodEnd;
  if (!date) return null;
  const last = data.payments.find((p) => p.status !== 'refunded');
  // A save discount or intro price changes what the renewal charges: retention says what it is.
  const amountCents = data.upcomingPrice !== null ? Math.round(data.upcomingPrice * 100) : last ? last.amountCents : Math.round(data.subscription.price * 100);
  return { date, amountCents, currency: data.subscription.currency };
}

export interface PortalPageInput {
  brand: SellerBrand;
  data: PortalData;
  baseUrl: string;
  /** Present when the visitor holds the token: the forms post it with the CSRF token. */
  manage?: { token: string; csrf: string; action: string; cardUpdateUrl: string | null };
  notice?: string;
  error?: string;
}

/**
 * The buyer's portal as a page: status, next charge, payment history and, with the token, the
 * cancel or resume form. Plain forms, no script; the page works with JavaScript off.
 */
export function portalPage(input: PortalPageInput): BuyerPage {
  const { data, manage } = input;
  const offer = data.subscription;
  const next = nextCharge(data);
  const status = STATUS_WORD[data.status] ?? data.status;
  const state = data.cancelAtPeriodEnd && data.status !== 'canceled' ? `Ends on ${day(data.currentPeriodEnd)}` : data.status === 'trialing' && data.trialEnd ? `Trial ends on ${day(data.trialEnd)}` : '';
  const rows = data.payments
    .map((p) => `<tr><td>${escape(day(p.createdAt))}</td><td>${escape(p.billingReason === 'renewal' ? 'Renewal' : p.billingReason === 'initial' ? 'First payment' : p.productName)}</td><td class="num">${escape(formatMoney(p.amountCents, p.currency))}</td><td>${p.status === 'refunded' ? 'Refunded' : p.refundedCents ? 'Partly refunded' : 'Paid'}</td></tr>`)
    .join('');
  const history = data.payments.length
    ? `<table id="payments"><caption class="sr-only">Payment history, newest first</caption><thead><tr><th scope="col">Date</th><th scope="col">For</th><th scope="col" class="num">Amount</th><th scope="col">Status</th></tr></thead><tbody>${rows}</tbody></table>`
    : '<p id="payments" class="muted">No payments yet.</p>';
  const hidden = manage ? `<input type="hidden" name="token" value="${escape(manage.token)}"><input type="hidden" name="csrf" value="${escape(manage.csrf)}">` : '';
  let actions = '';
  if (manage) {
    const canResume = data.cancelAtPeriodEnd || data.status === 'canceled' || data.status === 'paused';
    const cancelForm =
      !canResume
        ? `<form method="post" action="${escape(manage.action)}">${hidden}<input type="hidden" name="action" value="cancel"><p>Cancel and keep access until ${escape(day(data.currentPeriodEnd) || 'the end of the period')}. No further charges.</p><button type="submit" id="cancel">Cancel subscription</button></form>`
        : '';
    const resumeForm = canResume ? `<form method="post" action="${escape(manage.action)}">${hidden}<input type="hidden" name="action" value="resume"><button type="submit" class="primary" id="resume">Resume subscription</button></form>` : '';
    const card = manage.cardUpdateUrl ? `<p><a id="update-card" href="${escape(manage.cardUpdateUrl)}">Update your card</a></p>` : '';
    const yearly = data.yearlySwitch && !data.yearlySwitch.accepted && !canResume
      ? `<form method="post" action="${escape(manage.action)}" id="yearly-switch">${hidden}<input type="hidden" name="action" value="yearly_switch"><p>Switch to yearly billing and save ${data.yearlySwitch.percentOff}%: ${escape(formatMoney(Math.round(data.yearlySwitch.yearlyPrice * 100), data.yearlySwitch.currency))} a year from your next renewal.</p><button type="submit" class="primary" id="accept-yearly">Switch to yearly</button></form>`
      : '';
    actions = `<section class="card" aria-labelledby="manage-heading"><h2 id="manage-heading">Manage</h2>${yearly}${cancelForm}${resumeForm}${card}</section>`;
  } else {
    actions = '<p class="muted" id="read-only">This view is read-only. Use the link in your receipt to make changes.</p>';
  }
  const body = `<section class="card" aria-labelledby="sub-heading">
<h1 id="sub-heading">${escape(offer?.name ?? 'Your subscription')}</h1>
${input.notice ? `<div class="ok" role="status" id="notice">${escape(input.notice)}</div>` : ''}${input.error ? `<div class="alert" role="alert" id="error">${escape(input.error)}</div>` : ''}
<p>Status: <span class="badge" id="status">${escape(status)}</span>${state ? ` <span id="status-detail">${escape(state)}</span>` : ''}</p>
${offer ? `<p class="muted">${escape(formatMoney(Math.round(offer.price * 100), offer.currency))}${escape(perInterval(offer.frequency))} · ${escape(data.customer.email)}</p>` : ''}
<p id="next-charge">${next ? `Next charge: <strong>${escape(formatMoney(next.amountCents, next.currency))}</strong> on ${escape(day(next.date))}` : 'No further charges are scheduled.'}</p>
</section>
${actions}
<section class="card" aria-labelledby="history-heading"><h2 id="history-heading">Payment history</h2>${history}</section>`;
  return buyerPage({ brand: input.brand, title: offer?.name ?? 'Subscription', baseUrl: input.baseUrl, body });
}

export interface SaveOffersPageInput {
  brand: SellerBrand;
  data: PortalData;
  baseUrl: string;
  offers: { pauseMaxMonths: number | null; discountPercent: number; discountMonths: number; discountedPrice: number; currency: string };
  manage: { token: string; csrf: string; action: string };
}

const REASONS: [string, string][] = [
  ['', 'Prefer not to say'],
  ['too_expensive', 'It costs too much'],
  ['not_using', 'I do not use it enough'],
  ['missing_features', 'It is missing something I need'],
  ['other', 'Something else'],
];

/**
 * Before a cancel, when the seller offers it: a pause or a discount instead, or cancel anyway.
 * Three plain forms with the same token and CSRF token as the portal's; no script.
 */
export function saveOffersPage(input: SaveOffersPageInput): BuyerPage {
  const { data, manage, offers } = input;
  const name = data.subscription?.name ?? 'your subscription';
  const hidden = `<input type="hidden" name="token" value="${escape(manage.token)}"><input type="hidden" name="csrf" value="${escape(manage.csrf)}">`;
  const reason = (id: string) =>
    `<label for="${id}">Why are you leaving?</label> <select id="${id}" name="reason">${REASONS.map(([v, l]) => `<option value="${escape(v)}">${escape(l)}</option>`).join('')}</select>`;
  const months = offers.pauseMaxMonths ? Array.from({ length: offers.pauseMaxMonths }, (_, i) => i + 1) : [];
  const pause = months.length
    ? `<form method="post" action="${escape(manage.action)}" id="save-pause">${hidden}<input type="hidden" name="action" value="save_pause"><h2>Take a break</h2><p>Pause for up to ${months.length} month${months.length > 1 ? 's' : ''}: no charges, and your subscription continues afterwards.</p><label for="months">Months</label> <select id="months" name="months">${months.map((m) => `<option value="${m}">${m}</option>`).join('')}</select> ${reason('reason-pause')} <button type="submit" class="primary" id="accept-pause">Pause instead</button></form>`
    : '';
  const price = formatMoney(Math.round(offers.discountedPrice * 100), offers.currency);
  const discount = `<form method="post" action="${escape(manage.action)}" id="save-discount">${hidden}<input type="hidden" name="action" value="save_discount"><h2>${offers.discountPercent}% off</h2><p>Stay and pay ${escape(price)} for your next ${offers.discountMonths} payment${offers.discountMonths > 1 ? 's' : ''}.</p>${reason('reason-discount')} <button type="submit" class="primary" id="accept-discount">Keep it with ${offers.discountPercent}% off</button></form>`;
  const cancel = `<form method="post" action="${escape(manage.action)}" id="cancel-anyway">${hidden}<input type="hidden" name="action" value="cancel"><input type="hidden" name="confirm" value="1">${reason('reason-cancel')} <button type="submit" id="confirm-cancel">No thanks, cancel</button></form>`;
  const body = `<section class="card" aria-labelledby="save-heading"><h1 id="save-heading">Before you cancel ${escape(name)}</h1><p>Would one of these help?</p></section>
<section class="card">${pause}</section>
<section class="card">${discount}</section>
<section class="card">${cancel}</section>`;
  return buyerPage({ brand: input.brand, title: `Before you cancel ${name}`, baseUrl: input.baseUrl, body });
}
