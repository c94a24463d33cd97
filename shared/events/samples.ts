import { toProductView } from '../catalog/rules';
import { abandonedEventData } from '../checkout/events';
import type { OfferRecord, ProductRecord } from '../catalog/records';
import {
  autoRefillFailedData,
  autoRefillSucceededData,
  balanceChangedData,
  consentDisabledData,
  consentEnabledData,
  creditGrantedData,
} from '../credits/events';
import type { CreditAccountRecord } from '../credits/records';
import { leadEventData } from '../funnels/events';
import { memberEventData } from '../memberships/rules';
import type { MembershipRecord, MemberRecord } from '../memberships/records';
import type { Clock } from '../platform/clock';
import { objectId } from '../platform/ids';
import { customerCreatedOnSaleData, orderCompletedData, orderRefundedData } from '../sales/events';
import type { CustomerRecord, SaleRecord } from '../sales/records';
import { reviewEventData } from '../storefront/reviews/events';
import { subscriptionEventData, type EventOptions } from '../subscriptions/events';
import type { SubscriberRecord } from '../subscriptions/records';
import { periodEventData, reportEventData } from '../usage/events';

/**
 * A complete `data` for each event type, built by the same payload builders as the real events
 * from sample records, for test deliveries (`POST /webhooks/{id}/test`). Ids are fresh, every
 * field a real event carries is present, and nothing here refers to a real record.
 */
export function sampleEventData(type: string, clock: Clock, baseUrl = 'https://example.com'): Record<string, unknown> | undefined {
  const builder = SAMPLES[type];
  return builder ? builder(sampleRecords(clock, baseUrl)) : undefined;
}

export const typesWithSamples = (): string[] => Object.keys(SAMPLES);

type Records = ReturnType<typeof sampleRecords>;

function sampleRecords(clock: Clock, baseUrl: string) {
  const now = clock.now();
  const at = now.toISOString();
  const id = () => objectId(clock);
  const periodEnd = new Date(now.getTime() + 30 * 24 * 3600 * 1000).toISOString();
  const paymentMethod = { id: `pm_${id()}`, type: 'card' as const, brand: 'visa', last4: '4242', expMonth: 12, expYear: now.getUTCFullYear() + 3 };
  const buyer = { buyerEmail: 'buyer@example.com', firstName: 'Sam', lastName: 'Sample', country: 'US' };
  const product: ProductRecord = {
    _id: id(),
    name: 'Sample e-book',
    description: 'A sample product for test deliveries.',
    priceCents: 2900,
    currency: 'USD',
    productType: 'digital',
    published: true,
    testMode: true,
    createdAt: at,
    updatedAt: at,
  };
  const offer: OfferRecord = {
    _id: id(),
    name: 'Sample membership',
    priceCents: 1500,
    currency: 'USD',
    frequency: 'monthly',
    published: true,
    testMode: true,
    createdAt: at,
    updatedAt: at,
  };
  const customerId = id();
  const sale: SaleRecord = {
    _id: id(),
    type: 'one_time',
    productId: product._id,
    productName: product.name,
    subscriptionId: null,
    subscriberId: null,
    customerId,
    ...buyer,
    amountCents: 2610,
    originalAmountCents: 2900,
    currency: 'USD',
    discountCode: 'SAMPLE10',
    status: 'completed',
    refundedCents: 0,
    paymentIntentId: `pi_${id()}`,
    planId: null,
    membershipId: null,
    paymentMethod,
    checkoutSessionId: id(),
    clientReferenceId: null,
    metadata: {},
    free: false,
    testMode: true,
    createdAt: at,
  };
  const customer: CustomerRecord = {
    _id: customerId,
    userId: id(),
    ...buyer,
    productId: product._id,
    productIds: [product._id],
    testMode: true,
    numberOfOrders: 1,
    createdAt: at,
    updatedAt: at,
  };
  const subscriberId = id();
  const subscriber: SubscriberRecord = {
    _id: subscriberId,
    subscriptionId: offer._id,
    customerId,
    ...buyer,
    status: 'active',
    active: true,
    cancelAtPeriodEnd: false,
    paused: false,
    membershipId: null,
    planId: null,
    paymentMethod,
    clientReferenceId: null,
    metadata: {},
    currentPeriodStart: at,
    currentPeriodEnd: periodEnd,
    trialEnd: null,
    failureMessage: null,
    openInvoiceId: null,
    portalToken: 'sample',
    portalUrl: `${baseUrl}/portal/sample`,
    testMode: true,
    createdAt: at,
    updatedAt: at,
    canceledAt: null,
  };
  const invoice = { id: `in_${id()}`, amountCents: offer.priceCents, currency: offer.currency, paymentIntentId: `pi_${id()}`, periodStart: at, periodEnd };
  const credits: CreditAccountRecord = {
    _id: id(),
    productId: product._id,
    customerId,
    buyerEmail: buyer.buyerEmail,
    balanceCents: 5000,
    currency: 'USD',
    status: 'active',
    autoRefill: { consent: true, paymentMethodId: paymentMethod.id },
    createdAt: at,
    updatedAt: at,
  };
  const membership: MembershipRecord = {
    _id: id(),
    name: 'Sample community',
    slug: 'sample-community',
    offerIds: [offer._id],
    productIds: [],
    status: 'active',
    communityEnabled: true,
    postEmailsEnabled: true,
    testMode: true,
    createdAt: at,
    updatedAt: at,
    archivedAt: null,
  };
  const member: MemberRecord = {
    email: buyer.buyerEmail,
    name: 'Sam Sample',
    status: 'active',
    sources: [],
    joinedAt: at,
    leftAt: null,
    leftReason: null,
    rev: 1,
  };
  return { at, id, baseUrl, product, offer, sale, customer, subscriber, invoice, credits, membership, member };
}

const subscription =
  (type: string, options: (r: Records) => EventOptions = () => ({})) =>
  (r: Records) =>
    subscriptionEventData(type, r.subscriber, r.offer, options(r));
const renewal = (r: Records): EventOptions => ({ billingReason: 'renewal', invoice: r.invoice });
const declined = (r: Records): EventOptions => ({
  billingReason: 'renewal',
  invoice: { ...r.invoice, attempt: 1, nextRetryAt: r.subscriber.currentPeriodEnd },
  failureMessage: 'Your card was declined.',
  declineCode: 'card_declined',
});

const sampleLicense = (r: Records, status: string, activations: number) => ({
  id: r.id(),
  prefix: 'ABCDE',
  productId: r.product._id,
  orderId: r.sale._id,
  status,
  activationLimit: 3,
  activations,
  expiresAt: null,
});

const SAMPLES: Record<string, (r: Records) => Record<string, unknown>> = {
  'license.created': (r) => ({ license: sampleLicense(r, 'active', 0), customer: { email: r.sale.buyerEmail } }),
  'license.activated': (r) => ({ license: sampleLicense(r, 'active', 1), instance: { id: 'inst_SampleInstance0000000000', name: 'Studio Mac' } }),
  'license.revoked': (r) => ({ license: sampleLicense(r, 'revoked', 1), reason: 'seller' }),
  'order.completed': (r) => orderCompletedData(r.sale),
  'order.refunded': (r) =>
    orderRefundedData(
      { ...r.sale, status: 'refunded', refundedCents: r.sale.amountCents, refundedAt: r.at },
      { id: `re_${r.id()}`, amountCents: r.sale.amountCents, full: true },
    ),
  'customer.created': (r) => customerCreatedOnSaleData(r.sale, r.customer),
  'review.created': (r) =>
    reviewEventData({
      _id: r.id(),
      productId: r.product._id,
      saleId: r.sale._id,
      customerId: r.customer._id,
      buyerEmail: r.sale.buyerEmail,
      rating: 5,
      title: 'Worth it',
      body: 'Clear and practical.',
      testMode: true,
      createdAt: r.at,
    }),
  'product.created': (r) => ({ ...toProductView(r.product) }),
  'product.updated': (r) => ({ ...toProductView({ ...r.product, priceCents: 3900 }) }),
  'product.deleted': (r) => ({ ...toProductView({ ...r.product, deletedAt: r.at }) }),
  'payment_intent.succeeded': subscription('payment_intent.succeeded', (r) => ({ invoice: r.invoice })),
  'payment_intent.payment_failed': subscription('payment_intent.payment_failed', declined),
  'invoice.created': subscription('invoice.created', renewal),
  'invoice.payment_succeeded': subscription('invoice.payment_succeeded', renewal),
  'invoice.payment_failed': subscription('invoice.payment_failed', declined),
  'invoice.upcoming': subscription('invoice.upcoming', renewal),
  'customer.subscription.created': subscription('customer.subscription.created'),
  'customer.subscription.updated': (r) => subscriptionEventData('customer.subscription.updated', { ...r.subscriber, cancelAtPeriodEnd: true }, r.offer),
  'customer.subscription.deleted': (r) =>
    subscriptionEventData('customer.subscription.deleted', { ...r.subscriber, status: 'canceled', active: false, canceledAt: r.at }, r.offer),
  'customer.subscription.pause': (r) => subscriptionEventData('customer.subscription.pause', { ...r.subscriber, paused: true }, r.offer),
  'customer.subscription.resumed': subscription('customer.subscription.resumed'),
  'customer.subscription.trial_will_end': (r) =>
    subscriptionEventData('customer.subscription.trial_will_end', { ...r.subscriber, status: 'trialing', trialEnd: r.subscriber.currentPeriodEnd }, r.offer),
  'credit.granted': (r) => creditGrantedData(r.credits, 5000, r.sale._id),
  'credit.balance_changed': (r) => balanceChangedData({ ...r.credits, balanceCents: 4750 }, -250, 'usage'),
  'credit.auto_refill.succeeded': (r) => autoRefillSucceededData(r.credits, 5000, r.sale._id, r.sale.paymentIntentId),
  'credit.auto_refill.failed': (r) => autoRefillFailedData({ ...r.credits, status: 'paused' }, 5000, 'Your card was declined.'),
  'credit.consent.enabled': (r) => consentEnabledData(r.credits, r.credits.autoRefill.paymentMethodId),
  'credit.consent.disabled': (r) =>
    consentDisabledData({ ...r.credits, autoRefill: { consent: false, paymentMethodId: null } }, r.credits.autoRefill.paymentMethodId, 'buyer'),
  'member.joined': (r) => memberEventData(r.membership, r.member, 'joined'),
  'member.left': (r) => memberEventData(r.membership, { ...r.member, status: 'ended', leftAt: r.at, leftReason: 'subscription_ended' }, 'left'),
  'usage.recorded': (r) =>
    reportEventData({
      _id: r.id(),
      subscriberId: r.subscriber._id,
      subscriptionId: r.offer._id,
      meter: 'api_calls',
      quantity: 120,
      periodStart: r.at,
      idempotencyKey: null,
      createdAt: r.at,
    }),
  'usage.period_closed': (r) =>
    periodEventData({
      subscriberId: r.subscriber._id,
      subscriptionId: r.offer._id,
      periodStart: r.at,
      periodEnd: r.subscriber.currentPeriodEnd!,
      totals: { api_calls: 12_500 },
      meters: [{ key: 'api_calls', name: 'API calls', quantity: 12_500, includedUnits: 10_000, overageUnits: 2_500, unitPriceCents: 1, amountCents: 2_500 }],
      seats: null,
      charge: {
        status: 'paid',
        amountCents: 2_500,
        currency: 'USD',
        saleId: r.sale._id,
        paymentId: r.sale.paymentIntentId,
        retries: 0,
        nextRetryAt: null,
        firstFailedAt: null,
        failureMessage: null,
        paidAt: r.at,
      },
      closedAt: r.at,
      updatedAt: r.at,
    }),
  'checkout.abandoned': (r) =>
    abandonedEventData(
      {
        _id: r.id(),
        productId: r.product._id,
        productName: r.product.name,
        kind: 'one_time',
        amountCents: r.product.priceCents,
        currency: r.product.currency,
        createdAt: r.at,
        metadata: {},
        clientReferenceId: null,
      },
      { email: r.sale.buyerEmail, discountCode: 'COMEBACK10', recoveryUrl: `${r.baseUrl}/checkout/recover/${'S'.repeat(40)}`, emailSent: true },
    ),
  'funnel.lead': (r) =>
    leadEventData(
      { _id: r.id(), name: 'Sample funnel', leadMagnetProductId: r.product._id, offerProductId: r.product._id, tag: 'sample-funnel' },
      { email: r.sale.buyerEmail, firstName: 'Sam', lastName: 'Sample', subscriberId: r.id(), subscribed: true, orderId: r.sale._id, capturedAt: r.at },
    ),
};
