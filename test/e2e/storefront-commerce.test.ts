import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { control, createTestAccount, startTestRuntime, type ApiClient, type TestAccount } from '../support/runtime';
import type { LocalRuntime } from '../../shared/local/runtime';
import { referralSaleOps } from '../../shared/storefront/partners/service';
import { scopeOf } from '../../shared/store/keys';

let runtime: LocalRuntime;
let seller: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  runtime = await startTestRuntime();
  seller = await createTestAccount(runtime);
  other = await createTestAccount(runtime);
});
afterAll(async () => runtime?.stop());

async function product(client: ApiClient, price: number, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await client.post('/products', { name: `Product ${Math.random().toString(36).slice(2, 8)}`, price, ...extra });
  expect(created.status, created.text).toBe(201);
  return created.body._id;
}

const uniqueCode = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2, 8)}`.toUpperCase();

describe('discounts', () => {
  it('creates, reads, lists, updates and deletes a discount', async () => {
    const productId = await product(seller.test, 20);
    const code = uniqueCode('SAVE');
    const created = await seller.test.post('/discounts', { name: 'Launch', code, value: 25, mainProductIds: [productId] });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Launch',
      code,
      valueType: 'percentage',
      value: 25,
      mainProductIds: [productId],
      expiresAt: null,
      maxUses: null,
      uses: 0,
      testMode: true,
    });
    const id = created.body._id;

    expect((await seller.test.get(`/discounts/${id}`)).body).toEqual(created.body);
    const list = await seller.test.get('/discounts');
    expect(list.body.map((d: { _id: string }) => d._id)).toContain(id);

    const updated = await seller.test.post(`/discounts/${id}`, { valueType: 'fixed', value: 5.5, maxUses: 3, expiresAt: '2099-01-01T00:00:00Z' });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ valueType: 'fixed', value: 5.5, maxUses: 3, expiresAt: '2099-01-01T00:00:00.000Z', name: 'Launch' });
    const cleared = await seller.test.post(`/discounts/${id}`, { maxUses: null, expiresAt: null });
    expect(cleared.body).toMatchObject({ maxUses: null, expiresAt: null, value: 5.5 });

    expect((await seller.test.delete(`/discounts/${id}`)).status).toBe(200);
    expect((await seller.test.get(`/discounts/${id}`)).status).toBe(404);
    expect((await seller.test.delete(`/discounts/${id}`)).status).toBe(404);
    // The code is free again once its discount is gone.
    expect((await seller.test.post('/discounts', { name: 'Again', code, value: 10, mainProductIds: [productId] })).status).toBe(201);
  });

  it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
    const productId = await product(seller.test, 10);
    const base = { name: 'X', code: uniqueCode('BAD'), value: 10, mainProductIds: [productId] };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, name: undefined }, 'name'],
      [{ ...base, code: undefined }, 'code'],
      [{ ...base, code: 'a b' }, 'code'],
      [{ ...base, value: undefined }, 'value'],
      [{ ...base, value: -1 }, 'value'],
      [{ ...base, value: 120 }, 'value'],
      [{ ...base, valueType: 'bogo' }, 'valueType'],
      [{ ...base, valueType: 'fixed', value: 1.234 }, 'value'],
      [{ ...base, mainProductIds: [] }, 'mainProductIds'],
      [{ ...base, mainProductIds: undefined }, 'mainProductIds'],
      [{ ...base, mainProductIds: ['000000000000000000000000'] }, 'mainProductIds.0'],
      [{ ...base, expiresAt: 'tomorrow' }, 'expiresAt'],
      [{ ...base, maxUses: 0 }, 'maxUses'],
    ];
    for (const [body, field] of cases) {
      const response = await seller.test.post('/discounts', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.field).toBe(field);
    }
    expect((await seller.test.get('/discounts')).body.some((d: { code: string }) => d.code === base.code)).toBe(false);
  });

  it('keeps codes unique per account and mode, case-insensitively', async () => {
    const productId = await product(seller.test, 10);
    const code = uniqueCode('uniq');
    expect((await seller.test.post('/discounts', { name: 'A', code, value: 10, mainProductIds: [productId] })).status).toBe(201);
    const clash = await seller.test.post('/discounts', { name: 'B', code: code.toLowerCase(), value: 10, mainProductIds: [productId] });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('DISCOUNT_CODE_TAKEN');

    // The same code is free in the other mode and in another account.
    const liveProduct = await product(seller.live, 10);
    expect((await seller.live.post('/discounts', { name: 'A', code, value: 10, mainProductIds: [liveProduct] })).status).toBe(201);
    const otherProduct = await product(other.test, 10);
    expect((await other.test.post('/discounts', { name: 'A', code, value: 10, mainProductIds: [otherProduct] })).status).toBe(201);

    // Renaming onto a taken code is refused and leaves the discount as it was; a case change is fine.
    const second = await seller.test.post('/discounts', { name: 'C', code: uniqueCode('other'), value: 10, mainProductIds: [productId] });
    const rename = await seller.test.post(`/discounts/${second.body._id}`, { code, name: 'renamed' });
    expect(rename.status).toBe(409);
    expect((await seller.test.get(`/discounts/${second.body._id}`)).body).toEqual(second.body);
    const recased = await seller.test.post(`/discounts/${second.body._id}`, { code: second.body.code.toLowerCase() });
    expect(recased.status).toBe(200);
    expect(recased.body.code).toBe(second.body.code.toLowerCase());
    const moved = uniqueCode('moved');
    expect((await seller.test.post(`/discounts/${second.body._id}`, { code: moved })).status).toBe(200);
    // The old code is released, the new one taken.
    expect((await seller.test.post('/discounts', { name: 'D', code: second.body.code, value: 10, mainProductIds: [productId] })).status).toBe(201);
    expect((await seller.test.post('/discounts', { name: 'E', code: moved, value: 10, mainProductIds: [productId] })).status).toBe(409);
  });

  it('applies percentage and fixed codes, never below zero', async () => {
    const productId = await product(seller.test, 29.99);
    const cheap = await product(seller.test, 3);
    const pct = uniqueCode('pct');
    const fixed = uniqueCode('fix');
    await seller.test.post('/discounts', { name: 'P', code: pct, value: 10, mainProductIds: [productId] });
    await seller.test.post('/discounts', { name: 'F', code: fixed, valueType: 'fixed', value: 5, mainProductIds: [productId, cheap] });

    const applied = await seller.test.get(`/discounts/apply/${pct.toLowerCase()}/${productId}`);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body).toEqual({
      code: pct,
      productId,
      originalPrice: 29.99,
      discountedPrice: 26.99,
      amountOff: 3,
      valueType: 'percentage',
      value: 10,
      currency: 'USD',
    });
    const fixedApplied = await seller.test.get(`/discounts/apply/${fixed}/${productId}`);
    expect(fixedApplied.body).toMatchObject({ originalPrice: 29.99, discountedPrice: 24.99, amountOff: 5, valueType: 'fixed', value: 5 });
    const floor = await seller.test.get(`/discounts/apply/${fixed}/${cheap}`);
    expect(floor.body).toMatchObject({ originalPrice: 3, discountedPrice: 0, amountOff: 3 });
  });

  it('answers clear 4xx when a code cannot be applied', async () => {
    const productId = await product(seller.test, 10);
    const unrelated = await product(seller.test, 10);
    const code = uniqueCode('only');
    const created = await seller.test.post('/discounts', { name: 'O', code, value: 10, mainProductIds: [productId] });

    expect((await seller.test.get(`/discounts/apply/NOPE${code}/${productId}`)).status).toBe(404);
    expect((await seller.test.get(`/discounts/apply/${code}/000000000000000000000000`)).status).toBe(404);
    const notApplicable = await seller.test.get(`/discounts/apply/${code}/${unrelated}`);
    expect(notApplicable.status).toBe(400);
    expect(notApplicable.body.code).toBe('DISCOUNT_NOT_APPLICABLE');

    await seller.test.post(`/discounts/${created.body._id}`, { expiresAt: new Date(Date.now() + 3600_000).toISOString() });
    expect((await seller.test.get(`/discounts/apply/${code}/${productId}`)).status).toBe(200);
    expect((await seller.test.get(`/discounts/check-product/${productId}`)).body).toEqual({ hasDiscount: true });
    await control(runtime).post('/_local/clock/advance', { seconds: 7200 });
    const expired = await seller.test.get(`/discounts/apply/${code}/${productId}`);
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe('DISCOUNT_EXPIRED');
    expect((await seller.test.get(`/discounts/check-product/${productId}`)).body).toEqual({ hasDiscount: false });
  });

  it('answers check-product, and 404 for another account or mode', async () => {
    const productId = await product(seller.test, 10);
    const bare = await product(seller.test, 10);
    const code = uniqueCode('chk');
    const created = await seller.test.post('/discounts', { name: 'C', code, value: 10, mainProductIds: [productId] });
    expect((await seller.test.get(`/discounts/check-product/${productId}`)).body).toEqual({ hasDiscount: true });
    expect((await seller.test.get(`/discounts/check-product/${bare}`)).body).toEqual({ hasDiscount: false });
    expect((await seller.test.get('/discounts/check-product/000000000000000000000000')).status).toBe(404);

    const id = created.body._id;
    for (const client of [seller.live, other.test]) {
      expect((await client.get(`/discounts/${id}`)).status).toBe(404);
      expect((await client.post(`/discounts/${id}`, { name: 'hijack' })).status).toBe(404);
      expect((await client.delete(`/discounts/${id}`)).status).toBe(404);
      expect((await client.get(`/discounts/apply/${code}/${productId}`)).status).toBe(404);
      expect((await client.get(`/discounts/check-product/${productId}`)).status).toBe(404);
      expect((await client.get('/discounts')).body.some((d: { _id: string }) => d._id === id)).toBe(false);
    }
    expect((await seller.test.get(`/discounts/${id}`)).body.name).toBe('C');
  });
});

describe('upsells', () => {
  it('creates, reads, lists, updates and deletes an upsell, validating products', async () => {
    const main = await product(seller.test, 50);
    const extra = await product(seller.test, 30);
    const created = await seller.test.post('/upsells', { mainProductIds: [main], upsellProductId: extra, upsellPrice: 19.99 });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ mainProductIds: [main], upsellProductId: extra, upsellPrice: 19.99, name: null, testMode: true });
    const id = created.body._id;
    expect((await seller.test.get(`/upsells/${id}`)).body).toEqual(created.body);
    expect((await seller.test.get('/upsells')).body[0]._id).toBe(id);

    const updated = await seller.test.post(`/upsells/${id}`, { upsellPrice: 9, name: 'Add the workbook' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ upsellPrice: 9, name: 'Add the workbook', upsellProductId: extra });

    for (const [body, field] of [
      [{ upsellProductId: extra, upsellPrice: 1 }, 'mainProductIds'],
      [{ mainProductIds: [main], upsellPrice: 1 }, 'upsellProductId'],
      [{ mainProductIds: [main], upsellProductId: extra }, 'upsellPrice'],
      [{ mainProductIds: [main], upsellProductId: extra, upsellPrice: -1 }, 'upsellPrice'],
      [{ mainProductIds: [main], upsellProductId: main, upsellPrice: 1 }, 'upsellProductId'],
      [{ mainProductIds: [main], upsellProductId: '000000000000000000000000', upsellPrice: 1 }, 'upsellProductId'],
      [{ mainProductIds: ['000000000000000000000000'], upsellProductId: extra, upsellPrice: 1 }, 'mainProductIds.0'],
    ] as [Record<string, unknown>, string][]) {
      const response = await seller.test.post('/upsells', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.field).toBe(field);
    }
    expect((await seller.test.post(`/upsells/${id}`, { upsellPrice: 'free' })).status).toBe(400);

    for (const client of [seller.live, other.test]) {
      expect((await client.get(`/upsells/${id}`)).status).toBe(404);
      expect((await client.post(`/upsells/${id}`, { upsellPrice: 1 })).status).toBe(404);
      expect((await client.delete(`/upsells/${id}`)).status).toBe(404);
    }
    expect((await seller.test.delete(`/upsells/${id}`)).status).toBe(200);
    expect((await seller.test.get(`/upsells/${id}`)).status).toBe(404);
    expect((await seller.test.get('/upsells')).body).toEqual([]);
  });
});

describe('refund policies', () => {
  it('creates policies and counts the products that use each one', async () => {
    const created = await seller.test.post('/refunds', { name: '30-day money back', days: 30, description: 'Full refund within 30 days' });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      name: '30-day money back',
      days: 30,
      description: 'Full refund within 30 days',
      text: 'Full refund within 30 days',
      appliedTo: 0,
    });
    const aliased = await seller.test.post('/refunds', { name: 'No refunds', days: 0, text: 'All sales final' });
    expect(aliased.body.description).toBe('All sales final');
    const policyId = created.body._id;

    await product(seller.test, 10, { refundPolicyId: policyId });
    await product(seller.test, 20, { refundPolicyId: policyId });
    await product(seller.test, 30, { refundPolicyId: aliased.body._id });
    await product(seller.test, 40);
    const removed = await product(seller.test, 50, { refundPolicyId: policyId });
    expect((await seller.test.delete(`/products/${removed}`)).status).toBe(200);

    const list = await seller.test.get('/refunds');
    expect(list.status).toBe(200);
    expect(list.body.map((p: { _id: string; appliedTo: number }) => [p._id, p.appliedTo])).toEqual([
      [aliased.body._id, 1],
      [policyId, 2],
    ]);
    expect((await seller.test.get(`/refunds/${policyId}`)).body.appliedTo).toBe(2);

    for (const [body, field] of [
      [{ days: 30 }, 'name'],
      [{ name: 'x' }, 'days'],
      [{ name: 'x', days: -1 }, 'days'],
      [{ name: 'x', days: 1.5 }, 'days'],
    ] as [Record<string, unknown>, string][]) {
      const response = await seller.test.post('/refunds', body);
      expect(response.status).toBe(400);
      expect(response.body.field).toBe(field);
    }
    expect((await seller.test.get('/refunds')).body).toHaveLength(2);
    expect((await seller.live.get(`/refunds/${policyId}`)).status).toBe(404);
    expect((await other.test.get(`/refunds/${policyId}`)).status).toBe(404);
    expect((await seller.live.get('/refunds')).body).toEqual([]);
  });
});

describe('partners', () => {
  it('creates partners with unique referral codes and registers referrals', async () => {
    const created = await seller.test.post('/partners', { name: 'Ada', email: 'Ada@Example.com', referralCode: 'ada-rocks', commissionPercent: 20 });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: 'Ada', email: 'ada@example.com', referralCode: 'ada-rocks', commissionPercent: 20, testMode: true });
    const generated = await seller.test.post('/partners', { name: 'Bob', email: 'bob@example.com', commissionPercent: 10 });
    expect(generated.body.referralCode).toMatch(/^[0-9A-Z]{8}$/);

    const clash = await seller.test.post('/partners', { name: 'Eve', email: 'eve@example.com', referralCode: 'ADA-ROCKS', commissionPercent: 5 });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('REFERRAL_CODE_TAKEN');
    for (const [body, field] of [
      [{ email: 'x@example.com', commissionPercent: 1 }, 'name'],
      [{ name: 'x', email: 'not-an-email', commissionPercent: 1 }, 'email'],
      [{ name: 'x', email: 'x@example.com' }, 'commissionPercent'],
      [{ name: 'x', email: 'x@example.com', commissionPercent: 101 }, 'commissionPercent'],
    ] as [Record<string, unknown>, string][]) {
      const response = await seller.test.post('/partners', body);
      expect(response.status).toBe(400);
      expect(response.body.field).toBe(field);
    }
    expect((await seller.test.get('/partners')).body.map((p: { name: string }) => p.name)).toEqual(['Bob', 'Ada']);

    const referral = await seller.test.post('/partners/register-referral', { referralCode: 'ADA-ROCKS', email: 'Visitor@Example.com' });
    expect(referral.status, referral.text).toBe(201);
    expect(referral.body).toMatchObject({ partnerId: created.body._id, referralCode: 'ada-rocks', email: 'visitor@example.com' });
    expect((await seller.test.post('/partners/register-referral', { referralCode: 'ada-rocks' })).body.email).toBeNull();
    expect((await seller.test.post('/partners/register-referral', {})).body.field).toBe('referralCode');
    const unknown = await seller.test.post('/partners/register-referral', { referralCode: 'nobody' });
    expect(unknown.status).toBe(404);
    // A code lives in one account and mode only.
    expect((await seller.live.post('/partners/register-referral', { referralCode: 'ada-rocks' })).status).toBe(404);
    expect((await other.test.post('/partners/register-referral', { referralCode: 'ada-rocks' })).status).toBe(404);

    const referrals = await seller.test.get('/partners/referrals');
    expect(referrals.body).toHaveLength(2);
    expect((await seller.test.get(`/partners/referrals?partnerId=${generated.body._id}`)).body).toEqual([]);
    expect((await seller.live.get(`/partners/referrals?partnerId=${created.body._id}`)).status).toBe(404);
    expect((await seller.live.get('/partners/referrals')).body).toEqual([]);
  });

  it('reports referral sales and stats from the sale records checkout writes', async () => {
    const account = await createTestAccount(runtime);
    const partner = (await account.test.post('/partners', { name: 'Cy', email: 'cy@example.com', referralCode: 'CYRUS', commissionPercent: 12.5 })).body;
    expect(partner._id).toBeTruthy();
    const quiet = (await account.test.post('/partners', { name: 'Di', email: 'di@example.com', referralCode: 'DIANA', commissionPercent: 50 })).body;
    await account.test.post('/partners/register-referral', { referralCode: 'cyrus', email: 'buyer@example.com' });
    const productId = await product(account.test, 9.99);

    const scope = scopeOf(account.accountId, 'test');
    const { deps } = runtime;
    const sale = (saleId: string, amountCents: number, referralCode = 'cyrus') =>
      referralSaleOps(deps, scope, { referralCode, saleId, amountCents, currency: 'USD', buyerEmail: 'Buyer@Example.com', productId });
    const first = await sale('aaaaaaaaaaaaaaaaaaaaaaa1', 999);
    expect(first).toHaveLength(1);
    await deps.store.transact(first);
    await deps.store.transact(await sale('aaaaaaaaaaaaaaaaaaaaaaa2', 10000));
    expect(await sale('aaaaaaaaaaaaaaaaaaaaaaa3', 500, 'unknown')).toEqual([]);
    // The same sale cannot be credited twice.
    await expect(deps.store.transact(await sale('aaaaaaaaaaaaaaaaaaaaaaa1', 999))).rejects.toThrow();

    const sales = await account.test.get('/partners/referrals/sales');
    expect(sales.status).toBe(200);
    expect(sales.body).toHaveLength(2);
    expect(sales.body.find((s: { saleId: string }) => s.saleId === 'aaaaaaaaaaaaaaaaaaaaaaa1')).toMatchObject({
      partnerId: partner._id,
      referralCode: 'CYRUS',
      amount: 9.99,
      commission: 1.25,
      commissionPercent: 12.5,
      buyerEmail: 'buyer@example.com',
      productId,
      currency: 'USD',
    });
    expect((await account.test.get(`/partners/referrals/sales?partnerId=${quiet._id}`)).body).toEqual([]);

    const stats = await account.test.get('/partners/stats');
    expect(stats.status).toBe(200);
    expect(stats.body.totals).toEqual({ referrals: 1, sales: 2, revenue: 109.99, commission: 13.75 });
    expect(stats.body.partners.find((p: { partnerId: string }) => p.partnerId === partner._id)).toMatchObject({
      referrals: 1,
      sales: 2,
      revenue: 109.99,
      commission: 13.75,
    });
    expect(stats.body.partners.find((p: { partnerId: string }) => p.partnerId === quiet._id)).toMatchObject({
      referrals: 0,
      sales: 0,
      revenue: 0,
      commission: 0,
    });
    expect((await account.live.get('/partners/stats')).body.totals).toEqual({ referrals: 0, sales: 0, revenue: 0, commission: 0 });
  });
});

describe('MCP tools', () => {
  it("creates and applies a discount through the tools, in the key's mode", async () => {
    const account = await createTestAccount(runtime);
    const productId = await product(account.test, 40);
    const client = new Client({ name: 'storefront-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${runtime.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${account.testKey}` } } }),
    );
    const created = await client.callTool({ name: 'create_discount', arguments: { name: 'Agent', code: 'AGENT25', value: 25, mainProductIds: [productId] } });
    expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
    const applied = await client.callTool({ name: 'apply_discount', arguments: { discountCode: 'agent25', productId } });
    expect(applied.structuredContent).toMatchObject({ originalPrice: 40, discountedPrice: 30, amountOff: 10 });
    const invalid = await client.callTool({ name: 'create_refund_policy', arguments: { name: 'No days' } });
    expect(invalid.isError).toBe(true);
    await client.close();
    expect((await account.test.get('/discounts')).body.map((d: { code: string }) => d.code)).toEqual(['AGENT25']);
    expect((await account.live.get('/discounts')).body).toEqual([]);
  });
});
