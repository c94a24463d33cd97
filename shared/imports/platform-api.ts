import type { Kind } from './platforms';
import type { Mapping } from './rules';

/**
 * Pulls an account's records from a platform's public API (Gumroad API v2, Shopify Admin REST,
 * Mailchimp Marketing API 3.0) and turns them into the same shape as a CSV export: one table per
 * kind, with the API's field names as columns and a fixed mapping. The token is only ever held in
 * this call's memory and sent in the auth header the platform documents; it is never in a URL,
 * a record, a log line or an error message.
 */

export interface PulledTable {
  kind: Kind;
  filename: string;
  header: string[];
  rows: string[][];
  mapping: Mapping;
}

export type PullFailure = { type: 'token'; message: string } | { type: 'input'; message: string } | { type: 'unavailable'; message: string };

export class PullError extends Error {
  constructor(readonly failure: PullFailure) {
    super(failure.message);
  }
}

export interface PullOptions {
  /** Overrides the platform's address (config IMPORT_<PLATFORM>_API_URL). */
  baseUrl?: string;
  /** Shopify: the shop's myshopify.com domain. */
  shop?: string;
  timeoutMs?: number;
  /** How long a 429's Retry-After may make us wait, at most. */
  maxRetryAfterMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const SHOPIFY_VERSION = '2024-10';
const MAX_PAGES = 10_000;
const MAX_429_RETRIES = 3;
const PLATFORM_NAMES: Record<string, string> = { gumroad: 'Gumroad', shopify: 'Shopify', mailchimp: 'Mailchimp' };

const text = (value: unknown): string => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));
const dollars = (cents: unknown) => (typeof cents === 'number' && Number.isFinite(cents) ? (cents / 100).toFixed(2) : '');
const identity = (fields: Record<string, string>, header: string[]): Mapping => {
  const mapping: Mapping = {};
  for (const [field, column] of Object.entries(fields)) mapping[field] = header.includes(column) ? column : null;
  return mapping;
};

class Client {
  constructor(
    private readonly platform: string,
    private readonly base: URL,
    private readonly headers: Record<string, string>,
    private readonly options: PullOptions,
  ) {}

  private get name() {
    return PLATFORM_NAMES[this.platform] ?? this.platform;
  }

  /** GET one page; answers its JSON body and headers. 429 waits for Retry-After (bounded) and retries. */
  async get(target: string | URL): Promise<{ body: Record<string, unknown>; headers: Headers }> {
    const url = typeof target === 'string' ? new URL(target.replace(/^\//, ''), this.base.href.endsWith('/') ? this.base : `${this.base.href}/`) : target;
    // Never send the token anywhere but the platform's own address (a Link header could point elsewhere).
    if (url.origin !== this.base.origin)
      throw new PullError({ type: 'unavailable', message: `${this.name} pointed the next page to another host (${url.host}); stopped` });
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(url, {
          headers: { accept: 'application/json', ...this.headers },
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
          redirect: 'error',
        });
      } catch (error) {
        const cause =
          (error as Error).name === 'TimeoutError'
            ? `no answer within ${(this.options.timeoutMs ?? 10_000) / 1000} s`
            : `could not reach it (${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message})`;
        throw new PullError({ type: 'unavailable', message: `${this.name} API: ${cause}; nothing was changed` });
      }
      if (response.status === 429 && attempt < MAX_429_RETRIES) {
        await response.arrayBuffer().catch(() => undefined);
        const seconds = Number(response.headers.get('retry-after'));
        const waitMs = Math.min(Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 1000, this.options.maxRetryAfterMs ?? 10_000);
        await (this.options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))))(waitMs);
        continue;
      }
      const raw = await response.text().catch(() => '');
      let body: Record<string, unknown> = {};
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        if (response.ok) throw new PullError({ type: 'unavailable', message: `${this.name} API answered something that is not JSON; nothing was changed` });
      }
      const said = String(body.message ?? body.detail ?? body.errors ?? '').slice(0, 200);
      if (response.status === 401 || response.status === 403) {
        throw new PullError({ type: 'token', message: `${this.name} refused the token (${response.status}${said ? `: ${said}` : ''}); nothing was changed` });
      }
      if (response.status === 404)
        throw new PullError({ type: 'input', message: `${this.name} API: ${url.pathname} not found (404); check the shop or account; nothing was changed` });
      if (!response.ok)
        throw new PullError({ type: 'unavailable', message: `${this.name} API answered ${response.status}${said ? ` (${said})` : ''}; nothing was changed` });
      if (this.platform === 'gumroad' && body.success === false)
        throw new PullError({ type: 'token', message: `Gumroad refused the request${said ? `: ${said}` : ''}; nothing was changed` });
      return { body, headers: response.headers };
    }
  }
}

/** The `rel="next"` target of a Link header (Shopify's cursor pagination with page_info). */
export function nextLink(header: string | null): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/i.exec(part.trim());
    if (match) return match[1];
  }
  return undefined;
}

const list = (body: Record<string, unknown>, key: string): Record<string, unknown>[] =>
  Array.isArray(body[key]) ? (body[key] as Record<string, unknown>[]) : [];
const at = (value: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>((current, key) => (current && typeof current === 'object' ? (current as Record<string | number, unknown>)[key] : undefined), value);

async function pullGumroad(client: Client): Promise<PulledTable[]> {
  const products = list((await client.get('products')).body, 'products');
  const productHeader = ['id', 'name', 'price', 'currency', 'description', 'short_url'];
  const sales: Record<string, unknown>[] = [];
  let pageKey: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { body } = await client.get(`sales${pageKey ? `?page_key=${encodeURIComponent(pageKey)}` : ''}`);
    sales.push(...list(body, 'sales'));
    pageKey = typeof body.next_page_key === 'string' && body.next_page_key ? body.next_page_key : undefined;
    if (!pageKey) break;
  }
  const saleHeader = ['id', 'order_id', 'email', 'full_name', 'product_id', 'product_name', 'price', 'currency', 'created_at', 'refunded', 'country'];
  return [
    {
      kind: 'products',
      filename: 'Gumroad API: GET /v2/products',
      header: productHeader,
      // Gumroad gives prices in cents; the column holds dollars, as the CSV exports do.
      rows: products.map((p) => [text(p.id), text(p.name), dollars(p.price), text(p.currency).toUpperCase(), text(p.description), text(p.short_url)]),
      mapping: identity({ sourceId: 'id', name: 'name', price: 'price', description: 'description' }, productHeader),
    },
    {
      kind: 'orders',
      filename: 'Gumroad API: GET /v2/sales',
      header: saleHeader,
      rows: sales.map((s) => [
        text(s.id),
        text(s.order_id),
        text(s.email),
        text(s.full_name),
        text(s.product_id),
        text(s.product_name),
        dollars(s.price),
        text(s.currency).toUpperCase(),
        text(s.created_at),
        text(s.refunded),
        text(s.country),
      ]),
      mapping: identity(
        {
          orderId: 'id',
          email: 'email',
          name: 'full_name',
          productId: 'product_id',
          productName: 'product_name',
          amount: 'price',
          currency: 'currency',
          date: 'created_at',
          refunded: 'refunded',
          country: 'country',
        },
        saleHeader,
      ),
    },
  ].filter((table) => table.rows.length) as PulledTable[];
}

async function shopifyAll(client: Client, path: string, key: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let next: string | URL | undefined = `${path}${path.includes('?') ? '&' : '?'}limit=250`;
  for (let page = 0; next && page < MAX_PAGES; page++) {
    const { body, headers }: { body: Record<string, unknown>; headers: Headers } = await client.get(next);
    out.push(...list(body, key));
    const link = nextLink(headers.get('link'));
    next = link ? new URL(link) : undefined;
  }
  return out;
}

async function pullShopify(client: Client): Promise<PulledTable[]> {
  const products = await shopifyAll(client, 'products.json', 'products');
  const customers = await shopifyAll(client, 'customers.json', 'customers');
  const orders = await shopifyAll(client, 'orders.json?status=any', 'orders');
  const productHeader = ['id', 'handle', 'title', 'body_html', 'variants[0].price', 'status'];
  const customerHeader = [
    'id',
    'email',
    'first_name',
    'last_name',
    'default_address.country_code',
    'email_marketing_consent.state',
    'email_marketing_consent.consent_updated_at',
    'tags',
  ];
  const orderHeader = [
    'id',
    'name',
    'email',
    'currency',
    'total_price',
    'created_at',
    'financial_status',
    'line_items[0].title',
    'billing_address.name',
    'billing_address.country_code',
  ];
  const customerRows = customers.map((c) => [
    text(c.id),
    text(c.email),
    text(c.first_name),
    text(c.last_name),
    text(at(c, 'default_address', 'country_code')),
    text(at(c, 'email_marketing_consent', 'state')),
    text(at(c, 'email_marketing_consent', 'consent_updated_at')),
    text(c.tags),
  ]);
  return [
    {
      kind: 'products',
      filename: 'Shopify API: GET products.json',
      header: productHeader,
      rows: products.map((p) => [text(p.id), text(p.handle), text(p.title), text(p.body_html), text(at(p, 'variants', 0, 'price')), text(p.status)]),
      // The handle is the platform id, as in the Products CSV, so a CSV and an API import match.
      mapping: identity({ sourceId: 'handle', name: 'title', description: 'body_html', price: 'variants[0].price' }, productHeader),
    },
    {
      kind: 'customers',
      filename: 'Shopify API: GET customers.json',
      header: customerHeader,
      rows: customerRows,
      mapping: identity({ email: 'email', firstName: 'first_name', lastName: 'last_name', country: 'default_address.country_code' }, customerHeader),
    },
    {
      kind: 'orders',
      filename: 'Shopify API: GET orders.json',
      header: orderHeader,
      rows: orders.map((o) => [
        text(o.id),
        text(o.name),
        text(o.email),
        text(o.currency),
        text(o.total_price),
        text(o.created_at),
        text(o.financial_status),
        text(at(o, 'line_items', 0, 'title')),
        text(at(o, 'billing_address', 'name')),
        text(at(o, 'billing_address', 'country_code')),
      ]),
      // The order name (#1001) is what the Orders CSV calls Name: the same key either way.
      mapping: identity(
        {
          orderId: 'name',
          email: 'email',
          currency: 'currency',
          amount: 'total_price',
          date: 'created_at',
          refunded: 'financial_status',
          productName: 'line_items[0].title',
          name: 'billing_address.name',
          country: 'billing_address.country_code',
        },
        orderHeader,
      ),
    },
    {
      // Subscribers are the customers with their email marketing consent state (subscribed,
      // unsubscribed; not_subscribed, pending and others carry no consent and are left out).
      kind: 'subscribers',
      filename: 'Shopify API: GET customers.json (email_marketing_consent)',
      header: customerHeader,
      rows: customerRows,
      mapping: identity(
        {
          email: 'email',
          firstName: 'first_name',
          lastName: 'last_name',
          status: 'email_marketing_consent.state',
          optedInAt: 'email_marketing_consent.consent_updated_at',
          tags: 'tags',
        },
        customerHeader,
      ),
    },
  ].filter((table) => table.rows.length) as PulledTable[];
}

async function pullMailchimp(client: Client): Promise<PulledTable[]> {
  const COUNT = 1000;
  const lists: Record<string, unknown>[] = [];
  // The offset moves by what came back: the API may answer fewer than `count` per page.
  for (let offset = 0; ; ) {
    const { body } = await client.get(`lists?count=${COUNT}&offset=${offset}&fields=lists.id,lists.name,total_items`);
    const page = list(body, 'lists');
    lists.push(...page);
    offset += page.length;
    if (!page.length || offset >= Number(body.total_items ?? 0)) break;
  }
  const header = ['email_address', 'status', 'merge_fields.FNAME', 'merge_fields.LNAME', 'timestamp_opt', 'tags', 'list_id'];
  const rows: string[][] = [];
  for (const entry of lists) {
    const listId = text(entry.id);
    for (let offset = 0; ; ) {
      const { body } = await client.get(`lists/${encodeURIComponent(listId)}/members?count=${COUNT}&offset=${offset}`);
      const members = list(body, 'members');
      for (const m of members) {
        const tags = Array.isArray(m.tags)
          ? (m.tags as { name?: string }[])
              .map((tag) => tag.name ?? '')
              .filter(Boolean)
              .join(', ')
          : '';
        rows.push([
          text(m.email_address),
          text(m.status),
          text(at(m, 'merge_fields', 'FNAME')),
          text(at(m, 'merge_fields', 'LNAME')),
          text(m.timestamp_opt),
          tags,
          listId,
        ]);
      }
      offset += members.length;
      if (!members.length || offset >= Number(body.total_items ?? 0)) break;
    }
  }
  if (!rows.length) return [];
  return [
    {
      kind: 'subscribers',
      filename: 'Mailchimp API: GET /lists/{list_id}/members',
      header,
      rows,
      mapping: identity(
        { email: 'email_address', status: 'status', firstName: 'merge_fields.FNAME', lastName: 'merge_fields.LNAME', optedInAt: 'timestamp_opt', tags: 'tags' },
        header,
      ),
    },
  ];
}

/** The platform's address and auth header for this token, or why it cannot be used. */
function clientFor(platform: string, token: string, options: PullOptions): Client {
  if (platform === 'gumroad')
    return new Client(platform, new URL(options.baseUrl ?? 'https://api.gumroad.com/v2'), { authorization: `Bearer ${token}` }, options);
  if (platform === 'shopify') {
    let base = options.baseUrl;
    if (!base) {
      const shop = options.shop?.trim().toLowerCase();
      if (!shop || !/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(shop))
        throw new PullError({ type: 'input', message: 'shop: the store\'s myshopify.com domain is needed for Shopify (e.g. "my-store.myshopify.com")' });
      base = `https://${shop}/admin/api/${SHOPIFY_VERSION}`;
    }
    return new Client(platform, new URL(base), { 'x-shopify-access-token': token }, options);
  }
  if (platform === 'mailchimp') {
    let base = options.baseUrl;
    if (!base) {
      // A Mailchimp API key ends with its data centre (`…-us6`), which is part of the API's host.
      const dc = /-([a-z]{2,4}\d{1,3})$/.exec(token)?.[1];
      if (!dc) throw new PullError({ type: 'token', message: 'token: not a Mailchimp API key (it ends with its data centre, e.g. "-us6")' });
      base = `https://${dc}.api.mailchimp.com/3.0`;
    }
    return new Client(platform, new URL(base), { authorization: `Basic ${Buffer.from(`import:${token}`).toString('base64')}` }, options);
  }
  throw new PullError({ type: 'input', message: `source: ${platform} has no API to pull from; upload CSV files instead` });
}

export async function pullFromPlatform(platform: string, token: string, options: PullOptions = {}): Promise<PulledTable[]> {
  const client = clientFor(platform, token, options);
  if (platform === 'gumroad') return pullGumroad(client);
  if (platform === 'shopify') return pullShopify(client);
  return pullMailchimp(client);
}
