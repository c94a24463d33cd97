import { startLocalRuntime } from '../../shared/local/runtime';
import { randomHex } from '../../shared/platform/ids';

/** Hand-computed least capacity of a step: what must be read and written, and why. */
export interface StepMinimum {
  read: number;
  write: number;
  why: string;
}

export interface StepCapacity {
  read: number;
  write: number;
  minimum: StepMinimum;
  /** Measured over minimum (undefined when the minimum is 0). */
  readRatio?: number;
  writeRatio?: number;
}

/**
 * The least each step must read and write, counted as the per-operation table of run.ts counts:
 * an item written is 1 unit per started KiB, a read 0.5 per eventually consistent item (1 when it
 * must be strongly consistent: read before a conditional change), and no transaction factor
 * (AWS bills a transactional write twice; DynamoDB Local reports its own figure, see docs/performance.md).
 * The sizes are those the items have in this run. Left out on purpose: the local scheduler's timer
 * items (in AWS, timers are EventBridge Scheduler's and cost the table nothing) and the rate
 * limiter's block reservations (one strong read and one write per block of tokens).
 */
export const LIFECYCLE_MINIMUM: Record<string, StepMinimum> = {
  'create product': {
    read: 1,
    write: 3,
    why: 'W: product, product.created event, team activity entry (3 items ≤ 1 KiB). R: the key and the account, once per container (cold cache)',
  },
  'create subscription offer': { read: 0, write: 2, why: 'W: offer, activity entry (offers emit no event). R: none (auth cached)' },
  'checkout session': {
    read: 1,
    write: 4,
    why: "W: session, its public locator, the processor's checkout (the sandbox stands in for Stripe's own record), activity entry. R: product, processor settings",
  },
  'pay one-time (sale, customer, events)': {
    read: 6,
    write: 24,
    why: 'W: processor payment, card, checkout, notification (4); ingress: processed marker, customer, email guard, sale (2 KiB), sale locator, payment pointer, receipt link, session, order.completed (2 KiB), payment event (13); notification delivered (1); contact, email guard, facts delta, marker (4); receipt marker and mail record (2 KiB) (3). R: session locator, session and notification and email guard strongly, product, receipt: account, mail settings, contact, sale',
  },
  'refund in full': {
    read: 4,
    write: 9,
    why: 'W: processor payment and notification (2); marker, sale (2 KiB), refund event (4); notification delivered (1); survey order and marker (2). R: sale locator, sale, payment and notification and payment pointer strongly',
  },
  'pay subscription (activation)': {
    read: 7.5,
    write: 41,
    why: 'W: processor membership, payment, card, checkout, notification (5); ingress: marker, customer, email guard, subscriber (2 KiB), subscriber-of guard, locator, portal link, membership pointer, sale (2 KiB), sale locator, payment pointer, receipt link, session, 6 events (11 units) (26); notification delivered (1); contact (4); retention record and marker (2); receipt marker and mail record (3). R: session locator, session, notification, email and subscriber-of guards strongly, offer, receipt (4 × 0.5)',
  },
  'renewal paid': {
    read: 7,
    write: 28,
    why: 'W: processor membership, payment, notification (3); marker, subscriber (2 KiB), sale (2 KiB), sale locator, payment pointer, receipt link, customer, 4 events (7 units) (16); notification delivered (1); contact and facts delta and marker (3); retention record and marker (2); receipt marker and mail (3). R: subscriber locator, subscriber, membership, notification, membership pointer strongly, offer, customer, receipt (3 × 0.5)',
  },
  'renewal failed (past_due)': {
    read: 5,
    write: 19,
    why: 'W: processor membership, notification (2); marker, subscriber (2 KiB), 4 events of 1–2 KiB (11); notification delivered (1); payment-failed mail marker and record (3); retention recovery record and marker (2). R: subscriber, membership, notification, membership pointer strongly, offer (0.5), mail (0.5)',
  },
  'retry paid (recovered)': { read: 7, write: 30, why: 'as a paid renewal (28), plus the recovery closed on the retention record and its marker (2)' },
  pause: {
    read: 2.5,
    write: 5,
    why: 'W: processor membership, activity entry, subscriber (2 KiB), subscription.paused event. R: subscriber and processor membership strongly, processor settings',
  },
  resume: {
    read: 2.5,
    write: 5,
    why: 'W: processor membership, activity entry, subscriber (2 KiB), event. R: subscriber and processor membership strongly, processor settings',
  },
  'cancel at period end': {
    read: 2.5,
    write: 6,
    why: 'W: processor membership, activity entry, subscriber (2 KiB), event (2 KiB). R: subscriber and processor membership strongly, processor settings',
  },
  'read subscriber with payments': { read: 1, write: 0, why: 'R: the subscriber, one Query page of its payments (eventually consistent)' },
};

const ratio = (measured: number, minimum: number) => (minimum > 0 ? Math.round((measured / minimum) * 100) / 100 : undefined);

/**
 * DynamoDB capacity units of each lifecycle step, end to end: the request, and everything it sets
 * off (stream dispatch, consumers, the processor's notifications and timers) until the runtime is
 * idle again. Read from the runtime's running total (`GET /_local/capacity`) before and after, and
 * set beside the step's hand-computed minimum (LIFECYCLE_MINIMUM). Alone:
 * `npx tsx test/bench/lifecycle.ts` (its own DynamoDB Local unless BENCH_DYNAMODB_ENDPOINT is set).
 */
export async function benchLifecycle(): Promise<Record<string, StepCapacity>> {
  const runtime = await startLocalRuntime({
    port: 0,
    memory: true,
    dynamoEndpoint: process.env.BENCH_DYNAMODB_ENDPOINT,
    tableName: `bench_lc_${randomHex(6)}`,
  });
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
  const steps: Record<string, StepCapacity> = {};
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    await call('POST', '/_local/settle', {});
    const before = await totals();
    const result = await fn();
    await call('POST', '/_local/settle', {});
    const after = await totals();
    const read = round(after.read - before.read);
    const write = round(after.write - before.write);
    const minimum = LIFECYCLE_MINIMUM[name];
    if (!minimum) throw new Error(`Lifecycle step ${name} has no minimum in LIFECYCLE_MINIMUM`);
    steps[name] = { read, write, minimum, readRatio: ratio(read, minimum.read), writeRatio: ratio(write, minimum.write) };
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

/** The table `npm run bench` prints: each step beside its minimum, the ratios flagged above 1.5×. */
export function lifecycleRows(steps: Record<string, StepCapacity>) {
  const flag = (r: number | undefined) => (r === undefined ? '-' : `${r}${r > 1.5 ? ' (>1.5)' : ''}`);
  return Object.entries(steps).map(([step, s]) => ({
    step,
    RCU: s.read,
    'min RCU': s.minimum.read,
    'RCU ×min': flag(s.readRatio),
    WCU: s.write,
    'min WCU': s.minimum.write,
    'WCU ×min': flag(s.writeRatio),
    minimum: s.minimum.why,
  }));
}

if (process.argv[1]?.endsWith('lifecycle.ts')) {
  const steps = await benchLifecycle();
  console.log('Capacity units per lifecycle step (the request and everything it sets off, until idle) beside the minimum');
  console.table(lifecycleRows(steps));
  process.exit(0);
}
