import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { createTestAccount, startTestRuntime, type TestAccount } from '../support/runtime';
import { independentlyVerified, startReceiver, waitFor } from './webhooks-receiver';

// Retry spacing needs real seconds: the scenarios run concurrently, each with its own account
// (so polling stays far below the per-account rate limit) and its own receiver path.

let runtime: LocalRuntime;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  [runtime, receiver] = await Promise.all([startTestRuntime(), startReceiver()]);
});
afterAll(async () => {
  await receiver?.close();
  await runtime?.stop();
});

interface Attempt {
  attempt: number;
  status: string;
  statusCode: number | null;
  error: string | null;
  willRetry: boolean;
  nextAttemptAt: string | null;
  eventId: string;
  createdAt: string;
  durationMs: number;
  redirects: number;
  finalUrl: string;
  requestBody: string;
}

async function scenario(url: string) {
  const account = await createTestAccount(runtime);
  const created = await account.test.post('/webhooks', { url, events: ['order.completed'] });
  expect(created.status, created.text).toBe(201);
  const sent = await account.test.post(`/webhooks/${created.body.id}/test`);
  expect(sent.status, sent.text).toBe(202);
  return { account, endpoint: created.body as { id: string; secret: string }, eventId: sent.body.eventId as string, startedAt: Date.now() };
}

/** The log of one endpoint, oldest attempt first, once it holds `count` entries and no retry is pending. */
async function finalLog(account: TestAccount, webhookId: string, count: number, timeoutMs = 15_000): Promise<Attempt[]> {
  return waitFor(
    async () => {
      const page = await account.test.get(`/delivered-webhooks?webhookId=${webhookId}`);
      const entries = (page.body.deliveries ?? []) as Attempt[];
      return entries.length >= count && !entries[0]!.willRetry ? [...entries].reverse() : undefined;
    },
    timeoutMs,
    `${count} log entries`,
    250,
  );
}

const gaps = (times: number[]) => times.slice(1).map((t, i) => (t - times[i]!) / 1000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.concurrent('retries', () => {
  it('retries a 500 twice, about 1 s then 4 s apart, with the same event id and body, and logs every attempt', async () => {
    receiver.on('/flaky', (_req, count, res) => void res.writeHead(count < 3 ? 500 : 200).end(count < 3 ? 'boom' : 'ok'));
    const { account, endpoint, eventId } = await scenario(`${receiver.url}/flaky`);
    const log = await finalLog(account, endpoint.id, 3);
    const got = receiver.received('/flaky');
    expect(got).toHaveLength(3);
    // Each retry is scheduled 1 s, then 4 s, after the end of the failed attempt...
    const scheduled = log.slice(0, 2).map((a) => Date.parse(a.nextAttemptAt!));
    expect((scheduled[0]! - got[0]!.at) / 1000).toBeGreaterThanOrEqual(0.95);
    expect((scheduled[0]! - got[0]!.at) / 1000).toBeLessThan(1.5);
    expect((scheduled[1]! - got[1]!.at) / 1000).toBeGreaterThanOrEqual(3.95);
    expect((scheduled[1]! - got[1]!.at) / 1000).toBeLessThan(4.5);
    // ...and never arrives early.
    expect(got[1]!.at).toBeGreaterThanOrEqual(scheduled[0]! - 20);
    expect(got[2]!.at).toBeGreaterThanOrEqual(scheduled[1]! - 20);
    const [first, second] = gaps(got.map((r) => r.at));
    // Measured at the receiver: at least the delay; the rest is the bookkeeping in between, which
    // a DynamoDB Local shared by parallel suites can stretch by seconds, so only a loose cap.
    expect(first).toBeGreaterThanOrEqual(0.9);
    expect(second).toBeGreaterThanOrEqual(3.9);
    expect(first + second).toBeLessThan(15);
    expect(new Set(got.map((r) => r.headers['x-service-event-id']))).toEqual(new Set([eventId]));
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    for (const r of got) expect(independentlyVerified(r, endpoint.secret)).toBe(true);
    expect(log.map((a) => [a.attempt, a.status, a.statusCode, a.willRetry])).toEqual([
      [1, 'failed', 500, true],
      [2, 'failed', 500, true],
      [3, 'success', 200, false],
    ]);
    expect(log.every((a) => a.eventId === eventId)).toBe(true);
  });

  it('retries a 429 up to 3 attempts in total, then gives up', async () => {
    receiver.on('/busy', (_req, _count, res) => void res.writeHead(429).end('slow down'));
    const { account, endpoint } = await scenario(`${receiver.url}/busy`);
    const log = await finalLog(account, endpoint.id, 3);
    expect(log.map((a) => [a.attempt, a.status, a.statusCode, a.willRetry])).toEqual([
      [1, 'failed', 429, true],
      [2, 'failed', 429, true],
      [3, 'failed', 429, false],
    ]);
    await sleep(1500);
    expect(receiver.received('/busy')).toHaveLength(3);
  });

  it('retries a refused connection 1 s then 4 s apart', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const { account, endpoint } = await scenario(`http://127.0.0.1:${port}/nobody`);
    const log = await finalLog(account, endpoint.id, 3);
    expect(log.map((a) => [a.attempt, a.status, a.statusCode, a.willRetry])).toEqual([
      [1, 'failed', null, true],
      [2, 'failed', null, true],
      [3, 'failed', null, false],
    ]);
    for (const a of log) expect(a.error).toMatch(/ECONNREFUSED/);
    const ended = log.map((a) => Date.parse(a.createdAt));
    const scheduled = log.slice(0, 2).map((a) => Date.parse(a.nextAttemptAt!));
    expect((scheduled[0]! - ended[0]!) / 1000).toBeCloseTo(1, 1);
    expect((scheduled[1]! - ended[1]!) / 1000).toBeCloseTo(4, 1);
    expect(ended[1]).toBeGreaterThanOrEqual(scheduled[0]!);
    expect(ended[2]).toBeGreaterThanOrEqual(scheduled[1]!);
    const [first, second] = gaps(ended);
    // Measured at the receiver: at least the delay; the rest is the bookkeeping in between, which
    // a DynamoDB Local shared by parallel suites can stretch by seconds, so only a loose cap.
    expect(first).toBeGreaterThanOrEqual(0.9);
    expect(second).toBeGreaterThanOrEqual(3.9);
    expect(first + second).toBeLessThan(15);
  });

  it('does not retry a receiver slower than 5 s', async () => {
    receiver.on('/slow', async (_req, _count, res) => {
      await sleep(6500);
      if (!res.destroyed) res.writeHead(200).end('late');
    });
    const { account, endpoint, startedAt } = await scenario(`${receiver.url}/slow`);
    const log = await finalLog(account, endpoint.id, 1);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ attempt: 1, status: 'failed', statusCode: null, willRetry: false });
    expect(log[0]!.error).toMatch(/timed out/);
    expect(log[0]!.durationMs).toBeGreaterThanOrEqual(4900);
    expect(log[0]!.durationMs).toBeLessThan(6500);
    // Past the point where a 1 s retry would have come.
    await sleep(Math.max(0, startedAt + 7500 - Date.now()));
    expect(receiver.received('/slow')).toHaveLength(1);
    expect((await account.test.get(`/delivered-webhooks?webhookId=${endpoint.id}`)).body.deliveries).toHaveLength(1);
  });

  it('does not retry a 4xx', async () => {
    receiver.on('/reject', (_req, _count, res) => void res.writeHead(400).end('{"error":"bad signature"}'));
    const { account, endpoint } = await scenario(`${receiver.url}/reject`);
    const log = await finalLog(account, endpoint.id, 1);
    expect(log[0]).toMatchObject({ status: 'failed', statusCode: 400, willRetry: false });
    expect((log[0] as unknown as { responseBodyExcerpt: string }).responseBodyExcerpt).toBe('{"error":"bad signature"}');
    await sleep(1500);
    expect(receiver.received('/reject')).toHaveLength(1);
  });
});

describe.concurrent('redirects', () => {
  it.each([301, 302, 303])('a %i is a failed delivery and is not followed', async (status) => {
    receiver.on(`/moved-${status}`, (_req, _count, res) => void res.writeHead(status, { location: `/landing-${status}` }).end());
    const { account, endpoint } = await scenario(`${receiver.url}/moved-${status}`);
    const log = await finalLog(account, endpoint.id, 1);
    expect(log[0]).toMatchObject({ status: 'failed', statusCode: status, willRetry: false, redirects: 0 });
    expect(log[0]!.error).toMatch(/not followed/);
    expect(receiver.received(`/landing-${status}`)).toEqual([]);
  });

  it('follows up to 3 redirects of 307/308 with the same signed body', async () => {
    receiver.on('/hop1', (_req, _count, res) => void res.writeHead(307, { location: '/hop2' }).end());
    receiver.on('/hop2', (_req, _count, res) => void res.writeHead(308, { location: `${receiver.url}/hop3` }).end());
    receiver.on('/hop3', (_req, _count, res) => void res.writeHead(307, { location: '/final' }).end());
    const { account, endpoint, eventId } = await scenario(`${receiver.url}/hop1`);
    const log = await finalLog(account, endpoint.id, 1);
    expect(log[0]).toMatchObject({ status: 'success', statusCode: 200, redirects: 3 });
    expect(log[0]!.finalUrl).toBe(`${receiver.url}/final`);
    const [final] = receiver.received('/final');
    expect(final!.body).toBe(log[0]!.requestBody);
    expect(final!.headers['x-service-event-id']).toBe(eventId);
    expect(independentlyVerified(final!, endpoint.secret)).toBe(true);
  });

  it('fails on a 4th redirect', async () => {
    for (let i = 1; i <= 4; i++) receiver.on(`/loop${i}`, (_req, _count, res) => void res.writeHead(i % 2 ? 307 : 308, { location: `/loop${i + 1}` }).end());
    const { account, endpoint } = await scenario(`${receiver.url}/loop1`);
    const log = await finalLog(account, endpoint.id, 1);
    expect(log[0]).toMatchObject({ status: 'failed', statusCode: 308, redirects: 3, willRetry: false });
    expect(log[0]!.error).toMatch(/more than 3 redirects/);
    expect(receiver.received('/loop4')).toHaveLength(1);
    expect(receiver.received('/loop5')).toEqual([]);
  });

  it('re-checks every redirect target: a redirect to a private or metadata address is refused', async () => {
    receiver.on('/to-metadata', (_req, _count, res) => void res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end());
    receiver.on('/to-private', (_req, _count, res) => void res.writeHead(308, { location: 'https://0x0a000001/internal' }).end());
    const metadata = await scenario(`${receiver.url}/to-metadata`);
    const privateHop = await scenario(`${receiver.url}/to-private`);
    const [a] = await finalLog(metadata.account, metadata.endpoint.id, 1);
    const [b] = await finalLog(privateHop.account, privateHop.endpoint.id, 1);
    expect(a).toMatchObject({ status: 'failed', willRetry: false });
    expect(a!.error).toMatch(/redirect refused/);
    expect(b).toMatchObject({ status: 'failed', willRetry: false });
    expect(b!.error).toMatch(/redirect refused: .*10\.0\.0\.1.*private/);
  });
});
