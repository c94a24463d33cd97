import { startLocalRuntime } from '../../shared/local/runtime';
import { randomHex } from '../../shared/platform/ids';

/**
 * DynamoDB capacity units of each lifecycle step, end to end: the request, and everything it sets
 * off (stream dispatch, consumers, the processor's notifications and timers) until the runtime is
 * idle again. Read from the runtime's running total (`GET /_local/capacity`) before and after.
 */
export async function benchLifecycle(): Promise<Record<string, { read: number; write: number }>> {
  const runtime = await startLocalRuntime({ port: 0, memory: true, dynamoEndpoint: process.env.BENCH_DYNAMODB_ENDPOINT, tableName: `bench_lc_${randomHex(6)}` });
  const call = async (method: string, path: string, body?: unknown, key?: string) => {
    const res = await fetch(`${runtime.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : {};
  };
  const totals = async () => (await call('GET', '/_local/capacity')) as { read: number; write: number };
  const steps: Record<string, { read: number; write: number }> = {};
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    await call('POST', '/_local/settle', {});
    const before = await totals();
    const result = await fn();
    await call('POST', '/_local/settle', {});
    const after = await totals();
    steps[name] = { read: round(after.read - before.read), write: round(after.write - before.write) };
    return result;
  };
  try {
    const account = await call('POST', '/_local/accounts', { plan: 'volume' });
    const key = account.testKey as string;
    const product = await step('create product', () => call('POST', '/products', { name: 'Ebook', price: 12 }, key));
    const offer = await step('create subscription offer', () => call('POST', '/subscriptions', { name: 'Club', price: 9, frequency: 'monthly' }, key));
    const urls = { successUrl: 'https://shop.example.com/ok', cancelUrl: 'https://shop.example.com/no' };
    const oneTime = await step('checkout session', () => call('POST', '/checkout/sessions', { productId: product._id, ...urls }, key));
    const sale = await step('pay one-time (sale, customer, events)', () => call('POST', `/_local/checkout/${oneTime.id}/pay`, { email: 'one@example.com' }));
    await step('refund in full', () => call('POST', `/_local/sales/${sale.saleId}/refund`, {}));
    const subSession = await call('POST', '/checkout/sessions', { productId: offer._id, ...urls }, key);
    const activated = await step('pay subscription (activation)', () => call('POST', `/_local/checkout/${subSession.id}/pay`, { email: 'member@example.com' }));
    const subscriber = activated.subscriberId as string;
    await step('renewal paid', () => call('POST', `/_local/subscribers/${subscriber}/renew`, { outcome: 'succeed' }));
    await step('renewal failed (past_due)', () => call('POST', `/_local/subscribers/${subscriber}/renew`, { outcome: 'fail' }));
    await step('retry paid (recovered)', () => call('POST', `/_local/subscribers/${subscriber}/renew`, { outcome: 'succeed' }));
    await step('pause', () => call('POST', `/subscriptions/${subscriber}/pause`, undefined, key));
    await step('resume', () => call('POST', `/subscriptions/${subscriber}/resume`, undefined, key));
    await step('cancel at period end', () => call('POST', `/subscriptions/${subscriber}/cancel`, undefined, key));
    await step('read subscriber with payments', () => call('GET', `/subscriptions/subscribers/${subscriber}`, undefined, key));
    return steps;
  } finally {
    await runtime.stop();
  }
}

const round = (n: number) => Math.round(n * 10) / 10;
