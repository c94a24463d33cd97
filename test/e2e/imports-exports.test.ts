import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { createTestAccount, startTestRuntime, type TestAccount, settleWithRetries } from '../support/runtime';

/**
 * Each platform's sample exports, written for the tests with every column of the platform's
 * documented export (in its order and spelling): auto-detected mapping, dry run, import.
 */
let runtime: LocalRuntime;
beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(async () => runtime?.stop());

const settle = () => settleWithRetries(runtime);

const t = Date.now().toString(36);
const mail = (name: string) => `${name}-${t}@example.com`;
const quote = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
/** A CSV with every column of the export; each row fills the columns it names, the rest stay empty. */
const exportCsv = (columns: string[], rows: Record<string, string>[]) =>
  [columns, ...rows.map((row) => columns.map((column) => row[column] ?? ''))].map((line) => line.map(quote).join(',')).join('\n');

const GUMROAD_SALES = [
  'Purchase ID',
  'Item Name',
  'Buyer Name',
  'Purchase Email',
  'Buyer Email',
  'Do not contact?',
  'Purchase Date',
  'Purchase Time (UTC timezone)',
  'Subtotal ($)',
  'Taxes ($)',
  'Shipping ($)',
  'Sale Price ($)',
  'Fees ($)',
  'Net Total ($)',
  'Tip ($)',
  'Tax Included in Price?',
  'Street Address',
  'City',
  'Zip Code',
  'State',
  'Country',
  'Referrer',
  'Refunded?',
  'Partial Refund ($)',
  'Fully Refunded?',
  'Disputed?',
  'Dispute Won?',
  'Variants',
  'Discount Code',
  'Recurring Charge?',
  'Free trial purchase?',
  'Pre-order authorization?',
  'Product ID',
  'Order Number',
];
const SHOPIFY_PRODUCTS = [
  'Handle',
  'Title',
  'Body (HTML)',
  'Vendor',
  'Product Category',
  'Type',
  'Tags',
  'Published',
  'Option1 Name',
  'Option1 Value',
  'Variant SKU',
  'Variant Grams',
  'Variant Inventory Tracker',
  'Variant Inventory Qty',
  'Variant Inventory Policy',
  'Variant Fulfillment Service',
  'Variant Price',
  'Variant Compare At Price',
  'Variant Requires Shipping',
  'Variant Taxable',
  'Variant Barcode',
  'Image Src',
  'Image Position',
  'Image Alt Text',
  'Gift Card',
  'SEO Title',
  'SEO Description',
  'Status',
];
const SHOPIFY_CUSTOMERS = [
  'Customer ID',
  'First Name',
  'Last Name',
  'Email',
  'Accepts Email Marketing',
  'Default Address Company',
  'Default Address Address1',
  'Default Address Address2',
  'Default Address City',
  'Default Address Province Code',
  'Default Address Country Code',
  'Default Address Zip',
  'Default Address Phone',
  'Phone',
  'Accepts SMS Marketing',
  'Total Spent',
  'Total Orders',
  'Note',
  'Tax Exempt',
  'Tags',
];
const SHOPIFY_ORDERS = [
  'Name',
  'Email',
  'Financial Status',
  'Paid at',
  'Fulfillment Status',
  'Fulfilled at',
  'Accepts Marketing',
  'Currency',
  'Subtotal',
  'Shipping',
  'Taxes',
  'Total',
  'Discount Code',
  'Discount Amount',
  'Shipping Method',
  'Created at',
  'Lineitem quantity',
  'Lineitem name',
  'Lineitem price',
  'Lineitem sku',
  'Billing Name',
  'Billing Country',
  'Refunded Amount',
  'Id',
];
const MAILCHIMP_AUDIENCE = [
  'Email Address',
  'First Name',
  'Last Name',
  'Address',
  'Phone Number',
  'MEMBER_RATING',
  'OPTIN_TIME',
  'OPTIN_IP',
  'CONFIRM_TIME',
  'CONFIRM_IP',
  'LATITUDE',
  'LONGITUDE',
  'GMTOFF',
  'DSTOFF',
  'TIMEZONE',
  'CC',
  'REGION',
  'LAST_CHANGED',
  'LEID',
  'EUID',
  'NOTES',
  'TAGS',
];

type Contact = { email: string; status: string; consent: { source: string; wording: string } | null; tags: string[] };
async function contacts(account: TestAccount): Promise<Contact[]> {
  const all: Contact[] = [];
  let after = '';
  for (;;) {
    const page = (await account.test.get(`/newsletters/subscribers?limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`)).body;
    all.push(...page.data);
    if (!page.nextCursor) return all;
    after = page.nextCursor;
  }
}

async function runImport(account: TestAccount, id: string) {
  const started = await account.test.post(`/migrations/${id}/start`);
  expect(started.status, started.text).toBe(202);
  await settle();
  const done = (await account.test.get(`/migrations/${id}`)).body;
  expect(done.status, JSON.stringify(done.progress)).toBe('completed');
  return done;
}

describe("imports: each platform's sample exports", () => {
  it('Gumroad Sales CSV: orders dry-run and import as purchase history, refunds and bad rows reported; again finds them imported', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const csv = exportCsv(GUMROAD_SALES, [
      {
        'Purchase ID': `g-1-${t}`,
        'Item Name': 'Ebook',
        'Buyer Name': 'Gee One',
        'Purchase Email': mail('g1'),
        'Purchase Date': '2023-01-02 10:00:00',
        'Sale Price ($)': '15.00',
        'Fully Refunded?': 'false',
        Country: 'France',
        'Product ID': 'p1',
      },
      {
        'Purchase ID': `g-2-${t}`,
        'Item Name': 'Course',
        'Buyer Name': 'Gee Two',
        'Purchase Email': mail('g2'),
        'Purchase Date': '2023-01-03 11:00:00',
        'Sale Price ($)': '$1,099.00',
        'Fully Refunded?': 'true',
        'Product ID': 'p2',
      },
      {
        'Purchase ID': `g-3-${t}`,
        'Item Name': 'Ebook',
        'Buyer Name': 'Bad',
        'Purchase Email': 'not-an-email',
        'Purchase Date': '2023-01-04',
        'Sale Price ($)': '15.00',
      },
    ]);
    const created = await account.test.post('/migrations', { source: 'gumroad', files: [{ kind: 'orders', filename: 'Sales_2023.csv', csv }] });
    expect(created.status, created.text).toBe(201);
    expect(created.body.mapping.orders).toMatchObject({
      orderId: 'Purchase ID',
      email: 'Purchase Email',
      productName: 'Item Name',
      productId: 'Product ID',
      amount: 'Sale Price ($)',
      refunded: 'Fully Refunded?',
      date: 'Purchase Date',
    });
    const dry = (await account.test.post(`/migrations/${created.body._id}/dry-run`)).body;
    expect(dry.kinds.orders).toEqual({ total: 3, invalid: 1, skipped: 0, create: 2, alreadyImported: 0, newCustomers: 2, refunded: 1 });
    const done = await runImport(account, created.body._id);
    expect(done.progress.orders).toEqual({ total: 3, done: 3, created: 2, existing: 0, skipped: 0, failed: 1 });
    // Purchase history is never a sale.
    const sales = await account.test.get('/orders');
    expect(sales.status, sales.text).toBe(200);
    expect(Array.isArray(sales.body) ? sales.body : sales.body.data).toEqual([]);
    const again = await account.test.post('/migrations', { source: 'gumroad', files: [{ kind: 'orders', filename: 'Sales_2023.csv', csv }] });
    expect((await account.test.post(`/migrations/${again.body._id}/dry-run`)).body.kinds.orders).toMatchObject({ create: 0, alreadyImported: 2 });
    expect((await runImport(account, again.body._id)).progress.orders).toMatchObject({ created: 0, existing: 2, failed: 1 });
  });

  it('Shopify Products, Customers and Orders CSVs: all four kinds dry-run and import; subscribers by "Accepts Email Marketing"', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const products = exportCsv(SHOPIFY_PRODUCTS, [
      { Handle: `tee-${t}`, Title: `Tee ${t}`, 'Body (HTML)': '<p>Soft, cotton</p>', Vendor: 'Me', 'Variant Price': '25.00', Status: 'active' },
      { Handle: `mug-${t}`, Title: `Mug ${t}`, Vendor: 'Me', 'Variant Price': '12.50', Status: 'active' },
    ]);
    const customers = exportCsv(SHOPIFY_CUSTOMERS, [
      {
        'Customer ID': '1',
        'First Name': 'Sub',
        'Last Name': 'Scriber',
        Email: mail('s-sub'),
        'Accepts Email Marketing': 'yes',
        'Default Address Country Code': 'FR',
        Tags: 'vip',
      },
      { 'Customer ID': '2', 'First Name': 'Un', 'Last Name': 'Sub', Email: mail('s-unsub'), 'Accepts Email Marketing': 'no' },
      { 'Customer ID': '3', 'First Name': 'No', 'Last Name': 'Mail', Email: '' },
    ]);
    const orders = exportCsv(SHOPIFY_ORDERS, [
      {
        Name: `#1001-${t}`,
        Email: mail('s-sub'),
        'Financial Status': 'paid',
        Currency: 'EUR',
        Total: '25.00',
        'Created at': '2023-02-01 10:00:00 -0500',
        'Lineitem name': `Tee ${t}`,
        'Billing Name': 'Sub Scriber',
        'Billing Country': 'FR',
        Id: '5001',
      },
      {
        Name: `#1002-${t}`,
        Email: mail('s-unsub'),
        'Financial Status': 'refunded',
        Currency: 'EUR',
        Total: '12.50',
        'Created at': '2023-02-02 10:00:00 -0500',
        'Lineitem name': `Mug ${t}`,
        Id: '5002',
      },
    ]);
    const files = [
      { kind: 'products', filename: 'products_export.csv', csv: products },
      { kind: 'customers', filename: 'customers_export.csv', csv: customers },
      { kind: 'orders', filename: 'orders_export.csv', csv: orders },
      { kind: 'subscribers', filename: 'customers_export.csv', csv: customers },
    ];
    const created = await account.test.post('/migrations', { source: 'shopify', files });
    expect(created.status, created.text).toBe(201);
    expect(created.body.mapping.subscribers).toMatchObject({ email: 'Email', status: 'Accepts Email Marketing', tags: 'Tags' });
    expect(created.body.mapping.orders).toMatchObject({ orderId: 'Name', amount: 'Total', refunded: 'Financial Status', productName: 'Lineitem name' });
    const dry = (await account.test.post(`/migrations/${created.body._id}/dry-run`)).body;
    expect(dry.canStart).toBe(true);
    expect(dry.kinds.products).toMatchObject({ total: 2, create: 2 });
    expect(dry.kinds.customers).toEqual({ total: 3, invalid: 1, create: 2, existing: 0 });
    expect(dry.kinds.orders).toMatchObject({ total: 2, create: 2, refunded: 1 });
    expect(dry.kinds.subscribers).toMatchObject({ total: 3, invalid: 1, create: 2, active: 1, unsubscribed: 1 });
    const done = await runImport(account, created.body._id);
    expect(done.progress).toMatchObject({
      products: { total: 2, created: 2 },
      customers: { total: 3, created: 2, failed: 1 },
      orders: { total: 2, created: 2 },
      subscribers: { total: 3, created: 2, failed: 1 },
    });
    const list = await contacts(account);
    const sub = list.find((c) => c.email === mail('s-sub'))!;
    expect(sub).toMatchObject({ status: 'subscribed', tags: ['vip'] });
    expect(sub.consent).toMatchObject({ source: 'shopify_csv', wording: 'Shopify customer with "Accepts Email Marketing" set to yes' });
    expect(list.find((c) => c.email === mail('s-unsub'))?.status).toBe('unsubscribed');
  });

  it('Mailchimp audience exports: the status comes from the file name; cleaned import as bounced', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const subscribed = exportCsv(MAILCHIMP_AUDIENCE, [
      { 'Email Address': mail('m-sub'), 'First Name': 'Mia', 'Last Name': 'Chimp', OPTIN_TIME: '2021-03-04 05:06:07', TAGS: '"fans","vip"' },
      { 'Email Address': mail('m-sub2'), 'First Name': 'Max', OPTIN_TIME: '2021-03-05 05:06:07' },
    ]);
    const cleaned = exportCsv(MAILCHIMP_AUDIENCE, [{ 'Email Address': mail('m-clean'), 'First Name': 'Cle' }]);
    const first = await account.test.post('/migrations', {
      source: 'mailchimp',
      files: [{ kind: 'subscribers', filename: 'subscribed_members_export_abc123.csv', csv: subscribed }],
    });
    expect(first.body.mapping.subscribers).toMatchObject({
      email: 'Email Address',
      firstName: 'First Name',
      optedInAt: 'OPTIN_TIME',
      tags: 'TAGS',
      status: null,
    });
    expect((await account.test.post(`/migrations/${first.body._id}/dry-run`)).body.kinds.subscribers).toMatchObject({
      total: 2,
      create: 2,
      active: 2,
      noConsent: 0,
    });
    expect((await runImport(account, first.body._id)).progress.subscribers).toMatchObject({ created: 2 });
    const second = await account.test.post('/migrations', {
      source: 'mailchimp',
      files: [{ kind: 'subscribers', filename: 'cleaned_members_export_abc123.csv', csv: cleaned }],
    });
    expect((await account.test.post(`/migrations/${second.body._id}/dry-run`)).body.kinds.subscribers).toMatchObject({ total: 1, create: 1, unsubscribed: 1 });
    expect((await runImport(account, second.body._id)).progress.subscribers).toMatchObject({ created: 1 });
    const list = await contacts(account);
    const mia = list.find((c) => c.email === mail('m-sub'))!;
    expect(mia).toMatchObject({ status: 'subscribed', tags: ['fans', 'vip'] });
    expect(mia.consent).toMatchObject({ source: 'mailchimp_csv', wording: 'Opted in to the Mailchimp audience' });
    expect(list.find((c) => c.email === mail('m-clean'))?.status).toBe('bounced');
  });
});
