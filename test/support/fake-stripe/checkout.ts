import { addInterval, StripeError, type Obj, type StripeModel } from './model';

export interface FakeBuyer {
  email: string;
  name?: string;
  country?: string;
  /** A Stripe test card number (model.ts CARDS); default 4242 4242 4242 4242. */
  card?: string;
  /** A VAT number the buyer enters (tax id collection). */
  vatNumber?: string;
}

/**
 * The buyer on Stripe's hosted page: pays an open Checkout Session as Stripe does it, creating the
 * customer and card, the payment (or the subscription and its first invoice, or its trial), and
 * emitting `checkout.session.completed` with the events Stripe sends beside it. A declined card
 * leaves the session open (Stripe shows the error on its page) and is answered as the 402.
 */
export function completeCheckout(model: StripeModel, sessionId: string, buyer: FakeBuyer): Obj {
  const session = model.get(sessionId, 'checkout.session');
  if (session.status !== 'open')
    throw new StripeError(400, { type: 'invalid_request_error', code: 'checkout_session_not_open', message: 'This Checkout Session is no longer open.' });
  const params = session._params as Obj;
  const lines = session._lines as { price: Obj; quantity: number }[];
  const customer = model.customer(buyer.email, buyer.name ?? null);
  const pm = model.paymentMethod(customer.id, buyer.card);
  const coupon = params.discounts?.[0]?.coupon ? model.get(params.discounts[0].coupon, 'coupon') : undefined;
  const subtotal = session.amount_subtotal as number;
  const discount = coupon ? Math.min(subtotal, coupon.percent_off ? Math.round((subtotal * coupon.percent_off) / 100) : coupon.amount_off) : 0;
  const rate = session.automatic_tax.enabled ? (model.taxRates[buyer.country ?? ''] ?? 0) : 0;
  const tax = Math.round(((subtotal - discount) * rate) / 100);
  const total = subtotal - discount + tax;
  const details = {
    email: buyer.email,
    name: buyer.name ?? null,
    address: { country: buyer.country ?? null },
    tax_exempt: 'none',
    tax_ids: buyer.vatNumber ? [{ type: 'eu_vat', value: buyer.vatNumber }] : [],
  };
  Object.assign(session, {
    customer: customer.id,
    customer_details: details,
    amount_total: total,
    total_details: { amount_discount: discount, amount_shipping: 0, amount_tax: tax },
  });
  if (session.automatic_tax.enabled) session.automatic_tax.status = 'complete';

  if (session.mode === 'payment') {
    pm.customer = customer.id;
    const result = model.charge({
      amount: total,
      currency: session.currency,
      customer: customer.id,
      paymentMethod: pm.id,
      metadata: params.payment_intent_data?.metadata,
    });
    if (result.error) throw result.error;
    // Without setup_future_usage the card is not kept for later.
    if (params.payment_intent_data?.setup_future_usage !== 'off_session') pm.customer = null;
    if (coupon) coupon.times_redeemed += 1;
    Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: result.intent.id });
    model.emit('checkout.session.completed', session);
    return session;
  }

  // Subscription mode: the card becomes the subscription's default; a trial bills nothing now.
  const line = lines[0]!;
  const trialDays = Number(params.subscription_data?.trial_period_days ?? 0);
  const start = model.now();
  const trialEnd = trialDays ? start + trialDays * 86_400 : null;
  const end = trialEnd ?? addInterval(start, line.price.recurring.interval, line.price.recurring.interval_count ?? 1);
  const sub = model.put({
    id: model.id('sub'),
    object: 'subscription',
    status: trialEnd ? 'trialing' : 'incomplete',
    customer: customer.id,
    currency: session.currency,
    cancel_at_period_end: false,
    pause_collection: null,
    start_date: start,
    trial_end: trialEnd,
    livemode: false,
    default_payment_method: pm.id,
    collection_method: 'charge_automatically',
    schedule: null,
    latest_invoice: null,
    metadata: params.subscription_data?.metadata ?? {},
    ended_at: null,
    canceled_at: null,
    items: {
      object: 'list',
      data: [
        { id: model.id('si'), object: 'subscription_item', price: line.price, quantity: line.quantity, current_period_start: start, current_period_end: end },
      ],
    },
    _discounts: [] as Obj[],
  });
  if (coupon) {
    coupon.times_redeemed += 1;
    sub._discounts.push({
      id: model.id('di'),
      object: 'discount',
      coupon,
      start,
      end: coupon.duration === 'repeating' ? addInterval(start, 'month', coupon.duration_in_months) : null,
      subscription: sub.id,
    });
  }
  const invoice = model.invoice(sub, 'subscription_create', { start, end }, {});
  if (invoice.status !== 'paid' && !trialEnd) {
    // Stripe's page refuses the card and keeps the session open; nothing is left behind.
    delete model.objects[sub.id];
    throw new StripeError(402, { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' });
  }
  if (!trialEnd) sub.status = 'active';
  Object.assign(session, { status: 'complete', payment_status: trialEnd ? 'no_payment_required' : 'paid', subscription: sub.id, invoice: invoice.id });
  model.emit('customer.subscription.created', sub);
  model.emit('checkout.session.completed', session);
  return session;
}
