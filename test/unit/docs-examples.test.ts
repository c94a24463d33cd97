import { describe, expect, it } from 'vitest';
import * as z from '../../shared/platform/zod';
import { APP } from '../../shared/app';
import { exampleOf, validExample } from '../../shared/docs/examples';
import { buildOpenApi } from '../../shared/docs/openapi';

describe('explorer examples', () => {
  it('builds the smallest valid body, then every field, then each optional field alone', () => {
    const minimal = z.object({ name: z.string().check(z.minLength(3)), price: z.number().check(z.minimum(0.5)), email: z.optional(z.email()) });
    expect(validExample(z.toJSONSchema(minimal) as Record<string, unknown>, (v) => minimal.safeParse(v).success)).toEqual({ name: 'Example name', price: 10 });
    const atLeastOne = z.object({ a: z.optional(z.string()), b: z.optional(z.boolean()) }).check(z.refine((v) => v.a !== undefined || v.b !== undefined));
    expect(validExample(z.toJSONSchema(atLeastOne, { io: 'input' }) as Record<string, unknown>, (v) => atLeastOne.safeParse(v).success)).toEqual({
      a: 'Example a',
      b: true,
    });
    const either = z.object({ id: z.optional(z.string()), title: z.optional(z.string()) }).check(z.refine((v) => Boolean(v.id) !== Boolean(v.title)));
    expect(validExample(z.toJSONSchema(either, { io: 'input' }) as Record<string, unknown>, (v) => either.safeParse(v).success)).toEqual({ id: 'Example id' });
    expect(exampleOf({ type: 'string', format: 'email' })).toBe('buyer@example.com');
    expect(exampleOf({ type: 'integer', minimum: 5, maximum: 3 })).toBe(3);
  });

  it('every JSON body in the served contract carries an example its own operation accepts as it is', () => {
    const spec = buildOpenApi(APP.apiOperations, 'http://localhost') as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { example?: unknown }> } }>>;
    };
    const missing: string[] = [];
    for (const operation of APP.apiOperations.filter((o) => o.body)) {
      const json = spec.paths[operation.path.replace(/\{(\w+)\+\}/g, '{$1}')]?.[operation.method.toLowerCase()]?.requestBody?.content['application/json'];
      if (!json) continue;
      if (json.example === undefined || !operation.body!.safeParse(json.example).success) missing.push(`${operation.method} ${operation.path}`);
    }
    expect(missing).toEqual([]);
  });
});
