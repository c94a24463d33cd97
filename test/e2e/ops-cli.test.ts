import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { signV2 } from '../../shared/webhooks/signing';
import { createTestAccount, startTestRuntime, type TestAccount } from '../support/runtime';

const ROOT = join(import.meta.dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const SECRET = 'local-listen-secret-0123456789abcdef';

let runtime: LocalRuntime;
let seller: TestAccount;
let receiver: Server;
let receiverUrl: string;
const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
let listener: ChildProcess | undefined;

beforeAll(async () => {
  runtime = await startTestRuntime();
  seller = await createTestAccount(runtime, 'tier3');
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
});
afterAll(async () => {
  if (listener?.pid) listener.kill('SIGTERM');
  await new Promise((resolve) => receiver?.close(resolve));
  await runtime?.stop();
});

const run = (args: string[]) =>
  new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(TSX, ['bin/admin.ts', ...args], { cwd: ROOT, env: { ...process.env, API_KEY: '' } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });

async function until<T>(check: () => T | undefined, what: string, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('admin CLI listen and trigger against the local runtime', () => {
  it('trigger makes the real activity; listen forwards the new events, signed with the local secret', async () => {
    // An event from before listen starts is history and is not forwarded.
    expect((await seller.test.post('/products', { name: 'Before', price: 1 })).status).toBe(201);
    let output = '';
    listener = spawn(TSX, ['bin/admin.ts', 'listen', '--api', runtime.url, '--key', seller.testKey, '--forward-to', receiverUrl, '--secret', SECRET], {
      cwd: ROOT,
      env: process.env,
    });
    listener.stdout!.on('data', (d) => (output += d));
    listener.stderr!.on('data', (d) => (output += d));
    await until(() => output.includes('Ready.'), 'listen to start');

    const triggered = await run(['trigger', 'order.completed', '--api', runtime.url, '--key', seller.testKey]);
    expect(triggered.code, triggered.out).toBe(0);
    expect(triggered.out).toMatch(/order\.completed: sale \S+/);

    const order = await until(() => received.find((r) => JSON.parse(r.body).type === 'order.completed'), 'order.completed to be forwarded');
    const body = JSON.parse(order.body);
    expect(body).toMatchObject({ type: 'order.completed', webhookId: 'listen' });
    // The same body the events API shows, signed as a delivery would be.
    const event = await seller.test.get(`/events/${body.id}`);
    expect({ ...event.body, webhookId: 'listen' }).toEqual(body);
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]+)$/.exec(order.headers['x-service-signature-v2'] as string)!;
    expect(v1).toBe(signV2(SECRET, Number(t), order.body));
    expect(order.headers['x-service-event']).toBe('order.completed');
    expect(received.some((r) => JSON.parse(r.body).name === 'Before')).toBe(false);
    expect(received.some((r) => JSON.parse(r.body).type === 'product.created')).toBe(true);
    await until(() => output.includes('order.completed'), 'listen to log the forward');
  });

  it('trigger refuses a live key and an event type it cannot make', async () => {
    const live = await run(['trigger', 'product.created', '--api', runtime.url, '--key', seller.liveKey]);
    expect(live.code).toBe(2);
    expect(live.out).toMatch(/test mode only/);
    const unknown = await run(['trigger', 'nothing.happened', '--api', runtime.url, '--key', seller.testKey]);
    expect(unknown.code).toBe(2);
    expect(unknown.out).toMatch(/no trigger for nothing.happened/);
  });
});
