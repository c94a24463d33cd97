/**
 * The state behind the fake Stripe API: customers, payment methods, products, prices, coupons,
 * Checkout Sessions, subscriptions (with schedules, discounts, pause_collection), invoices, payment
 * intents, charges and refunds, on a clock the test owns. It moves subscriptions through their
 * periods as Stripe Billing does (`tick()`), charges saved cards, retries failed invoices while
 * `auto_advance` is on (Stripe's own schedule: days 3, 5, 7, then cancel), and emits Stripe-shaped
 * snapshot events for each change. Not modelled: see ../fake-stripe.ts.
 */
export type Obj = Record<string, any>;
export type Emit = (type: string, object: Obj, previous?: Obj) => void;

export class StripeError {
  constructor(
    readonly status: number,
    readonly error: Obj,
  ) {}
}
const invalid = (message: string, code = 'parameter_invalid', param?: string) =>
  new StripeError(400, { type: 'invalid_request_error', code, message, ...(param ? { param } : {}) });
export const missing = (id: string) =>
  new StripeError(404, { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such object: '${id}'` });

/** Test cards as Stripe documents them (https://docs.stripe.com/testing). */
export const CARDS: Record<string, { brand: string; decline?: { code: string; decline_code: string; message: string }; expired?: boolean }> = {
  '4242424242424242': { brand: 'visa' },
  '5555555555554444': { brand: 'mastercard' },
  '4000000000000002': { brand: 'visa', decline: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' } },
  '4000000000009995': { brand: 'visa', decline: { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' } },
  '4000000000000069': { brand: 'visa', decline: { code: 'expired_card', decline_code: 'expired_card', message: 'Your card has expired.' }, expired: true },
};

const RETRY_DAYS = [3, 5, 7];
const DAY = 86_400;

export function addInterval(seconds: number, interval: string, count = 1): number {
  const d = new Date(seconds * 1000);
  if (interval === 'day') d.setUTCDate(d.getUTCDate() + count);
  else if (interval === 'week') d.setUTCDate(d.getUTCDate() + 7 * count);
  else if (interval === 'year') d.setUTCFullYear(d.getUTCFullYear() + count);
  else d.setUTCMonth(d.getUTCMonth() + count);
  return Math.floor(d.getTime() / 1000);
}

export class StripeModel {
  readonly objects: Record<string, Obj> = {};
  private counter = 0;
  /** Tax rates by buyer country, in percent (Stripe Tax's answer for an address). */
  taxRates: Record<string, number> = {};

  constructor(
    readonly now: () => number,
    readonly emit: Emit,
  ) {}

  id(prefix: string) {
    return `${prefix}_${String(++this.counter).padStart(6, '0')}`;
  }
  get<T extends Obj = Obj>(id: unknown, object?: string): T {
    const found = typeof id === 'string' ? this.objects[id] : undefined;
    if (!found || (object && found.object !== object)) throw missing(String(id));
    return found as T;
  }
  put(object: Obj) {
    this.objects[object.id] = object;
    return object;
  }
  list(object: string, where: (o: Obj) => boolean = () => true) {
    return Object.values(this.objects).filter((o) => o.object === object && where(o));
  }

  // ---- cards and payments ----

  paymentMethod(customer: string | null, cardNumber = '4242424242424242', exp = { month: 12, year: 2034 }) {
    const card = CARDS[cardNumber] ?? { brand: 'visa' };
    return this.put({
      id: this.id('pm'),
      object: 'payment_method',
      type: 'card',
      customer,
      created: this.now(),
      livemode: false,
      card: { brand: card.brand, last4: cardNumber.slice(-4), exp_month: card.expired ? 1 : exp.month, exp_year: card.expired ? 2020 : exp.year },
      _cardNumber: cardNumber,
    });
  }

  customer(email: string, name: string | null) {
    return this.put({
      id: this.id('cus'),
      object: 'customer',
      email,
      name,
      created: this.now(),
      invoice_settings: { default_payment_method: null },
      metadata: {},
    });
  }

  /** Charges a card: a succeeded PaymentIntent and its charge, or the card's decline (402). */
  charge(input: {
    amount: number;
    currency: string;
    customer: string | null;
    paymentMethod: string | null;
    description?: string;
    metadata?: Obj;
    invoice?: string;
  }) {
    const pm = input.paymentMethod ? this.objects[input.paymentMethod] : undefined;
    const intent = this.put({
      id: this.id('pi'),
      object: 'payment_intent',
      amount: input.amount,
      currency: input.currency,
      customer: input.customer,
      payment_method: pm?.id ?? null,
      created: this.now(),
      description: input.description ?? null,
      metadata: input.metadata ?? {},
      status: 'requires_payment_method',
      latest_charge: null,
      last_payment_error: null,
      livemode: false,
    });
    if (!pm) {
      intent.last_payment_error = { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: 'No payment method on file.' };
      return { intent, error: new StripeError(400, { ...intent.last_payment_error, payment_intent: intent }) };
    }
    if (pm.customer !== input.customer && input.customer)
      return {
        intent,
        error: invalid(`The PaymentMethod ${pm.id} does not belong to the Customer ${input.customer}.`, 'payment_method_invalid_parameter', 'payment_method'),
      };
    const decline = pm._declines ? CARDS['4000000000000002']!.decline : CARDS[pm._cardNumber]?.decline;
    if (decline) {
      intent.last_payment_error = { type: 'card_error', ...decline };
      this.emit('payment_intent.payment_failed', intent);
      return { intent, error: new StripeError(402, { type: 'card_error', ...decline, payment_intent: intent }) };
    }
    const charge = this.put({
      id: this.id('ch'),
      object: 'charge',
      amount: input.amount,
      amount_refunded: 0,
      refunded: false,
      disputed: false,
      currency: input.currency,
      customer: input.customer,
      payment_intent: intent.id,
      payment_method: pm.id,
      created: this.now(),
      livemode: false,
      refunds: { object: 'list', data: [] },
    });
    Object.assign(intent, { status: 'succeeded', latest_charge: charge.id });
    this.emit('payment_intent.succeeded', intent);
    this.emit('charge.succeeded', charge);
    return { intent, charge };
  }

  refund(intentId: string, amount?: number) {
    const intent = this.get(intentId, 'payment_intent');
    const charge = this.get(intent.latest_charge, 'charge');
    const left = charge.amount - charge.amount_refunded;
    const value = amount ?? left;
    if (value > left) throw invalid(`Refund amount (${value}) is greater than unrefunded amount on charge (${left})`, 'amount_too_large', 'amount');
    const refund = this.put({
      id: this.id('re'),
      object: 'refund',
      amount: value,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: intent.id,
      status: 'succeeded',
      created: this.now(),
    });
    charge.amount_refunded += value;
    charge.refunded = charge.amount_refunded >= charge.amount;
    charge.refunds.data.unshift(refund);
    this.emit('charge.refunded', charge);
    return refund;
  }

  // ---- subscriptions and invoices ----

  defaultCardOf(sub: Obj): string | null {
    return sub.default_payment_method ?? this.objects[sub.customer]?.invoice_settings?.default_payment_method ?? null;
  }

  /** The discount off one invoice of `sub` for the period starting at `start`, and spends a `once` coupon. */
  private discountOff(sub: Obj, start: number, amount: number): number {
    let off = 0;
    for (const discount of sub._discounts ?? []) {
      const coupon = discount.coupon;
      if (discount.end !== null && start >= discount.end) continue;
      if (coupon.duration === 'once' && discount._used) continue;
      off += coupon.percent_off ? Math.round((amount * coupon.percent_off) / 100) : coupon.amount_off;
      discount._used = true;
    }
    return Math.min(off, amount);
  }

  /** An invoice for one period of `sub`, paid with its default card when possible. */
  invoice(sub: Obj, reason: string, period: { start: number; end: number }, options: { void?: boolean } = {}) {
    const item = sub.items.data[0];
    const gross = sub.status === 'trialing' ? 0 : item.price.unit_amount * (item.quantity ?? 1);
    const discount = options.void ? 0 : this.discountOff(sub, period.start, gross);
    const amount = gross - discount;
    const invoice = this.put({
      id: this.id('in'),
      object: 'invoice',
      customer: sub.customer,
      currency: sub.currency,
      billing_reason: reason,
      status: 'open',
      livemode: false,
      amount_due: amount,
      amount_paid: 0,
      amount_remaining: amount,
      subtotal: gross,
      total: amount,
      total_discount_amounts: discount ? [{ amount: discount, discount: sub._discounts?.[0]?.id }] : [],
      attempt_count: 0,
      attempted: false,
      next_payment_attempt: null,
      auto_advance: true,
      created: this.now(),
      period_start: period.start,
      period_end: period.end,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: sub.metadata ?? {} }, quote_details: null },
      lines: { object: 'list', data: [{ id: this.id('il'), object: 'line_item', amount, period, pricing: { price_details: { price: item.price.id } } }] },
    });
    sub.latest_invoice = invoice.id;
    this.emit('invoice.created', invoice);
    if (options.void) {
      invoice.status = 'void';
      this.emit('invoice.voided', invoice);
      return invoice;
    }
    this.emit('invoice.finalized', invoice);
    this.attempt(invoice, this.defaultCardOf(sub));
    return invoice;
  }

  /** One payment attempt of an open invoice; moves its subscription to active or past due. */
  attempt(invoice: Obj, paymentMethod: string | null, options: { manual?: boolean } = {}): StripeError | undefined {
    if (invoice.status !== 'open') return invalid('Invoice is already paid', 'invoice_not_open');
    const sub = this.objects[invoice.parent?.subscription_details?.subscription];
    invoice.attempted = true;
    invoice.attempt_count += 1;
    const result: { intent?: Obj; error?: StripeError } =
      invoice.amount_due === 0
        ? {}
        : this.charge({ amount: invoice.amount_due, currency: invoice.currency, customer: invoice.customer, paymentMethod, invoice: invoice.id });
    if (result.error) {
      const automatic = invoice.auto_advance && !options.manual;
      const retryDay = RETRY_DAYS[invoice.attempt_count - 1];
      invoice.next_payment_attempt = invoice.auto_advance && retryDay !== undefined ? invoice.period_start + retryDay * DAY : null;
      if (sub && sub.status !== 'canceled') sub.status = 'past_due';
      this.emit('invoice.payment_failed', invoice);
      // Stripe's own dunning: after its last retry the subscription is canceled (the default setting).
      if (automatic && invoice.next_payment_attempt === null && sub && sub.status !== 'canceled') this.cancel(sub);
      return result.error;
    }
    Object.assign(invoice, {
      status: 'paid',
      amount_paid: invoice.amount_due,
      amount_remaining: 0,
      next_payment_attempt: null,
      status_transitions: { paid_at: this.now() },
    });
    if (result.intent) {
      this.put({
        id: this.id('inpay'),
        object: 'invoice_payment',
        invoice: invoice.id,
        status: 'paid',
        is_default: true,
        amount_paid: invoice.amount_due,
        payment: { type: 'payment_intent', payment_intent: result.intent.id },
      });
    }
    if (sub && sub.status === 'past_due' && sub.latest_invoice === invoice.id) sub.status = 'active';
    this.emit('invoice.paid', invoice);
    this.emit('invoice.payment_succeeded', invoice);
    return undefined;
  }

  cancel(sub: Obj) {
    Object.assign(sub, { status: 'canceled', ended_at: this.now(), canceled_at: this.now(), cancel_at_period_end: false });
    for (const invoice of this.list('invoice', (i) => i.parent?.subscription_details?.subscription === sub.id && i.status === 'open'))
      invoice.next_payment_attempt = null;
    this.emit('customer.subscription.deleted', sub);
  }

  voidInvoice(invoice: Obj) {
    if (invoice.status !== 'open') throw invalid(`You can only void an open invoice (this one is ${invoice.status}).`, 'invoice_not_open');
    Object.assign(invoice, { status: 'void', next_payment_attempt: null });
    const sub = this.objects[invoice.parent?.subscription_details?.subscription];
    if (sub?.status === 'past_due' && sub.latest_invoice === invoice.id) sub.status = 'active';
    this.emit('invoice.voided', invoice);
  }

  /** Runs everything due by now, in time order: renewals, schedule phases, pauses ending, Stripe's retries. */
  tick() {
    for (let guard = 0; guard < 10_000; guard++) {
      const now = this.now();
      const due: { at: number; run: () => void }[] = [];
      for (const sub of this.list('subscription', (s) => s.status !== 'canceled' && s.status !== 'incomplete_expired')) {
        const end = sub.items.data[0].current_period_end;
        if (end <= now) due.push({ at: end, run: () => this.renew(sub) });
      }
      for (const invoice of this.list(
        'invoice',
        (i) => i.status === 'open' && i.auto_advance && i.next_payment_attempt !== null && i.next_payment_attempt <= now,
      )) {
        due.push({
          at: invoice.next_payment_attempt,
          run: () => this.attempt(invoice, this.defaultCardOf(this.objects[invoice.parent.subscription_details.subscription] ?? {})),
        });
      }
      if (due.length === 0) return;
      due.sort((a, b) => a.at - b.at)[0]!.run();
    }
    throw new Error('fake Stripe: tick did not settle');
  }

  private renew(sub: Obj) {
    const item = sub.items.data[0];
    const start = item.current_period_end;
    if (sub.cancel_at_period_end) return this.cancel(sub);
    const schedule = sub.schedule ? this.objects[sub.schedule] : undefined;
    if (schedule) {
      const next = schedule.phases.find((p: Obj) => p.start_date === start);
      if (next) {
        item.price = this.get(next.items[0].price, 'price');
        schedule.current_phase = { start_date: next.start_date, end_date: next.end_date };
        if (next === schedule.phases[schedule.phases.length - 1]) {
          Object.assign(schedule, { status: 'released', released_at: start, released_subscription: sub.id });
          sub.schedule = null;
        }
      }
    }
    const end = addInterval(start, item.price.recurring.interval, item.price.recurring.interval_count ?? 1);
    Object.assign(item, { current_period_start: start, current_period_end: end });
    const trialEnded = sub.status === 'trialing';
    if (trialEnded) sub.status = 'active';
    const pause = sub.pause_collection;
    if (pause?.resumes_at && pause.resumes_at <= start) sub.pause_collection = null;
    this.invoice(sub, 'subscription_cycle', { start, end }, { void: Boolean(sub.pause_collection) });
    this.emit('customer.subscription.updated', sub, { items: {} });
  }
}
