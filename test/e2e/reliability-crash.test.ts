import { spawn, type ChildProcess } from 'node:child_process';
import { testDynamoEndpoint } from '../support/dynamo-endpoint';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../shared/local/dynamodb';
import { randomHex } from '../../shared/platform/ids';
import { ApiClient } from '../support/runtime';
import { startReceiver, waitFor } from './webhooks-receiver';

// The runtime runs in a child process on a data folder and is SIGKILLed at points of a purchase
// where accepted work sits in each of its parts: the jobs queue (processor notification), the
// stream position and bus (outbox event to fan-out), the webhooks queue between attempts, and a
// timer (a renewal due after the clock was advanced). After a restart on the same folder, every
// accepted payment has its sale and every event reaches the receiver with the same event id.

const dataDirs: string[] = [];
let child: ChildProcess | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const tableName = `crash_${randomHex(6)}`;
let dataDir: string;
let port: number;
let url: string;
/** Event ids the receiver answered 2xx, and every event id it saw. */
const accepted = new Set<string>();

async function startChild(): Promise<string> {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../support/crash-child.ts')], {
    env: {
      ...process.env,
      CRASH_PORT: String(port),
      CRASH_DATA_DIR: dataDir,
      CRASH_DYNAMO_ENDPOINT: testDynamoEndpoint(),
      CRASH_TABLE: tableName,
      POWERTOOLS_LOG_LEVEL: 'ERROR',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child = proc;
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (chunk) => {
      out += String(chunk);
      const ready = /READY (\S+)/.exec(out);
      if (ready) resolve(ready[1]!);
    });
    proc.once('exit', (code) => reject(new Error(`runtime exited with ${code} before it was ready`)));
  });
}

async function kill() {
  const proc = child!;
  if (proc.exitCode !== null || proc.signalCode) return;
  await new Promise<void>((resolve) => {
    proc.once('exit', () => resolve());
    proc.kill('SIGKILL');
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'crash-'));
  dataDirs.push(dataDir);
  port = await freePort();
  receiver = await startReceiver();
  // A failing receiver: the first attempt of every event is refused, later ones accepted.
  const seen = new Set<string>();
  receiver.on('/hook', (request, _count, response) => {
    const id = (JSON.parse(request.body) as { id: string }).id;
    if (!seen.has(id)) {
      seen.add(id);
      response.writeHead(500).end('down');
      return;
    }
    accepted.add(id);
    response.writeHead(200).end('ok');
  });
  url = await startChild();
});

afterAll(async () => {
  await kill().catch(() => undefined);
  await receiver?.close();
  const client = new DynamoDBClient({ endpoint: testDynamoEndpoint(), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await client.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
  client.destroy();
  for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
});

function payForm(email: string) {
  const form = new FormData();
  form.set('email', email);
  form.set('cardNumber', '4242424242424242');
  form.set('expiry', '12/34');
  form.set('cvc', '123');
  return form;
}

describe('crash injection', () => {
  it('loses no accepted payment, sale or webhook event when the runtime is SIGKILLed', { timeout: 150_000 }, async () => {
    const created = await new ApiClient(url).post('/_local/accounts', { plan: 'volume' });
    const account = new ApiClient(url, created.body.testKey);
    const accountId = created.body.accountId as string;
    const hook = await account.post('/webhooks', {
      url: `${receiver.url}/hook`,
      events: ['order.completed', 'customer.subscription.created', 'invoice.payment_succeeded'],
    });
    expect(hook.status, hook.text).toBe(201);
    const product = await account.post('/products', { name: 'Crash course', price: 15 });
    expect(product.status, product.text).toBe(201);

    const paidRefs: string[] = [];
    /** Opens a session, pays it on the hosted page (303 = accepted) and returns its reference. */
    const purchase = async (ref: string) => {
      const session = await account.post('/checkout/sessions', {
        productId: product.body._id,
        clientReferenceId: ref,
        successUrl: 'https://shop.example.com/ok',
        cancelUrl: 'https://shop.example.com/no',
      });
      expect(session.status, session.text).toBe(201);
      const paid = await fetch(session.body.url, { method: 'POST', body: payForm(`${ref}@example.com`), redirect: 'manual' });
      expect(paid.status).toBe(303);
      paidRefs.push(ref);
    };
    const restart = async () => {
      await kill();
      const started = Date.now();
      url = await startChild();
      restarts.push(Date.now() - started);
    };
    const restarts: number[] = [];

    // 1. Right after the 303: the processor notification sits in the jobs queue.
    await purchase('kill-at-303');
    await restart();
    // 2-4. A few milliseconds later: the notification posted, the sale's outbox event on the stream,
    // its fan-out on the bus, the first delivery attempt on the webhooks queue.
    for (const delay of [40, 150, 400]) {
      await purchase(`kill-after-${delay}ms`);
      await sleep(delay);
      await restart();
    }
    // 5. Between webhook attempts: the first attempt was refused, the retry waits on the queue.
    const before = receiver.received('/hook').length;
    await purchase('kill-between-attempts');
    await waitFor(() => receiver.received('/hook').length > before, 20_000, 'a first attempt');
    await restart();

    // 6. A timer: a subscription whose renewal falls due while the clock is advanced; the runtime
    // is killed while the advance works through it.
    const offer = await account.post('/subscriptions', { name: 'Crash club', price: 9, frequency: 'monthly' });
    expect(offer.status, offer.text).toBe(201);
    const sub = await account.post('/checkout/sessions', {
      productId: offer.body._id,
      clientReferenceId: 'sub',
      successUrl: 'https://shop.example.com/ok',
      cancelUrl: 'https://shop.example.com/no',
    });
    expect(sub.status, sub.text).toBe(201);
    const subPaid = await fetch(sub.body.url, { method: 'POST', body: payForm('sub@example.com'), redirect: 'manual' });
    expect(subPaid.status).toBe(303);
    paidRefs.push('sub');
    const nowMs = async () => Date.parse((await new ApiClient(url).post('/_local/clock/advance', { seconds: 0 })).body.now);
    const target = (await nowMs()) + 32 * 24 * 3600 * 1000;
    const advancing = new ApiClient(url).post('/_local/clock/advance', { seconds: 32 * 24 * 3600 }).catch(() => undefined);
    // Killed once the clock has moved to the first timer due (invoice.upcoming), which is then firing.
    const offset = () =>
      readFile(join(dataDir, 'clock.json'), 'utf8').then(
        (t) => JSON.parse(t).offsetMs as number,
        () => 0,
      );
    const offsetBefore = await offset();
    await waitFor(async () => (await offset()) > offsetBefore, 20_000, 'the clock to reach the first timer', 10);
    await restart();
    await advancing;
    // The advance was not answered: the caller asks again for what is left of it.
    const left = target - (await nowMs());
    if (left > 0) await new ApiClient(url).post('/_local/clock/advance', { seconds: left / 1000 });

    // Settle after the last restart: retries are real seconds apart.
    const c = new ApiClient(url);
    const settleStarted = Date.now();
    const settled = await c.post('/_local/settle', {});
    console.log(`restarts took ${restarts.join(', ')} ms; the last settle ${Date.now() - settleStarted} ms`);
    expect(settled.status, settled.text).toBe(200);
    const outbox = async (type: string) =>
      (await c.get(`/_local/events?accountId=${accountId}&mode=test&type=${type}`)).body.events as { id: string; data: any }[];
    const completed = await outbox('order.completed');
    // Every accepted payment has exactly one sale.
    // Every accepted payment has exactly one sale (the subscription's second is its renewal).
    for (const ref of paidRefs)
      expect(
        completed.filter((e) => e.data.clientReferenceId === ref),
        ref,
      ).toHaveLength(ref === 'sub' ? 2 : 1);
    // The renewal timer fired after the restart.
    const invoices = await outbox('invoice.payment_succeeded');
    expect(invoices.map((e) => e.data.billingReason).sort()).toEqual(['initial', 'renewal']);
    // Every event of the subscribed types reached the receiver with its own id.
    const all = [...completed, ...invoices, ...(await outbox('customer.subscription.created'))];
    await waitFor(() => all.every((e) => accepted.has(e.id)), 30_000, 'every event accepted by the receiver', 250).catch(() => undefined);
    expect(all.filter((e) => !accepted.has(e.id)).map((e) => e.id)).toEqual([]);
  });
});
