import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { createTestAccount, settleWithRetries, startTestRuntime, type TestAccount } from '../support/runtime';
import { startFakePlatforms, type FakePlatforms } from '../support/fake-platforms';

let runtime: LocalRuntime;
let fake: FakePlatforms;
const tag = Date.now().toString(36);
const mail = (name: string) => `${name}-${tag}@example.com`;

beforeAll(async () => {
  fake = await startFakePlatforms({
    gumroad: {
      products: [
        { id: 'gr-prod-1', name: `Gumroad Ebook ${tag}`, price: 1500, currency: 'usd', description: 'An ebook', short_url: 'https://gum.co/abc' },
        { id: 'gr-prod-2', name: `Gumroad Course ${tag}`, price: 9900, currency: 'usd', description: null, short_url: 'https://gum.co/def' },
      ],
      sales: [
        {
          id: 'sale-1',
          email: mail('g1'),
          full_name: 'Gee One',
          product_id: 'gr-prod-1',
          product_name: `Gumroad Ebook ${tag}`,
          price: 1500,
          currency: 'usd',
          created_at: '2023-01-02T10:00:00Z',
          refunded: false,
        },
        {
          id: 'sale-2',
          email: mail('g2'),
          full_name: 'Gee Two',
          product_id: 'gr-prod-2',
          product_name: `Gumroad Course ${tag}`,
          price: 9900,
          currency: 'usd',
          created_at: '2023-01-03T10:00:00Z',
          refunded: true,
        },
        {
          id: 'sale-3',
          email: mail('g3'),
          full_name: 'Gee Three',
          product_id: 'gr-prod-1',
          product_name: `Gumroad Ebook ${tag}`,
          price: 1500,
          currency: 'usd',
          created_at: '2023-01-04T10:00:00Z',
          refunded: false,
        },
        {
          id: 'sale-4',
          email: 'broken',
          full_name: 'Bad',
          product_id: 'gr-prod-1',
          product_name: 'x',
          price: 1500,
          currency: 'usd',
          created_at: '2023-01-04T10:00:00Z',
          refunded: false,
        },
        {
          id: 'sale-5',
          email: mail('g5'),
          full_name: 'Gee Five',
          product_id: 'gr-prod-1',
          product_name: `Gumroad Ebook ${tag}`,
          price: 1500,
          currency: 'usd',
          created_at: '2023-01-05T10:00:00Z',
          refunded: false,
        },
      ],
    },
    shopify: {
      products: [
        { id: 1001, handle: `tee-${tag}`, title: `Shopify Tee ${tag}`, body_html: '<p>Soft</p>', status: 'active', variants: [{ id: 1, price: '25.00' }] },
        { id: 1002, handle: `mug-${tag}`, title: `Shopify Mug ${tag}`, body_html: '', status: 'active', variants: [{ id: 2, price: '12.50' }] },
        { id: 1003, handle: `cap-${tag}`, title: `Shopify Cap ${tag}`, body_html: '', status: 'draft', variants: [{ id: 3, price: '18.00' }] },
      ],
      customers: [
        {
          id: 1,
          email: mail('s-sub'),
          first_name: 'Sub',
          last_name: 'Scriber',
          tags: 'vip',
          default_address: { country_code: 'FR' },
          email_marketing_consent: { state: 'subscribed', opt_in_level: 'single_opt_in', consent_updated_at: '2022-05-01T00:00:00-04:00' },
        },
        {
          id: 2,
          email: mail('s-unsub'),
          first_name: 'Un',
          last_name: 'Sub',
          tags: '',
          default_address: null,
          email_marketing_consent: { state: 'unsubscribed', consent_updated_at: '2022-06-01T00:00:00Z' },
        },
        {
          id: 3,
          email: mail('s-never'),
          first_name: 'Never',
          last_name: 'Asked',
          tags: '',
          default_address: null,
          email_marketing_consent: { state: 'not_subscribed', consent_updated_at: null },
        },
      ],
      orders: [
        {
          id: 5001,
          name: `#1001-${tag}`,
          email: mail('s-sub'),
          currency: 'EUR',
          total_price: '25.00',
          created_at: '2023-02-01T10:00:00-05:00',
          financial_status: 'paid',
          line_items: [{ title: `Shopify Tee ${tag}`, product_id: 1001 }],
          billing_address: { name: 'Sub Scriber', country_code: 'FR' },
        },
        {
          id: 5002,
          name: `#1002-${tag}`,
          email: mail('s-unsub'),
          currency: 'EUR',
          total_price: '12.50',
          created_at: '2023-02-02T10:00:00-05:00',
          financial_status: 'refunded',
          line_items: [{ title: `Shopify Mug ${tag}`, product_id: 1002 }],
          billing_address: null,
        },
      ],
    },
    mailchimp: {
      lists: [
        {
          id: 'list-a',
          name: 'Newsletter',
          members: [
            {
              email_address: mail('m-sub'),
              status: 'subscribed',
              merge_fields: { FNAME: 'Mia', LNAME: 'Chimp' },
              timestamp_opt: '2021-03-04T05:06:07+00:00',
              tags: [{ id: 1, name: 'fans' }],
            },
            { email_address: mail('m-unsub'), status: 'unsubscribed', merge_fields: { FNAME: 'Ulf', LNAME: '' }, timestamp_opt: '', tags: [] },
            { email_address: mail('m-clean'), status: 'cleaned', merge_fields: {}, timestamp_opt: '', tags: [] },
            { email_address: mail('m-pending'), status: 'pending', merge_fields: {}, timestamp_opt: '', tags: [] },
            { email_address: mail('m-arch'), status: 'archived', merge_fields: {}, timestamp_opt: '', tags: [] },
          ],
        },
        {
          id: 'list-b',
          name: 'Second',
          members: [{ email_address: mail('m-b'), status: 'subscribed', merge_fields: { FNAME: 'Bea' }, timestamp_opt: '2021-01-01T00:00:00+00:00', tags: [] }],
        },
      ],
    },
  });
  runtime = await startTestRuntime({
    IMPORT_GUMROAD_API_URL: fake.urls.gumroad,
    IMPORT_SHOPIFY_API_URL: fake.urls.shopify,
    IMPORT_MAILCHIMP_API_URL: fake.urls.mailchimp,
  });
});
afterAll(async () => {
  await runtime?.stop();
  await fake?.close();
});

const settle = () => settleWithRetries(runtime);

type Contact = { email: string; status: string; source: string; consent: { source: string; wording: string; optedInAt: string } | null; tags: string[] };
async function contacts(account: TestAccount): Promise<Map<string, Contact>> {
  const all = new Map<string, Contact>();
  let after = '';
  for (;;) {
    const page = (await account.test.get(`/newsletters/subscribers?limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`)).body;
    for (const contact of page.data as Contact[]) all.set(contact.email, contact);
    if (!page.nextCursor) return all;
    after = page.nextCursor;
  }
}

/** Every item of the table as text: the token must be in none of them. */
async function tableText(): Promise<string> {
  const client = runtime.deps.store;
  let text = '';
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.client.send(new ScanCommand({ TableName: client.tableName, ExclusiveStartKey: start }));
    text += JSON.stringify(page.Items ?? []);
    start = page.LastEvaluatedKey;
  } while (start);
  return text;
}

async function runImport(account: TestAccount, id: string) {
  const dry = await account.test.post(`/migrations/${id}/dry-run`);
  expect(dry.status, dry.text).toBe(200);
  const started = await account.test.post(`/migrations/${id}/start`);
  expect(started.status, started.text).toBe(202);
  await settle();
  const done = (await account.test.get(`/migrations/${id}`)).body;
  expect(done.status).toBe('completed');
  return { dry: dry.body, done };
}

describe('imports from platform APIs', () => {
  it('lists every platform as API-supported', async () => {
    const account = await createTestAccount(runtime, 'free');
    const sources = (await account.test.get('/migrations/platforms')).body.sources as { id: string; apiSupported: boolean }[];
    expect(Object.fromEntries(sources.map((s) => [s.id, s.apiSupported]))).toEqual({ csv: false, gumroad: true, shopify: true, mailchimp: true });
  });

  it('Gumroad: pulls products and paginated sales, imports them, and a second pull finds everything existing; the token is stored nowhere', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const id = (await account.test.post('/migrations', { source: 'gumroad' })).body._id;
    fake.requests.length = 0;
    const pulled = await account.test.post(`/migrations/${id}/connect`, { token: fake.tokens.gumroad });
    expect(pulled.status, pulled.text).toBe(200);
    expect(pulled.body.pulled).toEqual({ products: 2, customers: 0, orders: 5, subscribers: 0 });
    // Pages of 2 followed through next_page_key; the token went only in the Authorization header.
    expect(fake.requests.map((r) => r.path)).toEqual([
      '/gumroad/v2/products',
      '/gumroad/v2/sales',
      '/gumroad/v2/sales?page_key=2',
      '/gumroad/v2/sales?page_key=4',
    ]);
    expect(fake.requests.every((r) => r.authorization === `Bearer ${fake.tokens.gumroad}`)).toBe(true);
    expect(pulled.body.mapping.orders).toMatchObject({ orderId: 'id', email: 'email', amount: 'price' });

    const problems = (await account.test.get(`/migrations/${id}/rows?kind=orders&filter=problems`)).body.rows;
    expect(problems.map((r: { row: number; problem: string }) => [r.row, r.problem])).toEqual([[4, 'email: "broken" is not an email address']]);

    const { dry } = await runImport(account, id);
    expect(dry.kinds.products).toMatchObject({ total: 2, create: 2, existing: 0 });
    expect(dry.kinds.orders).toMatchObject({ total: 5, invalid: 1, create: 4, refunded: 1 });
    const report = (await account.test.get(`/migrations/${id}/report`)).body;
    expect(report.kinds.products).toMatchObject({ created: 2 });
    expect(report.kinds.orders).toMatchObject({ created: 4, failed: 1 });
    const products = (await account.test.get('/products')).body;
    const names = (Array.isArray(products) ? products : products.data).map((p: { name: string; price: number }) => [p.name, p.price]);
    expect(names).toEqual(
      expect.arrayContaining([
        [`Gumroad Ebook ${tag}`, 15],
        [`Gumroad Course ${tag}`, 99],
      ]),
    );

    const text = await tableText();
    expect(text).not.toContain(fake.tokens.gumroad);
    expect(JSON.stringify((await account.test.get(`/migrations/${id}`)).body)).not.toContain(fake.tokens.gumroad);

    const second = (await account.test.post('/migrations', { source: 'gumroad' })).body._id;
    expect((await account.test.post(`/migrations/${second}/connect`, { token: fake.tokens.gumroad })).status).toBe(200);
    const again = await runImport(account, second);
    expect(again.dry.kinds.products).toMatchObject({ create: 0, existing: 2 });
    expect(again.dry.kinds.orders).toMatchObject({ create: 0, alreadyImported: 4 });
    expect(again.done.progress.products).toMatchObject({ created: 0, existing: 2 });
    expect(again.done.progress.orders).toMatchObject({ created: 0, existing: 4 });
  });

  it('Shopify: follows Link page_info pages, retries a 429 after Retry-After, and imports with <platform>_api consent', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const id = (await account.test.post('/migrations', { source: 'shopify' })).body._id;
    fake.requests.length = 0;
    fake.failOnce429 = true;
    const pulled = await account.test.post(`/migrations/${id}/connect`, { token: fake.tokens.shopify });
    expect(pulled.status, pulled.text).toBe(200);
    expect(pulled.body.pulled).toEqual({ products: 3, customers: 3, orders: 2, subscribers: 3 });
    const paths = fake.requests.map((r) => r.path.replace(/^\/shopify\/admin\/api\/[\d-]+\//, ''));
    // The first products request was answered 429 and asked again; page 2 came from the Link header.
    expect(paths.slice(0, 3)).toEqual(['products.json?limit=250', 'products.json?limit=250', 'products.json?limit=2&page_info=2']);
    expect(paths).toContain('orders.json?status=any&limit=250');
    expect(fake.requests.every((r) => r.shopifyToken === fake.tokens.shopify && !r.path.includes(fake.tokens.shopify))).toBe(true);

    const { dry } = await runImport(account, id);
    expect(dry.kinds.subscribers).toMatchObject({ total: 3, noConsent: 1, create: 2, active: 1, unsubscribed: 1 });
    const all = await contacts(account);
    expect(all.get(mail('s-sub'))).toMatchObject({
      status: 'subscribed',
      source: 'import',
      consent: { source: 'shopify_api', optedInAt: '2022-05-01T04:00:00.000Z' },
    });
    expect(all.get(mail('s-unsub'))).toMatchObject({ status: 'unsubscribed', consent: { source: 'shopify_api' } });
    expect(all.has(mail('s-never'))).toBe(false);
    const report = (await account.test.get(`/migrations/${id}/report`)).body;
    expect(report.kinds.orders).toMatchObject({ created: 2 });
    expect(report.kinds.customers).toMatchObject({ created: 3 });
    expect(await tableText()).not.toContain(fake.tokens.shopify);
  });

  it('Mailchimp: walks every list with offset/count and applies the consent rules', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const id = (await account.test.post('/migrations', { source: 'mailchimp' })).body._id;
    fake.requests.length = 0;
    const pulled = await account.test.post(`/migrations/${id}/connect`, { token: fake.tokens.mailchimp });
    expect(pulled.status, pulled.text).toBe(200);
    expect(pulled.body.pulled.subscribers).toBe(6);
    expect(fake.requests.map((r) => r.path.replace(/^\/mailchimp\/3\.0\//, '').replace(/&fields=.*$/, ''))).toEqual([
      'lists?count=1000&offset=0',
      'lists/list-a/members?count=1000&offset=0',
      'lists/list-a/members?count=1000&offset=2',
      'lists/list-a/members?count=1000&offset=4',
      'lists/list-b/members?count=1000&offset=0',
    ]);
    const { dry } = await runImport(account, id);
    expect(dry.kinds.subscribers).toMatchObject({ total: 6, noConsent: 2, create: 4, active: 2, unsubscribed: 2 });
    const all = await contacts(account);
    expect(all.get(mail('m-sub'))).toMatchObject({
      status: 'subscribed',
      tags: ['fans'],
      consent: { source: 'mailchimp_api', optedInAt: '2021-03-04T05:06:07.000Z' },
    });
    expect(all.get(mail('m-unsub'))?.status).toBe('unsubscribed');
    expect(all.get(mail('m-clean'))?.status).toBe('bounced');
    expect(all.has(mail('m-pending'))).toBe(false);
    expect(all.has(mail('m-arch'))).toBe(false);
    expect(all.get(mail('m-b'))?.consent?.source).toBe('mailchimp_api');
  });

  it('a refused token answers 400 with the reason and changes nothing; a platform down answers 502; csv has no API', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const id = (await account.test.post('/migrations', { source: 'shopify' })).body._id;
    const bad = await account.test.post(`/migrations/${id}/connect`, { token: 'shpat_wrong' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('PLATFORM_TOKEN_REFUSED');
    expect(bad.text).toContain('Shopify refused the token (401');
    expect(bad.text).not.toContain('shpat_wrong');
    expect((await account.test.get(`/migrations/${id}`)).body.files).toEqual([]);

    fake.down = true;
    try {
      const down = await account.test.post(`/migrations/${id}/connect`, { token: fake.tokens.shopify });
      expect(down.status).toBe(502);
      expect(down.body.code).toBe('PLATFORM_UNAVAILABLE');
      expect(down.text).toContain('Shopify API answered 503');
    } finally {
      fake.down = false;
    }
    expect((await account.test.get(`/migrations/${id}`)).body.files).toEqual([]);

    const csv = (await account.test.post('/migrations', { source: 'csv' })).body._id;
    expect((await account.test.post(`/migrations/${csv}/connect`, { token: 'x' })).status).toBe(400);
    // Connect needs Volume, like create.
    const free = await createTestAccount(runtime, 'free');
    expect((await free.test.post(`/migrations/${id}/connect`, { token: 'x' })).status).toBe(403);
    // Another account cannot pull into this import.
    const other = await createTestAccount(runtime, 'volume');
    expect((await other.test.post(`/migrations/${id}/connect`, { token: fake.tokens.shopify })).status).toBe(404);
  });
});
