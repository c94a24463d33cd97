import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, control, createTestAccount, settleWithRetries, startTestRuntime, type TestAccount } from '../support/runtime';
import type { LocalRuntime } from '../../shared/local/runtime';
import { keys } from '../../shared/store/keys';
import { toItem } from '../../shared/store/items';
import { randomBase62 } from '../../shared/platform/ids';
import { RECEIPT_CAPABILITY_ENTITY, RECEIPT_CAPABILITY_KIND, type ReceiptCapability } from '../../shared/storefront/reviews/records';

let runtime: LocalRuntime;
let seller: TestAccount;
let other: TestAccount;

// A real 1x1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

beforeAll(async () => {
  runtime = await startTestRuntime();
  seller = await createTestAccount(runtime);
  other = await createTestAccount(runtime);
});
afterAll(async () => runtime?.stop());

const form = (field: string, bytes: Buffer, type: string, filename = 'pixel.png') => {
  const data = new FormData();
  data.append(field, new Blob([new Uint8Array(bytes)], { type }), filename);
  return data;
};

describe('images', () => {
  it('uploads a PNG, lists it, serves it at its public address and deletes it', async () => {
    const uploaded = await seller.test.post('/images', form('image', PNG, 'image/png', 'dir/pixel.png'));
    expect(uploaded.status, uploaded.text).toBe(201);
    expect(uploaded.body).toMatchObject({ contentType: 'image/png', size: PNG.length, filename: 'pixel.png' });
    expect(uploaded.body.url).toMatch(new RegExp(`^${runtime.url}/images/file/[0-9A-Za-z]{32}$`));

    const file = await fetch(uploaded.body.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);

    const list = await seller.test.get('/images');
    expect(list.body).toEqual([uploaded.body]);
    expect((await seller.live.get('/images')).body).toEqual([]);
    expect((await other.test.get('/images')).body).toEqual([]);

    for (const client of [seller.live, other.test]) expect((await client.delete(`/images/${uploaded.body._id}`)).status).toBe(404);
    expect((await fetch(uploaded.body.url)).status).toBe(200);

    expect((await seller.test.delete(`/images/${uploaded.body._id}`)).status).toBe(200);
    expect((await fetch(uploaded.body.url)).status).toBe(404);
    expect((await seller.test.delete(`/images/${uploaded.body._id}`)).status).toBe(404);
    expect((await seller.test.get('/images')).body).toEqual([]);
    expect((await fetch(`${runtime.url}/images/file/${randomBase62(32)}`)).status).toBe(404);
  });

  it('refuses a wrong field name, a missing file, other types, mismatched bytes and large files', async () => {
    const wrongField = await seller.test.post('/images', form('file', PNG, 'image/png'));
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.field).toBe('file');
    expect(wrongField.body.error).toMatch(/"file"/);

    const noFile = new FormData();
    noFile.append('caption', 'hello');
    const missing = await seller.test.post('/images', noFile);
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe('image');

    const json = await seller.test.post('/images', { image: 'x' });
    expect(json.status).toBe(400);

    const svg = await seller.test.post('/images', form('image', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml', 'a.svg'));
    expect(svg.status).toBe(400);
    expect(svg.body.code).toBe('UNSUPPORTED_IMAGE_TYPE');
    const disguised = await seller.test.post('/images', form('image', Buffer.from('<html><script>alert(1)</script></html>'), 'image/png'));
    expect(disguised.status).toBe(400);
    expect(disguised.body.code).toBe('UNSUPPORTED_IMAGE_TYPE');
    const mislabelled = await seller.test.post('/images', form('image', PNG, 'image/gif'));
    expect(mislabelled.status).toBe(400);

    const large = await seller.test.post('/images', form('image', Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), 'image/png'));
    expect(large.status).toBe(400);
    expect(large.body.code).toBe('IMAGE_TOO_LARGE');

    expect((await new ApiClient(runtime.url).post('/images', form('image', PNG, 'image/png'))).status).toBe(401);
    expect((await seller.test.get('/images')).body).toEqual([]);
  });
});

describe('creator pages', () => {
  it('makes an empty page on first read and updates it', async () => {
    const first = await seller.test.get('/creator-pages');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ title: '', bio: '', avatarUrl: null, links: [], testMode: true });
    expect((await seller.test.get('/creator-pages')).body._id).toBe(first.body._id);

    const updated = await seller.test.post('/creator-pages', { title: 'Ada Makes', bio: 'Courses and templates', avatarUrl: 'https://cdn.example.com/a.png' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ _id: first.body._id, title: 'Ada Makes', bio: 'Courses and templates', avatarUrl: 'https://cdn.example.com/a.png' });
    expect((await seller.test.post('/creator-pages', { bio: 'Just templates' })).body).toMatchObject({ title: 'Ada Makes', bio: 'Just templates' });
    const bad = await seller.test.post('/creator-pages', { avatarUrl: 'javascript:alert(1)' });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('avatarUrl');
    expect((await seller.test.post('/creator-pages', { title: 'x'.repeat(200) })).body.field).toBe('title');

    // Each mode and account has its own page.
    expect((await seller.live.get('/creator-pages')).body).toMatchObject({ title: '', links: [], testMode: false });
    expect((await other.test.get('/creator-pages')).body.title).toBe('');
  });

  it('adds, changes and removes links with absolute http(s) URLs', async () => {
    const account = await createTestAccount(runtime);
    const created = await account.test.post('/creator-pages/links', { title: 'Shop', url: 'https://shop.example.com' });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ title: 'Shop', url: 'https://shop.example.com' });
    const second = await account.test.post('/creator-pages/links', { title: 'Blog', url: 'http://blog.example.com/posts' });
    expect((await account.test.get('/creator-pages')).body.links.map((l: { title: string }) => l.title)).toEqual(['Shop', 'Blog']);

    for (const [body, field] of [
      [{ url: 'https://x.example.com' }, 'title'],
      [{ title: 'x' }, 'url'],
      [{ title: 'x', url: 'ftp://files.example.com' }, 'url'],
      [{ title: 'x', url: '/relative' }, 'url'],
      [{ title: 'x', url: 'not a url' }, 'url'],
    ] as [Record<string, unknown>, string][]) {
      const response = await account.test.post('/creator-pages/links', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.field).toBe(field);
    }

    const changed = await account.test.put(`/creator-pages/links/${created.body._id}`, { title: 'Store' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ title: 'Store', url: 'https://shop.example.com' });
    expect((await account.test.put(`/creator-pages/links/${created.body._id}`, { url: 'mailto:a@b.c' })).status).toBe(400);

    for (const client of [account.live, other.test]) {
      expect((await client.put(`/creator-pages/links/${created.body._id}`, { title: 'hijack' })).status).toBe(404);
      expect((await client.delete(`/creator-pages/links/${created.body._id}`)).status).toBe(404);
    }
    expect((await account.test.delete(`/creator-pages/links/${second.body._id}`)).status).toBe(200);
    expect((await account.test.delete(`/creator-pages/links/${second.body._id}`)).status).toBe(404);
    expect((await account.test.put(`/creator-pages/links/${second.body._id}`, { title: 'gone' })).status).toBe(404);
    expect((await account.test.get('/creator-pages')).body.links).toEqual([{ ...created.body, title: 'Store', updatedAt: changed.body.updatedAt }]);
  });
});

describe('reviews', () => {
  async function receipt(account: TestAccount, mode: 'live' | 'test', productId: string, saleId = randomBase62(24)): Promise<string> {
    const token = randomBase62(40);
    const capability: ReceiptCapability = { accountId: account.accountId, mode, saleId, productId, buyerEmail: 'buyer@example.com', customerId: 'cust_1' };
    await runtime.deps.store.put(toItem(keys.capability(RECEIPT_CAPABILITY_KIND, token), RECEIPT_CAPABILITY_ENTITY, capability));
    return token;
  }

  it('takes one review per sale from the receipt holder and emits review.created', async () => {
    const account = await createTestAccount(runtime);
    const product = await account.test.post('/products', { name: 'Course', price: 49 });
    const productId = product.body._id;
    const token = await receipt(account, 'test', productId, 'sale000000000000000000001');
    const anonymous = new ApiClient(runtime.url);

    const submitted = await anonymous.post(`/reviews/submit/${token}`, { rating: 5, title: 'Loved it', body: 'Clear and useful' });
    expect(submitted.status, submitted.text).toBe(201);
    expect(submitted.body).toMatchObject({
      productId,
      saleId: 'sale000000000000000000001',
      rating: 5,
      title: 'Loved it',
      body: 'Clear and useful',
      testMode: true,
    });
    expect(submitted.body.buyerEmail).toBeUndefined();

    const again = await anonymous.post(`/reviews/submit/${token}`, { rating: 1 });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('ALREADY_REVIEWED');
    expect((await anonymous.post(`/reviews/submit/${randomBase62(40)}`, { rating: 5 })).status).toBe(404);
    for (const [body, field] of [
      [{}, 'rating'],
      [{ rating: 0 }, 'rating'],
      [{ rating: 6 }, 'rating'],
      [{ rating: 4.5 }, 'rating'],
      [{ rating: '5' }, 'rating'],
      [{ rating: 5, title: 'x'.repeat(201) }, 'title'],
    ] as [Record<string, unknown>, string][]) {
      const token2 = await receipt(account, 'test', productId);
      const response = await anonymous.post(`/reviews/submit/${token2}`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.field).toBe(field);
    }

    const secondProduct = (await account.test.post('/products', { name: 'Templates', price: 9 })).body._id;
    const later = await anonymous.post(`/reviews/submit/${await receipt(account, 'test', secondProduct)}`, { rating: 3 });
    expect(later.body).toMatchObject({ title: null, body: null, rating: 3 });

    const reviews = await account.test.get('/reviews');
    expect(reviews.status).toBe(200);
    expect(reviews.body.map((r: { _id: string }) => r._id)).toEqual([later.body._id, submitted.body._id]);
    expect(reviews.body[1]).toMatchObject({ buyerEmail: 'buyer@example.com', customerId: 'cust_1' });
    expect((await account.test.get(`/reviews?productId=${productId}`)).body.map((r: { _id: string }) => r._id)).toEqual([submitted.body._id]);
    expect((await account.live.get('/reviews')).body).toEqual([]);
    expect((await other.test.get('/reviews')).body).toEqual([]);

    // A live receipt files its review under live mode only.
    await anonymous.post(`/reviews/submit/${await receipt(account, 'live', productId)}`, { rating: 4 });
    expect((await account.live.get('/reviews')).body).toHaveLength(1);

    const c = control(runtime);
    await settleWithRetries(runtime);
    const events = await c.get(`/_local/events?accountId=${account.accountId}&mode=test&type=review.created`);
    expect(events.body.events).toHaveLength(2);
    expect(events.body.events[0].data).toEqual(reviews.body[1]);
    const liveEvents = await c.get(`/_local/events?accountId=${account.accountId}&mode=live&type=review.created`);
    expect(liveEvents.body.events).toHaveLength(1);
  });
});
