import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { createTestAccount, startTestRuntime, type TestAccount } from '../support/runtime';

// Tenant and mode isolation across capabilities, through HTTP only: a record made with one key is
// invisible, unreadable and untouchable with the other mode's key and with another account's keys.
let runtime: LocalRuntime;
let owner: TestAccount;
let stranger: TestAccount;
let productId = '';

beforeAll(async () => {
  runtime = await startTestRuntime();
  owner = await createTestAccount(runtime, 'volume');
  stranger = await createTestAccount(runtime, 'volume');
  productId = (await owner.test.post('/products', { name: 'Discounted', price: 20 })).body._id;
});
afterAll(async () => runtime?.stop());

const cases = [
  { name: 'product', create: '/products', body: () => ({ name: 'Secret ebook', price: 5 }), read: (id: string) => `/products/${id}`, list: '/products' },
  {
    name: 'subscription offer',
    create: '/subscriptions',
    body: () => ({ name: 'Secret club', price: 9, frequency: 'monthly' }),
    read: (id: string) => `/subscriptions/${id}`,
    list: '/subscriptions',
  },
  {
    name: 'discount',
    create: '/discounts',
    body: () => ({ name: 'Secret', code: 'SECRET10', value: 10, mainProductIds: [productId] }),
    read: (id: string) => `/discounts/${id}`,
    list: '/discounts',
  },
];

describe.each(cases)('$name', ({ create, body, read, list }) => {
  it('is seen only by the key that made it: not by the other mode, not by another account', async () => {
    const created = await owner.test.post(create, body());
    expect(created.status, created.text).toBe(201);
    const id = created.body._id ?? created.body.id;
    expect((await owner.test.get(read(id))).status).toBe(200);

    for (const other of [owner.live, stranger.test, stranger.live]) {
      expect((await other.get(read(id))).status).toBe(404);
      const listed = await other.get(list);
      expect(listed.status).toBe(200);
      expect(JSON.stringify(listed.body)).not.toContain(id);
      expect((await other.delete(read(id))).status).toBe(404);
    }
    expect((await owner.test.get(read(id))).status).toBe(200);
  });
});

describe('webhook endpoints', () => {
  it('belong to one account and mode', async () => {
    const created = await owner.live.post('/webhooks', { url: 'https://hooks.example.com/in', events: ['product.created'] });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id ?? created.body._id;
    for (const other of [owner.test, stranger.live]) {
      expect((await other.get(`/webhooks/${id}`)).status).toBe(404);
      expect((await other.post(`/webhooks/${id}/rotate-secret`)).status).toBe(404);
    }
  });
});
