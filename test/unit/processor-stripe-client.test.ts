import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STRIPE_API_VERSION, stripeClient } from '../../shared/adapters/processor-stripe/client';
import { processorErrorOf, stripeCall } from '../../shared/adapters/processor-stripe/errors';
import { ProcessorError } from '../../shared/processor/port';
import { FakeStripe, type StripeRequest } from '../support/fake-stripe';

/**
 * The official SDK as the adapter configures it, against the fake Stripe on 127.0.0.1: the pinned
 * version, keys, retries with one idempotency key (the SDK's for no answer, 409 and 5xx; the
 * adapter's own for 429), timeouts, and the mapping of the SDK's typed errors to the port's.
 */
const SECRET = 'rk_test_client00000000000000000000';
let fake: FakeStripe;

const client = (tuning: { timeoutMs?: number; maxNetworkRetries?: number } = {}) => stripeClient(SECRET, { STRIPE_API_URL: fake.url }, tuning);
const stripeError = (status: number, error: Record<string, unknown>, headers?: Record<string, string>) => ({ status, body: { error }, headers });

/** Answers the given sequence for requests to `path`, then falls through to the fake's own answers. */
function script(path: string, answers: { status?: number; body: unknown; headers?: Record<string, string>; drop?: boolean; delayMs?: number }[]) {
  const queue = [...answers];
  fake.respond = [(r: StripeRequest) => (r.path === path ? queue.shift() : undefined)];
}

const refund = (key: string) => stripeCall(() => client().refunds.create({ payment_intent: 'pi_1' }, { idempotencyKey: key }), { delayMs: () => 10 });

beforeAll(async () => {
  fake = await new FakeStripe().start();
  const pm = fake.model.paymentMethod(null);
  const { intent, charge } = fake.model.charge({ amount: 1_000_000, currency: 'usd', customer: null, paymentMethod: pm.id });
  fake.objects.pi_1 = { ...intent, id: 'pi_1' };
  charge!.payment_intent = 'pi_1';
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.respond = [];
  fake.take();
});

describe('the SDK as the adapter sets it up', () => {
  it("sends the pinned API version (the installed SDK's own), Bearer auth and the given Idempotency-Key, to the configured origin", async () => {
    expect(STRIPE_API_VERSION).toBe(Stripe.API_VERSION);
    await client().refunds.create({ payment_intent: 'pi_1', amount: 100 }, { idempotencyKey: 'cc-refund-1' });
    const [request] = fake.take();
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/refunds',
      rawBody: 'payment_intent=pi_1&amount=100',
      idempotencyKey: 'cc-refund-1',
      authorization: `Bearer ${SECRET}`,
    });
    expect(request!.headers['stripe-version']).toBe(STRIPE_API_VERSION);
  });

  it('keeps one client per key and origin', () => {
    expect(client()).toBe(client());
    expect(stripeClient('rk_test_other', { STRIPE_API_URL: fake.url })).not.toBe(client());
  });
});

describe('retries', () => {
  it.each([500, 503, 409, 429])('a %i is tried again with the same Idempotency-Key and parameters, then succeeds', async (status) => {
    script('/v1/refunds', [
      stripeError(status, {
        type: status === 429 ? 'invalid_request_error' : 'api_error',
        code: status === 429 ? 'rate_limit' : undefined,
        message: 'try again',
      }),
    ]);
    const answer = await refund(`cc-refund-${status}`);
    expect(answer.object).toBe('refund');
    const requests = fake.take();
    expect(requests).toHaveLength(2);
    expect(new Set(requests.map((r) => `${r.idempotencyKey} ${r.rawBody}`))).toEqual(new Set([`cc-refund-${status} payment_intent=pi_1`]));
  });

  it('a replayed key never refunds twice: the fake answers the stored result for the same key', async () => {
    await refund('cc-refund-once');
    await refund('cc-refund-once');
    expect(fake.take().map((r) => r.idempotencyKey)).toEqual(['cc-refund-once', 'cc-refund-once']);
    expect(Object.values(fake.objects).filter((o) => o.object === 'refund' && o.payment_intent === 'pi_1' && o._idempotency === 'cc-refund-once')).toHaveLength(
      1,
    );
  });

  it('gives up after 2 retries with the last error, mapped to refused', async () => {
    script(
      '/v1/refunds',
      Array.from({ length: 5 }, () => stripeError(500, { type: 'api_error', message: 'Stripe is down' })),
    );
    await expect(refund('cc-down')).rejects.toMatchObject({ name: 'ProcessorError', code: 'refused', message: 'Stripe is down' });
    expect(fake.take()).toHaveLength(3);
  });

  it('does not retry when Stripe-Should-Retry says false, and never retries a 400, 402 or 404', async () => {
    script('/v1/refunds', [stripeError(500, { type: 'api_error', message: 'no' }, { 'stripe-should-retry': 'false' })]);
    await expect(refund('cc-no-retry')).rejects.toMatchObject({ code: 'refused' });
    expect(fake.take()).toHaveLength(1);
    for (const status of [400, 402, 404]) {
      script('/v1/refunds', [stripeError(status, { type: status === 402 ? 'card_error' : 'invalid_request_error', message: 'bad' })]);
      await expect(refund(`cc-${status}`)).rejects.toBeInstanceOf(ProcessorError);
      expect(fake.take()).toHaveLength(1);
    }
  });

  it('retries a dropped connection and a timed-out attempt with the same key; no answer at all is refused', async () => {
    script('/v1/refunds', [{ drop: true, body: null }]);
    await refund('cc-drop');
    expect(fake.take().map((r) => r.idempotencyKey)).toEqual(['cc-drop', 'cc-drop']);
    script('/v1/refunds', [{ body: {}, delayMs: 2_000 }]);
    const slow = await stripeCall(() => client({ timeoutMs: 300 }).refunds.create({ payment_intent: 'pi_1' }, { idempotencyKey: 'cc-slow' }));
    expect(slow.object).toBe('refund');
    expect(fake.take().map((r) => r.idempotencyKey)).toEqual(['cc-slow', 'cc-slow']);
    script(
      '/v1/refunds',
      Array.from({ length: 3 }, () => ({ drop: true as const, body: null })),
    );
    await expect(refund('cc-drop-all')).rejects.toMatchObject({ name: 'ProcessorError', code: 'refused' });
  });
});

describe('errors', () => {
  it("map the SDK's typed errors to the port's codes", async () => {
    const cases: [number, Record<string, unknown>, string][] = [
      [402, { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' }, 'declined'],
      [402, { type: 'card_error', code: 'expired_card', message: 'Your card has expired.' }, 'declined'],
      [404, { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: "No such refund: 're_x'" }, 'not_found'],
      [400, { type: 'invalid_request_error', code: 'parameter_unknown', param: 'amont', message: 'Received unknown parameter: amont' }, 'invalid'],
      [400, { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters' }, 'refused'],
      [401, { type: 'invalid_request_error', message: 'Invalid API Key provided' }, 'refused'],
      [403, { type: 'invalid_request_error', message: 'The provided key does not have the required permissions' }, 'refused'],
    ];
    for (const [status, body, code] of cases) {
      script('/v1/refunds', [stripeError(status, body)]);
      const error = await refund(`e${status}-${String(body.code)}`).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'ProcessorError', code, message: body.message });
    }
    script('/v1/refunds', [stripeError(402, cases[0]![1])]);
    const declined = await refund('e-reason').catch((e: unknown) => e);
    expect(declined).toMatchObject({ reason: 'insufficient_funds' });
    const bug = new TypeError('our bug');
    expect(() => processorErrorOf(bug)).toThrow(bug);
  });
});
