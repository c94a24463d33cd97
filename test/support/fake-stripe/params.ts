/**
 * What the fake Stripe accepts per endpoint: the top-level parameters of the `stripe` package's
 * `*CreateParams` / `*UpdateParams` / `*RetrieveParams` types that the adapter could send, the
 * required ones, and a few of Stripe's documented cross-field rules. Anything else is refused as
 * Stripe refuses it (400 `invalid_request_error`, `parameter_unknown` / `parameter_missing`).
 * The lists are a subset of Stripe's (parameters the adapter never sends are left out and so
 * refused; a new call of the adapter needs its line here, which keeps the fake honest).
 */
export interface EndpointRule {
  allowed: string[];
  required?: string[];
  check?: (params: Record<string, any>) => string | undefined;
}

const EXPAND = 'expand';

export const RULES: Record<string, EndpointRule> = {
  'POST /v1/products': { allowed: ['name', 'metadata', 'active', 'description', 'tax_code', EXPAND], required: ['name'] },
  'POST /v1/prices': {
    allowed: ['product', 'unit_amount', 'currency', 'recurring', 'metadata', 'active', 'nickname', 'tax_behavior', EXPAND],
    required: ['currency'],
    check: (p) =>
      p.product === undefined ? 'Missing required param: product.' : p.unit_amount === undefined ? 'Missing required param: unit_amount.' : undefined,
  },
  'POST /v1/prices/:id': { allowed: ['active', 'metadata', 'nickname', EXPAND] },
  'POST /v1/coupons': {
    allowed: ['amount_off', 'percent_off', 'currency', 'duration', 'duration_in_months', 'max_redemptions', 'name', 'metadata', 'id', EXPAND],
    check: (p) => {
      if ((p.amount_off === undefined) === (p.percent_off === undefined)) return 'You must pass exactly one of amount_off or percent_off.';
      if (p.amount_off !== undefined && !p.currency) return 'You must pass currency when passing amount_off.';
      if (p.duration === 'repeating' && !p.duration_in_months) return 'You must pass duration_in_months when duration is repeating.';
      if (p.duration !== 'repeating' && p.duration_in_months !== undefined) return 'duration_in_months can only be used when duration is repeating.';
      return undefined;
    },
  },
  'POST /v1/checkout/sessions': {
    allowed: [
      'mode',
      'line_items',
      'success_url',
      'cancel_url',
      'client_reference_id',
      'metadata',
      'discounts',
      'subscription_data',
      'customer_creation',
      'payment_intent_data',
      'automatic_tax',
      'tax_id_collection',
      'billing_address_collection',
      'customer',
      'customer_email',
      EXPAND,
    ],
    required: ['mode'],
    check: (p) => {
      if (p.mode === 'subscription' && p.customer_creation !== undefined) return 'customer_creation can only be used in payment mode.';
      if (p.mode === 'subscription' && p.payment_intent_data !== undefined) return 'payment_intent_data can only be used in payment mode.';
      if (p.mode === 'payment' && p.subscription_data !== undefined) return 'subscription_data can only be used in subscription mode.';
      if (!Array.isArray(p.line_items) || p.line_items.length === 0) return 'Missing required param: line_items.';
      return undefined;
    },
  },
  'POST /v1/billing_portal/sessions': { allowed: ['customer', 'return_url', 'flow_data', 'configuration', EXPAND], required: ['customer'] },
  'POST /v1/payment_intents': {
    allowed: [
      'amount',
      'currency',
      'customer',
      'payment_method',
      'off_session',
      'confirm',
      'description',
      'metadata',
      'setup_future_usage',
      'payment_method_types',
      EXPAND,
    ],
    required: ['amount', 'currency'],
    check: (p) => (p.off_session === 'true' && p.confirm !== 'true' ? 'off_session can only be used when confirm=true.' : undefined),
  },
  'GET /v1/payment_intents/:id': { allowed: [EXPAND] },
  'GET /v1/customers/:id': { allowed: [EXPAND] },
  'POST /v1/customers/:id': { allowed: ['email', 'name', 'phone', 'description', 'address', 'shipping', 'metadata', EXPAND] },
  'GET /v1/subscriptions/:id': { allowed: [EXPAND] },
  'POST /v1/subscriptions/:id': {
    allowed: [
      'pause_collection',
      'cancel_at_period_end',
      'discounts',
      'items',
      'proration_behavior',
      'default_payment_method',
      'metadata',
      'collection_method',
      EXPAND,
    ],
    check: (p) =>
      p.pause_collection && typeof p.pause_collection === 'object' && !p.pause_collection.behavior
        ? 'Missing required param: pause_collection[behavior].'
        : undefined,
  },
  'DELETE /v1/subscriptions/:id': { allowed: ['invoice_now', 'prorate', 'cancellation_details', EXPAND] },
  'POST /v1/subscription_schedules': {
    allowed: ['from_subscription', 'customer', 'phases', 'end_behavior', 'metadata', 'start_date', EXPAND],
    check: (p) =>
      p.from_subscription && (p.phases || p.end_behavior) ? 'You cannot set phases or end_behavior when creating a schedule from_subscription.' : undefined,
  },
  'POST /v1/subscription_schedules/:id': { allowed: ['phases', 'end_behavior', 'metadata', 'proration_behavior', EXPAND] },
  'GET /v1/subscription_schedules/:id': { allowed: [EXPAND] },
  'POST /v1/refunds': {
    allowed: ['payment_intent', 'charge', 'amount', 'reason', 'metadata', EXPAND],
    check: (p) => (!p.payment_intent && !p.charge ? 'One of the following params should be provided for this request: payment_intent or charge.' : undefined),
  },
  'GET /v1/invoice_payments': { allowed: ['invoice', 'limit', 'payment', 'status', 'starting_after', 'ending_before', EXPAND] },
  'GET /v1/invoices': { allowed: ['customer', 'subscription', 'status', 'limit', 'starting_after', 'ending_before', EXPAND] },
  'GET /v1/invoices/:id': { allowed: [EXPAND] },
  'POST /v1/invoices/:id': { allowed: ['auto_advance', 'metadata', 'description', EXPAND] },
  'POST /v1/invoices/:id/pay': { allowed: ['off_session', 'payment_method', 'paid_out_of_band', 'forgive', EXPAND] },
  'POST /v1/invoices/:id/void': { allowed: [EXPAND] },
  'POST /v1/payment_methods/:id/detach': { allowed: [EXPAND] },
};

/** The rule key of a request: ids replaced by `:id` (`POST /v1/subscriptions/:id`). */
export function routeOf(method: string, path: string): string {
  const parts = path.split('/');
  // /v1/<resource>[/<id>[/<action>]]; checkout and billing_portal have a sub-resource first.
  const nested = parts[2] === 'checkout' || parts[2] === 'billing_portal';
  const base = nested ? 4 : 3;
  const out = parts.slice(0, base);
  if (parts[base]) out.push(':id');
  if (parts[base + 1]) out.push(parts[base + 1]!);
  return `${method} ${out.join('/')}`;
}

/** Stripe's form encoding read back into nested objects and arrays (`a[b][0][c]=v`). */
export function parseForm(flat: Record<string, string>): Record<string, any> {
  const root: Record<string, any> = {};
  for (const [key, value] of Object.entries(flat)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: any = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      if (last) node[part] = value;
      else {
        if (node[part] === undefined || typeof node[part] !== 'object') node[part] = /^\d+$/.test(path[i + 1]!) ? [] : {};
        node = node[part];
      }
    });
  }
  return root;
}

/** The refusal Stripe gives for a call outside its rules, or undefined when it passes. */
export function refusal(route: string, params: Record<string, any>): { message: string; code: string; param?: string } | undefined {
  const rule = RULES[route];
  if (!rule) return { message: `Unrecognized request URL (${route}).`, code: 'url_invalid' };
  for (const key of Object.keys(params))
    if (!rule.allowed.includes(key)) return { message: `Received unknown parameter: ${key}`, code: 'parameter_unknown', param: key };
  for (const key of rule.required ?? [])
    if (params[key] === undefined) return { message: `Missing required param: ${key}.`, code: 'parameter_missing', param: key };
  const message = rule.check?.(params);
  return message ? { message, code: message.startsWith('Missing') ? 'parameter_missing' : 'parameter_invalid' } : undefined;
}
