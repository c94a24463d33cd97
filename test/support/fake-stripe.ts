import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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
 * A fake Stripe API on 127.0.0.1: records every request and answers from the objects a test puts
 * in it (`objects[id]`), or from `respond` overrides. Errors are shaped as Stripe's.
 */
export class FakeStripe {
  readonly requests: StripeRequest[] = [];
  readonly objects: Record<string, Record<string, unknown>> = {};
  respond: Responder[] = [];
  private server?: Server;
  private counter = 0;

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
        const answer: Answer = this.respond.map((r) => r(request)).find(Boolean) ?? this.defaultAnswer(request);
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

  private id(prefix: string) {
    return `${prefix}_${String(++this.counter).padStart(6, '0')}`;
  }

  private defaultAnswer(r: StripeRequest): Answer {
    if (r.method === 'POST' && r.path === '/v1/checkout/sessions') {
      const cs = this.id('cs_test');
      return { body: { id: cs, object: 'checkout.session', url: `https://checkout.stripe.com/c/pay/${cs}` } };
    }
    if (r.method === 'POST' && r.path === '/v1/billing_portal/sessions') {
      const bps = this.id('bps');
      return { body: { id: bps, object: 'billing_portal.session', customer: r.form.customer, return_url: r.form.return_url, url: `https://billing.stripe.com/p/session/${bps}` } };
    }
    const [, , resource, id, sub] = r.path.split('/');
    if (r.method === 'POST' && !id) {
      const prefix = { products: 'prod', prices: 'price', coupons: 'co', refunds: 're', payment_intents: 'pi' }[resource!] ?? 'obj';
      const created = { id: this.id(prefix), object: resource!.replace(/s$/, ''), ...r.form };
      if (resource === 'payment_intents') Object.assign(created, { amount: Number(r.form.amount), currency: r.form.currency, status: 'succeeded' });
      this.objects[created.id] = created;
      return { body: created };
    }
    const key = id;
    void sub;
    if (key && this.objects[key]) {
      const object = this.objects[key]!;
      if (r.method === 'POST') {
        if (r.form.cancel_at_period_end) object.cancel_at_period_end = r.form.cancel_at_period_end === 'true';
        if ('pause_collection[behavior]' in r.form) object.pause_collection = { behavior: r.form['pause_collection[behavior]'] };
        if (r.form.pause_collection === '') object.pause_collection = null;
        if (r.form.active) object.active = r.form.active === 'true';
      }
      if (r.method === 'DELETE') object.status = 'canceled';
      return { body: object };
    }
    if (resource === 'invoice_payments') {
      const list = Object.values(this.objects).filter((o) => o.object === 'invoice_payment' && o.invoice === r.query.invoice);
      return { body: { object: 'list', data: list, has_more: false, url: '/v1/invoice_payments' } };
    }
    return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such object: '${key}'` } } };
  }
}
