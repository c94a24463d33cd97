import { ApiClient, control, settleWithRetries, type TestAccount } from './runtime';
import type { LocalRuntime } from '../../shared/local/runtime';

/** Helpers for the money-path tests: everything goes through HTTP, as a black-box client would. */
export async function createProduct(account: TestAccount, body: Record<string, unknown>) {
  const res = await account.test.post('/products', body);
  if (res.status !== 201) throw new Error(`product: ${res.status} ${res.text}`);
  return res.body as { _id: string };
}

export async function createOffer(account: TestAccount, body: Record<string, unknown>) {
  const res = await account.test.post('/subscriptions', body);
  if (res.status !== 201) throw new Error(`offer: ${res.status} ${res.text}`);
  return res.body as { _id: string };
}

export async function openCheckout(account: TestAccount, productId: string, extra: Record<string, unknown> = {}) {
  const res = await account.test.post('/checkout/sessions', {
    productId,
    successUrl: 'https://shop.example.com/thanks',
    cancelUrl: 'https://shop.example.com/cart',
    ...extra,
  });
  if (res.status !== 201) throw new Error(`checkout: ${res.status} ${res.text}`);
  return res.body as { id: string; url: string };
}

export async function pay(runtime: LocalRuntime, sessionId: string, body: Record<string, unknown>) {
  const res = await new ApiClient(runtime.url).post(`/_local/checkout/${sessionId}/pay`, body);
  if (res.status !== 200) throw new Error(`pay: ${res.status} ${res.text}`);
  return res.body as { status: string; saleId?: string; subscriberId?: string };
}

export interface OutboxEvent {
  id: string;
  type: string;
  created: number;
  data: Record<string, any>;
}

export async function events(runtime: LocalRuntime, account: TestAccount, type?: string): Promise<OutboxEvent[]> {
  const c = new ApiClient(runtime.url);
  await settleWithRetries(runtime);
  const res = await c.get(`/_local/events?accountId=${account.accountId}&mode=test${type ? `&type=${type}` : ''}`);
  return res.body.events;
}

export { control };

export async function advanceDays(runtime: LocalRuntime, days: number) {
  const res = await control(runtime).post('/_local/clock/advance', { seconds: days * 24 * 3600 });
  if (res.status !== 200) throw new Error(`advance: ${res.text}`);
}

/** Events after a mark, optionally only those about one subscriber (or with no subscriber yet). */
export function since(all: OutboxEvent[], markId: string | undefined) {
  return markId ? all.filter((e) => e.id > markId) : all;
}
