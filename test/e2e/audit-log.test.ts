import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestRuntime } from '../support/runtime';
import { joinTeam } from '../support/team';
import type { LocalRuntime } from '../../shared/local/runtime';

let runtime: LocalRuntime;
beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(async () => runtime?.stop());

interface Row {
  id: string;
  at: string;
  actor: { type: string; id: string; email?: string };
  action: string;
  target: { type: string; id: string | null };
  ip: string | null;
}

describe('audit log', () => {
  it('records every write with its actor, key, record and address; filters, pages, and shows nothing of another account', { timeout: 90_000 }, async () => {
    const account = await createTestAccount(runtime, 'tier3', 'auditor@example.com');
    const other = await createTestAccount(runtime, 'tier3');
    const keys = (await account.test.get('/api-keys')).body.data as { id: string; mode: string }[];
    const testKeyId = keys.find((k) => k.mode === 'test')!.id;

    const created = await account.test.post('/products', { name: 'Audited', price: 5 });
    expect(created.status).toBe(201);
    const productId = created.body._id as string;
    expect((await account.test.post(`/products/update/${productId}`, { name: 'Audited again' })).status).toBe(200);
    expect((await account.test.delete(`/products/${productId}`)).status).toBe(200);
    await other.test.post('/products', { name: 'Elsewhere', price: 1 });
    // A refused write changes nothing and is not logged.
    expect((await account.test.post('/products', { price: -1 })).status).toBe(400);

    const log = await account.test.get('/audit-log');
    expect(log.status, log.text).toBe(200);
    const rows = log.body.entries as Row[];
    expect(rows.map((r) => r.action)).toEqual(['deleteProduct', 'updateProduct', 'createProduct']);
    for (const row of rows) {
      expect(row.actor).toEqual({ type: 'api_key', id: testKeyId });
      expect(row.target).toMatchObject({ type: 'Products', id: productId });
      expect(row.ip).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
      expect(Date.parse(row.at)).not.toBeNaN();
    }
    expect(log.body.next).toBeNull();
    // The other account's log holds its own write only; the live log of this one is apart.
    const theirs = (await other.test.get('/audit-log')).body.entries as Row[];
    expect(theirs.map((r) => r.action)).toEqual(['createProduct']);
    expect(JSON.stringify(theirs)).not.toContain(productId);
    expect((await account.live.get('/audit-log')).body.entries).toEqual([]);

    // Filters.
    const only = async (query: string) => ((await account.test.get(`/audit-log?${query}`)).body.entries as Row[]).map((r) => r.action);
    expect(await only('action=deleteProduct')).toEqual(['deleteProduct']);
    expect(await only(`target=${productId}`)).toEqual(['deleteProduct', 'updateProduct', 'createProduct']);
    expect(await only('target=000000000000000000000000')).toEqual([]);
    expect(await only(`actor=${testKeyId}`)).toHaveLength(3);
    expect(await only('actor=someone-else')).toEqual([]);
    expect(await only(`from=${encodeURIComponent(rows[2]!.at)}&to=${encodeURIComponent(rows[0]!.at)}`)).toHaveLength(3);
    expect(await only('from=2099-01-01T00:00:00Z')).toEqual([]);
    expect(await only('to=2000-01-01T00:00:00Z')).toEqual([]);

    // Cursor paging, newest first, no entry twice.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const path: string = `/audit-log?limit=1${cursor ? `&cursor=${cursor}` : ''}`;
      const page: { status: number; body: { entries: Row[]; next: string | null } } = await account.test.get(path);
      expect(page.status).toBe(200);
      seen.push(...(page.body.entries as Row[]).map((r) => r.action));
      cursor = page.body.next;
    } while (cursor);
    expect(seen).toEqual(['deleteProduct', 'updateProduct', 'createProduct']);

    // Bad input.
    expect((await account.test.get('/audit-log?from=yesterday')).status).toBe(400);
    expect((await account.test.get('/audit-log?cursor=nope')).status).toBe(400);
    expect((await account.test.get('/audit-log?limit=500')).status).toBe(400);
    expect((await account.test.get('/audit-log?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z')).status).toBe(400);

    // A team member's write names the member; only owners and admins read the log.
    const teams = await account.live.post('/team/teams', { name: 'Catalog', areas: ['products'] });
    const clerk = await joinTeam(runtime, account, 'clerk@example.com', 'member', [teams.body._id]);
    const made = await clerk.client.post('/products', { name: 'By the clerk', price: 3 });
    expect(made.status).toBe(201);
    expect((await clerk.client.get('/audit-log')).status).toBe(403);
    const admin = await joinTeam(runtime, account, 'boss@example.com', 'admin');
    const live = await admin.client.get(`/audit-log?actor=${clerk.id}&action=createProduct`);
    expect(live.status).toBe(200);
    expect(live.body.entries).toEqual([
      expect.objectContaining({
        action: 'createProduct',
        actor: { type: 'member', id: clerk.id, email: 'clerk@example.com' },
        target: { type: 'Products', id: made.body._id },
      }),
    ]);
    expect(((await admin.client.get('/audit-log?actor=clerk@example.com&action=createProduct')).body.entries as Row[]).map((r) => r.target.id)).toEqual([
      made.body._id,
    ]);
    // Team changes are in it too, by the owner's key.
    expect(await (async () => ((await account.live.get('/audit-log?action=invite.created')).body.entries as Row[]).length)()).toBe(2);
  });
});
