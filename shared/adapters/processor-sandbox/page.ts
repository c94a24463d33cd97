import type { SellerBrand } from '../../account/branding';
import { buyerPage, escapeHtml as escape, formatMoney, perInterval, type BuyerPage } from '../../account/buyer-page';
import type { HostedCheckoutView } from '../../checkout/hosted-view';
import type { SandboxCheckout } from './records';

export interface CheckoutPageState {
  /** A problem with the whole form (decline, closed checkout). */
  error?: string;
  /** Problems by field name. */
  fieldErrors?: Record<string, string>;
  /** A confirmation (the code was applied). */
  notice?: string;
  /** What the buyer typed, shown again (never the card fields). */
  values?: Record<string, string>;
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
  return `<p class="opt-in"><label><input type="checkbox" name="marketingOptIn" id="marketingOptIn" value="on"${ticked ? ' checked' : ''}> ${escape(state.optIn.wording)}</label></p>`;
}

const priceLine = (view: HostedCheckoutView, amountCents: number) => {
  if (amountCents === 0 && view.kind === 'one_time') return 'Free';
  return `${formatMoney(amountCents, view.currency)}${view.kind === 'subscription' ? perInterval(view.interval) : ''}`;
};

function field(name: string, label: string, state: CheckoutPageState, attrs: string, options: { keep?: boolean; hint?: string } = {}): string {
  const error = state.fieldErrors?.[name];
  const described = [options.hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
  const value = options.keep === false ? '' : (state.values?.[name] ?? '');
  return `<div><label for="${name}">${label}</label>${options.hint ? `<p class="muted" id="${name}-hint">${options.hint}</p>` : ''}<input id="${name}" name="${name}" ${attrs} value="${escape(value)}"${error ? ' aria-invalid="true"' : ''}${described ? ` aria-describedby="${described}"` : ''}>${error ? `<p class="field-error" id="${name}-error">${escape(error)}</p>` : ''}</div>`;
}

const PERIOD_WORD = { weekly: 'week', monthly: 'month', yearly: 'year' } as const;

/**
 * What an offer with intro pricing charges, in order: today's charge (the session's price, after
 * any code), then the intro price for each of the next `periods` renewals, then the regular
 * renewal price again (retention's intro-yearly.ts: the processor charges the override for that
 * many renewals).
 */
export function introSchedule(view: Pick<HostedCheckoutView, 'kind' | 'intro' | 'interval' | 'currency'>, amountCents: number): string | null {
  if (view.kind !== 'subscription' || !view.intro) return null;
  const word = PERIOD_WORD[view.interval ?? 'monthly'];
  const n = view.intro.periods;
  const per = perInterval(view.interval ?? 'monthly');
  return `${formatMoney(amountCents, view.currency)} today, then ${formatMoney(view.intro.amountCents, view.currency)}${per} for the next ${n === 1 ? word : `${n} ${word}s`}, then ${formatMoney(amountCents, view.currency)}${per}`;
}

/** The order summary card shared by the checkout and the thank-you page. */
export function summaryCard(view: HostedCheckoutView, amountCents: number, heading = 'Order summary'): string {
  const image = view.imageUrl ? `<img src="${escape(view.imageUrl)}" alt="${escape(view.productName)}">` : '';
  // A taken upsell is on top of the product's price; the code's saving is the product's alone.
  const extra = view.upsell?.taken ? view.upsell.amountCents : 0;
  const discounted = view.discountCode && amountCents - extra < view.originalAmountCents;
  const trial = view.kind === 'subscription' && view.trialDays ? `<p class="badge" id="trial">${view.trialDays}-day free trial, then ${escape(priceLine(view, amountCents))}</p>` : '';
  const introLine = introSchedule(view, amountCents);
  const intro = introLine ? `<p class="badge" id="intro"><strong>Intro price:</strong> ${escape(introLine)}.</p>` : '';
  return `<section class="card" aria-labelledby="summary-heading">
<h2 id="summary-heading">${escape(heading)}</h2>
<div class="product">${image}<div>
<h1>${escape(view.productName)}</h1>
${view.description ? `<p id="description">${escape(view.description)}</p>` : ''}
${view.quantity !== null ? `<p id="quantity">Quantity: ${view.quantity}</p>` : ''}
</div></div>
${view.lines ? `<table class="lines" id="lines"><caption class="sr-only">Your order</caption>${view.lines.map((l) => `<tr><th scope="row">${escape(l.productName)}</th><td>${escape(formatMoney(l.amountCents, view.currency))}</td></tr>`).join('')}<tr><th scope="row">Total</th><td id="total">${escape(formatMoney(amountCents, view.currency))}</td></tr></table>` : ''}
<p class="price" id="price">${discounted ? `<span class="was"><span class="sr-only">Was </span>${escape(priceLine(view, view.originalAmountCents + extra))}</span><span class="sr-only">Now </span>` : ''}${escape(priceLine(view, amountCents))}</p>
${trial}${intro}
${discounted ? `<p id="discount-applied">Code <strong>${escape(view.discountCode!)}</strong>: you save ${escape(formatMoney(view.originalAmountCents + extra - amountCents, view.currency))}</p>` : ''}
${view.kind === 'subscription' ? `<p class="muted">Renews every ${escape(perInterval(view.interval).slice(3) || 'period')} until you cancel. You can cancel any time from the link in your receipt.</p>` : ''}
</section>`;
}

/**
 * The upsell offered with the product: its name, description and price, and one button in the
 * checkout form (a plain submit, no script) that adds it to the order or takes it off again.
 */
function upsellCard(view: HostedCheckoutView): string {
  const u = view.upsell;
  if (!u) return '';
  const price = formatMoney(u.amountCents, view.currency);
  const was = u.regularCents > u.amountCents ? ` <span class="was"><span class="sr-only">Regular price </span>${escape(formatMoney(u.regularCents, view.currency))}</span>` : '';
  return `<section class="upsell" id="upsell" aria-labelledby="upsell-heading">
<h2 id="upsell-heading">${u.taken ? 'Added to your order' : 'Add to your order'}</h2>
<p><strong id="upsell-name">${escape(u.productName)}</strong>: <span id="upsell-price">${escape(price)}</span>${was}</p>
${u.description ? `<p class="muted" id="upsell-description">${escape(u.description)}</p>` : ''}
${u.taken ? `<button type="submit" name="intent" value="upsell-remove" formnovalidate id="upsell-remove">Remove ${escape(u.productName)}</button>` : `<button type="submit" name="intent" value="upsell-add" formnovalidate id="upsell-add">Add ${escape(u.productName)} for ${escape(price)}</button>`}
</section>`;
}

/** The page's error banner: the form's error, or how many fields are marked below. */
function formAlert(state: { error?: string; fieldErrors?: Record<string, string> }): string {
  const problems = state.fieldErrors ? Object.keys(state.fieldErrors).length : 0;
  if (state.error) return `<div class="alert" role="alert" id="error">${escape(state.error)}</div>`;
  return problems ? `<div class="alert" role="alert" id="error">Please correct ${problems === 1 ? 'the field' : `the ${problems} fields`} marked below.</div>` : '';
}

/** The sandbox's hosted checkout page: branded, one form, no script, no external asset. */
export function checkoutPage(brand: SellerBrand, view: HostedCheckoutView, checkout: SandboxCheckout, baseUrl: string, state: CheckoutPageState = {}): BuyerPage {
  const free = checkout.amountCents === 0;
  const action = `/processor/sandbox/checkout/${escape(checkout.id)}`;
  const alert = formAlert(state);
  const notice = state.notice ? `<div class="ok" role="status" id="notice">${escape(state.notice)}</div>` : '';
  const testNote = view.testMode
    ? `<p class="test" id="test-cards"><strong>Test mode</strong>: no real money moves. Card <strong>4242 4242 4242 4242</strong> pays, <strong>4000 0000 0000 0002</strong> is declined; any future expiry date and any 3 digits work.</p>`
    : '';
  const paid = checkout.status === 'paid';
  const body = paid
    ? `${summaryCard(view, checkout.amountCents)}<section class="card"><p id="paid">This checkout is already paid.</p><p><a href="${action}/thanks">See your order</a></p></section>`
    : `${summaryCard(view, checkout.amountCents)}
<form class="card" method="post" enctype="multipart/form-data" action="${action}" novalidate aria-labelledby="pay-heading">
<h2 id="pay-heading">${free ? 'Your details' : 'Pay'}</h2>
${alert}${notice}
${upsellCard(view)}
<div class="inline">${field('discountCode', 'Discount code', state, 'type="text" autocomplete="off" maxlength="100"', { keep: true })}<button type="submit" name="intent" value="discount" formnovalidate id="apply">Apply</button></div>
${field('email', 'Email', state, 'type="email" required autocomplete="email" aria-required="true"', { hint: 'Your receipt is sent here.' })}
<div class="row">${field('firstName', 'First name', state, 'type="text" autocomplete="given-name" maxlength="100"')}${field('lastName', 'Last name', state, 'type="text" autocomplete="family-name" maxlength="100"')}</div>
${field('country', 'Country code', state, 'type="text" autocomplete="country" maxlength="2" pattern="[A-Za-z]{2}"', { hint: 'Two letters, for example US or FR.' })}
${
  free
    ? ''
    : `<fieldset class="plain"><legend><h2>Card</h2></legend>${testNote}
${field('cardNumber', 'Card number', state, 'type="text" inputmode="numeric" autocomplete="cc-number" required aria-required="true" maxlength="23"', { keep: false })}
<div class="row">${field('expiry', 'Expiry (MM/YY)', state, 'type="text" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" required aria-required="true" maxlength="7"', { keep: false })}${field('cvc', 'Security code', state, 'type="text" inputmode="numeric" autocomplete="cc-csc" required aria-required="true" maxlength="4"', { keep: false })}</div></fieldset>`
}
${checkout.offerSaveCard ? '<p><label><input type="checkbox" name="saveCard" value="true"> Save my card to top up my balance automatically</label></p>' : ''}
${optInBox(state)}
<button type="submit" name="intent" value="pay" class="primary" id="pay">${free ? 'Get it free' : `Pay ${escape(view.kind === 'subscription' && view.trialDays ? 'and start trial' : formatMoney(checkout.amountCents, view.currency))}`}</button>
<p><a href="${escape(checkout.cancelUrl)}" id="cancel">Cancel and go back</a></p>
</form>`;
  return buyerPage({ brand, title: `Checkout: ${view.productName}`, baseUrl, body });
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

const fileSize = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

export function thankYouPage(brand: SellerBrand, view: HostedCheckoutView, checkout: SandboxCheckout, baseUrl: string, buyerEmail: string | null, downloads: { filename: string; size: number; url: string }[] = []): BuyerPage {
  const files = downloads.length
    ? `<section class="card" aria-labelledby="downloads-heading"><h2 id="downloads-heading">Your downloads</h2><ul id="downloads">${downloads
        .map((d) => `<li><a href="${escape(d.url)}" download>${escape(d.filename)}</a> <span class="muted">(${escape(fileSize(d.size))})</span></li>`)
        .join('')}</ul><p class="muted">This link works for 24 hours; your receipt has its own.</p></section>`
    : '';
  const body = `<section class="card" aria-labelledby="thanks-heading">
<h1 id="thanks-heading">Thank you!</h1>
<p id="confirmation">Your ${view.kind === 'subscription' ? 'subscription is active' : 'order is complete'}.${buyerEmail ? ` A receipt is on its way to <strong>${escape(buyerEmail)}</strong>.` : ''}</p>
</section>
${files}
${summaryCard(view, checkout.amountCents, 'What you bought')}
<section class="card"><a class="button" id="continue" href="${escape(successAddress(view.successUrl, view.sessionId))}">Continue to ${escape(brand.name)}</a></section>`;
  return buyerPage({ brand, title: 'Thank you', baseUrl, body });
}

export function notFoundPage(): string {
  return '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout not found</title></head><body><main><h1>This checkout does not exist</h1></main></body></html>';
}

export interface CardUpdatePageInput {
  membership: { amountCents: number; currency: string; interval: 'weekly' | 'monthly' | 'yearly'; status: string; card: { brand: string; last4: string } | null };
  action: string;
  returnUrl: string;
  testMode: boolean;
  state?: CheckoutPageState;
}

/** The sandbox's card-update page: the membership's price and current card, and the new card's fields. */
export function cardUpdatePage(brand: SellerBrand, baseUrl: string, input: CardUpdatePageInput): BuyerPage {
  const state = input.state ?? {};
  const { membership: m } = input;
  const alert = formAlert(state);
  const overdue = m.status === 'past_due' ? `<p class="alert" id="overdue">Your last payment did not go through. The new card is charged ${escape(formatMoney(m.amountCents, m.currency))} right away.</p>` : '';
  const testNote = input.testMode
    ? `<p class="test" id="test-cards"><strong>Test mode</strong>: no real money moves. Card <strong>4242 4242 4242 4242</strong> is accepted, <strong>4000 0000 0000 0002</strong> is declined; any future expiry date and any 3 digits work.</p>`
    : '';
  const body = `<section class="card" aria-labelledby="update-heading">
<h1 id="update-heading">Update your card</h1>
<p class="price">${escape(formatMoney(m.amountCents, m.currency))}${escape(perInterval(m.interval))}</p>
<p id="current-card">${m.card ? `Card on file: ${escape(m.card.brand)} ending in ${escape(m.card.last4)}` : 'No card on file.'}</p>
${overdue}
</section>
<form class="card" method="post" enctype="multipart/form-data" action="${escape(input.action)}" novalidate aria-labelledby="card-heading">
<h2 id="card-heading">New card</h2>
${alert}${testNote}
${field('cardNumber', 'Card number', state, 'type="text" inputmode="numeric" autocomplete="cc-number" required aria-required="true" maxlength="23"', { keep: false })}
<div class="row">${field('expiry', 'Expiry (MM/YY)', state, 'type="text" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" required aria-required="true" maxlength="7"', { keep: false })}${field('cvc', 'Security code', state, 'type="text" inputmode="numeric" autocomplete="cc-csc" required aria-required="true" maxlength="4"', { keep: false })}</div>
<button type="submit" class="primary" id="save-card">Save card</button>
<p><a href="${escape(input.returnUrl)}" id="back">Cancel and go back</a></p>
</form>`;
  return buyerPage({ brand, title: 'Update your card', baseUrl, body });
}

/** After the update (or for a used or expired link): what happened and the way back. */
export function cardUpdateDonePage(brand: SellerBrand, baseUrl: string, input: { heading: string; message: string; returnUrl: string | null }): BuyerPage {
  const body = `<section class="card" aria-labelledby="done-heading">
<h1 id="done-heading">${escape(input.heading)}</h1>
<p id="card-result" role="status">${escape(input.message)}</p>
${input.returnUrl ? `<a class="button" id="return" href="${escape(input.returnUrl)}">Back to your subscription</a>` : ''}
</section>`;
  return buyerPage({ brand, title: input.heading, baseUrl, body });
}
