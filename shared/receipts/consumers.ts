import { sellerBrand, type SellerBrand } from '../account/branding';
import { withLanguage } from '../account/buyer-language';
import { negotiateLocale } from '../platform/i18n/locales';
import { loadTranslator } from '../platform/i18n/translator';
import { findCustomerOfEmail } from '../sales/lookups';
import { lookupOffer } from '../catalog/service';
import type { BusConsumer } from '../platform/capability';
import type { Deps } from '../platform/context';
import { toCents } from '../platform/money';
import type { Scope } from '../store/keys';
import { cardUpdateUrlFor, portalUrlOf } from '../subscriptions/lookups';
import { findSale } from '../sales/lookups';
import { surveyUrlForSale } from '../survey/service';
import { receiptAccessUrl } from '../product-files/links';
import { keysOfOrder } from '../licenses/service';
import { failedPaymentMail, receiptMail } from './mails';
import { sendSaleNotice } from './notice-consumers';
import { baseOf, boughtIds, obj, sendOnce, str } from './send';

/** The buyer's language as saved at their checkout, else the seller's default, else English. */
async function buyerTranslator(deps: Deps, scope: Scope, email: string, brand: SellerBrand) {
  const customer = await findCustomerOfEmail(deps, scope, email);
  return loadTranslator(negotiateLocale({ saved: customer?.locale, sellerDefault: brand.locale }));
}

/** A receipt for every order (one-time purchases, first subscription charges and renewals), and the owner's new-sale notice. */
export const receiptConsumer: BusConsumer = {
  name: 'buyer-receipts',
  // encryption: the order's licence keys are kept encrypted.
  needs: ['table', 'encryption'],
  eventTypes: ['order.completed'],
  handle: async (event, deps) => {
    const scope = { accountId: event.accountId, mode: event.mode };
    const order = obj(event.data.order);
    const customer = obj(event.data.customer);
    const product = obj(event.data.product);
    const to = str(customer.email);
    const orderId = str(order.id);
    // Free orders (lead magnets) get no receipt: the funnel's own mail is what they wait for.
    if (!to || !orderId || !(Number(event.data.amount) > 0)) return;
    await sendSaleNotice(deps, event);
    const subscriberId = str(event.data.subscriptionCustomerId);
    const portalUrl = subscriberId ? await portalUrlOf(deps, scope, subscriberId) : null;
    const base = baseOf(deps, portalUrl);
    const kind = order.type === 'subscription' ? 'subscription' : 'one_time';
    const offer = kind === 'subscription' && str(product.id) ? await lookupOffer(deps, scope, str(product.id)!) : undefined;
    const discount = obj(event.data.discount);
    const brand = await sellerBrand(deps, scope, base);
    const t = await buyerTranslator(deps, scope, to, brand);
    // The survey page opens in the receipt's language (English needs no mark: it is where every choice ends).
    const inLanguage = (url: string) => (t.locale === 'en' ? url : withLanguage(url, t.locale));
    const mail = receiptMail(
      {
        brand,
        orderId,
        productName: str(product.name) ?? 'Your purchase',
        amountCents: toCents(Number(event.data.amount ?? 0)),
        currency: str(event.data.currency) ?? 'USD',
        kind,
        billingReason: (str(order.billingReason) as 'initial' | 'renewal' | 'usage' | null) ?? null,
        interval: offer?.frequency ?? null,
        lines: Array.isArray(order.lines)
          ? order.lines.map((l) => obj(l)).map((l) => ({ name: str(l.name) ?? 'Item', amountCents: toCents(Number(l.amount ?? 0)) }))
          : null,
        discount: str(discount.code) ? { code: str(discount.code)!, amountOffCents: toCents(Number(discount.amountOff ?? 0)) } : null,
        paidAt: str(order.createdAt) ?? new Date(event.created * 1000).toISOString(),
        // The review route is an API (POST) with no buyer page yet; a link to it would not work.
        reviewUrl: null,
        surveyUrl: await surveyUrlForSale(deps, scope, orderId, base).then((url) => (url ? inLanguage(url) : url)),
        invoiceUrl: base ? await invoiceUrlOf(deps, scope, orderId, base) : null,
        portalUrl,
        // A lasting link to a page that signs fresh download links on each visit.
        downloadsUrl:
          kind === 'one_time' && str(product.id)
            ? ((await receiptAccessUrl(
                deps,
                scope,
                { id: orderId, productIds: boughtIds(str(product.id)!, order.lines), status: 'completed' },
                base,
                t.locale,
              )) ?? null)
            : null,
        licenseKeys: kind === 'one_time' ? (await keysOfOrder(deps, scope, orderId)).map((k) => k.key) : [],
        testMode: event.mode === 'test',
      },
      t,
    );
    await sendOnce(deps, 'buyer-receipts', event, scope, to, mail, base);
  },
};

/** The invoice page of a sale whose receipt token is on it (renewals keep theirs off the sale). */
async function invoiceUrlOf(deps: Deps, scope: Scope, saleId: string, base: string): Promise<string | null> {
  const sale = await findSale(deps, scope, saleId);
  return sale?.receiptToken ? `${base}/receipts/${sale.receiptToken}/invoice` : null;
}

/** A failed subscription charge: the reason, the next try, and where to update the card. */
export const failedPaymentConsumer: BusConsumer = {
  name: 'buyer-payment-failed',
  needs: ['table'],
  eventTypes: ['invoice.payment_failed'],
  handle: async (event, deps) => {
    const scope = { accountId: event.accountId, mode: event.mode };
    const to = str(obj(event.data.customer).email);
    if (!to) return;
    const subscriberId = str(event.data.subscriptionCustomerId);
    const portalUrl = subscriberId ? await portalUrlOf(deps, scope, subscriberId) : null;
    const base = baseOf(deps, portalUrl);
    const invoice = obj(event.data.invoice);
    const subscription = obj(event.data.subscription);
    const brand = await sellerBrand(deps, scope, base);
    const mail = failedPaymentMail(
      {
        brand,
        productName: str(subscription.name) ?? 'your subscription',
        amountCents: toCents(Number(invoice.amount ?? subscription.price ?? 0)),
        currency: str(invoice.currency) ?? str(subscription.currency) ?? 'USD',
        failureMessage: str(event.data.failureMessage),
        nextRetryAt: str(invoice.nextRetryAt),
        portalUrl,
        cardUpdateUrl: subscriberId ? await cardUpdateUrlFor(deps, scope, subscriberId) : null,
        testMode: event.mode === 'test',
      },
      await buyerTranslator(deps, scope, to, brand),
    );
    await sendOnce(deps, 'buyer-payment-failed', event, scope, to, mail, base);
  },
};
