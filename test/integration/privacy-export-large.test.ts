import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBlob } from '../../shared/adapters/local/blob';
import { createAccount } from '../../shared/platform/accounts';
import type { Deps, OperationContext } from '../../shared/platform/context';
import type { BlobPort } from '../../shared/platform/ports';
import { exportCustomer } from '../../shared/privacy/service';
import type { SaleRecord } from '../../shared/sales/records';
import { saleItem } from '../../shared/sales/repository';
import { createCustomer } from '../../shared/sales/service';
import { createTestDeps } from '../support/store';

// A forced collection before each sample, so what is measured is what the export keeps alive,
// not garbage the collector has not reached yet.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * Fewer orders than a big buyer may have, each carrying more: what is measured is whether memory
 * follows the page or the export, which ~10 MiB written shows as well as more orders would, and
 * every order costs each order-keyed part (orders, reviews, survey, downloads, keys) a read.
 */
const ORDERS = 4_000;
let deps: Deps;
let ctx: OperationContext;
let dir: string;

beforeAll(async () => {
  ({ deps } = await createTestDeps());
  dir = await mkdtemp(join(tmpdir(), 'export-'));
  const account = await createAccount(deps.store, deps.clock, { email: 'seller@example.com' });
  ctx = {
    ...deps,
    account,
    scope: { accountId: account.accountId, mode: 'test' },
    request: { requestId: 't', method: 'GET', path: '/', headers: {}, rawBody: '', sourceIp: '127.0.0.1', baseUrl: 'http://127.0.0.1' },
  };
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The blob port on files, sampling the heap every 4 chunks (a chunk is a page of up to 100 records) as the export is written. */
function measuredBlob(blob: LocalBlob, samples: number[]): BlobPort {
  return {
    put: (key, body, type) => blob.put(key, body, type),
    get: (key) => blob.get(key),
    delete: (key) => blob.delete(key),
    multipart: blob.multipart,
    putStream(key, chunks, type) {
      async function* sampled() {
        let n = 0;
        for await (const chunk of chunks) {
          if (n++ % 4 === 0) {
            gc();
            samples.push(process.memoryUsage().heapUsed);
          }
          yield chunk;
        }
      }
      return blob.putStream(key, sampled(), type);
    },
  };
}

describe('export of a buyer with 4,000 orders', () => {
  it('streams page by page: the heap grows by a small part of the export, never by the export', { timeout: 600_000 }, async () => {
    const customer = await createCustomer(ctx, { email: 'big-buyer@example.com', firstName: 'Big' });
    // Seeded at the store level: 4,000 sales of the customer, as checkout writes them.
    const now = deps.clock.now().toISOString();
    const sales: SaleRecord[] = Array.from({ length: ORDERS }, (_, i) => ({
      _id: `6b09${String(i).padStart(20, '0')}`,
      type: 'one_time',
      productId: `product${i % 7}`,
      productName: `Product ${i % 7}`,
      subscriptionId: null,
      subscriberId: null,
      customerId: customer._id,
      buyerEmail: 'big-buyer@example.com',
      firstName: 'Big',
      lastName: 'Buyer',
      country: 'DE',
      amountCents: 1900 + i,
      originalAmountCents: 1900 + i,
      currency: 'eur',
      discountCode: null,
      status: 'completed',
      refundedCents: 0,
      paymentIntentId: `pay_${i}`,
      planId: null,
      membershipId: null,
      paymentMethod: null,
      checkoutSessionId: null,
      clientReferenceId: null,
      metadata: { note: 'x'.repeat(1_500) },
      free: false,
      testMode: true,
      createdAt: now,
    }));
    await deps.store.batchPut(sales.map((sale) => saleItem(ctx.scope, sale)));
    sales.length = 0;

    const samples: number[] = [];
    const blob = new LocalBlob(dir);
    gc();
    const baseline = process.memoryUsage().heapUsed;
    const answer = await exportCustomer({ ...ctx, ports: { ...ctx.ports, blob: measuredBlob(blob, samples) } }, customer._id, 'http://127.0.0.1');
    const peakGrowth = Math.max(...samples) - baseline;

    // The file holds every order, once.
    const token = answer.url.split('/').pop()!;
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    const folder = join(dir, 'exports', ctx.scope.accountId, 'test', customer._id);
    const files = readdirSync(folder).filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(1);
    const text = await readFile(join(folder, files[0]!), 'utf8');
    expect(Buffer.byteLength(text)).toBe(answer.bytes);
    const parsed = JSON.parse(text) as { parts: { orders: { _id: string; amountCents: number }[] } };
    expect(parsed.parts.orders).toHaveLength(ORDERS);
    expect(new Set(parsed.parts.orders.map((o) => o._id)).size).toBe(ORDERS);

    // What the export kept alive at its peak against what it wrote (printed for docs/performance.md).
    console.log(
      `export of ${ORDERS} orders: ${(answer.bytes / 2 ** 20).toFixed(1)} MiB written, peak heap growth ${(peakGrowth / 2 ** 20).toFixed(2)} MiB over ${samples.length} samples`,
    );
    expect(answer.bytes).toBeGreaterThan(5 * 2 ** 20);
    expect(peakGrowth).toBeLessThan(answer.bytes / 5);
  });
});
