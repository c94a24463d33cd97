import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stripeClient } from '../../shared/adapters/processor-stripe/client';
import { STRIPE_API_VERSION, StripeApiError, encodeForm, retryDelayMs, shouldRetry } from '../../shared/adapters/processor-stripe/http';
import { processorErrorOf } from '../../shared/adapters/processor-stripe/stripe';
import { ProcessorError } from '../../shared/processor/port';
import { FakeStripe, type StripeRequest } from '../support/fake-stripe';

/**
 * Our Stripe transport against a fake Stripe API on 127.0.0.1, cross-checked with the official
 * SDK (a dev dependency) on the same fake: the same bytes on the wire for the same call.
 */
const SECRET = 'rk_test_http000000000000000000000';
let fake: FakeStripe;
let sdk: Stripe;

/** Our client with a 1 ms backoff so retry tests stay fast. */
const ours = (tuning: { maxRetries?: number; timeoutMs?: number } = {}) => stripeClient(SECRET, { STRIPE_API_URL: fake.url }, { initialRetryDelayMs: 1, maxRetryDelayMs: 5, ...tuning });

const stripeError = (status: number, error: Record<string, unknown>, headers?: Record<string, string>) => ({ status, body: { error }, headers });

/** Answers the given sequence for requests to `path`, then falls through to the fake's defaults. */
function script(path: string, answers: { status?: number; body: unknown; headers?: Record<string, string>; drop?: boolean }[]) {
  const queue = [...answers];
  fake.respond = [(r: StripeRequest) => (r.path === path ? queue.shift() : undefined)];
}

async function mapped(run: () => Promise<unknown>): Promise<ProcessorError> {
  try {
    await run();
  } catch (error) {
    try {
      processorErrorOf(error);
    } catch (out) {
      return out as ProcessorError;
    }
  }
  throw new Error('expected the call to fail');
}

beforeAll(async () => {
  fake = await new FakeStripe().start();
  const target = new URL(fake.url);
  sdk = new Stripe(SECRET, { host: target.hostname, port: target.port, protocol: 'http', maxNetworkRetries: 0, telemetry: false });
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.respond = [];
  fake.take();
});

describe('form encoding', () => {
  it("is byte for byte the SDK's own encoder on nested objects, arrays, empty strings, nulls, dates and escapes", () => {
    // The SDK's internal encoder (not exported by its package map): the reference implementation.
    const sdkUtils = createRequire(import.meta.url)(resolve('node_modules/stripe/cjs/utils.js')) as { queryStringifyRequestData: (data: unknown) => string };
    const params = {
      mode: 'subscription',
      line_items: [{ price: 'price_1', quantity: 1 }, { price_data: { currency: 'usd', unit_amount: 250, product_data: { name: 'Tea & "biscuits" (50%)' } }, quantity: 2 }],
      metadata: { cc_account_id: 'acc_1', 'weird key[]': "it's * ! ~ = + / ?", unicode: 'café 🍵', blank: '' },
      expand: ['default_payment_method', 'latest_charge.balance_transaction'],
      pause_collection: '',
      cancel_at_period_end: false,
      off_session: true,
      unit_amount: 0,
      description: null,
      skipped: undefined,
      sparse: ['a', undefined, 'c'],
      empty_list: [],
      empty_object: {},
      trial_end: new Date('2026-01-02T03:04:05.678Z'),
      nested: { deeper: [{ deepest: { value: 1.5 } }] },
    };
    const encoded = encodeForm(params);
    expect(encoded).toBe(sdkUtils.queryStringifyRequestData(params));
    // And what a form parser reads back from it.
    const fields = Object.fromEntries(new URLSearchParams(encoded));
    expect(fields).toMatchObject({
      'line_items[0][price]': 'price_1',
      'line_items[1][price_data][product_data][name]': 'Tea & "biscuits" (50%)',
      'metadata[weird key[]]': "it's * ! ~ = + / ?",
      'metadata[unicode]': 'café 🍵',
      'metadata[blank]': '',
      'expand[1]': 'latest_charge.balance_transaction',
      pause_collection: '',
      cancel_at_period_end: 'false',
      off_session: 'true',
      unit_amount: '0',
      description: '',
      'sparse[0]': 'a',
      'sparse[2]': 'c',
      trial_end: String(Math.floor(Date.parse('2026-01-02T03:04:05.678Z') / 1000)),
      'nested[deeper][0][deepest][value]': '1.5',
    });
    expect(Object.keys(fields)).not.toContain('skipped');
    expect(Object.keys(fields)).not.toContain('sparse[1]');
    expect(Object.keys(fields).some((k) => k.startsWith('empty_'))).toBe(false);
    expect(encodeForm(undefined)).toBe('');
  });

  it('puts the same request on the wire as the SDK: POST bodies, GET and DELETE queries, keys and auth', async () => {
    const api = ours();
    const checkout: Stripe.Checkout.SessionCreateParams = {
      mode: 'payment',
      line_items: [{ price: 'price_1', quantity: 1 }],
      success_url: 'https://seller.example/ok?x=1&y=2',
      cancel_url: 'https://seller.example/no',
      metadata: { cc_session_id: 'sess1', campaign: 'spring sale' },
      discounts: [{ coupon: 'co_1' }],
      payment_intent_data: { metadata: { cc_session_id: 'sess1' }, setup_future_usage: 'off_session' },
    };
    fake.objects.sub_1 = { id: 'sub_1', object: 'subscription' };
    fake.objects.pi_1 = { id: 'pi_1', object: 'payment_intent' };
    const calls: [string, (client: Stripe | ReturnType<typeof ours>) => Promise<unknown>][] = [
      ['checkout', (c) => c.checkout.sessions.create(checkout, { idempotencyKey: 'cc-checkout-sess1' })],
      ['resume', (c) => c.subscriptions.update('sub_1', { pause_collection: '', cancel_at_period_end: false, expand: ['default_payment_method'] }, { idempotencyKey: 'cc-resume-1' })],
      ['cancel now', (c) => c.subscriptions.cancel('sub_1', { expand: ['default_payment_method'] }, { idempotencyKey: 'cc-cancel-now-1' })],
      ['live read', (c) => c.paymentIntents.retrieve('pi_1', { expand: ['latest_charge', 'payment_method'] })],
      ['invoice payments', (c) => c.invoicePayments.list({ invoice: 'in_1', limit: 3 })],
    ];
    for (const [name, call] of calls) {
      await call(sdk as never);
      await call(api as never);
      const [theirs, mine] = fake.take();
      const wire = (r: StripeRequest) => ({ method: r.method, path: r.path, body: r.rawBody, query: r.rawQuery, key: r.idempotencyKey, auth: r.authorization, version: r.headers['stripe-version'] });
      expect({ name, ...wire(mine!) }).toEqual({ name, ...wire(theirs!) });
    }
  });

  it('sends the pinned API version (the installed SDK\'s), Bearer auth, a user agent naming the app, and keys every POST', async () => {
    expect(STRIPE_API_VERSION).toBe(Stripe.API_VERSION);
    const api = ours();
    await api.products.create({ name: 'Ebook' });
    await api.products.create({ name: 'Ebook' }, { idempotencyKey: 'cc-product-live-prodA' });
    await api.invoicePayments.list({ invoice: 'in_1' });
    const [unkeyed, keyed, get] = fake.take();
    expect(unkeyed!.headers).toMatchObject({ authorization: `Bearer ${SECRET}`, 'stripe-version': STRIPE_API_VERSION, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' });
    expect(unkeyed!.headers['user-agent']).toContain('creator-commerce');
    expect(unkeyed!.idempotencyKey).toMatch(/^cc-retry-[0-9a-f-]{36}$/);
    expect(keyed!.idempotencyKey).toBe('cc-product-live-prodA');
    expect(get!.idempotencyKey).toBeUndefined();
    expect(get!.rawQuery).toBe('invoice=in_1');
    expect(get!.rawBody).toBe('');
  });

  it('uses only the origin of STRIPE_API_URL, as the SDK client did', async () => {
    const api = stripeClient(SECRET, { STRIPE_API_URL: `${fake.url}/ignored/base` }, {});
    await api.refunds.create({ payment_intent: 'pi_1', amount: 100 }, { idempotencyKey: 'cc-refund-1' });
    expect(fake.take().map((r) => `${r.method} ${r.path} ${r.rawBody}`)).toEqual(['POST /v1/refunds payment_intent=pi_1&amount=100']);
  });
});

describe('retries', () => {
  it.each([500, 503, 429, 409])('retries a %i with the same Idempotency-Key, then succeeds', async (status) => {
    script('/v1/refunds', [stripeError(status, { type: 'api_error', message: 'try again' }), stripeError(status, { type: 'api_error', message: 'try again' })]);
    const refund = await ours().refunds.create({ payment_intent: 'pi_1' }, { idempotencyKey: 'cc-refund-retry' });
    expect(refund.object).toBe('refund');
    const requests = fake.take();
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.idempotencyKey))).toEqual(new Set(['cc-refund-retry']));
    expect(new Set(requests.map((r) => r.rawBody))).toEqual(new Set(['payment_intent=pi_1']));
  });

  it('also reuses the key it made itself for an unkeyed POST', async () => {
    script('/v1/products', [stripeError(500, { type: 'api_error', message: 'boom' })]);
    await ours().products.create({ name: 'x' });
    const [first, second] = fake.take();
    expect(first!.idempotencyKey).toMatch(/^cc-retry-/);
    expect(second!.idempotencyKey).toBe(first!.idempotencyKey);
  });

  it('gives up after 2 retries with the last error, mapped to refused', async () => {
    script('/v1/refunds', Array.from({ length: 5 }, () => stripeError(500, { type: 'api_error', message: 'Stripe is down' })));
    const error = await mapped(() => ours().refunds.create({ payment_intent: 'pi_1' }, { idempotencyKey: 'k' }));
    expect(error).toMatchObject({ name: 'ProcessorError', code: 'refused', message: 'Stripe is down' });
    expect(fake.take()).toHaveLength(3);
  });

  it('does not retry when Stripe-Should-Retry says false, and retries a 400 when it says true', async () => {
    script('/v1/refunds', [stripeError(500, { type: 'api_error', message: 'no' }, { 'stripe-should-retry': 'false' })]);
    await expect(ours().refunds.create({ payment_intent: 'pi_1' }, { idempotencyKey: 'k1' })).rejects.toMatchObject({ statusCode: 500 });
    expect(fake.take()).toHaveLength(1);
    script('/v1/refunds', [stripeError(400, { type: 'invalid_request_error', message: 'lock' }, { 'stripe-should-retry': 'true' })]);
    await ours().refunds.create({ payment_intent: 'pi_1' }, { idempotencyKey: 'k2' });
    expect(fake.take()).toHaveLength(2);
  });

  it('never retries a 400, 402 or 404', async () => {
    for (const status of [400, 402, 404]) {
      script('/v1/refunds', [stripeError(status, { type: 'invalid_request_error', message: 'bad' })]);
      await expect(ours().refunds.create({ payment_intent: 'pi_1' }, { idempotencyKey: `k${status}` })).rejects.toBeInstanceOf(StripeApiError);
      expect(fake.take()).toHaveLength(1);
    }
  });

  it('retries a dropped connection with the same key, and reports api_connection_error when every attempt drops', async () => {
    script('/v1/refunds', [{ drop: true, body: null }]);
    await ours().refunds.create({ payment_intent: 'pi_1' }, { idempotencyKey: 'cc-drop' });
    expect(fake.take().map((r) => r.idempotencyKey)).toEqual(['cc-drop', 'cc-drop']);
    script('/v1/refunds', Array.from({ length: 3 }, () => ({ drop: true as const, body: null })));
    const failure = ours().refunds.create({ payment_intent: 'pi_1' }, { idempotencyKey: 'cc-drop-all' });
    await expect(failure).rejects.toMatchObject({ name: 'StripeApiError', type: 'api_connection_error', statusCode: undefined });
    expect(fake.take()).toHaveLength(3);
    expect(await mapped(() => failure)).toMatchObject({ name: 'ProcessorError', code: 'refused' });
  });

  it('times out a slow answer (per attempt) and retries it', async () => {
    fake.respond = [(r) => (r.path === '/v1/refunds' ? { body: { id: 're_slow', object: 'refund' }, delayMs: 1_000 } : undefined)];
    const started = Date.now();
    const error = await ours({ timeoutMs: 100, maxRetries: 0 })
      .refunds.create({ payment_intent: 'pi_1' }, { idempotencyKey: 'cc-slow' })
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(900);
    expect(error).toMatchObject({ name: 'StripeApiError', type: 'api_connection_error' });
    expect((error as Error).message).toMatch(/did not answer .* within 100 ms/);
    expect(fake.take()).toHaveLength(1);
    // The first attempt stalls, the retry answers.
    let first = true;
    fake.respond = [(r) => (r.path === '/v1/refunds' && first ? ((first = false), { body: {}, delayMs: 1_000 }) : undefined)];
    const refund = await ours({ timeoutMs: 100 }).refunds.create({ payment_intent: 'pi_1' }, { idempotencyKey: 'cc-slow-2' });
    expect(refund.object).toBe('refund');
    expect(fake.take().map((r) => r.idempotencyKey)).toEqual(['cc-slow-2', 'cc-slow-2']);
  });

  it('backs off from the initial delay, doubling, jittered to [½, 1], capped, never below the initial delay', () => {
    expect(retryDelayMs(0, 500, 5_000, () => 0)).toBe(500);
    expect(retryDelayMs(0, 500, 5_000, () => 1)).toBe(500);
    expect(retryDelayMs(1, 500, 5_000, () => 0)).toBe(500);
    expect(retryDelayMs(1, 500, 5_000, () => 1)).toBe(1_000);
    expect(retryDelayMs(2, 500, 5_000, () => 1)).toBe(2_000);
    expect(retryDelayMs(10, 500, 5_000, () => 1)).toBe(5_000);
    expect(retryDelayMs(10, 500, 5_000, () => 0)).toBe(2_500);
    expect(shouldRetry(undefined, null)).toBe(true);
    expect(shouldRetry(502, 'false')).toBe(false);
    expect(shouldRetry(400, 'true')).toBe(true);
    expect(shouldRetry(401, null)).toBe(false);
  });
});

describe('errors', () => {
  it("parse Stripe's error body with the request id, and map to the port's codes as the SDK's classes did", async () => {
    const cases: [number, Record<string, unknown>, string][] = [
      [402, { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' }, 'declined'],
      [404, { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: "No such refund: 're_x'" }, 'not_found'],
      [400, { type: 'invalid_request_error', code: 'parameter_invalid_integer', param: 'amount', message: 'Invalid integer' }, 'invalid'],
      [400, { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters' }, 'refused'],
      [400, { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests' }, 'refused'],
      [401, { type: 'invalid_request_error', message: 'Invalid API Key provided' }, 'refused'],
      [403, { type: 'invalid_request_error', message: 'The provided key does not have the required permissions' }, 'refused'],
      [429, { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests hit the API too quickly' }, 'refused'],
      [500, { type: 'api_error', message: 'Something went wrong on our end' }, 'refused'],
    ];
    for (const [status, body, code] of cases) {
      const answer = stripeError(status, body);
      fake.respond = [(r) => (r.path === '/v1/refunds' ? answer : undefined)];
      const raw = await ours().refunds.create({ payment_intent: 'pi_1' }, { idempotencyKey: `e${status}` }).catch((e: unknown) => e);
      expect(raw).toBeInstanceOf(StripeApiError);
      expect(raw).toMatchObject({ statusCode: status, type: body.type, code: body.code, declineCode: body.decline_code, param: body.param, message: body.message, requestId: expect.stringMatching(/^req_/) });
      expect(await mapped(() => Promise.reject(raw))).toMatchObject({ name: 'ProcessorError', code, message: body.message });
    }
  });

  it('an error answer that is not JSON is an api_error with its status; anything not from Stripe is rethrown as it is', async () => {
    fake.respond = [(r) => (r.path === '/v1/refunds' ? { status: 502, body: 'bad gateway', headers: { 'stripe-should-retry': 'false' } } : undefined)];
    const raw = await ours().refunds.create({ payment_intent: 'pi_1' }, { idempotencyKey: 'nj' }).catch((e: unknown) => e);
    expect(raw).toMatchObject({ type: 'api_error', statusCode: 502 });
    const bug = new TypeError('our bug');
    expect(() => processorErrorOf(bug)).toThrow(bug);
  });
});
