import { sellerBrand } from '../account/branding';
import { buyerLanguage } from '../account/buyer-language';
import { saleNotificationsOn } from '../email/seller-settings';
import type { BusConsumer } from '../platform/capability';
import type { Deps } from '../platform/context';
import type { DomainEvent } from '../platform/events';
import { getAccount } from '../platform/accounts';
import { toCents } from '../platform/money';
import { portalUrlOf } from '../subscriptions/lookups';
import { baseOf, obj, sendOnce, str } from './send';
import { newSaleMail, refundMail } from './notices';

/** A refund (full or partial): the buyer hears how much comes back, for what, and when. */
export const refundMailConsumer: BusConsumer = {
  name: 'buyer-refunds',
  needs: ['table'],
  eventTypes: ['order.refunded'],
  handle: async (event, deps) => {
    const scope = { accountId: event.accountId, mode: event.mode };
    const to = str(obj(event.data.customer).email);
    const order = obj(event.data.order);
    const refund = obj(event.data.refund);
    if (!to || !(Number(refund.amount ?? event.data.amount) > 0)) return;
    const subscriberId = str(event.data.subscriptionCustomerId);
    const base = baseOf(deps, subscriberId ? await portalUrlOf(deps, scope, subscriberId) : null);
    const brand = await sellerBrand(deps, scope, base);
    // The buyer's language as saved at their checkout, else the seller's default.
    const t = await buyerLanguage(deps, scope, { email: to, sellerDefault: brand.locale ?? null });
    const mail = refundMail(
      {
        brand,
        productName: str(obj(event.data.product).name) ?? 'your order',
        refundedCents: toCents(Number(refund.amount ?? event.data.amount ?? 0)),
        paidCents: toCents(Number(order.amount ?? 0)),
        currency: str(event.data.currency) ?? str(order.currency) ?? 'USD',
        full: refund.full === true,
        refundedAt: new Date(event.created * 1000).toISOString(),
        testMode: event.mode === 'test',
      },
      t,
    );
    await sendOnce(deps, 'buyer-refunds', event, scope, to, mail, base);
  },
};

/**
 * Every paid order, a mail to the store owner (as Gumroad and Lemon Squeezy send), unless turned
 * off. Run by the receipts consumer of the same event (one function and rule fewer); its own claim
 * keeps it once per event.
 */
export async function sendSaleNotice(deps: Deps, event: DomainEvent): Promise<void> {
  const scope = { accountId: event.accountId, mode: event.mode };
  if (!(Number(event.data.amount) > 0)) return;
  if (!(await saleNotificationsOn(deps, scope))) return;
  const account = await getAccount(deps.store, scope.accountId);
  if (!account?.email) return;
  const order = obj(event.data.order);
  const customer = obj(event.data.customer);
  const base = baseOf(deps, null);
  const dashboard = deps.config.DASHBOARD_URL?.replace(/\/+$/, '') ?? (base ? `${base}/dashboard` : null);
  const mail = newSaleMail({
    productName: str(obj(event.data.product).name) ?? 'a product',
    amountCents: toCents(Number(event.data.amount ?? 0)),
    currency: str(event.data.currency) ?? 'USD',
    renewal: order.billingReason === 'renewal',
    buyer: { email: str(customer.email) ?? 'a buyer', name: [str(customer.firstName), str(customer.lastName)].filter(Boolean).join(' ') || null },
    soldAt: str(order.createdAt) ?? new Date(event.created * 1000).toISOString(),
    ordersUrl: dashboard ? `${dashboard}/orders` : null,
    testMode: event.mode === 'test',
  });
  await sendOnce(deps, 'seller-sale-notices', event, scope, account.email, mail, base, 'seller');
}
