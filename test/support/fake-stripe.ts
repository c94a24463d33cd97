import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { completeCheckout, type FakeBuyer } from './fake-stripe/checkout';
import { StripeError, StripeModel, type Obj } from './fake-stripe/model';
import { parseForm, refusal, routeOf } from './fake-stripe/params';
import { present, route } from './fake-stripe/routes';

export type { FakeBuyer } from './fake-stripe/checkout';

export interface StripeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Form fields exactly as posted (`line_items[0][price]`). */
  form: Record<string, string>;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
  /** The raw body and query string, for byte-for-byte comparisons of the encoding. */
  rawBody: string;
  rawQuery: string;
  headers: IncomingHttpHeaders;
}

/**
 * An answer; `headers` are added to the response, `delayMs` holds it back (timeouts), `drop`
 * closes the connection without answering (a network error).
 */
type Answer = { status?: number; body: unknown; headers?: Record<string, string>; delayMs?: number; drop?: boolean };
type Responder = (request: StripeRequest) => Answer | undefined;

/**
 * A fake Stripe API on 127.0.0.1 that keeps state (fake-stripe/model.ts: customers, payment
 * methods, products, prices, coupons, Checkout Sessions, subscriptions and their schedules,
 * invoices, payment intents, charges, refunds) on a clock the test sets, and emits Stripe-shaped
 * snapshot events, signed as Stripe signs them, to a webhook endpoint when the test flushes them.
 *
 * It refuses what Stripe refuses: unknown or missing parameters per endpoint (fake-stripe/params.ts,
 * after the `stripe` package's parameter types), a few documented cross-field rules, inactive
 * prices, actions on canceled subscriptions or paid invoices, unknown ids (404 resource_missing),
 * declined test cards (402 card_error), and an idempotency key reused with other parameters
 * (400 idempotency_error). A key reused with the same parameters replays the stored answer
 * (`Idempotent-Replayed: true`), so a retried charge is never charged twice.
 *
 * `respond` overrides come first (faults: 429, 5xx, timeouts, dropped connections); they act before
 * the request "executes", so nothing is stored under their idempotency key, unless the responder
 * calls `execute` itself (Stripe acted, its answer was lost or held back).
 *
 * Not modelled: Connect, multiple subscription items, proration amounts, invoice items, taxes
 * beyond one rate per buyer country (`taxRates`), 3-D Secure (`requires_action`), Smart Retries'
 * timing (fixed days 3, 5, 7 after the period start, then cancel), customer portal pages
 * (`updateCard` acts as the buyer on them), disputes' evidence and outcome (`dispute` opens one),
 * pagination (`has_more` is always false), API versions other than the pinned one, search, rate
 * limits (use `respond`), and signature headers on anything but events.
 */
export class FakeStripe {
  readonly requests: StripeRequest[] = [];
  readonly model: StripeModel;
  respond: Responder[] = [];
  /** Events emitted, oldest first; `pending` are those not yet accepted by the webhook endpoint. */
  readonly events: Obj[] = [];
  private pending: Obj[] = [];
  webhook?: { url: string; secret: string };
  /** The fake's clock (Unix seconds); defaults to real time. */
  clock: () => number = () => Math.floor(Date.now() / 1000);
  livemode = false;
  private server?: Server;
  private counter = 0;
  private readonly idempotent = new Map<string, { fingerprint: string; status: number; body: unknown }>();

  constructor() {
    this.model = new StripeModel(
      () => this.clock(),
      (type, object, previous) => this.emit(type, object, previous),
    );
  }

  /** Every object by id (tests may also put hand-made objects here). */
  get objects(): Record<string, Obj> {
    return this.model.objects;
  }

  get url() {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async start() {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => (raw += chunk));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://x');
        const request: StripeRequest = {
          method: req.method ?? 'GET',
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          form: Object.fromEntries(new URLSearchParams(raw)),
          idempotencyKey: req.headers['idempotency-key'] as string | undefined,
          authorization: req.headers.authorization,
          rawBody: raw,
          rawQuery: url.search.replace(/^\?/, ''),
          headers: req.headers,
        };
        this.requests.push(request);
        const answer: Answer = this.respond.map((r) => r(request)).find(Boolean) ?? this.answer(request);
        if (answer.drop) {
          req.socket.destroy();
          return;
        }
        const send = () => {
          if (res.destroyed) return;
          res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', 'request-id': `req_${++this.counter}`, ...answer.headers });
          res.end(JSON.stringify(answer.body));
        };
        if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
        else send();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop() {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  take() {
    return this.requests.splice(0, this.requests.length);
  }

  /**
   * What the fake would answer, the call executed (stored under its idempotency key): a responder
   * that returns it with a `delayMs` or another status models an answer lost after Stripe acted.
   */
  execute(r: StripeRequest): Answer {
    return this.answer(r);
  }

  private answer(r: StripeRequest): Answer {
    if (!r.authorization?.startsWith('Bearer '))
      return { status: 401, body: { error: { type: 'invalid_request_error', message: 'You did not provide an API key.' } } };
    const params = parseForm(r.method === 'POST' ? r.form : r.query);
    const name = routeOf(r.method, r.path);
    const refused = refusal(name, params);
    if (refused) return { status: 400, body: { error: { type: 'invalid_request_error', ...refused } } };
    const fingerprint = `${r.method} ${r.path} ${r.method === 'POST' ? r.rawBody : r.rawQuery}`;
    const key = r.method === 'GET' ? undefined : r.idempotencyKey;
    const saved = key ? this.idempotent.get(key) : undefined;
    if (saved && saved.fingerprint !== fingerprint) {
      return {
        status: 400,
        body: {
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          },
        },
      };
    }
    if (saved) return { status: saved.status, body: saved.body, headers: { 'idempotent-replayed': 'true' } };
    let status = 200;
    let body: unknown;
    try {
      body = route(this.model, r.method, r.path, params);
      if (key && body && typeof body === 'object' && 'id' in body) (this.model.objects[(body as Obj).id] ?? {})._idempotency = key;
    } catch (error) {
      if (!(error instanceof StripeError)) throw error;
      status = error.status;
      body = { error: error.error };
    }
    if (key) this.idempotent.set(key, { fingerprint, status, body });
    return { status, body };
  }

  // ---- events ----

  private emit(type: string, object: Obj, previous?: Obj) {
    const event = {
      id: `evt_${String(this.events.length + 1).padStart(8, '0')}`,
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: this.clock(),
      livemode: this.livemode,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: present(this.model, { ...object, livemode: this.livemode }), ...(previous ? { previous_attributes: previous } : {}) },
    };
    this.events.push(event);
    this.pending.push(event);
  }

  /**
   * Posts the pending events, oldest first, signed with the webhook secret; an event the endpoint
   * does not accept (non-2xx) is tried again in the next round, as Stripe retries it. Events the
   * endpoint's own calls cause are delivered in the same flush. Answers the deliveries made.
   */
  async flush(options: { rounds?: number } = {}): Promise<{ event: Obj; status: number; body: unknown }[]> {
    const out: { event: Obj; status: number; body: unknown }[] = [];
    if (!this.webhook) throw new Error('FakeStripe.flush: no webhook endpoint set');
    for (let round = 0; round < (options.rounds ?? 4) && this.pending.length > 0; round++) {
      const batch = this.pending;
      this.pending = [];
      const failed: Obj[] = [];
      for (const event of batch) {
        const payload = JSON.stringify(event);
        const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: this.webhook.secret, timestamp: this.clock() });
        const response = await fetch(this.webhook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': header },
          body: payload,
        });
        const text = await response.text();
        out.push({ event, status: response.status, body: text ? JSON.parse(text) : null });
        if (!response.ok) failed.push(event);
      }
      this.pending = [...failed, ...this.pending];
    }
    return out;
  }

  /** Forgets the events not yet delivered (tests that look at requests only). */
  dropPending() {
    this.pending = [];
  }

  // ---- the buyer and the bank ----

  /** The buyer pays a Checkout Session on Stripe's page (checkout.ts). */
  completeCheckout(sessionId: string, buyer: FakeBuyer) {
    return present(this.model, completeCheckout(this.model, sessionId, buyer));
  }

  /** Runs what falls due on the fake's clock: renewals, schedule phases, pauses ending, Stripe's own retries. */
  tick() {
    this.model.tick();
  }

  /** From now on the card declines (or pays again): the bank's answer changes, not the card. */
  setCardDeclining(paymentMethodId: string, declining: boolean) {
    this.model.get(paymentMethodId, 'payment_method')._declines = declining;
  }

  /**
   * The buyer enters a new card on the Billing Portal's payment-method-update flow: Stripe attaches
   * it, makes it the customer's and the subscriptions' default, and reports it.
   */
  updateCard(customerId: string, cardNumber = '4242424242424242') {
    const customer = this.model.get(customerId, 'customer');
    const pm = this.model.paymentMethod(customerId, cardNumber);
    this.emit('payment_method.attached', pm);
    const previous = { invoice_settings: { ...customer.invoice_settings } };
    customer.invoice_settings.default_payment_method = pm.id;
    for (const sub of this.model.list('subscription', (s) => s.customer === customerId && s.status !== 'canceled')) sub.default_payment_method = pm.id;
    this.emit('customer.updated', customer, previous);
    return pm.id;
  }

  /** The buyer's bank opens a dispute on a payment. */
  dispute(paymentIntentId: string) {
    const intent = this.model.get(paymentIntentId, 'payment_intent');
    const charge = this.model.get(intent.latest_charge, 'charge');
    charge.disputed = true;
    const dispute = this.model.put({
      id: this.model.id('dp'),
      object: 'dispute',
      amount: charge.amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: intent.id,
      status: 'needs_response',
      reason: 'fraudulent',
      created: this.clock(),
    });
    this.emit('charge.dispute.created', dispute);
    return dispute.id;
  }

  /** Tax rates by buyer country (percent) that Stripe Tax answers for sessions with automatic tax. */
  setTaxRate(country: string, percent: number) {
    this.model.taxRates[country] = percent;
  }
}
