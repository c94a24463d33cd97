import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { testDynamoEndpoint } from '../support/dynamo-endpoint';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureTable } from '../../shared/local/dynamodb-table';
import type { Clock } from '../../shared/platform/clock';
import { blockSizeFor, RateLimiter, WINDOW_MS } from '../../shared/platform/rate-limit';
import { randomHex } from '../../shared/platform/ids';
import { documentClient } from '../../shared/store/client';
import { keys } from '../../shared/store/keys';
import { Store } from '../../shared/store/store';

/** A clock the test sets: both "containers" read the same time. */
class SetClock implements Clock {
  constructor(public ms: number) {}
  now = () => new Date(this.ms);
  nowMs = () => this.ms;
}

let tableName: string;
let endpoint: string;

beforeAll(async () => {
  endpoint = testDynamoEndpoint();
  tableName = `t_${randomHex(6)}`;
  const raw = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await ensureTable(raw, tableName);
  raw.destroy();
});

/** Two Store objects over one table are two Lambda containers: nothing is shared but DynamoDB. */
function container(clock: Clock) {
  const store = new Store(documentClient({ region: 'us-east-1', endpoint }), tableName);
  return { store, limiter: new RateLimiter({ store, clock }) };
}

async function attempt(limiter: RateLimiter, accountId: string, limit: number, times: number): Promise<number> {
  let admitted = 0;
  for (let i = 0; i < times; i++) {
    try {
      await limiter.consume(accountId, limit);
      admitted++;
    } catch (error) {
      expect(error).toMatchObject({ status: 429 });
    }
  }
  return admitted;
}

const LIMIT = 600;
// A window start well away from the real time, different for each test.
let nextWindow = Math.floor(Date.UTC(2030, 0, 1) / WINDOW_MS) * WINDOW_MS;
const freshWindow = () => (nextWindow += 10 * WINDOW_MS);

describe('rate limit across containers (sliding window, leased blocks)', () => {
  it('two containers share one limit of 600 a minute, spending it with a write per block, not per request', async () => {
    const start = freshWindow();
    const clock = new SetClock(start + 1_000);
    const a = container(clock);
    const b = container(clock);
    const account = `acct_${randomHex(6)}`;
    let admitted = 0;
    for (let round = 0; round < 40; round++) {
      admitted += await attempt(a.limiter, account, LIMIT, 10);
      admitted += await attempt(b.limiter, account, LIMIT, 10);
    }
    // Never more than the limit; at most one block each held back unspent.
    expect(admitted).toBeLessThanOrEqual(LIMIT);
    expect(admitted).toBeGreaterThanOrEqual(LIMIT - 2 * blockSizeFor(LIMIT));
    const counted = await a.store.get<{ count: number }>(keys.rateWindow(account, start), { consistent: true });
    expect(counted!.count).toBeLessThanOrEqual(LIMIT);
    // Writes: one per block reserved, plus a refused attempt or two at the end, not one per request.
    const writes = a.store.totals.write + b.store.totals.write;
    expect(writes).toBeLessThanOrEqual(LIMIT / blockSizeFor(LIMIT) + 8);
  });

  it('allows no burst of twice the limit across a window boundary', async () => {
    const start = freshWindow();
    const clock = new SetClock(start + 59_500);
    const a = container(clock);
    const b = container(clock);
    const account = `acct_${randomHex(6)}`;
    const before = await attempt(a.limiter, account, LIMIT, LIMIT);
    expect(before).toBe(LIMIT);
    // One second later, in the next window: the previous minute still weighs almost fully.
    clock.ms = start + WINDOW_MS + 500;
    const after = (await attempt(a.limiter, account, LIMIT, 300)) + (await attempt(b.limiter, account, LIMIT, 300));
    // A fixed window would admit another 600 here; the sliding estimate allows 600 × 0.5/60 = 5.
    expect(after).toBeLessThanOrEqual(Math.floor(LIMIT * (500 / WINDOW_MS)));
    expect(before + after).toBeLessThanOrEqual(LIMIT + LIMIT / 60);
    // Half a minute on, half the limit is available again, shared by both containers.
    clock.ms = start + WINDOW_MS + 30_000;
    const half = (await attempt(a.limiter, account, LIMIT, 400)) + (await attempt(b.limiter, account, LIMIT, 400));
    expect(after + half).toBeLessThanOrEqual(LIMIT / 2);
    expect(after + half).toBeGreaterThanOrEqual(LIMIT / 2 - 2 * blockSizeFor(LIMIT));
    // Two windows later nothing of the burst weighs any more.
    clock.ms = start + 3 * WINDOW_MS + 1_000;
    expect(await attempt(b.limiter, account, LIMIT, LIMIT)).toBe(LIMIT);
  });

  it('one account at its limit leaves another account untouched, in the same containers', async () => {
    const start = freshWindow();
    const clock = new SetClock(start + 10_000);
    const a = container(clock);
    const b = container(clock);
    const busy = `acct_${randomHex(6)}`;
    const quiet = `acct_${randomHex(6)}`;
    await attempt(a.limiter, busy, LIMIT, LIMIT);
    await attempt(b.limiter, busy, LIMIT, LIMIT);
    await expect(a.limiter.consume(busy, LIMIT)).rejects.toMatchObject({ status: 429, details: { retryAfterSeconds: 1 } });
    expect((await attempt(a.limiter, quiet, LIMIT, LIMIT / 2)) + (await attempt(b.limiter, quiet, LIMIT, LIMIT / 2))).toBeGreaterThanOrEqual(
      LIMIT - 2 * blockSizeFor(LIMIT),
    );
  });

  it('concurrent requests in one container share one reservation and never exceed a small limit', async () => {
    const start = freshWindow();
    const clock = new SetClock(start + 5_000);
    const a = container(clock);
    const b = container(clock);
    const account = `acct_${randomHex(6)}`;
    const results = await Promise.allSettled([
      ...Array.from({ length: 10 }, () => a.limiter.consume(account, 3)),
      ...Array.from({ length: 10 }, () => b.limiter.consume(account, 3)),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ status: 429 });
  });
});
