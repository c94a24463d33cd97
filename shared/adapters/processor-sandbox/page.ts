import type { SellerBrand } from '../../account/branding';
import { buyerPage, type BuyerPage } from '../../account/buyer-page';
import type { HostedCheckoutView } from '../../checkout/hosted-view';
import type { SandboxCheckout } from './records';
import { LOCALE_NAMES, LOCALES } from '../../platform/i18n/locales';
import { translator, type Translator } from '../../platform/i18n/translator';

const EN = translator('en');
import type { OrderDownload } from '../../product-files/records';
import { escapeHtml } from '../../platform/html';

export interface CheckoutPageState {
  /** A problem with the whole form (decline, closed checkout). */
  error?: string;
  /** Problems by field name. */
  fieldErrors?: Record<string, string>;
  /** A confirmation (the code was applied). */
  notice?: string;
  /** What the buyer typed, shown again (never the card fields). */
  values?: Record<string, string>;
  /** The language was chosen explicitly (`?lang=`): the form posts back with it. */
  lang?: boolean;
  /** The seller's newsletter opt-in box, when offered (see `optInBox`). */
  optIn?: { checked: boolean; wording: string } | null;
}

/**
 * The newsletter opt-in box, as the seller set it (shown unticked, or ticked where the seller
 * answers for it). Shown again after an error as the buyer left it.
 */
function optInBox(state: CheckoutPageState): string {
  if (!state.optIn) return '';
  const ticked = state.values ? state.values.marketingOptIn !== undefined : state.optIn.checked;
  return `<p class="opt-in"><label><input type="checkbox" name="marketingOptIn" id="marketingOptIn" value="on"${ticked ? ' checked' : ''}> ${escapeHtml(state.optIn.wording)}</label></p>`;
}

/** "$20.00 / month" in the buyer's language. */
export const perPeriod = (t: Translator, amountCents: number, currency: string, interval: string | null) =>
  t.t('price.per', { price: t.money(amountCents, currency), interval: interval ?? 'other' });

const priceLine = (view: HostedCheckoutView, amountCents: number, t: Translator) => {
  if (amountCents === 0 && view.kind === 'one_time') return t.t('price.free');
  return view.kind === 'subscription' ? perPeriod(t, amountCents, view.currency, view.interval) : t.money(amountCents, view.currency);
};

function field(name: string, label: string, state: CheckoutPageState, attrs: string, options: { keep?: boolean; hint?: string } = {}): string {
  const error = state.fieldErrors?.[name];
  const described = [options.hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
  const value = options.keep === false ? '' : (state.values?.[name] ?? '');
  return `<div><label for="${name}">${label}</label>${options.hint ? `<p class="muted" id="${name}-hint">${options.hint}</p>` : ''}<input id="${name}" name="${name}" ${attrs} value="${escapeHtml(value)}"${error ? ' aria-invalid="true"' : ''}${described ? ` aria-describedby="${described}"` : ''}>${error ? `<p class="field-error" id="${name}-error">${escapeHtml(error)}</p>` : ''}</div>`;
}

/**
 * What an offer with intro pricing charges, in order (processor/intro.ts): the intro price today
 * and for the rest of its `periods` charges, then the regular price (`amountCents`, the session's).
 * A one-charge intro is the intro price alone: the price line beside it says what follows.
 */
export function introSchedule(
  view: Pick<HostedCheckoutView, 'kind' | 'intro' | 'interval' | 'currency'>,
  amountCents: number,
  t: Translator = EN,
): string | null {
  if (view.kind !== 'subscription' || !view.intro) return null;
  const interval = view.interval ?? 'monthly';
  if (view.intro.periods <= 1) return t.money(view.intro.amountCents, view.currency);
  return t.t('checkout.intro', {
    today: t.money(view.intro.amountCents, view.currency),
    intro: perPeriod(t, view.intro.amountCents, view.currency, interval),
    count: view.intro.periods - 1,
    interval,
    regular: perPeriod(t, amountCents, view.currency, interval),
  });
}

/** What the buyer pays today: the intro price when the offer has one, else the session's price. */
const dueToday = (view: Pick<HostedCheckoutView, 'kind' | 'intro'>, amountCents: number) =>
  view.kind === 'subscription' && view.intro && view.intro.amountCents < amountCents ? view.intro.amountCents : amountCents;

/** The order summary card shared by the checkout and the thank-you page. */
export function summaryCard(view: HostedCheckoutView, amountCents: number, heading?: string, t: Translator = EN): string {
  const image = view.imageUrl ? `<img src="${escapeHtml(view.imageUrl)}" alt="${escapeHtml(view.productName)}">` : '';
  // A taken upsell is on top of the product's price; the code's saving is the product's alone.
  const extra = view.upsell?.taken ? view.upsell.amountCents : 0;
  const discounted = view.discountCode && amountCents - extra < view.originalAmountCents;
  const trial =
    view.kind === 'subscription' && view.trialDays
      ? `<p class="badge" id="trial">${t.html('checkout.trial', { days: view.trialDays, price: priceLine(view, amountCents, t) })}</p>`
      : '';
  const introLine = introSchedule(view, amountCents, t);
  const intro = introLine ? `<p class="badge" id="intro"><strong>${t.html('checkout.introLabel')}</strong> ${escapeHtml(introLine)}.</p>` : '';
  return `<section class="card" aria-labelledby="summary-heading">
<h2 id="summary-heading">${escapeHtml(heading ?? t.t('checkout.summary'))}</h2>
<div class="product">${image}<div>
<h1>${escapeHtml(view.productName)}</h1>
${view.description ? `<p id="description">${escapeHtml(view.description)}</p>` : ''}
${view.quantity !== null ? `<p id="quantity">${t.html('checkout.quantity', { quantity: view.quantity })}</p>` : ''}
</div></div>
${view.lines ? `<table class="lines" id="lines"><caption class="sr-only">${t.html('checkout.yourOrder')}</caption>${view.lines.map((l) => `<tr><th scope="row">${escapeHtml(l.productName)}</th><td>${escapeHtml(t.money(l.amountCents, view.currency))}</td></tr>`).join('')}<tr><th scope="row">${t.html('checkout.total')}</th><td id="total">${escapeHtml(t.money(amountCents, view.currency))}</td></tr></table>` : ''}
<p class="price" id="price">${discounted ? `<span class="was"><span class="sr-only">${t.html('checkout.was')} </span>${escapeHtml(priceLine(view, view.originalAmountCents + extra, t))}</span><span class="sr-only">${t.html('checkout.now')} </span>` : ''}${escapeHtml(priceLine(view, amountCents, t))}</p>
${trial}${intro}
${discounted ? `<p id="discount-applied">${t.html('checkout.youSave', { code: { __html: `<strong>${escapeHtml(view.discountCode!)}</strong>` }, amount: t.money(view.originalAmountCents + extra - amountCents, view.currency) })}</p>` : ''}
${view.kind === 'subscription' ? `<p class="muted">${t.html('checkout.renews', { interval: view.interval ?? 'other' })}</p>` : ''}
</section>`;
}

/**
 * The upsell offered with the product: its name, description and price, and one button in the
 * checkout form (a plain submit, no script) that adds it to the order or takes it off again.
 */
function upsellCard(view: HostedCheckoutView, t: Translator): string {
  const u = view.upsell;
  if (!u) return '';
  const price = t.money(u.amountCents, view.currency);
  const was =
    u.regularCents > u.amountCents
      ? ` <span class="was"><span class="sr-only">${t.html('checkout.regularPrice')} </span>${escapeHtml(t.money(u.regularCents, view.currency))}</span>`
      : '';
  return `<section class="upsell" id="upsell" aria-labelledby="upsell-heading">
<h2 id="upsell-heading">${t.html(u.taken ? 'checkout.upsellAdded' : 'checkout.upsellAdd')}</h2>
<p><strong id="upsell-name">${escapeHtml(u.productName)}</strong>: <span id="upsell-price">${escapeHtml(price)}</span>${was}</p>
${u.description ? `<p class="muted" id="upsell-description">${escapeHtml(u.description)}</p>` : ''}
${u.taken ? `<button type="submit" name="intent" value="upsell-remove" formnovalidate id="upsell-remove">${t.html('checkout.upsellRemove', { product: u.productName })}</button>` : `<button type="submit" name="intent" value="upsell-add" formnovalidate id="upsell-add">${t.html('checkout.upsellAddFor', { product: u.productName, price })}</button>`}
</section>`;
}

/** The page's error banner: the form's error, or how many fields are marked below. */
function formAlert(state: { error?: string; fieldErrors?: Record<string, string> }, t: Translator): string {
  const problems = state.fieldErrors ? Object.keys(state.fieldErrors).length : 0;
  if (state.error) return `<div class="alert" role="alert" id="error">${escapeHtml(state.error)}</div>`;
  return problems ? `<div class="alert" role="alert" id="error">${t.html('checkout.fixFields', { count: problems })}</div>` : '';
}

/** The sandbox's hosted checkout page: branded, one form, no script, no external asset. */
/**
 * Pay what you want: the amount field, prefilled with the suggestion (or what the buyer typed),
 * with the minimum said in words.
 */
function amountField(view: HostedCheckoutView, state: CheckoutPageState, t: Translator): string {
  const p = view.payWhatYouWant;
  if (!p) return '';
  const values = { ...state.values, amount: state.values?.amount ?? (p.chosenCents / 100).toFixed(2) };
  const hint =
    p.minimumCents > 0
      ? t.t('checkout.pwywHintMinimum', { suggested: t.money(p.suggestedCents, view.currency), minimum: t.money(p.minimumCents, view.currency) })
      : t.t('checkout.pwywHintAny', { suggested: t.money(p.suggestedCents, view.currency) });
  return field(
    'amount',
    t.t('checkout.pwywLabel', { currency: view.currency }),
    { ...state, values },
    'type="text" inputmode="decimal" autocomplete="off" maxlength="12" required aria-required="true"',
    { hint },
  );
}

export function checkoutPage(
  brand: SellerBrand,
  view: HostedCheckoutView,
  checkout: SandboxCheckout,
  baseUrl: string,
  state: CheckoutPageState = {},
  t: Translator = EN,
): BuyerPage {
  // A pay-what-you-want checkout keeps the card fields: the buyer may raise a free amount.
  const free = checkout.amountCents === 0 && !view.payWhatYouWant;
  const page = `/processor/sandbox/checkout/${escapeHtml(checkout.id)}`;
  // An explicit choice of language is kept on the form's address, so its answer speaks it too.
  const action = state.lang ? `${page}?lang=${encodeURIComponent(t.locale)}` : page;
  const alert = formAlert(state, t);
  const notice = state.notice ? `<div class="ok" role="status" id="notice">${escapeHtml(state.notice)}</div>` : '';
  const testNote = view.testMode
    ? `<p class="test" id="test-cards"><strong>${t.html('page.testMode')}</strong>: ${t.html('checkout.testCards', { pays: { __html: '<strong>4242 4242 4242 4242</strong>' }, declined: { __html: '<strong>4000 0000 0000 0002</strong>' } })}</p>`
    : '';
  const paid = checkout.status === 'paid';
  const values = { ...state.values, email: state.values?.email ?? view.customerEmail ?? '' };
  const s = { ...state, values };
  const body = paid
    ? `${summaryCard(view, checkout.amountCents, undefined, t)}<section class="card"><p id="paid">${t.html('checkout.alreadyPaid')}</p><p><a href="${page}/thanks">${t.html('checkout.seeOrder')}</a></p></section>`
    : `${summaryCard(view, checkout.amountCents, undefined, t)}
<form class="card" method="post" enctype="multipart/form-data" action="${action}" novalidate aria-labelledby="pay-heading">
<h2 id="pay-heading">${t.html(free ? 'checkout.yourDetails' : 'checkout.pay')}</h2>
${alert}${notice}
${upsellCard(view, t)}
${amountField(view, s, t)}
${view.payWhatYouWant ? '' : `<div class="inline">${field('discountCode', t.t('checkout.discountCode'), s, 'type="text" autocomplete="off" maxlength="100"', { keep: true })}<button type="submit" name="intent" value="discount" formnovalidate id="apply">${t.html('checkout.apply')}</button></div>`}
${field('email', t.t('checkout.email'), s, 'type="email" required autocomplete="email" aria-required="true"', { hint: t.t('checkout.emailHint') })}
<div class="row">${field('firstName', t.t('checkout.firstName'), s, 'type="text" autocomplete="given-name" maxlength="100"')}${field('lastName', t.t('checkout.lastName'), s, 'type="text" autocomplete="family-name" maxlength="100"')}</div>
${field('country', t.t('checkout.country'), s, 'type="text" autocomplete="country" maxlength="2" pattern="[A-Za-z]{2}"', { hint: t.t('checkout.countryHint') })}
${
  free
    ? ''
    : `<fieldset class="plain"><legend><h2>${t.html('checkout.card')}</h2></legend>${testNote}${view.payWhatYouWant && view.payWhatYouWant.minimumCents === 0 ? `<p class="muted">${t.html('checkout.pwywCardOptional')}</p>` : ''}
${field('cardNumber', t.t('card.number'), s, 'type="text" inputmode="numeric" autocomplete="cc-number" required aria-required="true" maxlength="23"', { keep: false })}
<div class="row">${field('expiry', t.t('card.expiry'), s, 'type="text" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" required aria-required="true" maxlength="7"', { keep: false })}${field('cvc', t.t('card.cvc'), s, 'type="text" inputmode="numeric" autocomplete="cc-csc" required aria-required="true" maxlength="4"', { keep: false })}</div></fieldset>`
}
${checkout.offerSaveCard ? `<p><label><input type="checkbox" name="saveCard" value="true"> ${t.html('checkout.saveCard')}</label></p>` : ''}
${optInBox(state)}
<button type="submit" name="intent" value="pay" class="primary" id="pay">${free ? t.html('checkout.getFree') : view.payWhatYouWant ? t.html('checkout.pay') : view.kind === 'subscription' && view.trialDays ? t.html('checkout.payAndTrial') : t.html('checkout.payAmount', { amount: t.money(dueToday(view, checkout.amountCents), view.currency) })}</button>
<p><a href="${escapeHtml(checkout.cancelUrl)}" id="cancel">${t.html('checkout.cancel')}</a></p>
</form>`;
  return buyerPage({ brand, title: t.t('checkout.title', { product: view.productName }), baseUrl, body: `${languageLinks(page, t)}${body}`, locale: t.locale });
}

/** Links to the page in each language (the buyer's explicit choice, `?lang=`). */
function languageLinks(page: string, t: Translator): string {
  const links = LOCALES.map((l) =>
    l === t.locale
      ? `<strong lang="${l}">${escapeHtml(LOCALE_NAMES[l])}</strong>`
      : `<a href="${page}?lang=${encodeURIComponent(l)}" lang="${l}" hreflang="${l}">${escapeHtml(LOCALE_NAMES[l])}</a>`,
  );
  return `<nav class="muted" id="languages" aria-label="${t.html('page.language')}">${links.join(' · ')}</nav>`;
}

/** Where the buyer goes after the thank-you page: successUrl with `session_id` appended. */
export function successAddress(successUrl: string, sessionId: string): string {
  try {
    const url = new URL(successUrl);
    url.searchParams.set('session_id', sessionId);
    return url.toString();
  } catch {
    return successUrl;
  }
}

/** The order's licence keys, to copy into the app. */
function licenseSection(keys: { key: string; status: string }[], t: Translator): string {
  if (!keys.length) return '';
  const status = (s: string) => (['revoked', 'refunded', 'expired'].includes(s) ? t.t(`thanks.licenseStatus.${s}` as 'thanks.licenseStatus.revoked') : s);
  return `<section class="card" aria-labelledby="keys-heading"><h2 id="keys-heading">${t.html('thanks.licenseKeys', { count: keys.length })}</h2><ul id="license-keys">${keys
    .map(
      (k) =>
        `<li><code class="license-key">${escapeHtml(k.key)}</code>${k.status === 'active' ? '' : ` <span class="muted">(${escapeHtml(status(k.status))})</span>`}</li>`,
    )
    .join('')}</ul><p class="muted">${t.html('thanks.licenseInReceipt', { count: keys.length })}</p></section>`;
}

export function thankYouPage(
  brand: SellerBrand,
  view: HostedCheckoutView,
  checkout: SandboxCheckout,
  baseUrl: string,
  buyerEmail: string | null,
  downloads: OrderDownload[] = [],
  licenseKeys: { key: string; status: string }[] = [],
  pending = false,
  t: Translator = EN,
): BuyerPage {
  const files = downloads.length
    ? `<section class="card" aria-labelledby="downloads-heading"><h2 id="downloads-heading">${t.html('thanks.downloads')}</h2><ul id="downloads">${downloads
        .map((d) => `<li><a href="${escapeHtml(d.url)}" download>${escapeHtml(d.name)}</a> <span class="muted">(${escapeHtml(t.size(d.size))})</span></li>`)
        .join('')}</ul><p class="muted">${t.html('thanks.linkValid')}</p></section>`
    : '';
  // The payment is taken; the order is recorded a moment later. The page looks again by itself.
  const preparing = pending
    ? `<section class="card" id="preparing" role="status"><p>${t.html('thanks.preparing')} <a href="">${t.html('thanks.refresh')}</a></p></section>`
    : '';
  const body = `<section class="card" aria-labelledby="thanks-heading">
<h1 id="thanks-heading">${t.html('thanks.heading')}</h1>
<p id="confirmation">${t.html(view.kind === 'subscription' ? 'thanks.subscriptionActive' : 'thanks.orderComplete')}${buyerEmail ? ` ${t.html('thanks.receiptTo', { email: { __html: `<strong>${escapeHtml(buyerEmail)}</strong>` } })}` : ''}</p>
</section>
${preparing}${files}${licenseSection(licenseKeys, t)}
${summaryCard(view, checkout.amountCents, t.t('thanks.whatYouBought'), t)}
<section class="card"><a class="button" id="continue" href="${escapeHtml(successAddress(view.successUrl, view.sessionId))}">${t.html('thanks.continue', { seller: brand.name })}</a></section>`;
  const built = buyerPage({ brand, title: t.t('thanks.title'), baseUrl, body, locale: t.locale });
  return pending ? { ...built, headers: { ...built.headers, refresh: '2' } } : built;
}

export function notFoundPage(t: Translator = EN): string {
  return `<!doctype html><html lang="${t.locale}"><head><meta charset="utf-8"><title>${t.html('checkout.notFoundTitle')}</title></head><body><main><h1>${t.html('checkout.notFound')}</h1></main></body></html>`;
}

export interface CardUpdatePageInput {
  membership: {
    amountCents: number;
    currency: string;
    interval: 'weekly' | 'monthly' | 'yearly';
    status: string;
    card: { brand: string; last4: string } | null;
  };
  action: string;
  returnUrl: string;
  testMode: boolean;
  state?: CheckoutPageState;
}

/** The sandbox's card-update page: the membership's price and current card, and the new card's fields. */
export function cardUpdatePage(brand: SellerBrand, baseUrl: string, input: CardUpdatePageInput, t: Translator = EN): BuyerPage {
  const state = input.state ?? {};
  const { membership: m } = input;
  const alert = formAlert(state, t);
  const overdue =
    m.status === 'past_due' ? `<p class="alert" id="overdue">${t.html('cardUpdate.overdue', { amount: t.money(m.amountCents, m.currency) })}</p>` : '';
  const testNote = input.testMode
    ? `<p class="test" id="test-cards"><strong>${t.html('page.testMode')}</strong>: ${t.html('cardUpdate.testCards', { accepted: { __html: '<strong>4242 4242 4242 4242</strong>' }, declined: { __html: '<strong>4000 0000 0000 0002</strong>' } })}</p>`
    : '';
  const body = `<section class="card" aria-labelledby="update-heading">
<h1 id="update-heading">${t.html('cardUpdate.title')}</h1>
<p class="price">${escapeHtml(perPeriod(t, m.amountCents, m.currency, m.interval))}</p>
<p id="current-card">${m.card ? t.html('cardUpdate.onFile', { brand: m.card.brand, last4: m.card.last4 }) : t.html('cardUpdate.noCard')}</p>
${overdue}
</section>
<form class="card" method="post" enctype="multipart/form-data" action="${escapeHtml(input.action)}" novalidate aria-labelledby="card-heading">
<h2 id="card-heading">${t.html('cardUpdate.newCard')}</h2>
${alert}${testNote}
${field('cardNumber', t.t('card.number'), state, 'type="text" inputmode="numeric" autocomplete="cc-number" required aria-required="true" maxlength="23"', { keep: false })}
<div class="row">${field('expiry', t.t('card.expiry'), state, 'type="text" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" required aria-required="true" maxlength="7"', { keep: false })}${field('cvc', t.t('card.cvc'), state, 'type="text" inputmode="numeric" autocomplete="cc-csc" required aria-required="true" maxlength="4"', { keep: false })}</div>
<button type="submit" class="primary" id="save-card">${t.html('cardUpdate.save')}</button>
<p><a href="${escapeHtml(input.returnUrl)}" id="back">${t.html('checkout.cancel')}</a></p>
</form>`;
  return buyerPage({ brand, title: t.t('cardUpdate.title'), baseUrl, body, locale: t.locale });
}

/** After the update (or for a used or expired link): what happened and the way back. */
export function cardUpdateDonePage(
  brand: SellerBrand,
  baseUrl: string,
  input: { heading: string; message: string; returnUrl: string | null },
  t: Translator = EN,
): BuyerPage {
  const body = `<section class="card" aria-labelledby="done-heading">
<h1 id="done-heading">${escapeHtml(input.heading)}</h1>
<p id="card-result" role="status">${escapeHtml(input.message)}</p>
${input.returnUrl ? `<a class="button" id="return" href="${escapeHtml(input.returnUrl)}">${t.html('cardUpdate.back')}</a>` : ''}
</section>`;
  return buyerPage({ brand, title: input.heading, baseUrl, body, locale: t.locale });
}
