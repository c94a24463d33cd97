import * as z from '../../platform/zod';
import { sellerBrand } from '../../account/branding';
import type { BuyerPage } from '../../account/buyer-page';
import { hostedCheckoutView, sessionAmountChange, sessionDiscountChange, sessionUpsellChange } from '../../checkout/hosted-view';
import { isConditionFailed } from '../../store/conditional';
import { paymentClaimFor, sessionSaleId, withMarketingConsent } from '../../checkout/service';
import { checkoutOptInFor } from '../../email/seller-settings';
import { deliverablesOfSale } from '../../sales/service';
import type { Deps } from '../../platform/context';
import { ApiError } from '../../platform/errors';
import { ProcessorError } from '../../processor/port';
import { checkCard } from './card-fields';
import { checkoutPage, notFoundPage, thankYouPage, type CheckoutPageState } from './page';
import type { SellerBrand } from '../../account/branding';
import { checkoutBuyerLocale } from '../../checkout/hosted-view';
import { noteCheckoutBuyer } from '../../checkout/recovery';
import { matchLocale, negotiateLocale } from '../../platform/i18n/locales';
import { loadTranslator, type Translator } from '../../platform/i18n/translator';
import { checkoutRepriced } from './repository';
import type { SandboxCheckout } from './records';
import type { SandboxProcessor } from './sandbox';

const text = (max: number) => z.optional(z.coerce.string().check(z.trim(), z.maxLength(max)));

const payForm = z.object({
  intent: z.optional(z.enum(['pay', 'discount', 'upsell-add', 'upsell-remove'])),
  // The form decoder turns digit-only fields into numbers; a card number is text.
  email: text(320),
  firstName: text(100),
  lastName: text(100),
  country: text(10),
  discountCode: text(100),
  // Pay what you want: the amount the buyer names, in major units ("12", "12.50", "$12").
  amount: text(20),
  cardNumber: text(40),
  expiry: text(10),
  cvc: text(10),
  saveCard: z.optional(z.union([z.boolean(), z.string()])),
  marketingOptIn: z.optional(z.union([z.boolean(), z.string()])),
});

export type HostedCheckoutOutcome =
  | { kind: 'redirect'; location: string }
  | { kind: 'page'; status: number; page: BuyerPage }
  | { kind: 'missing'; html: string };

type PageDeps = Pick<Deps, 'store' | 'clock' | 'config' | 'ports'>;

/** What a request says about the buyer's language: `?lang=` and the browser's Accept-Language. */
export interface PageLanguage {
  query?: string;
  acceptLanguage?: string;
}

/** ?lang=, the language saved on this checkout, Accept-Language, the seller's default, English. */
const pageTranslator = (lang: PageLanguage, saved: string | null | undefined, brand: SellerBrand): Promise<Translator> =>
  loadTranslator(negotiateLocale({ query: lang.query, saved, acceptLanguage: lang.acceptLanguage, sellerDefault: brand.locale }));

async function render(
  deps: PageDeps,
  checkout: SandboxCheckout,
  baseUrl: string,
  status: number,
  state: CheckoutPageState = {},
  lang: PageLanguage = {},
  chosen?: Translator,
): Promise<HostedCheckoutOutcome> {
  const view = await hostedCheckoutView(deps, checkout.scope, checkout.sessionId, baseUrl);
  if (!view) return { kind: 'missing', html: notFoundPage(await loadTranslator(negotiateLocale(lang))) };
  const [brand, optInFor] = await Promise.all([sellerBrand(deps, checkout.scope, baseUrl), checkoutOptInFor(deps, checkout.scope)]);
  const t = chosen ?? (await pageTranslator(lang, view.buyerLocale, brand));
  return {
    kind: 'page',
    status,
    page: checkoutPage(brand, view, checkout, baseUrl, { ...state, optIn: optInFor?.(t.locale) ?? null, lang: Boolean(matchLocale(lang.query)) }, t),
  };
}

export async function showHostedCheckout(
  deps: PageDeps,
  sandbox: SandboxProcessor,
  checkoutId: string,
  baseUrl: string,
  lang: PageLanguage = {},
): Promise<HostedCheckoutOutcome> {
  const checkout = await sandbox.getCheckout(checkoutId);
  return checkout ? render(deps, checkout, baseUrl, 200, {}, lang) : { kind: 'missing', html: notFoundPage(await loadTranslator(negotiateLocale(lang))) };
}

export async function showThankYou(
  deps: PageDeps,
  sandbox: SandboxProcessor,
  checkoutId: string,
  baseUrl: string,
  lang: PageLanguage = {},
): Promise<HostedCheckoutOutcome> {
  const checkout = await sandbox.getCheckout(checkoutId);
  if (!checkout) return { kind: 'missing', html: notFoundPage(await loadTranslator(negotiateLocale(lang))) };
  if (checkout.status !== 'paid') return { kind: 'redirect', location: `/processor/sandbox/checkout/${checkout.id}` };
  const view = await hostedCheckoutView(deps, checkout.scope, checkout.sessionId, baseUrl);
  if (!view) return { kind: 'missing', html: notFoundPage(await loadTranslator(negotiateLocale(lang))) };
  // Fresh links per visit, bound to the order; the page itself is no-store. The order is recorded
  // when the processor's notification arrives: until then the page says so and looks again.
  const saleId = view.kind === 'one_time' ? await sessionSaleId(deps, checkout.scope, checkout.sessionId) : null;
  const delivered = saleId ? await deliverablesOfSale(deps, checkout.scope, saleId, baseUrl) : undefined;
  const pending = view.kind === 'one_time' && !saleId;
  const brand = await sellerBrand(deps, checkout.scope, baseUrl);
  return {
    kind: 'page',
    status: 200,
    page: thankYouPage(
      brand,
      view,
      checkout,
      baseUrl,
      null,
      delivered?.downloads ?? [],
      delivered?.licenseKeys ?? [],
      pending,
      await pageTranslator(lang, view.buyerLocale, brand),
    ),
  };
}

const EMAIL = z.email();

/** An amount as a buyer types it, in cents; undefined when it is not one. */
export function parseAmount(text: string): number | undefined {
  const cleaned = text.trim().replace(/^\$/, '').replace(/,/g, '').trim();
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(cleaned)) return undefined;
  const [whole, fraction = ''] = cleaned.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/**
 * A buyer's form post on the hosted checkout page: applies a discount code (and shows the page
 * again with the new total), or pays (or completes a free checkout) and sends the buyer to the
 * thank-you page; otherwise shows the page again with the reasons, keeping what was typed except
 * the card.
 */
export async function submitHostedCheckout(
  deps: PageDeps,
  sandbox: SandboxProcessor,
  checkoutId: string,
  body: Record<string, unknown>,
  baseUrl: string,
  lang: PageLanguage = {},
): Promise<HostedCheckoutOutcome> {
  const checkout = await sandbox.getCheckout(checkoutId);
  if (!checkout) return { kind: 'missing', html: notFoundPage(await loadTranslator(negotiateLocale(lang))) };
  const values = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)]));
  const form = payForm.safeParse(body);
  const t = await pageTranslator(lang, await checkoutBuyerLocale(deps, checkout.scope, checkout.sessionId), await sellerBrand(deps, checkout.scope, baseUrl));
  // What the page learns of its buyer: the address typed (an abandoned checkout can then be mailed)
  // and the language read (their receipt speaks it). A payment attempt sets no timer unless it fails.
  const typed = form.success && form.data.email && EMAIL.safeParse(form.data.email).success ? form.data.email : undefined;
  const paying = !form.success || !form.data.intent || form.data.intent === 'pay';
  const note = (recover: boolean) => noteCheckoutBuyer(deps, checkout.scope, checkout.sessionId, { email: typed, locale: t.locale, recover });
  const again = async (status: number, state: CheckoutPageState) => {
    if (paying) await note(true);
    return render(deps, checkout, baseUrl, status, { values, ...state }, lang, t);
  };
  if (!form.success) return again(400, { error: form.error.issues[0]!.message });
  if (checkout.status === 'paid') return { kind: 'redirect', location: `/processor/sandbox/checkout/${checkout.id}/thanks` };
  await note(!paying);

  if (form.data.intent === 'discount') {
    const code = form.data.discountCode ?? '';
    if (!code) return again(400, { fieldErrors: { discountCode: t.t('checkout.enterCode') } });
    try {
      const change = await sessionDiscountChange(deps as Deps, checkout.scope, checkout.sessionId, code);
      await deps.store.transact([change.op, checkoutRepriced(checkout.id, change.amountCents)]);
      const fresh = (await sandbox.getCheckout(checkout.id))!;
      return render(
        deps,
        fresh,
        baseUrl,
        200,
        { values: { ...values, discountCode: change.code }, notice: t.t('checkout.codeApplied', { code: change.code }) },
        lang,
        t,
      );
    } catch (error) {
      if (error instanceof ApiError && error.status < 500)
        return again(error.status === 404 ? 400 : error.status, {
          fieldErrors: { discountCode: error.status === 404 ? t.t('checkout.codeUnknown') : error.message },
        });
      throw error;
    }
  }

  if (form.data.intent === 'upsell-add' || form.data.intent === 'upsell-remove') {
    const take = form.data.intent === 'upsell-add';
    try {
      const change = await sessionUpsellChange(deps, checkout.scope, checkout.sessionId, take);
      await deps.store.transact([change.op, checkoutRepriced(checkout.id, change.amountCents)]);
      const fresh = (await sandbox.getCheckout(checkout.id))!;
      return render(
        deps,
        fresh,
        baseUrl,
        200,
        { values, notice: take && change.line ? t.t('checkout.upsellAddedNotice', { product: change.line.productName }) : t.t('checkout.upsellRemovedNotice') },
        lang,
        t,
      );
    } catch (error) {
      if (isConditionFailed(error)) return again(409, { error: t.t('checkout.orderChanged') });
      if (error instanceof ApiError && error.status < 500) return again(error.status, { error: error.message });
      throw error;
    }
  }

  let current = checkout;
  const view = await hostedCheckoutView(deps, checkout.scope, checkout.sessionId, baseUrl);
  if (view?.payWhatYouWant) {
    const cents = parseAmount(form.data.amount ?? '');
    if (cents === undefined) return again(400, { fieldErrors: { amount: t.t('checkout.pwywEnterAmount') } });
    if (cents !== view.payWhatYouWant.chosenCents) {
      try {
        const change = await sessionAmountChange(deps, checkout.scope, checkout.sessionId, cents);
        await deps.store.transact([change.op, checkoutRepriced(checkout.id, change.amountCents)]);
        current = (await sandbox.getCheckout(checkout.id))!;
      } catch (error) {
        if (isConditionFailed(error)) return again(409, { error: t.t('checkout.orderChanged') });
        if (error instanceof ApiError && error.status < 500) return again(400, { fieldErrors: { amount: error.message } });
        throw error;
      }
    }
  }

  const fieldErrors: Record<string, string> = {};
  const email = form.data.email ?? '';
  if (!email) fieldErrors.email = t.t('checkout.enterEmail');
  else if (!EMAIL.safeParse(email).success) fieldErrors.email = t.t('checkout.invalidEmail');
  const country = form.data.country?.toUpperCase() || undefined;
  if (country && !/^[A-Z]{2}$/.test(country)) fieldErrors.country = t.t('checkout.countryFormat');
  const free = current.amountCents === 0;
  const card = free ? { errors: {} } : checkCard(form.data, deps.clock.now(), t);
  Object.assign(fieldErrors, card.errors);
  if (Object.keys(fieldErrors).length) {
    if (paying) await note(true);
    return render(deps, current, baseUrl, 400, { values, fieldErrors }, lang, t);
  }

  const buyer = { email, firstName: form.data.firstName || undefined, lastName: form.data.lastName || undefined, country };
  const ticked = [true, 'true', 'on'].includes(form.data.marketingOptIn as string | boolean);
  const claim = await withMarketingConsent(
    deps,
    checkout.scope,
    checkout.sessionId,
    await paymentClaimFor(deps, checkout.scope, checkout.sessionId),
    ticked,
    t.locale,
  );
  try {
    const result = free
      ? await sandbox.completeFreeCheckout(current.id, buyer, claim)
      : await sandbox.payCheckout(current.id, {
          buyer,
          cardNumber: card.number,
          saveCard: form.data.saveCard === true || form.data.saveCard === 'true' || form.data.saveCard === 'on',
          claim,
        });
    if (result.status === 'declined') return again(402, { error: t.t('checkout.declined') });
    return { kind: 'redirect', location: `/processor/sandbox/checkout/${checkout.id}/thanks` };
  } catch (error) {
    if (error instanceof ProcessorError)
      return again(error.reason ? 409 : 400, error.code === 'invalid' ? { fieldErrors: { cardNumber: error.message } } : { error: error.message });
    throw error;
  }
}
