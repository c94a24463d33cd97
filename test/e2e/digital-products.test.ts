import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestRuntime, type TestAccount, settleWithRetries } from '../support/runtime';
import { control, createProduct, events, openCheckout, pay } from '../support/commerce';
import type { LocalRuntime } from '../../shared/local/runtime';

// Selling digital goods over HTTP, as a seller and a buyer would: files and their downloads,
// licence keys, buy links and pay what you want; refunds revoke, other accounts see nothing.

let runtime: LocalRuntime;
let seller: TestAccount;
let other: TestAccount;
const settle = () => settleWithRetries(runtime);
const mails = async (to: string): Promise<{ subject: string; html: string; text: string }[]> =>
  (await control(runtime).get(`/_local/emails?to=${encodeURIComponent(to)}`)).body.emails;
const buyerEmail = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 8)}@example.com`;

const upload = (account: TestAccount, productId: string, name: string, bytes: Buffer | string, type = 'application/octet-stream') => {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(typeof bytes === 'string' ? Buffer.from(bytes) : bytes)], { type }), name);
  return account.test.post(`/products/${productId}/files`, form);
};

/** Pays a session through the hosted page's form, as a buyer in a browser would (no script needed). */
async function payOnPage(url: string, fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries({ intent: 'pay', cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', ...fields })) form.set(k, v);
  return fetch(url, { method: 'POST', body: form, redirect: 'manual' });
}

beforeAll(async () => {
  runtime = await startTestRuntime();
  seller = await createTestAccount(runtime, 'tier2');
  other = await createTestAccount(runtime, 'tier2');
}, 120_000);
afterAll(async () => {
  await runtime?.stop();
});

describe('product files', () => {
  it('upload, list, delete; bad files refused with the reason and nothing stored; other accounts get 404', { timeout: 120_000 }, async () => {
    const product = await createProduct(seller, { name: 'Field notes', price: 5 });
    const pdf = `%PDF-1.4 ${'notes '.repeat(2000)}`;
    const created = await upload(seller, product._id, 'field notes.pdf', pdf);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'field notes.pdf',
      size: Buffer.byteLength(pdf),
      contentType: 'application/pdf',
      createdAt: expect.any(String),
    });

    const empty = await upload(seller, product._id, 'empty.pdf', '');
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('empty');
    const program = await upload(seller, product._id, 'setup.exe', 'MZ binary');
    expect(program.status).toBe(400);
    expect(program.body.message).toContain('".exe" files are not allowed');
    const noFile = await seller.test.post(`/products/${product._id}/files`, new FormData());
    expect(noFile.status).toBe(400);
    expect((await seller.test.get(`/products/${product._id}/files`)).body.map((f: { name: string }) => f.name)).toEqual(['field notes.pdf']);

    // The seller allows installers on this product: now the same file is taken.
    expect((await seller.test.post(`/products/update/${product._id}`, { allowedFileTypes: ['.EXE'] })).body.allowedFileTypes).toEqual(['.exe']);
    const allowed = await upload(seller, product._id, 'setup.exe', 'MZ binary');
    expect(allowed.status).toBe(201);
    expect(allowed.body.contentType).toBe('application/octet-stream');
    expect((await seller.test.post(`/products/update/${product._id}`, { allowedFileTypes: ['exe'] })).status).toBe(400);

    // Another account: every route answers 404 and changes nothing.
    expect((await other.test.get(`/products/${product._id}/files`)).status).toBe(404);
    expect((await upload(other, product._id, 'x.pdf', '%PDF-1.4')).status).toBe(404);
    expect((await other.test.delete(`/products/${product._id}/files/${created.body._id}`)).status).toBe(404);
    // Live mode is another scope too.
    expect((await seller.live.get(`/products/${product._id}/files`)).status).toBe(404);

    expect((await seller.test.delete(`/products/${product._id}/files/${allowed.body._id}`)).body).toEqual({ _id: allowed.body._id, deleted: true });
    expect((await seller.test.delete(`/products/${product._id}/files/${allowed.body._id}`)).status).toBe(404);
    expect((await seller.test.get(`/products/${product._id}/files`)).body).toHaveLength(1);
  });

  it('a paid order downloads the exact bytes; the limit holds; a refund revokes the links and the key', { timeout: 240_000 }, async () => {
    const product = await createProduct(seller, { name: 'Synth presets', price: 12, downloadLimit: 3, licenseKeys: { enabled: true, activationLimit: 2 } });
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));
    expect((await upload(seller, product._id, 'presets.zip', bytes)).status).toBe(201);
    const email = buyerEmail('files');
    const session = await openCheckout(seller, product._id);
    const paid = await payOnPage(session.url, { email });
    expect(paid.status).toBe(303);
    // The thank-you page lists the file and the key (once the order is recorded).
    await settle();
    const thanks = await (await fetch(new URL(paid.headers.get('location')!, session.url))).text();
    expect(thanks).toContain('presets.zip');
    const pageKey = /<code class="license-key">([A-Z0-9-]+)<\/code>/.exec(thanks)?.[1];
    expect(pageKey).toMatch(/^[A-Z2-9]{5}(-[A-Z2-9]{5}){5}$/);
    const pageLink = /<ul id="downloads"><li><a href="([^"]+)"/.exec(thanks)![1]!.replace(/&amp;/g, '&');
    expect(thanks).not.toContain('products/');

    const orders = (await seller.test.get('/orders')).body as { _id: string; buyerEmail: string }[];
    const orderId = orders.find((o) => o.buyerEmail === email)!._id;
    const order = (await seller.test.get(`/orders/${orderId}`)).body;
    expect(order.downloads).toEqual([
      {
        fileId: expect.any(String),
        name: 'presets.zip',
        size: bytes.length,
        url: expect.stringMatching(/\/downloads\/[0-9A-Za-z]{40}$/),
        expiresAt: expect.any(String),
      },
    ]);
    expect(order.licenseKeys).toEqual([expect.objectContaining({ key: pageKey, status: 'active' })]);
    expect((await other.test.get(`/orders/${orderId}`)).status).toBe(404);

    // The bytes round trip, as an attachment.
    const file = await fetch(order.downloads[0].url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain('attachment; filename="presets.zip"');
    expect(file.headers.get('cache-control')).toBe('no-store');
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    // A token changed by one letter, or cut short, is the same 404.
    const token = order.downloads[0].url.split('/').pop()!;
    expect((await fetch(order.downloads[0].url.replace(token, token.slice(0, -1) + (token.endsWith('a') ? 'b' : 'a')))).status).toBe(404);
    expect((await fetch(order.downloads[0].url.replace(token, 'short'))).status).toBe(404);

    // The receipt carries the key and a lasting link to a page that signs fresh links.
    await settle();
    const receipt = (await mails(email)).find((m) => m.subject.startsWith('Your receipt'))!;
    expect(receipt.text).toContain(`Your licence key: ${pageKey}`);
    const receiptPage = /Download your files: (\S+)/.exec(receipt.text)![1]!;
    const pageHtml = await (await fetch(receiptPage)).text();
    const fresh = /<ul id="downloads"><li><a href="([^"]+)"/.exec(pageHtml)![1]!.replace(/&amp;/g, '&');
    expect(fresh).not.toBe(pageLink);
    // In the buyer's language: the browser's, or the seller's default.
    const french = await (await fetch(receiptPage, { headers: { 'accept-language': 'fr-FR,fr;q=0.9' } })).text();
    expect(french).toContain('Chaque lien fonctionne une heure');
    expect(french).toContain('<html lang="fr"');
    // Three downloads in all for this order (limit 3): the page's, the receipt's, then refused.
    expect((await fetch(pageLink)).status).toBe(200);
    expect((await fetch(fresh)).status).toBe(200);
    const over = await fetch(order.downloads[0].url);
    expect(over.status).toBe(403);
    expect(((await over.json()) as { message: string }).message).toContain('used all 3 of its downloads');

    // A full refund: no more links, old ones refused, the key no longer validates.
    const sale = (await seller.test.get(`/orders/${orderId}`)).body;
    expect((await control(runtime).post(`/_local/sales/${sale._id}/refund`, {})).status).toBe(200);
    await settle();
    const refunded = (await seller.test.get(`/orders/${orderId}`)).body;
    expect(refunded.downloads).toEqual([]);
    expect(refunded.licenseKeys).toEqual([expect.objectContaining({ key: pageKey, status: 'refunded' })]);
    const revokedLink = await fetch(fresh);
    expect(revokedLink.status).toBe(403);
    expect(((await revokedLink.json()) as { message: string }).message).toContain('refunded');
    expect(await (await fetch(receiptPage)).text()).toContain('no longer available');
    const validated = await control(runtime).post('/licenses/validate', { key: pageKey });
    expect(validated.body).toMatchObject({ valid: false, license: { status: 'refunded' } });
    expect((await events(runtime, seller, 'license.revoked')).some((e) => e.data.reason === 'refund')).toBe(true);
  });
});

describe('licence keys', () => {
  it('activate up to the limit, validate, deactivate; seller revokes and reactivates; bad input refused', { timeout: 240_000 }, async () => {
    const product = await createProduct(seller, { name: 'Pixel editor', price: 30, licenseKeys: { enabled: true, activationLimit: 2, expiresInDays: 365 } });
    expect((await seller.test.get(`/products/${product._id}`)).body.licenseKeys).toEqual({ enabled: true, activationLimit: 2, expiresInDays: 365 });
    const session = await openCheckout(seller, product._id);
    const { saleId } = await pay(runtime, session.id, { email: buyerEmail('keys') });
    await settle();
    const [{ key }] = (await seller.test.get(`/orders/${saleId}`)).body.licenseKeys;
    const api = control(runtime);

    const first = await api.post('/licenses/activate', { key, instanceName: 'Studio Mac' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      activated: true,
      instance: { id: expect.stringMatching(/^inst_/), name: 'Studio Mac' },
      license: expect.objectContaining({ status: 'active', activationLimit: 2, activations: 1 }),
    });
    // Typed in lower case with spaces around: the same key.
    const second = await api.post('/licenses/activate', { key: ` ${key.toLowerCase()} `, instanceName: 'Laptop' });
    expect(second.status).toBe(200);
    const third = await api.post('/licenses/activate', { key, instanceName: 'Third' });
    expect(third.status).toBe(409);
    expect(third.body.message).toContain('2 of 2');

    expect((await api.post('/licenses/validate', { key, instanceId: first.body.instance.id })).body).toMatchObject({
      valid: true,
      license: { status: 'active', activations: 2 },
      instance: { id: first.body.instance.id },
    });
    expect((await api.post('/licenses/validate', { key, instanceId: 'inst_' + 'A'.repeat(24) })).body).toMatchObject({ valid: false, instance: null });
    const released = await api.post('/licenses/deactivate', { key, instanceId: first.body.instance.id });
    expect(released.body).toMatchObject({ deactivated: true, license: { activations: 1 } });
    expect((await api.post('/licenses/deactivate', { key, instanceId: first.body.instance.id })).status).toBe(404);
    expect((await api.post('/licenses/activate', { key, instanceName: 'Third' })).status).toBe(200);

    // Bad input: 400 with the reason; unknown keys 404 with valid: false.
    const malformed = await api.post('/licenses/validate', { key: 'not-a-key' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toContain('not a licence key');
    expect((await api.post('/licenses/validate', { key, instanceId: 'bogus' })).status).toBe(400);
    expect((await api.post('/licenses/activate', { key, instanceName: '' })).status).toBe(400);
    const unknown = await api.post('/licenses/validate', { key: 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE-FFFFF' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ valid: false, license: null });
    expect((await api.post('/licenses/activate', { key: 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE-FFFFF', instanceName: 'x' })).status).toBe(404);

    // The seller: list by order and product, revoke, reactivate; another account sees none of it.
    const listed = (await seller.test.get(`/licenses?orderId=${saleId}`)).body.data;
    expect(listed).toEqual([expect.objectContaining({ prefix: key.slice(0, 5), orderId: saleId, productId: product._id, activations: 2, status: 'active' })]);
    expect(JSON.stringify(listed)).not.toContain(key);
    expect((await seller.test.get(`/licenses?productId=${product._id}`)).body.data).toHaveLength(1);
    const licenseId = listed[0]._id;
    expect((await other.test.get(`/licenses?orderId=${saleId}`)).body.data).toEqual([]);
    expect((await other.test.post(`/licenses/${licenseId}/revoke`)).status).toBe(404);
    expect((await seller.test.post(`/licenses/${licenseId}/revoke`)).body.status).toBe('revoked');
    expect((await api.post('/licenses/validate', { key })).body).toMatchObject({ valid: false, license: { status: 'revoked' } });
    expect((await api.post('/licenses/activate', { key, instanceName: 'x' })).status).toBe(409);
    expect((await seller.test.post(`/licenses/${licenseId}/reactivate`)).body.status).toBe('active');
    expect((await api.post('/licenses/validate', { key })).body.valid).toBe(true);

    const types = (await events(runtime, seller)).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['license.created', 'license.activated', 'license.revoked']));
    const created = (await events(runtime, seller, 'license.created')).find((e) => e.data.license.orderId === saleId)!;
    expect(JSON.stringify(created.data)).not.toContain(key);
  });
});

describe('pay what you want', () => {
  it('the buyer names the amount (at least the minimum); fixed-price products refuse one; the order carries what was paid', { timeout: 240_000 }, async () => {
    const product = await createProduct(seller, { name: 'Zine', price: 10, payWhatYouWant: { enabled: true, minimumPrice: 3 } });
    const fixed = await createProduct(seller, { name: 'Poster', price: 10 });
    const base = { successUrl: 'https://shop.example.com/thanks', cancelUrl: 'https://shop.example.com/cart' };
    const low = await seller.test.post('/checkout/sessions', { ...base, productId: product._id, amountCents: 299 });
    expect(low.status).toBe(400);
    expect(low.body.message).toContain('minimum for this product is 3.00');
    const refused = await seller.test.post('/checkout/sessions', { ...base, productId: fixed._id, amountCents: 500 });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('fixed price');
    expect((await seller.test.post('/checkout/sessions', { ...base, productId: product._id, amountCents: 4.5 })).status).toBe(400);

    const chosen = await seller.test.post('/checkout/sessions', { ...base, productId: product._id, amountCents: 450 });
    expect(chosen.status).toBe(201);
    const paidApi = await pay(runtime, chosen.body.id, { email: buyerEmail('pwyw') });
    expect((await seller.test.get(`/orders/${paidApi.saleId}`)).body).toMatchObject({ amountCents: 450, amount: 4.5 });

    // On the hosted page: the amount field shows the suggestion; under the minimum is refused at the field.
    const session = await openCheckout(seller, product._id);
    const html = await (await fetch(session.url)).text();
    expect(html).toContain('id="amount"');
    expect(html).toContain('value="10.00"');
    expect(html).toContain('at least $3.00');
    const tooLow = await payOnPage(session.url, { email: buyerEmail('pwyw'), amount: '2.50' });
    expect(tooLow.status).toBe(400);
    expect(await tooLow.text()).toContain('minimum for this product is 3.00');
    const email = buyerEmail('pwyw');
    const paid = await payOnPage(session.url, { email, amount: '$7.25' });
    expect(paid.status).toBe(303);
    await settle();
    const order = ((await seller.test.get('/orders')).body as { buyerEmail: string; amountCents: number }[]).find((o) => o.buyerEmail === email)!;
    expect(order.amountCents).toBe(725);

    // Minimum 0: free with an optional tip; choosing 0 needs no card.
    const free = await createProduct(seller, { name: 'Free font', price: 5, payWhatYouWant: { enabled: true, minimumPrice: 0 } });
    const freeSession = await openCheckout(seller, free._id);
    const form = new FormData();
    for (const [k, v] of Object.entries({ intent: 'pay', email: buyerEmail('tip'), amount: '0' })) form.set(k, v);
    expect((await fetch(freeSession.url, { method: 'POST', body: form, redirect: 'manual' })).status).toBe(303);
  });
});

describe('buy links', () => {
  it('open a hosted checkout with the code, amount and email applied; previews open nothing; unknown products 404', { timeout: 240_000 }, async () => {
    const product = await createProduct(seller, { name: 'Sample pack', price: 20 });
    const read = (await seller.test.get(`/products/${product._id}`)).body;
    expect(read.buyPath).toBe(`/buy/${product._id}`);
    read.buyUrl = `${runtime.url}${read.buyPath}`;
    await seller.test.post('/discounts', { name: 'Half', code: 'HALF', valueType: 'percentage', value: 50, mainProductIds: [product._id] });

    const opened = await fetch(`${read.buyUrl}?discount=half&email=fan%40example.com`, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    const location = opened.headers.get('location')!;
    expect(location).toContain('/processor/sandbox/checkout/');
    const page = await (await fetch(new URL(location, runtime.url))).text();
    expect(page).toContain('id="discount-applied"');
    expect(page).toContain('$10.00');
    expect(page).toContain('value="fan@example.com"');

    // A pay-what-you-want product takes ?amount=; one under the minimum explains itself.
    const pwyw = await createProduct(seller, { name: 'Tip jar', price: 5, payWhatYouWant: { enabled: true, minimumPrice: 1 } });
    const withAmount = await fetch(`${runtime.url}/buy/${pwyw._id}?amount=12.5`, { redirect: 'manual' });
    expect(withAmount.status).toBe(303);
    expect(await (await fetch(new URL(withAmount.headers.get('location')!, runtime.url))).text()).toContain('value="12.50"');
    const under = await fetch(`${runtime.url}/buy/${pwyw._id}?amount=0.5`, { redirect: 'manual' });
    expect(under.status).toBe(400);
    expect(await under.text()).toContain('minimum for this product is 1.00');
    expect((await fetch(`${runtime.url}/buy/${pwyw._id}?amount=lots`, { redirect: 'manual' })).status).toBe(400);
    expect((await fetch(`${runtime.url}/buy/${product._id}?discount=NOPE`, { redirect: 'manual' })).status).toBe(400);

    // Opened from a page, the checkout returns there; opened from none (a bio), to a thank-you page.
    const fromSite = await fetch(read.buyUrl, { redirect: 'manual', headers: { referer: 'https://fan-site.example.com/post/1' } });
    const fromSitePage = await (await fetch(new URL(fromSite.headers.get('location')!, runtime.url))).text();
    expect(fromSitePage).toContain('https://fan-site.example.com/post/1');
    const thanks = await fetch(`${read.buyUrl}/thanks`);
    expect(thanks.status).toBe(200);
    expect(await thanks.text()).toContain('Your receipt is on its way');
    expect((await fetch(`${runtime.url}/buy/${'0'.repeat(24)}/thanks`)).status).toBe(404);

    // Link previews and prefetches: a page about the product, no session.
    const before = (await events(runtime, seller)).length;
    const preview = await fetch(read.buyUrl, { redirect: 'manual', headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' } });
    expect(preview.status).toBe(200);
    expect(await preview.text()).toContain('Sample pack');
    expect((await fetch(read.buyUrl, { redirect: 'manual', headers: { 'sec-purpose': 'prefetch' } })).status).toBe(200);
    expect((await events(runtime, seller)).length).toBe(before);

    // Unknown, deleted and unpublished products, and subscription offers: 404.
    expect((await fetch(`${runtime.url}/buy/${'0'.repeat(24)}`, { redirect: 'manual' })).status).toBe(404);
    expect((await fetch(`${runtime.url}/buy/nope`, { redirect: 'manual' })).status).toBe(404);
    const hidden = await createProduct(seller, { name: 'Hidden', price: 5, published: false });
    expect((await fetch(`${runtime.url}/buy/${hidden._id}`, { redirect: 'manual' })).status).toBe(404);
  });

  // Last in the file: it spends this address's buy-link allowance for the minute.
  it('one address opens at most a few checkouts a minute', { timeout: 120_000 }, async () => {
    const product = await createProduct(other, { name: 'Beat', price: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 24; i++) statuses.push((await fetch(`${runtime.url}/buy/${product._id}`, { redirect: 'manual' })).status);
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 303).length).toBeLessThanOrEqual(20);
  });
});
