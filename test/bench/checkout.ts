import { performance } from 'node:perf_hooks';
import { getAccount } from '../../shared/platform/accounts';
import { createCheckoutSession } from '../../shared/checkout/service';
import { startLocalRuntime } from '../../shared/local/runtime';
import type { OperationContext } from '../../shared/platform/context';
import { randomHex } from '../../shared/platform/ids';
import { receiveNotification } from '../../shared/processor/ingress';
import type { SandboxProcessor } from '../../shared/adapters/processor-sandbox/sandbox';
import { SANDBOX_NOTIFICATION_SECRET, SIGNATURE_HEADER, sign } from '../../shared/adapters/processor-sandbox/signing';
import type { CapacityMeter } from '../../shared/store/capacity';
import type { Deps } from '../../shared/platform/context';
import { keys } from '../../shared/store/keys';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/**
 * Checkout to sale: the time from creating a session to the sale being recorded (the buyer pays
 * through the local control API, which settles the notification), on the local runtime. Capacity
 * per step (read + write units) comes from direct service calls inside a capacity meter: session
 * creation, the sandbox's payment, and the ingress applying checkout.completed.
 */
export async function benchCheckout(
  options: { purchases?: number } = {},
): Promise<{ checkoutToSaleMs: { p50: number; p99: number }; capacityPerStep: Record<string, number> }> {
  const purchases = options.purchases ?? 20;
  const runtime = await startLocalRuntime({
    port: 0,
    memory: true,
    dynamoEndpoint: process.env.BENCH_DYNAMODB_ENDPOINT,
    tableName: `bench_co_${randomHex(6)}`,
  });
  const post = async (path: string, body: unknown, key?: string) => {
    const res = await fetch(`${runtime.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, any>>;
  };
  try {
    const account = await post('/_local/accounts', { plan: 'volume' });
    const product = await post('/products', { name: 'Bench product', price: 9.99 }, account.testKey);
    const timings: number[] = [];
    for (let i = 0; i < purchases; i++) {
      const started = performance.now();
      const session = await post(
        '/checkout/sessions',
        { productId: product._id, successUrl: 'https://shop.example.com/ok', cancelUrl: 'https://shop.example.com/no' },
        account.testKey,
      );
      const paid = await post(`/_local/checkout/${session.id}/pay`, { email: `bench${i}@example.com` });
      if (!paid.saleId) throw new Error('no sale recorded');
      timings.push(performance.now() - started);
    }

    // Capacity of each step, measured on direct calls.
    const scope = { accountId: account.accountId as string, mode: 'test' as const };
    const ctx: OperationContext = {
      ...runtime.deps,
      scope,
      account: (await getAccount(runtime.deps.store, scope.accountId))!,
      request: { requestId: 'bench', method: 'POST', path: '/checkout/sessions', headers: {}, rawBody: '', sourceIp: '127.0.0.1', baseUrl: runtime.url },
    };
    // Each step runs on a view of the store that meters it (the request's view, as the local API has).
    const meter = async (fn: <D extends Deps>(metered: D) => Promise<unknown>) => {
      const m: CapacityMeter = { read: 0, write: 0 };
      await fn({ ...ctx, store: ctx.store.forRequest({ meter: m }) });
      return m.read + m.write;
    };
    let sessionId = '';
    const createUnits = await meter(async (metered) => {
      sessionId = (
        await createCheckoutSession(metered as unknown as OperationContext, {
          productId: product._id,
          successUrl: 'https://shop.example.com/ok',
          cancelUrl: 'https://shop.example.com/no',
        })
      ).id;
    });
    const located = await runtime.deps.store.get<{ processorCheckoutId: string }>(keys.capability('checkout-session', sessionId));
    const sandbox = runtime.deps.ports.processor as SandboxProcessor;
    // The sandbox processor writes through its own deps: a copy of it on the metered store.
    const payUnits = await meter((metered) =>
      (Object.assign(Object.create(sandbox), { deps: { ...runtime.deps, store: metered.store } }) as SandboxProcessor).payCheckout(
        located!.processorCheckoutId,
        { buyer: { email: 'capacity@example.com' } },
      ),
    );
    // The ingress step on a notification of its own, so the queued delivery of the one above
    // cannot apply it first.
    const second = (
      await createCheckoutSession(ctx, { productId: product._id, successUrl: 'https://shop.example.com/ok', cancelUrl: 'https://shop.example.com/no' })
    ).id;
    const body = JSON.stringify({
      id: `ntf_bench${randomHex(8)}`,
      type: 'checkout.completed',
      created: Math.floor(runtime.clock.nowMs() / 1000),
      accountId: scope.accountId,
      mode: scope.mode,
      data: {
        checkoutId: 'cs_bench',
        sessionId: second,
        buyer: { email: 'ingress@example.com', firstName: null, lastName: null, country: null },
        paymentMethod: { id: 'payt_bench', type: 'card', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 },
        savedCard: false,
        payment: { id: `pay_bench${randomHex(8)}`, amountCents: 999, currency: 'USD', planId: 'plan_bench' },
        membership: null,
      },
    });
    const ingressUnits = await meter((metered) =>
      receiveNotification(
        { ...runtime.deps, store: metered.store },
        {
          rawBody: body,
          headers: { [SIGNATURE_HEADER]: sign(SANDBOX_NOTIFICATION_SECRET, Math.floor(runtime.clock.nowMs() / 1000), body) },
          baseUrl: runtime.url,
        },
        JSON.parse(body),
      ),
    );
    await runtime.settle();
    return {
      checkoutToSaleMs: { p50: Math.round(percentile(timings, 50)), p99: Math.round(percentile(timings, 99)) },
      capacityPerStep: { createCheckoutSession: createUnits, processorPayment: payUnits, ingressCheckoutCompleted: ingressUnits },
    };
  } finally {
    await runtime.stop();
  }
}
