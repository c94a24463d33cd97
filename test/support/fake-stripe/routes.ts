import { StripeError, addInterval, missing, type Obj, type StripeModel } from './model';

const bool = (v: unknown) => v === 'true' || v === true;
const int = (v: unknown) => (v === undefined || v === '' ? undefined : Number(v));

/** Stripe's answer objects: internal `_` fields dropped, `expand[]` paths replaced by their objects. */
export function present(model: StripeModel, object: Obj, expand: string[] = []): Obj {
  const out = JSON.parse(JSON.stringify(object, (key, value) => (key.startsWith('_') ? undefined : value))) as Obj;
  if (object.object === 'subscription') out.discounts = (object._discounts ?? []).map((d: Obj) => d.id);
  for (const path of expand) {
    const [head, ...rest] = path.split('.');
    const id = out[head!];
    if (typeof id === 'string' && model.objects[id]) out[head!] = present(model, model.objects[id]!, rest.length ? [rest.join('.')] : []);
  }
  return out;
}

function discountsOf(model: StripeModel, sub: Obj, discounts: unknown): Obj[] {
  if (discounts === '' || discounts === undefined) return [];
  return (discounts as Obj[]).map((d) => {
    const coupon = model.get(d.coupon, 'coupon');
    if (!coupon.valid)
      throw new StripeError(400, { type: 'invalid_request_error', code: 'coupon_expired', message: `Coupon ${coupon.id} is no longer valid.` });
    coupon.times_redeemed += 1;
    if (coupon.max_redemptions && coupon.times_redeemed >= coupon.max_redemptions) coupon.valid = false;
    const start = model.now();
    const end = coupon.duration === 'repeating' ? addInterval(start, 'month', coupon.duration_in_months) : null;
    return { id: model.id('di'), object: 'discount', coupon, start, end, subscription: sub.id ?? null };
  });
}

/** One API call on the model: the answer's object, or a StripeError. */
export function route(model: StripeModel, method: string, path: string, params: Obj): Obj {
  const [, , resource, a, b, c] = path.split('/');
  const expand: string[] = params.expand ?? [];
  const show = (o: Obj) => present(model, o, expand);
  const now = model.now();
  switch (
    `${method} ${resource}${a && resource !== 'checkout' && resource !== 'billing_portal' ? '/:id' : ''}${b && resource !== 'checkout' && resource !== 'billing_portal' ? `/${b}` : ''}`
  ) {
    case 'POST products':
      return show(model.put({ id: model.id('prod'), object: 'product', name: params.name, active: true, metadata: params.metadata ?? {}, created: now }));
    case 'POST prices': {
      model.get(params.product, 'product');
      const recurring = params.recurring ? { interval: params.recurring.interval, interval_count: int(params.recurring.interval_count) ?? 1 } : null;
      return show(
        model.put({
          id: model.id('price'),
          object: 'price',
          product: params.product,
          unit_amount: int(params.unit_amount),
          currency: params.currency,
          recurring,
          type: recurring ? 'recurring' : 'one_time',
          active: true,
          metadata: params.metadata ?? {},
        }),
      );
    }
    case 'POST prices/:id': {
      const price = model.get(a, 'price');
      if (params.active !== undefined) price.active = bool(params.active);
      return show(price);
    }
    case 'POST coupons':
      return show(
        model.put({
          id: model.id('co'),
          object: 'coupon',
          amount_off: int(params.amount_off) ?? null,
          percent_off: params.percent_off ? Number(params.percent_off) : null,
          currency: params.currency ?? null,
          duration: params.duration ?? 'once',
          duration_in_months: int(params.duration_in_months) ?? null,
          max_redemptions: int(params.max_redemptions) ?? null,
          times_redeemed: 0,
          valid: true,
          name: params.name ?? null,
          metadata: params.metadata ?? {},
        }),
      );
    case 'POST checkout': {
      if (a !== 'sessions') throw missing(path);
      // price_data: a one-off price of an existing product, made for this session only.
      const inline = (l: Obj) => {
        const data = l.price_data as Obj;
        model.get(data.product, 'product');
        if (int(data.unit_amount) === undefined || !data.currency)
          throw new StripeError(400, {
            type: 'invalid_request_error',
            code: 'parameter_missing',
            message: 'Missing required param: line_items[0][price_data][unit_amount].',
          });
        return model.put({
          id: model.id('price'),
          object: 'price',
          product: data.product,
          unit_amount: int(data.unit_amount),
          currency: data.currency,
          recurring: null,
          type: 'one_time',
          active: true,
          metadata: {},
        });
      };
      const lines = (params.line_items as Obj[]).map((l) => ({
        price: l.price_data ? inline(l) : model.get(l.price, 'price'),
        quantity: int(l.quantity) ?? 1,
      }));
      for (const line of lines) {
        if (!line.price.active)
          throw new StripeError(400, { type: 'invalid_request_error', code: 'price_inactive', message: `The price specified (${line.price.id}) is inactive.` });
        if ((params.mode === 'subscription') !== Boolean(line.price.recurring))
          throw new StripeError(400, {
            type: 'invalid_request_error',
            code: 'parameter_invalid',
            message: `The price ${line.price.id} does not fit mode ${params.mode}.`,
          });
      }
      for (const d of params.discounts ?? []) model.get(d.coupon, 'coupon');
      const id = model.id('cs_test');
      const subtotal = lines.reduce((sum, l) => sum + l.price.unit_amount * l.quantity, 0);
      return show(
        model.put({
          id,
          object: 'checkout.session',
          mode: params.mode,
          status: 'open',
          payment_status: 'unpaid',
          url: `https://checkout.stripe.com/c/pay/${id}`,
          success_url: params.success_url ?? null,
          cancel_url: params.cancel_url ?? null,
          client_reference_id: params.client_reference_id ?? null,
          metadata: params.metadata ?? {},
          currency: lines[0]!.price.currency,
          amount_subtotal: subtotal,
          amount_total: subtotal,
          automatic_tax: { enabled: bool(params.automatic_tax?.enabled), status: null },
          customer: null,
          customer_details: null,
          subscription: null,
          invoice: null,
          payment_intent: null,
          created: now,
          livemode: false,
          _params: params,
          _lines: lines,
        }),
      );
    }
    case 'POST billing_portal': {
      model.get(params.customer, 'customer');
      const id = model.id('bps');
      return show(
        model.put({
          id,
          object: 'billing_portal.session',
          customer: params.customer,
          return_url: params.return_url ?? null,
          flow: params.flow_data ?? null,
          url: `https://billing.stripe.com/p/session/${id}`,
          created: now,
        }),
      );
    }
    case 'POST payment_intents': {
      const result = model.charge({
        amount: Number(params.amount),
        currency: params.currency,
        customer: params.customer ?? null,
        paymentMethod: params.payment_method ?? null,
        description: params.description,
        metadata: params.metadata,
      });
      if (result.error) throw result.error;
      return show(result.intent);
    }
    case 'GET payment_intents/:id':
      return show(model.get(a, 'payment_intent'));
    case 'GET customers/:id':
      return show(model.get(a, 'customer'));
    case 'POST customers/:id': {
      // As Stripe does: a field sent empty is unset (null); the others change as sent.
      const customer = model.get(a, 'customer');
      for (const field of ['email', 'name', 'phone', 'description', 'address', 'shipping'])
        if (field in params) customer[field] = params[field] === '' ? null : params[field];
      return show(customer);
    }
    case 'POST payment_methods/:id/detach': {
      const pm = model.get(a, 'payment_method');
      if (!pm.customer)
        throw new StripeError(400, {
          type: 'invalid_request_error',
          code: 'payment_method_unexpected_state',
          message: 'The payment method you provided is not attached to a customer so detachment is impossible.',
        });
      const customer = model.objects[pm.customer];
      if (customer?.invoice_settings?.default_payment_method === pm.id) customer.invoice_settings.default_payment_method = null;
      for (const sub of model.list('subscription', (s) => s.default_payment_method === pm.id)) sub.default_payment_method = null;
      pm.customer = null;
      model.emit('payment_method.detached', pm);
      return show(pm);
    }
    case 'GET subscriptions/:id':
      return show(model.get(a, 'subscription'));
    case 'POST subscriptions/:id': {
      const sub = model.get(a, 'subscription');
      if (sub.status === 'canceled')
        throw new StripeError(400, {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: 'A canceled subscription can only update its cancellation_details and metadata.',
        });
      const previous: Obj = {};
      if (params.pause_collection !== undefined) {
        previous.pause_collection = sub.pause_collection;
        sub.pause_collection =
          params.pause_collection === '' ? null : { behavior: params.pause_collection.behavior, resumes_at: int(params.pause_collection.resumes_at) ?? null };
      }
      if (params.cancel_at_period_end !== undefined) {
        previous.cancel_at_period_end = sub.cancel_at_period_end;
        sub.cancel_at_period_end = bool(params.cancel_at_period_end);
      }
      if (params.discounts !== undefined) {
        previous.discounts = sub._discounts.map((d: Obj) => d.id);
        sub._discounts = discountsOf(model, sub, params.discounts);
      }
      if (params.default_payment_method !== undefined) sub.default_payment_method = params.default_payment_method || null;
      if (params.items !== undefined) {
        if (sub.schedule)
          throw new StripeError(400, {
            type: 'invalid_request_error',
            code: 'parameter_invalid',
            message: 'The subscription is managed by a subscription schedule; update the schedule instead.',
          });
        for (const change of params.items as Obj[]) {
          const item = sub.items.data.find((i: Obj) => i.id === change.id);
          if (!item) throw missing(change.id);
          const price = model.get(change.price, 'price');
          if (price.recurring.interval !== item.price.recurring.interval && params.proration_behavior === 'none') {
            throw new StripeError(400, {
              type: 'invalid_request_error',
              code: 'parameter_invalid',
              message: 'Changing the interval resets the billing cycle now; use a subscription schedule to change it at the period end.',
            });
          }
          item.price = price;
        }
      }
      model.emit('customer.subscription.updated', sub, previous);
      return show(sub);
    }
    case 'DELETE subscriptions/:id': {
      const sub = model.get(a, 'subscription');
      if (sub.status === 'canceled')
        throw new StripeError(400, { type: 'invalid_request_error', code: 'resource_missing', message: `No such subscription: '${a}'` });
      model.cancel(sub);
      return show(sub);
    }
    case 'POST subscription_schedules': {
      const sub = model.get(params.from_subscription, 'subscription');
      if (sub.schedule)
        throw new StripeError(400, {
          type: 'invalid_request_error',
          code: 'parameter_invalid',
          message: `You cannot migrate a subscription that is already attached to a schedule: \`${sub.schedule}\`.`,
        });
      const item = sub.items.data[0];
      const phase = {
        start_date: item.current_period_start,
        end_date: item.current_period_end,
        items: [{ price: item.price.id, quantity: item.quantity ?? 1 }],
      };
      const schedule = model.put({
        id: model.id('sub_sched'),
        object: 'subscription_schedule',
        subscription: sub.id,
        customer: sub.customer,
        status: 'active',
        end_behavior: 'release',
        phases: [phase],
        current_phase: { start_date: phase.start_date, end_date: phase.end_date },
        metadata: {},
      });
      sub.schedule = schedule.id;
      return show(schedule);
    }
    case 'GET subscription_schedules/:id':
      return show(model.get(a, 'subscription_schedule'));
    case 'POST subscription_schedules/:id': {
      const schedule = model.get(a, 'subscription_schedule');
      if (schedule.status !== 'active')
        throw new StripeError(400, {
          type: 'invalid_request_error',
          code: 'parameter_invalid',
          message: `You cannot update a subscription schedule that is ${schedule.status}.`,
        });
      if (params.phases) {
        const phases = (params.phases as Obj[]).map((p) => ({
          start_date: int(p.start_date),
          end_date: int(p.end_date),
          duration: p.duration ? { interval: p.duration.interval, interval_count: int(p.duration.interval_count) ?? 1 } : undefined,
          items: (p.items as Obj[]).map((i) => ({ price: model.get(i.price, 'price').id, quantity: int(i.quantity) ?? 1 })),
        }));
        if (phases[0]!.start_date !== schedule.current_phase.start_date)
          throw new StripeError(400, {
            type: 'invalid_request_error',
            code: 'parameter_invalid',
            message: 'You can not modify the start date of the current phase.',
          });
        for (let i = 1; i < phases.length; i++) {
          const prev = phases[i - 1]!;
          if (prev.end_date === undefined)
            throw new StripeError(400, {
              type: 'invalid_request_error',
              code: 'parameter_missing',
              message: `Missing required param: phases[${i - 1}][end_date].`,
            });
          phases[i]!.start_date = prev.end_date;
          const duration = phases[i]!.duration;
          if (phases[i]!.end_date === undefined && duration) phases[i]!.end_date = addInterval(prev.end_date, duration.interval, duration.interval_count);
        }
        schedule.phases = phases;
      }
      if (params.end_behavior) schedule.end_behavior = params.end_behavior;
      return show(schedule);
    }
    case 'POST refunds':
      return show(model.refund(params.payment_intent ?? model.get(params.charge, 'charge').payment_intent, int(params.amount)));
    case 'GET invoice_payments': {
      const data = model.list('invoice_payment', (p) => p.invoice === params.invoice).slice(0, int(params.limit) ?? 10);
      return { object: 'list', data: data.map(show), has_more: false, url: '/v1/invoice_payments' };
    }
    case 'GET invoices': {
      const data = model.list(
        'invoice',
        (i) =>
          (!params.customer || i.customer === params.customer) &&
          (!params.status || i.status === params.status) &&
          (!params.subscription || i.parent?.subscription_details?.subscription === params.subscription),
      );
      return { object: 'list', data: data.slice(0, int(params.limit) ?? 10).map(show), has_more: false, url: '/v1/invoices' };
    }
    case 'GET invoices/:id':
      return show(model.get(a, 'invoice'));
    case 'POST invoices/:id': {
      const invoice = model.get(a, 'invoice');
      if (params.auto_advance !== undefined) {
        invoice.auto_advance = bool(params.auto_advance);
        if (!invoice.auto_advance) invoice.next_payment_attempt = null;
      }
      return show(invoice);
    }
    case 'POST invoices/:id/pay': {
      const invoice = model.get(a, 'invoice');
      const sub = model.objects[invoice.parent?.subscription_details?.subscription] ?? {};
      const card = params.payment_method ?? model.defaultCardOf(sub);
      // Paying by hand with no card on file is refused before any attempt (no event), as Stripe does.
      if (!card && invoice.status === 'open' && invoice.amount_due > 0)
        throw new StripeError(400, { type: 'invalid_request_error', message: 'This customer has no attached payment source or default payment method.' });
      const error = model.attempt(invoice, card, { manual: true });
      if (error) throw error;
      return show(invoice);
    }
    case 'POST invoices/:id/void':
      model.voidInvoice(model.get(a, 'invoice'));
      return show(model.get(a, 'invoice'));
    default:
      void c;
      throw missing(path);
  }
}
