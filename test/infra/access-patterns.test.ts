import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ROOT,
  TABLE_FILE,
  bypasses,
  declaredEntities,
  declaredRepositories,
  renderAccessPatterns,
  sourceFiles,
  undeclaredUses,
} from '../../scripts/access-patterns';
import { UndeclaredAccessPattern } from '../../shared/store/entity';
import type { Store } from '../../shared/store/store';
import { discountEntity } from '../../shared/storefront/discounts/entities';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('entity declarations and the access-pattern table', () => {
  it('the table in shared/store/access-patterns.ts is the one the declarations render', async () => {
    expect(readFileSync(TABLE_FILE, 'utf8')).toBe(await renderAccessPatterns());
  });

  it('declares the storefront, catalog, webhooks, platform and local scheduler entities, each with a version and owner', async () => {
    const entities = await declaredEntities();
    const owners = new Set(entities.map(({ entity }) => entity.declaration.owner.split('/')[0]!.split(' ')[0]));
    expect([...owners]).toEqual(
      expect.arrayContaining(['adapters', 'catalog', 'checkout', 'credits', 'platform', 'processor', 'sales', 'storefront', 'subscriptions', 'webhooks']),
    );
    for (const { entity } of entities) expect(entity.declaration.version).toBeGreaterThanOrEqual(1);
    expect(new Set(entities.map(({ entity }) => entity.declaration.entity)).size).toBe(entities.length);
  });

  it('declared repositories read the store and build keys only through their declarations', () => {
    const files = declaredRepositories();
    expect(files).toContain('shared/storefront/discounts/repository.ts');
    expect(files).toContain('shared/webhooks/repository.ts');
    for (const moneyPath of ['checkout', 'sales', 'subscriptions', 'credits']) expect(files).toContain(`shared/${moneyPath}/repository.ts`);
    expect(files).toEqual(
      expect.arrayContaining([
        'shared/processor/marker.ts',
        'shared/processor/settings.ts',
        'shared/adapters/processor-sandbox/repository.ts',
        'shared/adapters/processor-sandbox/sandbox.ts',
        'shared/adapters/processor-sandbox/delivery.ts',
      ]),
    );
    expect(files.flatMap((file) => bypasses(file, read(file)))).toEqual([]);
  });

  it('every pattern name used at a call site is declared by that entity', async () => {
    const entities = new Map((await declaredEntities()).map(({ name, entity }) => [name, entity]));
    const sites = sourceFiles().filter((file) => /Entity\.(get|getMany|query|queryAll|queryKeys)\(/.test(read(file)));
    expect(sites.length).toBeGreaterThan(10);
    expect(sites.flatMap((file) => undeclaredUses(file, read(file), entities))).toEqual([]);
  });

  it('catches a repository that reads around its declarations or names an undeclared pattern', async () => {
    const entities = new Map((await declaredEntities()).map(({ name, entity }) => [name, entity]));
    const bad = [
      "export const x = (store, scope, id) => store.get(keys.entity(scope, 'DISCOUNT', id));",
      "export const y = (store, scope) => discountEntity.queryAll(store, 'everything', [scope]);",
      "export const z = (store, scope, id) => discountEntity.query(store, 'byId', [scope, id]);",
    ].join('\n');
    expect(bypasses('bad.ts', bad)).toEqual(['bad.ts:1 store.get(', 'bad.ts:1 keys.entity(']);
    expect(undeclaredUses('bad.ts', bad, entities)).toEqual([
      'bad.ts:2 discountEntity declares no query pattern "everything"',
      'bad.ts:3 discountEntity declares no query pattern "byId"',
    ]);
  });

  it('refuses an undeclared pattern at compile time and at run time', async () => {
    const store = { get: async () => undefined } as unknown as Store;
    // @ts-expect-error: 'byCode' is not a pattern of the Discount entity (tsc fails if it ever is).
    await expect(discountEntity.get(store, 'byCode', { accountId: 'a', mode: 'test' }, 'X')).rejects.toBeInstanceOf(UndeclaredAccessPattern);
    // @ts-expect-error: 'ofTenant' is a query, not a get.
    await expect(discountEntity.get(store, 'ofTenant', { accountId: 'a', mode: 'test' })).rejects.toThrow(/no get access pattern named "ofTenant"/);
  });
});
