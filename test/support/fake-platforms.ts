import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake of the three platform APIs imports pull from, on 127.0.0.1, answering the documented
 * shapes: Gumroad API v2 (Bearer token, `page_key` / `next_page_key`), Shopify Admin REST
 * (X-Shopify-Access-Token, `Link: <…page_info=…>; rel="next"`), Mailchimp Marketing 3.0 (Basic
 * auth, `count` / `offset` with `total_items`). A wrong token answers 401; `failOnce429` makes the
 * next request answer 429 with Retry-After: 1; `down` answers 503.
 */
export interface FakePlatformData {
  gumroad: { products: Record<string, unknown>[]; sales: Record<string, unknown>[] };
  shopify: { products: Record<string, unknown>[]; customers: Record<string, unknown>[]; orders: Record<string, unknown>[] };
  mailchimp: { lists: { id: string; name: string; members: Record<string, unknown>[] }[] };
}

export interface FakePlatforms {
  url: string;
  urls: { gumroad: string; shopify: string; mailchimp: string };
  tokens: { gumroad: string; shopify: string; mailchimp: string };
  data: FakePlatformData;
  /** Every request: method, path with query, and the auth headers seen. */
  requests: { path: string; authorization?: string; shopifyToken?: string }[];
  failOnce429: boolean;
  down: boolean;
  pageSize: number;
  close(): Promise<void>;
}

export async function startFakePlatforms(data: FakePlatformData): Promise<FakePlatforms> {
  const tokens = { gumroad: 'gumroad-token-ok', shopify: 'shpat_fake_ok', mailchimp: 'mc0123456789abcdef-us6' };
  const state: Omit<FakePlatforms, 'url' | 'urls' | 'close'> = { tokens, data, requests: [], failOnce429: false, down: false, pageSize: 2 };
  let base = '';

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', base);
    state.requests.push({
      path: `${url.pathname}${url.search}`,
      authorization: req.headers.authorization,
      shopifyToken: req.headers['x-shopify-access-token'] as string | undefined,
    });
    if (state.down) return json(res, 503, { message: 'Service Unavailable' });
    if (state.failOnce429) {
      state.failOnce429 = false;
      return json(res, 429, { errors: 'Exceeded 2 calls per second for api client.' }, { 'retry-after': '1' });
    }
    const size = state.pageSize;
    const [, platform, ...rest] = url.pathname.split('/');
    const path = rest.join('/');
    if (platform === 'gumroad') {
      if (req.headers.authorization !== `Bearer ${tokens.gumroad}`) return json(res, 401, { success: false, message: 'The access token is invalid.' });
      if (path === 'v2/products') return json(res, 200, { success: true, products: data.gumroad.products });
      if (path === 'v2/sales') {
        const start = Number(url.searchParams.get('page_key') ?? 0);
        const page = data.gumroad.sales.slice(start, start + size);
        const more = start + size < data.gumroad.sales.length;
        return json(res, 200, {
          success: true,
          sales: page,
          ...(more ? { next_page_key: String(start + size), next_page_url: `/v2/sales?page_key=${start + size}` } : {}),
        });
      }
    }
    if (platform === 'shopify') {
      if (req.headers['x-shopify-access-token'] !== tokens.shopify)
        return json(res, 401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
      const match = /^admin\/api\/[\d-]+\/(products|customers|orders)\.json$/.exec(path);
      if (match) {
        const key = match[1] as 'products' | 'customers' | 'orders';
        // page_info is opaque in Shopify; here it is the offset, and it carries no other filter.
        const pageInfo = url.searchParams.get('page_info');
        if (pageInfo && url.searchParams.get('status')) return json(res, 400, { errors: 'page_info cannot be combined with other filters' });
        if (key === 'orders' && !pageInfo && url.searchParams.get('status') !== 'any') return json(res, 400, { errors: 'expected status=any' });
        const start = Number(pageInfo ?? 0);
        const limit = Math.min(Number(url.searchParams.get('limit') ?? 50), size);
        const items = data.shopify[key];
        const more = start + limit < items.length;
        const next = new URL(`${base}/shopify/${path}`);
        next.searchParams.set('limit', String(limit));
        next.searchParams.set('page_info', String(start + limit));
        return json(res, 200, { [key]: items.slice(start, start + limit) }, more ? { link: `<${next.href}>; rel="next"` } : {});
      }
    }
    if (platform === 'mailchimp') {
      const expected = `Basic ${Buffer.from(`import:${tokens.mailchimp}`).toString('base64')}`;
      const given = req.headers.authorization ?? '';
      const key = given.startsWith('Basic ') ? Buffer.from(given.slice(6), 'base64').toString().split(':').slice(1).join(':') : '';
      if (key !== tokens.mailchimp || !expected)
        return json(res, 401, {
          type: 'https://mailchimp.com/developer/marketing/docs/errors/',
          title: 'API Key Invalid',
          status: 401,
          detail: "Your API key may be invalid, or you've attempted to access the wrong datacenter.",
        });
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const count = Math.min(Number(url.searchParams.get('count') ?? 10), size);
      if (path === '3.0/lists')
        return json(res, 200, {
          lists: data.mailchimp.lists.slice(offset, offset + count).map(({ id, name }) => ({ id, name })),
          total_items: data.mailchimp.lists.length,
        });
      const members = /^3\.0\/lists\/([^/]+)\/members$/.exec(path);
      const list = members && data.mailchimp.lists.find((entry) => entry.id === decodeURIComponent(members[1]!));
      if (list) return json(res, 200, { members: list.members.slice(offset, offset + count), list_id: list.id, total_items: list.members.length });
    }
    json(res, 404, { message: 'Not found' });
  };

  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fake = Object.assign(state, {
    url: base,
    urls: { gumroad: `${base}/gumroad/v2`, shopify: `${base}/shopify/admin/api/2024-10`, mailchimp: `${base}/mailchimp/3.0` },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
  return fake as FakePlatforms;
}
