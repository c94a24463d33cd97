import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from '../../shared/platform/zod';
import { APP } from '../../shared/app';
import type { LocalRuntime } from '../../shared/local/runtime';
import { createTestAccount, startTestRuntime, type TestAccount } from '../support/runtime';

// A bounded fuzzer generated from the operation list (the same one /docs.json is made from):
// every path parameter, query field and body field of every operation gets hostile values (wrong
// types, prototype keys, control characters, deep nesting, oversize values). No answer may be a
// 5xx or a broken connection, and a 4xx changes nothing (no outbox event appears).

let runtime: LocalRuntime;
let account: TestAccount;

beforeAll(async () => {
  // The fuzzer sends far more than a client may per minute; a 429 would hide what it probes.
  runtime = await startTestRuntime({ RATE_LIMIT_PER_MINUTE: '1000000' });
  account = await createTestAccount(runtime, 'volume');
});
afterAll(async () => {
  await runtime?.stop();
});

const CONTROL = 'a\u0000b\u0007c\u001b[31m\r\nd\u2028e\u0085';
const deep = (levels: number): unknown => (levels === 0 ? 'x' : { n: deep(levels - 1) });
const HOSTILE_STRINGS = ['__proto__', 'toString', CONTROL, '../../etc/passwd', 'x'.repeat(5000), '😀'.repeat(300)];
const HOSTILE_VALUES: unknown[] = [
  null,
  0,
  -1,
  1e308,
  1.5,
  true,
  [],
  ['x'],
  {},
  { __proto__: { polluted: true } },
  deep(40),
  'x'.repeat(500_000),
  CONTROL,
  '__proto__',
];

const shapeOf = (schema: unknown): Record<string, unknown> => (schema instanceof z.ZodMiniObject ? (schema.shape as Record<string, unknown>) : {});

interface Case {
  label: string;
  path: string;
  query?: Record<string, string>;
  body?: string;
  contentType?: string;
}

/** The hostile requests of one operation: bounded, so the whole run stays a few seconds. */
function casesFor(method: string, path: string, params: unknown, query: unknown, body: unknown): Case[] {
  const paramNames = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const fill = (value: string) => path.replace(/\{(\w+)\}/g, () => encodeURIComponent(value));
  const okPath = fill('000000000000000000000000');
  const cases: Case[] = [];
  if (paramNames.length) for (const value of HOSTILE_STRINGS) cases.push({ label: `path=${JSON.stringify(value).slice(0, 20)}`, path: fill(value) });
  void params;
  for (const name of Object.keys(shapeOf(query))) {
    for (const value of [CONTROL, 'x'.repeat(5000), '-1']) cases.push({ label: `query ${name}`, path: okPath, query: { [name]: value } });
  }
  if (method !== 'GET' && method !== 'DELETE') {
    cases.push({ label: 'body not JSON', path: okPath, body: '{"name": "a', contentType: 'application/json' });
    cases.push({ label: 'body array', path: okPath, body: '[1,2]', contentType: 'application/json' });
    cases.push({
      label: 'body __proto__',
      path: okPath,
      body: '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}',
      contentType: 'application/json',
    });
    cases.push({ label: 'body deep', path: okPath, body: JSON.stringify(deep(60)), contentType: 'application/json' });
    // Each field gets a rotating quarter of the hostile values: every class is tried on every
    // operation with a few fields, and the run stays bounded.
    for (const [index, name] of Object.keys(shapeOf(body)).entries()) {
      for (const value of HOSTILE_VALUES.filter((_, i) => i % 4 === index % 4))
        cases.push({
          label: `body ${name}=${JSON.stringify(value)?.slice(0, 20)}`,
          path: okPath,
          body: JSON.stringify({ [name]: value }),
          contentType: 'application/json',
        });
    }
  }
  return cases;
}

/** Outbox items are written with the change they record, so a change shows here at once. */
async function outboxCount(): Promise<number> {
  const [test, live] = await Promise.all(
    (['test', 'live'] as const).map(
      async (mode) =>
        ((await (await fetch(`${runtime.url}/_local/events?accountId=${account.accountId}&mode=${mode}`)).json()) as { events: unknown[] }).events.length,
    ),
  );
  return test! + live!;
}

describe('fuzz', () => {
  it('answers hostile input on every operation with a 4xx (or a 2xx), never a 5xx or a reset, and a 4xx changes nothing', { timeout: 240_000 }, async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const { operation } of APP.allOperations) {
      const op = operation as unknown as { method: string; path: string; params?: unknown; query?: unknown; body?: unknown; operationId: string };
      const before = await outboxCount();
      let anyOk = false;
      const cases = casesFor(op.method, op.path, op.params, op.query, op.body);
      // A few at once, as a fuzzer would send them.
      for (let i = 0; i < cases.length; i += 8) {
        await Promise.all(
          cases.slice(i, i + 8).map(async (c) => {
            const url = new URL(`${runtime.url}${c.path}`);
            for (const [k, v] of Object.entries(c.query ?? {})) url.searchParams.set(k, v);
            const headers: Record<string, string> = { authorization: `Bearer ${account.testKey}` };
            if (c.contentType) headers['content-type'] = c.contentType;
            sent++;
            try {
              const response = await fetch(url, { method: op.method, headers, body: c.body, redirect: 'manual', signal: AbortSignal.timeout(20_000) });
              await response.arrayBuffer();
              if (response.status === 429) failures.push(`${op.operationId} ${c.label}: rate limited, not probed`);
              if (response.status >= 500) failures.push(`${op.operationId} ${c.label}: ${response.status}`);
              if (response.status < 400) anyOk = true;
            } catch (error) {
              failures.push(`${op.operationId} ${c.label}: connection error ${String((error as Error).cause ?? error)}`);
            }
          }),
        );
      }
      if (!anyOk && cases.length) {
        const after = await outboxCount();
        if (after !== before) failures.push(`${op.operationId}: ${after - before} event(s) after only 4xx answers`);
      }
    }
    console.log(`fuzz: ${sent} requests over ${APP.allOperations.length} operations`);
    expect(failures).toEqual([]);
  });
});

describe('findings of the probe', () => {
  it('refuses oversize or too deep checkout metadata with a 400 that names the limit', async () => {
    const product = await account.test.post('/products', { name: 'Meta', price: 5 });
    expect(product.status, product.text).toBe(201);
    const open = (metadata: unknown) =>
      account.test.post('/checkout/sessions', {
        productId: product.body._id,
        successUrl: 'https://s.example.com/ok',
        cancelUrl: 'https://s.example.com/no',
        metadata,
      });
    const tooDeep = await open({ d: deep(33) });
    expect(tooDeep.status, tooDeep.text).toBe(400);
    expect(tooDeep.text).toContain('levels deep');
    const tooLong = await open({ v: 'x'.repeat(500_000) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.text).toContain('500 characters');
    const tooMany = await open(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])));
    expect(tooMany.status).toBe(400);
    expect((await open({ ['k'.repeat(41)]: 'v' })).status).toBe(400);
    expect((await open(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 'v'.repeat(450)])))).status).toBe(400);
    const fine = await open({ orderRef: 'A-1', nested: { tags: ['a', 'b'], count: 2 } });
    expect(fine.status, fine.text).toBe(201);
  });

  it('answers a product name full of control characters with a status, not a reset', async () => {
    const created = await account.test.post('/products', { name: CONTROL, price: 5 });
    expect(created.status).toBeLessThan(500);
    if (created.status === 201) {
      const read = await account.test.get(`/products/${created.body._id}`);
      expect(read.status).toBe(200);
      expect(read.body.name).toBe(created.body.name);
    }
  });

  it('serves only the explorer files, never an inherited property, as static assets', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) expect((await fetch(`${runtime.url}/docs/assets/${name}`)).status).toBe(404);
    expect((await fetch(`${runtime.url}/docs/assets/swagger-ui.css`)).status).toBe(200);
  });
});
