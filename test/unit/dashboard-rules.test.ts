import { describe, expect, it } from 'vitest';
import { cacheControl, contentSecurityPolicy, contentTypeOf, dashboardConfig, isClientRoute, securityHeaders } from '../../shared/dashboard/hosting';
import { linkVerdict, managesKeys, normalizeEmail, rateWindow, reachableStores, signInLink } from '../../shared/dashboard/rules';
import { AREAS } from '../../shared/platform/permissions';

describe('sign-in links', () => {
  const now = new Date('2026-01-01T12:00:00Z');
  it('is good until its time, then expired; used stays used after its time', () => {
    expect(linkVerdict({ validUntil: '2026-01-01T12:15:00Z' }, now)).toBe('ok');
    expect(linkVerdict({ validUntil: '2026-01-01T12:00:00Z' }, now)).toBe('expired');
    expect(linkVerdict({ validUntil: '2026-01-01T12:15:00Z', usedAt: '2026-01-01T11:59:00Z' }, now)).toBe('used');
    expect(linkVerdict({ validUntil: '2026-01-01T11:00:00Z', usedAt: '2026-01-01T10:59:00Z' }, now)).toBe('used');
  });
  it('points at the dashboard sign-in page with the token encoded', () => {
    expect(signInLink('https://d.example.com/dashboard/', 'a+b')).toBe('https://d.example.com/dashboard/sign-in?token=a%2Bb');
  });
  it('counts in fixed 15-minute windows and says how long until the next', () => {
    const start = Date.parse('2026-01-01T12:15:00Z');
    expect(rateWindow(start)).toEqual({ start, retryAfterSeconds: 900 });
    expect(rateWindow(start + 899_500)).toEqual({ start, retryAfterSeconds: 1 });
    expect(rateWindow(start + 60_000).retryAfterSeconds).toBe(840);
  });
  it('compares addresses lower-cased and trimmed', () => expect(normalizeEmail(' Ann@Example.COM ')).toBe('ann@example.com'));
});

describe('reachable stores', () => {
  const names = new Map([
    ['a1', 'Alpha'],
    ['b2', 'Beta'],
  ]);
  it('gives an owner both modes with every area, and a member each active grant', () => {
    const stores = reachableStores(
      [{ accountId: 'b2', name: 'Beta', email: 'x@example.com' }],
      [
        { accountId: 'a1', mode: 'test', memberId: 'm1', role: 'member', areas: ['orders', 'products'], status: 'active' },
        { accountId: 'a1', mode: 'live', memberId: 'm2', role: 'admin', areas: [], status: 'suspended' },
      ],
      names,
    );
    expect(stores).toEqual([
      { accountId: 'a1', storeName: 'Alpha', mode: 'test', role: 'member', areas: ['products', 'orders'], memberId: 'm1' },
      { accountId: 'b2', storeName: 'Beta', mode: 'live', role: 'owner', areas: [...AREAS], memberId: null },
      { accountId: 'b2', storeName: 'Beta', mode: 'test', role: 'owner', areas: [...AREAS], memberId: null },
    ]);
  });
  it('keeps the owner entry over a grant in the same store, and skips grants without a store', () => {
    const stores = reachableStores(
      [{ accountId: 'b2', email: 'Owner@example.com' }],
      [
        { accountId: 'b2', mode: 'live', memberId: 'm1', role: 'member', areas: [], status: 'active' },
        { memberId: 'old', role: 'member', areas: [], status: 'active' },
        { accountId: 'gone', mode: 'live', memberId: 'm3', role: 'member', areas: [], status: 'active' },
      ],
      new Map(),
    );
    expect(stores.map((s) => [s.accountId, s.mode, s.role, s.storeName])).toEqual([
      ['b2', 'live', 'owner', 'Owner@example.com'],
      ['b2', 'test', 'owner', 'Owner@example.com'],
    ]);
  });
  it('lets owners and admins manage keys, not members', () => {
    expect(managesKeys({ type: 'owner_key' })).toBe(true);
    expect(managesKeys({ type: 'member', role: 'owner' })).toBe(true);
    expect(managesKeys({ type: 'member', role: 'admin' })).toBe(true);
    expect(managesKeys({ type: 'member', role: 'member' })).toBe(false);
  });
});

describe('dashboard hosting rules', () => {
  it('allows nothing from other origins but the API', () => {
    const csp = contentSecurityPolicy();
    expect(csp.split('; ')).toContain("default-src 'self'");
    expect(csp.split('; ')).toContain("frame-ancestors 'none'");
    expect(csp.split('; ')).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https?:|\*/);
    expect(contentSecurityPolicy('https://api.example.com')).toContain("connect-src 'self' https://api.example.com");
    expect(securityHeaders()).toMatchObject({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY' });
  });
  it('caches hashed assets for a year and the entry points never without revalidation', () => {
    expect(cacheControl('/dashboard/index.html')).toBe('no-cache');
    expect(cacheControl('/dashboard/config.json')).toBe('no-cache');
    expect(cacheControl('/dashboard/assets/index-B1a2C3d4.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControl('/dashboard/favicon.svg')).toBe('public, max-age=3600');
  });
  it('types files by extension and sends paths without one to the app', () => {
    expect(contentTypeOf('/a/b.css')).toBe('text/css; charset=utf-8');
    expect(contentTypeOf('/a/font.WOFF2')).toBe('font/woff2');
    expect(contentTypeOf('/a/blob')).toBe('application/octet-stream');
    expect(isClientRoute('/products/new')).toBe(true);
    expect(isClientRoute('/')).toBe(true);
    expect(isClientRoute('/assets/x.js')).toBe(false);
    expect(dashboardConfig('https://api.example.com/')).toEqual({ apiBaseUrl: 'https://api.example.com' });
  });
});
