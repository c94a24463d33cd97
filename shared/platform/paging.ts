import * as z from './zod';
import type { QueryPage } from '../store/store';

/**
 * Cursor paging, the same way on every growing list: `limit` and `cursor` in, the page and
 * `nextCursor` (null on the last page) out. The cursor is the store's opaque one (the last key
 * DynamoDB evaluated, valid only for the partition it came from: a forged or foreign one is a 400).
 * A list whose answer the spec shapes as a bare array carries it in the `X-Next-Cursor` header
 * (and a `Link: <…>; rel="next"`) instead.
 */

/** `limit` (1..max, default `fallback`) and `cursor` of a list's query. */
export const pageQuery = (fallback: number, max: number) => ({
  limit: z
    ._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(max)), fallback)
    .check(z.describe(`Rows per page, at most ${max} (default ${fallback})`)),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2000))).check(z.describe('`nextCursor` of the previous page')),
});

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Rounds a filtered page may read before it answers short (with the cursor where it stopped). */
const MAX_ROUNDS = 10;

/**
 * One page of at most `limit` items. Without a filter that is one query; with one (DynamoDB
 * filters after its Limit) it reads again from where the last read stopped, asking only for what
 * is still missing, so the cursor is always exactly after the last item answered. After
 * MAX_ROUNDS reads it answers what it found, fewer than `limit`, with a cursor to go on.
 */
export async function collectPage<T>(
  read: (limit: number, cursor: string | undefined) => Promise<QueryPage<T>>,
  limit: number,
  cursor?: string,
): Promise<Page<T>> {
  const items: T[] = [];
  let next = cursor;
  for (let round = 0; round < MAX_ROUNDS && items.length < limit; round++) {
    const page = await read(limit - items.length, next);
    items.push(...page.items);
    next = page.cursor;
    if (!next) break;
  }
  return { items, nextCursor: next ?? null };
}

/** Headers of an array-shaped page: the cursor, and the next page's address in `Link`. */
export function nextPageHeaders(
  nextCursor: string | null,
  request: { baseUrl: string; path: string },
  query: Record<string, string | number | undefined>,
): Record<string, string> {
  if (!nextCursor) return {};
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && name !== 'cursor') params.set(name, String(value));
  params.set('cursor', nextCursor);
  return { 'x-next-cursor': nextCursor, link: `<${request.baseUrl}${request.path}?${params}>; rel="next"` };
}
