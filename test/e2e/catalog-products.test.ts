import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { control, createTestAccount, startTestRuntime, type ApiClient, type TestAccount } from '../support/runtime';
import type { LocalRuntime } from '../../shared/local/runtime';
import { uploadImage } from '../../shared/storefront/images/service';
import { createRefundPolicy } from '../../shared/storefront/refund-policies/service';

let runtime: LocalRuntime;
let seller: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  runtime = await startTestRuntime();
  [seller, other] = await Promise.all([createTestAccount(runtime), createTestAccount(runtime)]);
});
afterAll(async () => runtime?.stop());

async function events(accountId: string, mode: 'live' | 'test', type?: string) {
  const c = control(runtime);
  expect((await c.post('/_local/settle', {})).status).toBe(200);
  const answer = await c.get(`/_local/events?accountId=${accountId}&mode=${mode}${type ? `&type=${type}` : ''}`);
  expect(answer.status).toBe(200);
  return answer.body.events as { id: string; type: string; data: Record<string, unknown> }[];
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

// Refund policies and images belong to the storefront capability; they are set up through its
// services so these tests depend on nothing but its records.
const scopeOf = (account: TestAccount, mode: 'live' | 'test' = 'test') => ({ accountId: account.accountId, mode });
const refundPolicy = async (account: TestAccount, mode: 'live' | 'test' = 'test') =>
  (await createRefundPolicy(runtime.deps, scopeOf(account, mode), { name: '30 days', days: 30 }))._id;
const image = async (account: TestAccount, mode: 'live' | 'test' = 'test') =>
  (await uploadImage(runtime.deps, scopeOf(account, mode), { image: [{ filename: 'cover.png', mimetype: 'image/png', content: PNG }] }))._id;

const productEvents = async (accountId: string, mode: 'live' | 'test', id: string) =>
  (await events(accountId, mode)).filter((e) => e.type.startsWith('product.') && e.data._id === id);

async function create(client: ApiClient, body: Record<string, unknown>) {
  const answer = await client.post('/products', body);
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

describe('create and read', () => {
  it('creates a product with the price in USD, stores cents, and shows the full document', async () => {
    const created = await seller.test.post('/products', { name: 'Ebook', price: 29.99, description: 'A book' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Ebook',
      price: 29.99,
      currency: 'USD',
      description: 'A book',
      productType: 'digital',
      published: true,
      testMode: true,
      refundPolicyId: null,
      imageIds: [],
      payWhatYouWant: { enabled: false, minimumPrice: 0 },
    });
    expect(created.body._id).toMatch(/^[0-9a-f]{24}$/);
    expect(created.body.createdAt).toBe(created.body.updatedAt);
    expect(created.body).not.toHaveProperty('priceCents');
    const read = await seller.test.get(`/products/${created.body._id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('takes a credits product with auto refill, pay what you want, and published false', async () => {
    const [policyId, imageId] = [await refundPolicy(seller), await image(seller)];
    const body = await create(seller.test, {
      name: 'Credits pack',
      price: 10,
      productType: 'credits',
      creditAmount: 500,
      creditAutoRefill: { enabled: true, topOffCents: 1000 },
      payWhatYouWant: { enabled: true, minimumPrice: 5.5 },
      published: false,
      refundPolicyId: policyId,
      imageIds: [imageId],
    });
    expect(body).toMatchObject({
      productType: 'credits',
      creditAmount: 500,
      creditAutoRefill: { enabled: true, topOffCents: 1000 },
      payWhatYouWant: { enabled: true, minimumPrice: 5.5 },
      published: false,
      refundPolicyId: policyId,
      imageIds: [imageId],
    });
  });

  it("refuses refund policies and images that are not the caller's in this mode", async () => {
    const account = await createTestAccount(runtime);
    const [livePolicy, foreignPolicy, liveImage, foreignImage, ownImage] = [
      await refundPolicy(account, 'live'),
      await refundPolicy(other),
      await image(account, 'live'),
      await image(other),
      await image(account),
    ];
    for (const refundPolicyId of [livePolicy, foreignPolicy, '000000000000000000000000']) {
      const answer = await account.test.post('/products', { name: 'X', price: 1, refundPolicyId });
      expect(answer.status).toBe(400);
      expect(answer.body.field).toBe('refundPolicyId');
    }
    for (const bad of [liveImage, foreignImage]) {
      const answer = await account.test.post('/products', { name: 'X', price: 1, imageIds: [ownImage, bad] });
      expect(answer.status).toBe(400);
      expect(answer.body.field).toBe('imageIds.1');
    }
    expect((await account.test.get('/products')).body).toEqual([]);
    const product = await create(account.test, { name: 'X', price: 1, imageIds: [ownImage] });
    const update = await account.test.post(`/products/update/${product._id}`, { refundPolicyId: foreignPolicy });
    expect(update.status).toBe(400);
    expect(update.body.field).toBe('refundPolicyId');
  });

  it("lists the products of the key's mode only, newest first", async () => {
    const account = await createTestAccount(runtime);
    const first = await create(account.test, { name: 'First', price: 1 });
    const second = await create(account.test, { name: 'Second', price: 2 });
    const liveOnly = await create(account.live, { name: 'Live one', price: 3 });
    const testList = await account.test.get('/products');
    expect(testList.status).toBe(200);
    expect(testList.body.map((p: { _id: string }) => p._id)).toEqual([second._id, first._id]);
    const liveList = await account.live.get('/products');
    expect(liveList.body.map((p: { _id: string }) => p._id)).toEqual([liveOnly._id]);
    expect(liveList.body[0].testMode).toBe(false);
  });
});

describe('validation', () => {
  const cases: [string, unknown, string][] = [
    ['missing name', { price: 5 }, 'name'],
    ['empty name', { name: '   ', price: 5 }, 'name'],
    ['missing price', { name: 'X' }, 'price'],
    ['negative price', { name: 'X', price: -1 }, 'price'],
    ['price as text', { name: 'X', price: '5' }, 'price'],
    ['price with 3 decimals', { name: 'X', price: 9.999 }, 'price'],
    ['unknown productType', { name: 'X', price: 5, productType: 'course' }, 'productType'],
    ['creditAutoRefill not an object', { name: 'X', price: 5, productType: 'credits', creditAutoRefill: true }, 'creditAutoRefill'],
    [
      'creditAutoRefill missing topOffCents',
      { name: 'X', price: 5, productType: 'credits', creditAutoRefill: { enabled: true } },
      'creditAutoRefill.topOffCents',
    ],
    [
      'creditAutoRefill fractional cents',
      { name: 'X', price: 5, productType: 'credits', creditAutoRefill: { enabled: true, topOffCents: 10.5 } },
      'creditAutoRefill.topOffCents',
    ],
    [
      'creditAutoRefill enabled with zero top-off',
      { name: 'X', price: 5, productType: 'credits', creditAutoRefill: { enabled: true, topOffCents: 0 } },
      'creditAutoRefill.topOffCents',
    ],
    [
      'creditAutoRefill enabled not boolean',
      { name: 'X', price: 5, productType: 'credits', creditAutoRefill: { enabled: 'yes', topOffCents: 100 } },
      'creditAutoRefill.enabled',
    ],
    ['creditAutoRefill on a digital product', { name: 'X', price: 5, creditAutoRefill: { enabled: true, topOffCents: 100 } }, 'creditAutoRefill'],
    ['pay-what-you-want minimum above price', { name: 'X', price: 5, payWhatYouWant: { enabled: true, minimumPrice: 6 } }, 'payWhatYouWant.minimumPrice'],
    ['bad refund policy id', { name: 'X', price: 5, refundPolicyId: 'nope' }, 'refundPolicyId'],
  ];
  for (const [label, body, field] of cases) {
    it(`answers 400 naming ${field} for ${label}, and creates nothing`, async () => {
      const account = await createTestAccount(runtime);
      const answer = await account.test.post('/products', body);
      expect(answer.status).toBe(400);
      expect(answer.body.field).toBe(field);
      expect(answer.body.error).toContain(field);
      expect((await account.test.get('/products')).body).toEqual([]);
      expect(await events(account.accountId, 'test')).toEqual([]);
    });
  }

  it('answers 400 for a body that is not valid JSON', async () => {
    const answer = await seller.test.post('/products', '{"name": "X", price: ', { 'content-type': 'application/json' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/JSON/);
  });

  it('refuses a bad update with 400 and leaves the product as it was', async () => {
    const product = await create(seller.test, { name: 'Stable', price: 3 });
    for (const [body, field] of [
      [{ price: -2 }, 'price'],
      [{ name: '' }, 'name'],
      [{ creditAutoRefill: { enabled: true, topOffCents: 50 } }, 'creditAutoRefill'],
    ] as const) {
      const answer = await seller.test.post(`/products/update/${product._id}`, body);
      expect(answer.status).toBe(400);
      expect(answer.body.field).toBe(field);
    }
    expect((await seller.test.get(`/products/${product._id}`)).body).toEqual(product);
  });
});

describe('isolation', () => {
  it("answers 404 for another account's product and for the other mode's, on every path", async () => {
    const mine = await create(seller.test, { name: 'Private', price: 4 });
    for (const client of [other.test, other.live, seller.live]) {
      expect((await client.get(`/products/${mine._id}`)).status).toBe(404);
      expect((await client.post(`/products/update/${mine._id}`, { name: 'Hijack' })).status).toBe(404);
      expect((await client.post(`/products/copy/${mine._id}`)).status).toBe(404);
      expect((await client.delete(`/products/${mine._id}`)).status).toBe(404);
    }
    const missing = await seller.test.get('/products/000000000000000000000000');
    expect(missing.status).toBe(404);
    const foreign = await other.test.get(`/products/${mine._id}`);
    expect(foreign.body).toEqual(missing.body);
    expect((await seller.test.get(`/products/${mine._id}`)).body).toEqual(mine);
  });

  it('points a product read of a subscription offer id to /subscriptions/{id}', async () => {
    const offer = await seller.test.post('/subscriptions', { name: 'Monthly', price: 9, frequency: 'monthly' });
    expect(offer.status).toBe(201);
    const answer = await seller.test.get(`/products/${offer.body._id}`);
    expect(answer.status).toBe(404);
    expect(answer.body.error).toContain(`/subscriptions/${offer.body._id}`);
    // Only the caller's own scope is consulted: another account gets the plain 404.
    const foreign = await other.test.get(`/products/${offer.body._id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).not.toContain('/subscriptions');
  });
});

describe('update and delete', () => {
  it('updates only the fields sent, clears with null, and emits product.updated once per change', async () => {
    const account = await createTestAccount(runtime);
    const product = await create(account.test, { name: 'Course', price: 100, description: 'Old' });
    await runtime.clock.advance(5);
    const updated = await account.test.post(`/products/update/${product._id}`, { price: 80.5, description: null });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ _id: product._id, name: 'Course', price: 80.5, description: null, createdAt: product.createdAt });
    expect(updated.body.updatedAt > product.updatedAt).toBe(true);
    // Nothing visible changes: no write, no event.
    const same = await account.test.post(`/products/update/${product._id}`, { price: 80.5 });
    expect(same.body).toEqual(updated.body);
    const list = await productEvents(account.accountId, 'test', product._id);
    expect(list.map((e) => e.type)).toEqual(['product.created', 'product.updated']);
    expect(list[0]!.data).toEqual(product);
    expect(list[1]!.data).toEqual(updated.body);
  });

  it('turns a credits product into a digital one and drops its credit fields', async () => {
    const product = await create(seller.test, {
      name: 'Pack',
      price: 5,
      productType: 'credits',
      creditAmount: 10,
      creditAutoRefill: { enabled: false, topOffCents: 0 },
    });
    const updated = await seller.test.post(`/products/update/${product._id}`, { productType: 'digital' });
    expect(updated.status).toBe(200);
    expect(updated.body.productType).toBe('digital');
    expect(updated.body).not.toHaveProperty('creditAmount');
    expect(updated.body).not.toHaveProperty('creditAutoRefill');
  });

  it('deletes: gone from reads and lists, a second delete is 404, product.deleted carries the document once', async () => {
    const account = await createTestAccount(runtime);
    const product = await create(account.test, { name: 'Short lived', price: 1 });
    const deleted = await account.test.delete(`/products/${product._id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ _id: product._id, deleted: true });
    expect((await account.test.get(`/products/${product._id}`)).status).toBe(404);
    expect((await account.test.get('/products')).body).toEqual([]);
    expect((await account.test.delete(`/products/${product._id}`)).status).toBe(404);
    expect((await account.test.post(`/products/update/${product._id}`, { name: 'Back' })).status).toBe(404);
    const list = await productEvents(account.accountId, 'test', product._id);
    expect(list.map((e) => e.type)).toEqual(['product.created', 'product.deleted']);
    expect(list[1]!.data).toEqual(product);
  });
});

describe('copy', () => {
  it('copies in the same mode with de-duplicated names', async () => {
    const account = await createTestAccount(runtime);
    const policyId = await refundPolicy(account);
    const ebook = await create(account.test, { name: 'Ebook', price: 12, published: true, refundPolicyId: policyId });
    const first = await account.test.post(`/products/copy/${ebook._id}`);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ name: 'Ebook (copy)', price: 12, published: true, testMode: true, refundPolicyId: policyId });
    expect(first.body._id).not.toBe(ebook._id);
    const second = await account.test.post(`/products/copy/${ebook._id}`, {});
    expect(second.body.name).toBe('Ebook (copy 2)');
    // Copying a copy numbers from the original name.
    const third = await account.test.post(`/products/copy/${first.body._id}`, { testMode: true });
    expect(third.body.name).toBe('Ebook (copy 3)');
    expect((await account.test.get('/products')).body).toHaveLength(4);
    expect((await account.live.get('/products')).body).toEqual([]);
    const created = (await events(account.accountId, 'test', 'product.created')).map((e) => e.data.name);
    expect(created).toEqual(['Ebook', 'Ebook (copy)', 'Ebook (copy 2)', 'Ebook (copy 3)']);
  });

  it('copies a test product into live mode unpublished, de-duplicating against live names', async () => {
    const account = await createTestAccount(runtime);
    const ebook = await create(account.test, { name: 'Ebook', price: 12, refundPolicyId: await refundPolicy(account), imageIds: [await image(account)] });
    const toLive = await account.test.post(`/products/copy/${ebook._id}`, { testMode: false });
    expect(toLive.status).toBe(201);
    expect(toLive.body).toMatchObject({ name: 'Ebook (copy)', price: 12, published: false, testMode: false, refundPolicyId: null, imageIds: [] });
    const again = await account.test.post(`/products/copy/${ebook._id}`, { testMode: false });
    expect(again.body.name).toBe('Ebook (copy 2)');
    const live = await account.live.get('/products');
    expect(live.body.map((p: { name: string }) => p.name)).toEqual(['Ebook (copy 2)', 'Ebook (copy)']);
    expect((await account.live.get(`/products/${toLive.body._id}`)).body).toEqual(toLive.body);
    expect((await account.test.get(`/products/${toLive.body._id}`)).status).toBe(404);
    expect((await account.test.get('/products')).body).toHaveLength(1);
    // The event belongs to live mode, where the copy lives.
    const liveEvents = await events(account.accountId, 'live', 'product.created');
    expect(liveEvents.map((e) => e.data)).toEqual([toLive.body, again.body]);
    expect((await events(account.accountId, 'test', 'product.created')).map((e) => e.data._id)).toEqual([ebook._id]);
  });

  it('refuses to copy a live product into test mode, and a testMode that is not boolean', async () => {
    const product = await create(seller.live, { name: 'Live product', price: 2 });
    const down = await seller.live.post(`/products/copy/${product._id}`, { testMode: true });
    expect(down.status).toBe(400);
    expect(down.body.field).toBe('testMode');
    const bad = await seller.test.post(`/products/copy/${product._id}`, { testMode: 'no' });
    expect(bad.status).toBe(400);
    const same = await seller.live.post(`/products/copy/${product._id}`, { testMode: false });
    expect(same.status).toBe(201);
    expect(same.body).toMatchObject({ name: 'Live product (copy)', testMode: false, published: true });
  });
});

describe('contract', () => {
  it('documents the product operations and shape in /docs.json and offers them as MCP tools', async () => {
    const docs = await seller.test.get('/docs.json');
    expect(docs.status).toBe(200);
    const paths = docs.body.paths;
    expect(paths['/products'].get['x-mcp-tool']).toBe('list_products');
    expect(paths['/products'].post['x-mcp-tool']).toBe('create_product');
    expect(paths['/products/{id}'].get['x-mcp-tool']).toBe('get_product');
    expect(paths['/products/{id}'].delete['x-mcp-tool']).toBe('delete_product');
    expect(paths['/products/update/{id}'].post['x-mcp-tool']).toBe('update_product');
    expect(paths['/products/copy/{id}'].post['x-mcp-tool']).toBe('copy_product');
    const shape = paths['/products/{id}'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(shape.properties)).toEqual(
      expect.arrayContaining(['_id', 'name', 'price', 'currency', 'testMode', 'published', 'createdAt', 'updatedAt']),
    );
  });

  it("runs the catalog as MCP tools with the key's mode: create, copy into live, read, list", async () => {
    const account = await createTestAccount(runtime);
    const client = new Client({ name: 'catalog-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${runtime.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${account.testKey}` } } }),
    );
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'list_products',
          'create_product',
          'get_product',
          'update_product',
          'delete_product',
          'copy_product',
          'list_subscription_offers',
          'create_subscription_offer',
          'get_subscription_offer',
          'update_subscription_offer',
          'delete_subscription_offer',
        ]),
      );
      const created = await client.callTool({ name: 'create_product', arguments: { name: 'Agent ebook', price: 15 } });
      expect(created.isError).toBeFalsy();
      const id = (created.structuredContent as { _id: string })._id;
      const copied = await client.callTool({ name: 'copy_product', arguments: { id, testMode: false } });
      expect(copied.structuredContent).toMatchObject({ name: 'Agent ebook (copy)', testMode: false, published: false });
      const offer = await client.callTool({ name: 'create_subscription_offer', arguments: { name: 'Agent club', price: 5, frequency: 'weekly' } });
      expect(offer.structuredContent).toMatchObject({ name: 'Agent club', frequency: 'weekly', testMode: true });
      const wrong = await client.callTool({ name: 'get_product', arguments: { id: (offer.structuredContent as { _id: string })._id } });
      expect(wrong.isError).toBe(true);
      expect((wrong.content as { text: string }[])[0]!.text).toContain('/subscriptions/');
      const bad = await client.callTool({ name: 'create_product', arguments: { name: 'No price' } });
      expect(bad.isError).toBe(true);
      expect(JSON.parse((bad.content as { text: string }[])[0]!.text)).toMatchObject({ status: 400, field: 'price' });
    } finally {
      await client.close();
    }
    expect((await account.live.get('/products')).body.map((p: { name: string }) => p.name)).toEqual(['Agent ebook (copy)']);
  });
});
