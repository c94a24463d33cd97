import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storefront } from '../../shared/storefront/index';

const ROOT = resolve(import.meta.dirname, '../../shared/storefront');
const SUBS = readdirSync(ROOT).filter((name) => statSync(join(ROOT, name)).isDirectory());

describe('storefront sub-capabilities', () => {
  it('are the seven record kinds, each in the catalog shape', () => {
    expect(SUBS.sort()).toEqual(['creator-pages', 'discounts', 'images', 'partners', 'refund-policies', 'reviews', 'upsells']);
    for (const sub of SUBS) {
      const files = readdirSync(join(ROOT, sub));
      for (const part of ['operations.ts', 'schemas.ts', 'service.ts', 'repository.ts', 'records.ts']) expect(files, `${sub}/${part}`).toContain(part);
    }
  });

  it('never name a service function like a repository function', async () => {
    for (const sub of SUBS) {
      const service = Object.keys(await import(join(ROOT, sub, 'service.ts')));
      const repository = Object.keys(await import(join(ROOT, sub, 'repository.ts')));
      expect(repository.length, sub).toBeGreaterThan(0);
      expect(
        service.filter((name) => repository.includes(name)),
        sub,
      ).toEqual([]);
    }
  });

  it('stay one API group whose operations are all of theirs, in order', async () => {
    const ids: string[] = [];
    for (const sub of ['discounts', 'upsells', 'images', 'creator-pages', 'partners', 'reviews', 'refund-policies']) {
      const module = (await import(join(ROOT, sub, 'operations.ts'))) as Record<string, { operationId: string }[]>;
      ids.push(
        ...Object.values(module)
          .flat()
          .map((o) => o.operationId),
      );
    }
    expect(storefront.name).toBe('storefront');
    expect(storefront.operations!.map((o) => o.operationId)).toEqual(ids);
    expect(ids).toHaveLength(32);
  });
});
