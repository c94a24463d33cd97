import type Stripe from 'stripe';
import type { StripeHttp, StripeRequestOptions } from './http';

/** A path segment from an id (ids come from our records and Stripe's events: never trusted raw). */
const seg = (id: string) => encodeURIComponent(id);

/**
 * The Stripe resources the adapter calls, shaped like the SDK's (`client.prices.create(...)`) and
 * typed with the SDK's own request and response types (type-only: no SDK code in the bundle).
 * Answers are the parsed objects; the SDK's `lastResponse` is not attached.
 */
export class StripeApi {
  constructor(private readonly http: StripeHttp) {}

  readonly products = {
    create: (params: Stripe.ProductCreateParams, options?: StripeRequestOptions) => this.http.request<Stripe.Product>('POST', '/v1/products', params, options),
  };

  readonly prices = {
    create: (params: Stripe.PriceCreateParams, options?: StripeRequestOptions) => this.http.request<Stripe.Price>('POST', '/v1/prices', params, options),
    update: (id: string, params: Stripe.PriceUpdateParams, options?: StripeRequestOptions) => this.http.request<Stripe.Price>('POST', `/v1/prices/${seg(id)}`, params, options),
  };

  readonly coupons = {
    create: (params: Stripe.CouponCreateParams, options?: StripeRequestOptions) => this.http.request<Stripe.Coupon>('POST', '/v1/coupons', params, options),
  };

  readonly checkout = {
    sessions: {
      create: (params: Stripe.Checkout.SessionCreateParams, options?: StripeRequestOptions) =>
        this.http.request<Stripe.Checkout.Session>('POST', '/v1/checkout/sessions', params, options),
    },
  };

  readonly billingPortal = {
    sessions: {
      create: (params: Stripe.BillingPortal.SessionCreateParams, options?: StripeRequestOptions) =>
        this.http.request<Stripe.BillingPortal.Session>('POST', '/v1/billing_portal/sessions', params, options),
    },
  };

  readonly paymentIntents = {
    create: (params: Stripe.PaymentIntentCreateParams, options?: StripeRequestOptions) => this.http.request<Stripe.PaymentIntent>('POST', '/v1/payment_intents', params, options),
    retrieve: (id: string, params?: Stripe.PaymentIntentRetrieveParams) => this.http.request<Stripe.PaymentIntent>('GET', `/v1/payment_intents/${seg(id)}`, params),
  };

  readonly subscriptions = {
    retrieve: (id: string, params?: Stripe.SubscriptionRetrieveParams) => this.http.request<Stripe.Subscription>('GET', `/v1/subscriptions/${seg(id)}`, params),
    update: (id: string, params: Stripe.SubscriptionUpdateParams, options?: StripeRequestOptions) =>
      this.http.request<Stripe.Subscription>('POST', `/v1/subscriptions/${seg(id)}`, params, options),
    /** `DELETE /v1/subscriptions/:id` (parameters in the query, as the SDK sends them). */
    cancel: (id: string, params?: Stripe.SubscriptionCancelParams, options?: StripeRequestOptions) =>
      this.http.request<Stripe.Subscription>('DELETE', `/v1/subscriptions/${seg(id)}`, params, options),
  };

  readonly refunds = {
    create: (params: Stripe.RefundCreateParams, options?: StripeRequestOptions) => this.http.request<Stripe.Refund>('POST', '/v1/refunds', params, options),
  };

  readonly invoicePayments = {
    list: (params: Stripe.InvoicePaymentListParams) => this.http.request<Stripe.ApiList<Stripe.InvoicePayment>>('GET', '/v1/invoice_payments', params),
  };
}
