import { randomBytes } from 'node:crypto';
import { deliveryHeaders } from '../../shared/webhooks/signing';

/**
 * `listen` and `trigger` of the admin CLI: they talk to the API with a key, like any client, so
 * they work against a deployed stack and the local runtime alike.
 */
export interface ApiTarget {
  baseUrl: string;
  key: string;
}

// biome-ignore lint/suspicious/noExplicitAny: the CLI prints what the API answers; the shapes are the OpenAPI document's
async function call(target: ApiTarget, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${target.baseUrl.replace(/\/$/, '')}${path}`, {
    method,
    headers: { authorization: `Bearer ${target.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * Forwards the account's new events to a local address, signed with a local secret exactly as a
 * webhook delivery is (X-Service-Signature-V2 and friends), so the receiver's verification code
 * runs unchanged. Events come from the events API (no public address needed); only events
 * created after `listen` starts are forwarded.
 */
export async function listen(
  target: ApiTarget,
  options: { forwardTo: string; secret?: string; intervalMs?: number; signal?: AbortSignal; log?: (line: string) => void },
) {
  const secret = options.secret ?? randomBytes(24).toString('hex');
  const log = options.log ?? ((line: string) => console.log(line));
  const seen = new Set<string>();
  // What exists now is history: remember the newest page and forward only what comes after.
  for (const event of (await call(target, 'GET', '/events?limit=100')).events) seen.add(event.id);
  log(`Ready. Forwarding new events to ${options.forwardTo}. Signing secret: ${secret}`);
  while (!options.signal?.aborted) {
    const page = await call(target, 'GET', '/events?limit=100');
    const fresh = (page.events as { id: string; type: string }[]).filter((event) => !seen.has(event.id)).reverse();
    for (const event of fresh) {
      seen.add(event.id);
      const body = JSON.stringify({ ...event, webhookId: 'listen' });
      try {
        const response = await fetch(options.forwardTo, {
          method: 'POST',
          headers: deliveryHeaders({ secret, body, eventType: event.type, eventId: event.id, nowMs: Date.now() }),
          body,
        });
        log(`${event.type} ${event.id} -> ${response.status}`);
      } catch (error) {
        log(`${event.type} ${event.id} -> failed: ${(error as Error).message}`);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 1000));
  }
}

/**
 * Does, in test mode, the real activity that emits `type`. Purchases need the sandbox processor's
 * payment step, which only the local runtime can drive from a script (`--local`); on a deployed
 * stack open the printed checkout address and pay with 4242 4242 4242 4242.
 */
export const TRIGGERS = ['product.created', 'product.updated', 'product.deleted', 'order.completed', 'customer.created', 'payment_intent.succeeded'] as const;

export async function trigger(target: ApiTarget, type: string, options: { localControlUrl?: string; log?: (line: string) => void } = {}): Promise<void> {
  const log = options.log ?? ((line: string) => console.log(line));
  if (!target.key.startsWith('pk_test_')) throw new Error('trigger runs in test mode only: pass a test key');
  if (!(TRIGGERS as readonly string[]).includes(type)) throw new Error(`no trigger for ${type}; one of ${TRIGGERS.join(', ')}`);
  const product = await call(target, 'POST', '/products', { name: `Trigger ${type}`, price: 19, description: 'Created by npm run admin -- trigger' });
  if (type === 'product.created') return log(`product.created: product ${product._id}`);
  if (type === 'product.updated') {
    await call(target, 'POST', `/products/update/${product._id}`, { name: `Trigger ${type} (updated)` });
    return log(`product.updated: product ${product._id}`);
  }
  if (type === 'product.deleted') {
    await call(target, 'DELETE', `/products/${product._id}`);
    return log(`product.deleted: product ${product._id}`);
  }
  const session = await call(target, 'POST', '/checkout/sessions', {
    productId: product._id,
    successUrl: 'https://example.com/thanks',
    cancelUrl: 'https://example.com/cart',
  });
  if (!options.localControlUrl) {
    log(`Open ${session.url} and pay with 4242 4242 4242 4242 to emit ${type}.`);
    return;
  }
  const paid = await fetch(`${options.localControlUrl.replace(/\/$/, '')}/_local/checkout/${session.id}/pay`, {
    method: 'POST',
    body: JSON.stringify({ email: `buyer+${Date.now()}@example.com`, firstName: 'Test', lastName: 'Buyer' }),
  });
  if (!paid.ok) throw new Error(`pay: ${paid.status} ${await paid.text()}`);
  log(`${type}: sale ${(await paid.json()).saleId}`);
}
