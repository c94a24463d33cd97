import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control, createTestAccount, startTestRuntime, type ApiClient, type TestAccount } from '../support/runtime';
import type { LocalRuntime } from '../../shared/local/runtime';
import { loadImage as getImage, loadImages as listImages } from '../../shared/storefront/images/repository';

let runtime: LocalRuntime;
let seller: TestAccount;
let pro: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  runtime = await startTestRuntime();
  [seller, pro, other] = await Promise.all([createTestAccount(runtime), createTestAccount(runtime, 'tier3'), createTestAccount(runtime)]);
});
afterAll(async () => runtime?.stop());

async function create(client: ApiClient, body: Record<string, unknown> | FormData) {
  const answer = await client.post('/subscriptions', body);
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

describe('create and read', () => {
  it('creates an offer from JSON and answers 201 with the full offer', async () => {
    const created = await seller.test.post('/subscriptions', { name: 'Pro monthly', price: 19.99, frequency: 'monthly', trialPeriod: 14 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Pro monthly',
      price: 19.99,
      currency: 'USD',
      frequency: 'monthly',
      trialPeriod: 14,
      published: true,
      testMode: true,
      description: null,
      imageIds: [],
      usagePricing: { seats: { enabled: false }, meters: [] },
    });
    expect(created.body._id).toMatch(/^[0-9a-f]{24}$/);
    const read = await seller.test.get(`/subscriptions/${created.body._id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it("lists the offers of the key's mode, newest first, and never the products", async () => {
    const account = await createTestAccount(runtime);
    const weekly = await create(account.test, { name: 'Weekly', price: 2, frequency: 'weekly' });
    const yearly = await create(account.test, { name: 'Yearly', price: 90, frequency: 'yearly' });
    const live = await create(account.live, { name: 'Live monthly', price: 9, frequency: 'monthly' });
    expect((await account.test.post('/products', { name: 'One-time', price: 5 })).status).toBe(201);
    const list = await account.test.get('/subscriptions');
    expect(list.status).toBe(200);
    expect(list.body.map((o: { _id: string }) => o._id)).toEqual([yearly._id, weekly._id]);
    expect((await account.live.get('/subscriptions')).body.map((o: { _id: string }) => o._id)).toEqual([live._id]);
    expect((await account.test.get('/products')).body.map((p: { name: string }) => p.name)).toEqual(['One-time']);
  });

  it('creates an offer from multipart/form-data with decoded fields and an image kept in blob storage as a storefront image', async () => {
    const form = new FormData();
    form.set('name', 'Studio plan');
    form.set('price', '49.5');
    form.set('frequency', 'yearly');
    form.set('trialPeriod', '7');
    form.set('published', 'false');
    form.set('image', new Blob([PNG], { type: 'image/png' }), 'cover.png');
    const created = await seller.test.post('/subscriptions', form);
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: 'Studio plan', price: 49.5, frequency: 'yearly', trialPeriod: 7, published: false });
    expect(created.body.imageIds).toHaveLength(1);
    const image = await getImage(runtime.deps.store, { accountId: seller.accountId, mode: 'test' }, created.body.imageIds[0]);
    expect(image).toMatchObject({ filename: 'cover.png', contentType: 'image/png', size: PNG.length });
    const stored = await runtime.deps.ports.blob.get(image!.blobKey);
    expect(Buffer.from(stored!.body).equals(PNG)).toBe(true);
    expect((await seller.test.get(`/subscriptions/${created.body._id}`)).body).toEqual(created.body);
  });

  it('takes multipart without a file, a numeric-looking name, and usage pricing as a JSON field', async () => {
    const form = new FormData();
    form.set('name', '2025');
    form.set('price', '10');
    form.set('frequency', 'monthly');
    form.set('usagePricing', JSON.stringify({ seats: { enabled: true, includedSeats: 3 }, meters: [{ name: 'api_calls', unitPriceCents: 1 }] }));
    const created = await pro.test.post('/subscriptions', form);
    expect(created.status, created.text).toBe(201);
    expect(created.body.name).toBe('2025');
    expect(created.body.usagePricing).toEqual({ seats: { enabled: true, includedSeats: 3 }, meters: [{ name: 'api_calls', unitPriceCents: 1 }] });
  });

  it('refuses a multipart file that is not an image, or in another field, and creates nothing', async () => {
    const account = await createTestAccount(runtime);
    const text = new FormData();
    text.set('name', 'X');
    text.set('price', '1');
    text.set('frequency', 'monthly');
    text.set('image', new Blob(['hello'], { type: 'text/plain' }), 'notes.txt');
    const notImage = await account.test.post('/subscriptions', text);
    expect(notImage.status).toBe(400);
    expect(notImage.body.field).toBe('image');
    const wrongField = new FormData();
    wrongField.set('name', 'X');
    wrongField.set('price', '1');
    wrongField.set('frequency', 'monthly');
    wrongField.set('logo', new Blob([PNG], { type: 'image/png' }), 'logo.png');
    const wrong = await account.test.post('/subscriptions', wrongField);
    expect(wrong.status).toBe(400);
    expect(wrong.body.field).toBe('logo');
    const badField = new FormData();
    badField.set('name', 'X');
    badField.set('frequency', 'monthly');
    badField.set('image', new Blob([PNG], { type: 'image/png' }), 'cover.png');
    // A field fails validation before the file is looked at: nothing is stored at all.
    expect((await account.test.post('/subscriptions', badField)).body.field).toBe('price');
    expect((await account.test.get('/subscriptions')).body).toEqual([]);
    expect(await listImages(runtime.deps.store, { accountId: account.accountId, mode: 'test' })).toEqual([]);
  });
});

describe('validation', () => {
  const sixMeters = Array.from({ length: 6 }, (_, i) => ({ name: `m${i}` }));
  const cases: [string, unknown, string][] = [
    ['missing name', { price: 5, frequency: 'monthly' }, 'name'],
    ['missing price', { name: 'X', frequency: 'monthly' }, 'price'],
    ['negative price', { name: 'X', price: -5, frequency: 'monthly' }, 'price'],
    ['missing frequency', { name: 'X', price: 5 }, 'frequency'],
    ['bad frequency', { name: 'X', price: 5, frequency: 'daily' }, 'frequency'],
    ['negative trial', { name: 'X', price: 5, frequency: 'monthly', trialPeriod: -1 }, 'trialPeriod'],
    ['fractional trial', { name: 'X', price: 5, frequency: 'monthly', trialPeriod: 1.5 }, 'trialPeriod'],
    ['more than 5 meters', { name: 'X', price: 5, frequency: 'monthly', usagePricing: { meters: sixMeters } }, 'usagePricing.meters'],
    ['a meter that is not an object', { name: 'X', price: 5, frequency: 'monthly', usagePricing: { meters: ['calls'] } }, 'usagePricing.meters.0'],
    ['seats without enabled', { name: 'X', price: 5, frequency: 'monthly', usagePricing: { seats: {} } }, 'usagePricing.seats.enabled'],
    ['usagePricing not an object', { name: 'X', price: 5, frequency: 'monthly', usagePricing: 'metered' }, 'usagePricing'],
  ];
  for (const [label, body, field] of cases) {
    it(`answers 400 naming ${field} for ${label}, and creates nothing`, async () => {
      // A Pro account, so the plan gate cannot be what refuses the usage-pricing cases.
      const account = await createTestAccount(runtime, 'tier3');
      const answer = await account.test.post('/subscriptions', body);
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.field).toBe(field);
      expect(answer.body.error).toContain(field);
      expect((await account.test.get('/subscriptions')).body).toEqual([]);
    });
  }

  it('answers 400 for a body that is not valid JSON', async () => {
    const answer = await seller.test.post('/subscriptions', '{"name": ', { 'content-type': 'application/json' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/JSON/);
  });

  it('gates usage pricing on the Pro plan, and leaves flat pricing open', async () => {
    const locked = await seller.test.post('/subscriptions', { name: 'Metered', price: 5, frequency: 'monthly', usagePricing: { meters: [{ name: 'calls' }] } });
    expect(locked.status).toBe(403);
    expect(locked.body.code).toBe('FEATURE_LOCKED');
    expect(locked.body.details).toEqual({ requiredPlan: 'tier3' });
    const flat = await seller.test.post('/subscriptions', {
      name: 'Flat',
      price: 5,
      frequency: 'monthly',
      usagePricing: { seats: { enabled: false }, meters: [] },
    });
    expect(flat.status).toBe(201);
    const five = await create(pro.test, {
      name: 'Five meters',
      price: 5,
      frequency: 'monthly',
      usagePricing: { meters: Array.from({ length: 5 }, (_, i) => ({ name: `m${i}` })) },
    });
    expect(five.usagePricing.meters).toHaveLength(5);
  });
});

describe('isolation', () => {
  it("answers 404 for another account's offer and the other mode's, on every path", async () => {
    const mine = await create(seller.test, { name: 'Mine', price: 3, frequency: 'monthly' });
    for (const client of [other.test, other.live, seller.live]) {
      expect((await client.get(`/subscriptions/${mine._id}`)).status).toBe(404);
      expect((await client.post(`/subscriptions/update/${mine._id}`, { name: 'Hijack' })).status).toBe(404);
      expect((await client.delete(`/subscriptions/${mine._id}`)).status).toBe(404);
    }
    const missing = await seller.test.get('/subscriptions/000000000000000000000000');
    expect(missing.status).toBe(404);
    expect((await other.test.get(`/subscriptions/${mine._id}`)).body).toEqual(missing.body);
    expect((await seller.test.get(`/subscriptions/${mine._id}`)).body).toEqual(mine);
  });

  it('points a subscriptions read of a product id to /products/{id}', async () => {
    const product = await seller.test.post('/products', { name: 'Ebook', price: 9 });
    const answer = await seller.test.get(`/subscriptions/${product.body._id}`);
    expect(answer.status).toBe(404);
    expect(answer.body.error).toContain(`/products/${product.body._id}`);
  });
});

describe('update and delete', () => {
  it('updates only the fields sent, merges usage pricing by part, and clears it with null', async () => {
    const offer = await create(pro.test, {
      name: 'Team',
      price: 30,
      frequency: 'monthly',
      description: 'For teams',
      usagePricing: { seats: { enabled: true, maxSeats: 10 } },
    });
    await runtime.clock.advance(5);
    const updated = await pro.test.post(`/subscriptions/update/${offer._id}`, {
      price: 35,
      frequency: 'yearly',
      usagePricing: { meters: [{ name: 'exports' }] },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({
      name: 'Team',
      price: 35,
      frequency: 'yearly',
      description: 'For teams',
      usagePricing: { seats: { enabled: true, maxSeats: 10 }, meters: [{ name: 'exports' }] },
      createdAt: offer.createdAt,
    });
    expect(updated.body.updatedAt > offer.updatedAt).toBe(true);
    const cleared = await pro.test.post(`/subscriptions/update/${offer._id}`, { usagePricing: null, description: null });
    expect(cleared.body).toMatchObject({ usagePricing: { seats: { enabled: false }, meters: [] }, description: null });
    expect((await pro.test.get(`/subscriptions/${offer._id}`)).body).toEqual(cleared.body);
  });

  it('refuses a bad update with 400 and changes nothing', async () => {
    const offer = await create(seller.test, { name: 'Basic', price: 4, frequency: 'weekly' });
    for (const [body, field] of [
      [{ frequency: 'hourly' }, 'frequency'],
      [{ price: -1 }, 'price'],
      [{ usagePricing: { meters: Array.from({ length: 6 }, () => ({})) } }, 'usagePricing.meters'],
    ] as const) {
      const answer = await seller.test.post(`/subscriptions/update/${offer._id}`, body);
      expect(answer.status).toBe(400);
      expect(answer.body.field).toBe(field);
    }
    expect((await seller.test.get(`/subscriptions/${offer._id}`)).body).toEqual(offer);
  });

  it('deletes: gone from reads and lists, and a second delete is 404', async () => {
    const account = await createTestAccount(runtime);
    const offer = await create(account.test, { name: 'Gone', price: 1, frequency: 'monthly' });
    const deleted = await account.test.delete(`/subscriptions/${offer._id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ _id: offer._id, deleted: true });
    expect((await account.test.get(`/subscriptions/${offer._id}`)).status).toBe(404);
    expect((await account.test.get('/subscriptions')).body).toEqual([]);
    expect((await account.test.delete(`/subscriptions/${offer._id}`)).status).toBe(404);
    // Offers have no events of their own in the catalog: the outbox (written synchronously with
    // each change) stays empty.
    expect((await control(runtime).get(`/_local/events?accountId=${account.accountId}&mode=test`)).body.events).toEqual([]);
  });
});

describe('contract', () => {
  it('documents the offer operations with both body types and their MCP tool names', async () => {
    const paths = (await seller.test.get('/docs.json')).body.paths;
    expect(paths['/subscriptions'].get['x-mcp-tool']).toBe('list_subscription_offers');
    expect(paths['/subscriptions'].post['x-mcp-tool']).toBe('create_subscription_offer');
    expect(Object.keys(paths['/subscriptions'].post.requestBody.content)).toEqual(['application/json', 'multipart/form-data']);
    expect(paths['/subscriptions/{id}'].get['x-mcp-tool']).toBe('get_subscription_offer');
    expect(paths['/subscriptions/{id}'].delete['x-mcp-tool']).toBe('delete_subscription_offer');
    expect(paths['/subscriptions/update/{id}'].post['x-mcp-tool']).toBe('update_subscription_offer');
    const shape = paths['/subscriptions/{id}'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(shape.properties)).toEqual(expect.arrayContaining(['_id', 'name', 'price', 'frequency', 'trialPeriod', 'usagePricing', 'testMode']));
  });
});
