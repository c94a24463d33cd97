import type { SellerBrand } from '../account/branding';
import { buyerPage, type BuyerPage } from '../account/buyer-page';
import { translator, type Translator } from '../platform/i18n/translator';
import type { portalData } from './service';
import { escapeHtml } from '../platform/html';

type PortalData = Awaited<ReturnType<typeof portalData>>;

const EN = translator('en');
const KNOWN_STATUS = new Set(['trialing', 'active', 'past_due', 'paused', 'canceled']);

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
  /** The buyer's language (default English). */
  t?: Translator;
}

/**
 * The buyer's portal as a page: status, next charge, payment history and, with the token, the
 * cancel or resume form. Plain forms, no script; the page works with JavaScript off.
 */
export function portalPage(input: PortalPageInput): BuyerPage {
  const { data, manage } = input;
  const t = input.t ?? EN;
  const day = (iso: string | null | undefined) => (iso ? t.date(iso) : '');
  const formatMoney = (cents: number, currency: string) => t.money(cents, currency);
  const offer = data.subscription;
  const next = nextCharge(data);
  const status = KNOWN_STATUS.has(data.status) ? t.t('portal.status', { status: data.status }) : data.status;
  const state =
    data.cancelAtPeriodEnd && data.status !== 'canceled'
      ? t.t('portal.endsOn', { date: day(data.currentPeriodEnd) })
      : data.status === 'trialing' && data.trialEnd
        ? t.t('portal.trialEndsOn', { date: day(data.trialEnd) })
        : '';
  const rows = data.payments
    .map(
      (p) =>
        `<tr><td>${escapeHtml(day(p.createdAt))}</td><td>${escapeHtml(p.billingReason === 'renewal' ? t.t('portal.renewal') : p.billingReason === 'initial' ? t.t('portal.firstPayment') : p.productName)}</td><td class="num">${escapeHtml(formatMoney(p.amountCents, p.currency))}</td><td>${t.html(p.status === 'refunded' ? 'portal.refunded' : p.refundedCents ? 'portal.partlyRefunded' : 'portal.paid')}</td></tr>`,
    )
    .join('');
  const history = data.payments.length
    ? `<table id="payments"><caption class="sr-only">${t.html('portal.historyCaption')}</caption><thead><tr><th scope="col">${t.html('portal.date')}</th><th scope="col">${t.html('portal.for')}</th><th scope="col" class="num">${t.html('portal.amount')}</th><th scope="col">${t.html('portal.statusColumn')}</th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p id="payments" class="muted">${t.html('portal.noPayments')}</p>`;
  const hidden = manage
    ? `<input type="hidden" name="token" value="${escapeHtml(manage.token)}"><input type="hidden" name="csrf" value="${escapeHtml(manage.csrf)}">`
    : '';
  let actions = '';
  if (manage) {
    const canResume = data.cancelAtPeriodEnd || data.status === 'canceled' || data.status === 'paused';
    const cancelForm = !canResume
      ? `<form method="post" action="${escapeHtml(manage.action)}">${hidden}<input type="hidden" name="action" value="cancel"><p>${t.html('portal.cancelNote', { date: day(data.currentPeriodEnd) || t.t('portal.periodEnd') })}</p><button type="submit" id="cancel">${t.html('portal.cancel')}</button></form>`
      : '';
    const resumeForm = canResume
      ? `<form method="post" action="${escapeHtml(manage.action)}">${hidden}<input type="hidden" name="action" value="resume"><button type="submit" class="primary" id="resume">${t.html('portal.resume')}</button></form>`
      : '';
    const card = manage.cardUpdateUrl ? `<p><a id="update-card" href="${escapeHtml(manage.cardUpdateUrl)}">${t.html('failed.updateCard')}</a></p>` : '';
    const yearly =
      data.yearlySwitch && !data.yearlySwitch.accepted && !canResume
        ? `<form method="post" action="${escapeHtml(manage.action)}" id="yearly-switch">${hidden}<input type="hidden" name="action" value="yearly_switch"><p>${t.html('portal.yearly', { percent: data.yearlySwitch.percentOff, price: formatMoney(Math.round(data.yearlySwitch.yearlyPrice * 100), data.yearlySwitch.currency) })}</p><button type="submit" class="primary" id="accept-yearly">${t.html('portal.switchYearly')}</button></form>`
        : '';
    actions = `<section class="card" aria-labelledby="manage-heading"><h2 id="manage-heading">${t.html('portal.manage')}</h2>${yearly}${cancelForm}${resumeForm}${card}</section>`;
  } else {
    actions = `<p class="muted" id="read-only">${t.html('portal.readOnly')}</p>`;
  }
  const body = `<section class="card" aria-labelledby="sub-heading">
<h1 id="sub-heading">${escapeHtml(offer?.name ?? t.t('portal.yourSubscription'))}</h1>
${input.notice ? `<div class="ok" role="status" id="notice">${escapeHtml(input.notice)}</div>` : ''}${input.error ? `<div class="alert" role="alert" id="error">${escapeHtml(input.error)}</div>` : ''}
<p>${t.html('portal.statusLabel')} <span class="badge" id="status">${escapeHtml(status)}</span>${state ? ` <span id="status-detail">${escapeHtml(state)}</span>` : ''}</p>
${offer ? `<p class="muted">${escapeHtml(t.t('price.per', { price: formatMoney(Math.round(offer.price * 100), offer.currency), interval: offer.frequency ?? 'other' }))} · ${escapeHtml(data.customer.email)}</p>` : ''}
<p id="next-charge">${next ? t.html('portal.nextCharge', { amount: { __html: `<strong>${escapeHtml(formatMoney(next.amountCents, next.currency))}</strong>` }, date: day(next.date) }) : t.html('portal.noCharges')}</p>
</section>
${actions}
<section class="card" aria-labelledby="history-heading"><h2 id="history-heading">${t.html('portal.history')}</h2>${history}</section>`;
  return buyerPage({ brand: input.brand, title: offer?.name ?? t.t('portal.title'), baseUrl: input.baseUrl, body, locale: t.locale });
}

export interface SaveOffersPageInput {
  brand: SellerBrand;
  data: PortalData;
  baseUrl: string;
  offers: { pauseMaxMonths: number | null; discountPercent: number; discountMonths: number; discountedPrice: number; currency: string };
  manage: { token: string; csrf: string; action: string };
  t?: Translator;
}

const REASONS = [
  ['', 'save.reasonNone'],
  ['too_expensive', 'save.reasonExpensive'],
  ['not_using', 'save.reasonNotUsing'],
  ['missing_features', 'save.reasonMissing'],
  ['other', 'save.reasonOther'],
] as const;

/**
 * Before a cancel, when the seller offers it: a pause or a discount instead, or cancel anyway.
 * Three plain forms with the same token and CSRF token as the portal's; no script.
 */
export function saveOffersPage(input: SaveOffersPageInput): BuyerPage {
  const { data, manage, offers } = input;
  const t = input.t ?? EN;
  const formatMoney = (cents: number, currency: string) => t.money(cents, currency);
  const name = data.subscription?.name ?? t.t('portal.yourSubscription');
  const hidden = `<input type="hidden" name="token" value="${escapeHtml(manage.token)}"><input type="hidden" name="csrf" value="${escapeHtml(manage.csrf)}">`;
  const reason = (id: string) =>
    `<label for="${id}">${t.html('save.reasonLabel')}</label> <select id="${id}" name="reason">${REASONS.map(([v, l]) => `<option value="${escapeHtml(v)}">${t.html(l)}</option>`).join('')}</select>`;
  const months = offers.pauseMaxMonths ? Array.from({ length: offers.pauseMaxMonths }, (_, i) => i + 1) : [];
  const pause = months.length
    ? `<form method="post" action="${escapeHtml(manage.action)}" id="save-pause">${hidden}<input type="hidden" name="action" value="save_pause"><h2>${t.html('save.breakTitle')}</h2><p>${t.html('save.pauseText', { months: months.length })}</p><label for="months">${t.html('save.months')}</label> <select id="months" name="months">${months.map((m) => `<option value="${m}">${m}</option>`).join('')}</select> ${reason('reason-pause')} <button type="submit" class="primary" id="accept-pause">${t.html('save.pauseInstead')}</button></form>`
    : '';
  const price = formatMoney(Math.round(offers.discountedPrice * 100), offers.currency);
  const discount = `<form method="post" action="${escapeHtml(manage.action)}" id="save-discount">${hidden}<input type="hidden" name="action" value="save_discount"><h2>${t.html('save.percentOff', { percent: offers.discountPercent })}</h2><p>${t.html('save.discountText', { price, count: offers.discountMonths })}</p>${reason('reason-discount')} <button type="submit" class="primary" id="accept-discount">${t.html('save.keepWith', { percent: offers.discountPercent })}</button></form>`;
  const cancel = `<form method="post" action="${escapeHtml(manage.action)}" id="cancel-anyway">${hidden}<input type="hidden" name="action" value="cancel"><input type="hidden" name="confirm" value="1">${reason('reason-cancel')} <button type="submit" id="confirm-cancel">${t.html('save.noThanks')}</button></form>`;
  const body = `<section class="card" aria-labelledby="save-heading"><h1 id="save-heading">${t.html('save.heading', { name })}</h1><p>${t.html('save.help')}</p></section>
<section class="card">${pause}</section>
<section class="card">${discount}</section>
<section class="card">${cancel}</section>`;
  return buyerPage({ brand: input.brand, title: t.t('save.heading', { name }), baseUrl: input.baseUrl, body, locale: t.locale });
}
