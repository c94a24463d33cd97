import { describe, expect, it } from 'vitest';
import { orderCompletedData, orderRefundedData } from '../../shared/sales/events';
import type { SaleRecord } from '../../shared/sales/records';
import { subscriptionEventData } from '../../shared/subscriptions/events';
import type { SubscriberRecord } from '../../shared/subscriptions/records';

const card = { id: 'payt_1', type: 'card' as const, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 };
const sale: SaleRecord = {
  _id: 'a'.repeat(24),
  type: 'one_time',
  productId: 'p'.repeat(24),
  productName: 'Guide',
  subscriptionId: null,
  subscriberId: null,
  customerId: 'c'.repeat(24),
  buyerEmail: 'b@example.com',
  firstName: 'B',
  lastName: null,
  country: 'US',
  amountCents: 1999,
  originalAmountCents: 1999,
  currency: 'USD',
  discountCode: null,
  status: 'completed',
  refundedCents: 0,
  paymentIntentId: 'pay_1',
  planId: 'plan_1',
  membershipId: null,
  paymentMethod: card,
  checkoutSessionId: null,
  clientReferenceId: 'ref',
  metadata: { a: 1 },
  free: false,
  testMode: true,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const sub: SubscriberRecord = {
  _id: 's'.repeat(24),
  subscriptionId: 'o'.repeat(24),
  customerId: 'c'.repeat(24),
  buyerEmail: 'b@example.com',
  firstName: 'B',
  lastName: 'C',
  country: null,
  status: 'active',
  active: true,
  cancelAtPeriodEnd: false,
  paused: false,
  membershipId: 'mem_1',
  planId: 'plan_1',
  paymentMethod: card,
  clientReferenceId: null,
  metadata: {},
  currentPeriodStart: null,
  currentPeriodEnd: null,
  trialEnd: null,
  failureMessage: null,
  openInvoiceId: null,
  portalToken: 't',
  portalUrl: 'https://x/p?token=t',
  testMode: true,
  createdAt: '',
  updatedAt: '',
  canceledAt: null,
};
const offer = { _id: 'o'.repeat(24), name: 'Club', priceCents: 900, currency: 'USD', frequency: 'monthly' as const };

describe('order event payloads', () => {
  it('a paid order carries paymentIntentId and planId in order, and the taxAmount/taxRate block', () => {
    const data = orderCompletedData(sale);
    expect(data.order).toMatchObject({ id: sale._id, paymentIntentId: 'pay_1', planId: 'plan_1', variantId: null, vatNumber: null });
    expect(data.tax).toEqual({ taxAmount: 0, taxRate: 0 });
    expect(data).toMatchObject({ amount: 19.99, metadata: { a: 1 }, clientReferenceId: 'ref' });
  });
  it('a free order differs: amount 0, no paymentIntentId or planId, tax keyed amount/rate', () => {
    const data = orderCompletedData({ ...sale, amountCents: 0, free: true, paymentIntentId: null, planId: null, paymentMethod: null });
    expect(data.amount).toBe(0);
    expect(data.order).not.toHaveProperty('paymentIntentId');
    expect(data.order).not.toHaveProperty('planId');
    expect(data.tax).toEqual({ amount: 0, rate: 0 });
  });
  it('order.refunded replays metadata and clientReferenceId', () => {
    expect(orderRefundedData({ ...sale, refundedCents: 500 }, { id: 're_1', amountCents: 500, full: false })).toMatchObject({
      amount: 5,
      refund: { full: false },
      metadata: { a: 1 },
      clientReferenceId: 'ref',
    });
  });
});

describe('subscription event payloads', () => {
  it('.created and .updated carry subscriptionCustomer and portalUrl; others do not', () => {
    for (const type of ['customer.subscription.created', 'customer.subscription.updated']) {
      const data = subscriptionEventData(type, sub, offer);
      expect(data.subscriptionCustomer).toEqual({ id: sub._id, status: 'active', active: true, cancelAtPeriodEnd: false, paused: false });
      expect(data.portalUrl).toBe(sub.portalUrl);
    }
    for (const type of ['customer.subscription.deleted', 'customer.subscription.pause', 'invoice.created']) {
      const data = subscriptionEventData(type, sub, offer);
      expect(data).not.toHaveProperty('subscriptionCustomer');
      expect(data).not.toHaveProperty('portalUrl');
    }
  });
  it('omits paymentMethod on .deleted and .trial_will_end; metadata is {} when none', () => {
    expect(subscriptionEventData('customer.subscription.deleted', sub, offer)).not.toHaveProperty('paymentMethod');
    expect(subscriptionEventData('customer.subscription.trial_will_end', sub, offer)).not.toHaveProperty('paymentMethod');
    expect(subscriptionEventData('customer.subscription.pause', sub, offer)).toMatchObject({ paymentMethod: card, accessRetained: true, metadata: {} });
  });
  it('.updated after a failed payment has failureMessage in place of cancelAtPeriodEnd', () => {
    const failed = subscriptionEventData('customer.subscription.updated', sub, offer, { failureMessage: 'declined' });
    expect(failed.failureMessage).toBe('declined');
    expect(failed).not.toHaveProperty('cancelAtPeriodEnd');
    expect(subscriptionEventData('customer.subscription.updated', sub, offer).cancelAtPeriodEnd).toBe(false);
  });
  it('invoice.* of the first charge have a null subscriber id; other events keep it', () => {
    const opts = { noSubscriberYet: true, billingReason: 'initial' as const };
    expect(subscriptionEventData('invoice.created', sub, offer, opts)).toMatchObject({
      subscriptionCustomerId: null,
      subscription: { customerId: null },
      billingReason: 'initial',
    });
    expect(subscriptionEventData('payment_intent.succeeded', sub, offer, opts).subscriptionCustomerId).toBe(sub._id);
  });
});
