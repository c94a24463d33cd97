// biome-ignore-all lint/suspicious/noExplicitAny: key templates of every arity share these types; each entity's own arguments are checked where it is declared
/**
 * Keys declared per entity, ElectroDB-style. A repository declares, next to itself (`entities.ts`),
 * each kind of item it stores: the `entity` name and schema version written on every item, the
 * primary key template, the named index keys, and the named access patterns that read it. The key
 * functions are built from keys.ts vocabulary, so the declaration is what builds the keys, not a
 * description beside them.
 *
 * Repositories read only through `entity.get / query / queryAll` with a pattern name: TypeScript
 * refuses a name the entity does not declare, the entity throws on one at run time, and
 * test/infra/access-patterns.test.ts fails when a declared repository reads the store directly.
 * The access-pattern table (access-patterns.ts) is rendered from these declarations
 * (`npx tsx scripts/access-patterns.ts`).
 */
import type { IndexKey, Key, Scope } from './keys';
import { toItem } from './items';
import { readMoving } from './move';
import { toRecord, type Item, type QueryOptions, type QueryPage, type Store } from './store';
import type { IndexName } from './table';

/** A partition to query: a table partition, or one of an index. */
export interface Partition {
  pk: string;
  index?: IndexName;
}

interface PatternBase {
  /** What the pattern answers, as a row of the access-pattern table. */
  summary: string;
  /** Names of the key function's parameters, for the rendered key template (`scope` renders as `<scope>`). */
  args: readonly string[];
  notes?: string;
}

/** One item by its full key. */
export interface GetPattern<A extends unknown[] = any[]> extends PatternBase {
  kind: 'get';
  key: (...args: A) => Key;
  consistent?: boolean;
}

/** Items of one partition, in sort-key order. */
export interface QueryPattern<A extends unknown[] = any[]> extends PatternBase {
  kind: 'query';
  partition: (...args: A) => Partition | string;
  /** Newest first (ids are time-ordered) unless `oldest first`. */
  order?: 'newest first' | 'oldest first';
  /** A sort-key condition or filter the pattern applies, as shown in the table. */
  condition?: string;
}

export type AccessPatternSpec = GetPattern | QueryPattern;

export interface EntityDeclaration<P extends Record<string, AccessPatternSpec> = Record<string, AccessPatternSpec>> {
  /** The item's `entity` attribute. */
  entity: string;
  /** The item's `v` attribute: the record's schema version. */
  version: number;
  /** Who owns it (capability or sub-capability folder), for the table. */
  owner: string;
  /** The primary key template. */
  key: (...args: any[]) => Key;
  keyArgs: readonly string[];
  /** Named secondary index keys written on the item. */
  indexes?: Record<string, { index: IndexName; key: (...args: any[]) => IndexKey; args: readonly string[] }>;
  patterns: P;
  /** TTL and other facts worth a line in the table. */
  notes?: string;
  /** The table row of an entity no pattern reads (a guard, a counter): what writing it is for. */
  summary?: string;
}

type NamesOf<P, K extends AccessPatternSpec['kind']> = { [N in keyof P]: P[N] extends { kind: K } ? N : never }[keyof P] & string;
type GetArgs<P, N extends keyof P> = P[N] extends { key: (...args: infer A) => Key } ? A : never;
type QueryArgs<P, N extends keyof P> = P[N] extends { partition: (...args: infer A) => unknown } ? A : never;
type QueryExtras = Omit<QueryOptions, 'pk' | 'index'>;

export interface Entity<T, P extends Record<string, AccessPatternSpec>> {
  readonly declaration: EntityDeclaration<P>;
  /** The item for a record: its key, declared index keys, `entity` and `v`. */
  item(key: Key, record: object, options?: { indexes?: IndexKey[]; expiresAt?: number }): Item;
  get<N extends NamesOf<P, 'get'>>(store: Store, pattern: N, ...args: GetArgs<P, N>): Promise<T | undefined>;
  /**
   * Across a key-layout change: the record at `pattern`'s key, else at `before`'s (where an earlier
   * release wrote it), which is then moved to `pattern`'s key in one transaction, so the writes by
   * key that follow the read find it. Idempotent: a concurrent move makes this one read the result.
   */
  getMoving<N extends NamesOf<P, 'get'>>(store: Store, pattern: N, before: NamesOf<P, 'get'>, ...args: GetArgs<P, N>): Promise<T | undefined>;
  /** Several items of one get pattern in one BatchGetItem (eventually consistent; missing ones left out, order not kept). */
  getMany<N extends NamesOf<P, 'get'>>(store: Store, pattern: N, argsList: GetArgs<P, N>[]): Promise<T[]>;
  query<N extends NamesOf<P, 'query'>>(store: Store, pattern: N, args: QueryArgs<P, N>, options?: QueryExtras): Promise<QueryPage<T>>;
  queryAll<N extends NamesOf<P, 'query'>>(store: Store, pattern: N, args: QueryArgs<P, N>, options?: Omit<QueryExtras, 'limit' | 'cursor'>): Promise<T[]>;
  /** The table keys of what a query pattern finds (for an index whose items carry no way back to the key). */
  queryKeys<N extends NamesOf<P, 'query'>>(store: Store, pattern: N, args: QueryArgs<P, N>, options?: Omit<QueryExtras, 'limit' | 'cursor'>): Promise<Key[]>;
}

export class UndeclaredAccessPattern extends Error {
  constructor(entity: string, pattern: string, kind: string) {
    super(`${entity}: no ${kind} access pattern named "${pattern}" is declared`);
    this.name = 'UndeclaredAccessPattern';
  }
}

function declared<K extends AccessPatternSpec['kind']>(decl: EntityDeclaration, name: string, kind: K): Extract<AccessPatternSpec, { kind: K }> {
  const pattern = Object.hasOwn(decl.patterns, name) ? decl.patterns[name] : undefined;
  if (!pattern || pattern.kind !== kind) throw new UndeclaredAccessPattern(decl.entity, name, kind);
  return pattern as Extract<AccessPatternSpec, { kind: K }>;
}

function queryOptions(pattern: QueryPattern, args: unknown[], extras: QueryExtras = {}): QueryOptions {
  const partition = pattern.partition(...args);
  const { pk, index } = typeof partition === 'string' ? { pk: partition, index: undefined } : partition;
  return { ascending: pattern.order === 'oldest first', ...extras, pk, ...(index ? { index } : {}) };
}

/** Declares an entity; `defineEntity<RecordType>()({ ... })`. */
export function defineEntity<T>() {
  return <const P extends Record<string, AccessPatternSpec>>(declaration: EntityDeclaration<P>): Entity<T, P> => ({
    declaration,
    item: (key, record, options = {}) => toItem(key, declaration.entity, record, { ...options, version: declaration.version }),
    async get(store, name, ...args) {
      const pattern = declared(declaration, name, 'get');
      return toRecord<T>(await store.get(pattern.key(...args), pattern.consistent ? { consistent: true } : {}));
    },
    async getMoving(store, name, beforeName, ...args) {
      return toRecord<T>(await readMoving(store, declared(declaration, name, 'get').key(...args), declared(declaration, beforeName, 'get').key(...args)));
    },
    async getMany(store, name, argsList) {
      const pattern = declared(declaration, name, 'get');
      if (!argsList.length) return [];
      return (await store.batchGet(argsList.map((args) => pattern.key(...(args as unknown[]))))).map((item) => toRecord<T>(item)!);
    },
    async query(store, name, args, options) {
      const page = await store.query(queryOptions(declared(declaration, name, 'query'), args as unknown[], options));
      return { items: page.items.map((item) => toRecord<T>(item)!), cursor: page.cursor };
    },
    async queryAll(store, name, args, options) {
      const items = await store.queryAll(queryOptions(declared(declaration, name, 'query'), args as unknown[], options));
      return items.map((item) => toRecord<T>(item)!);
    },
    async queryKeys(store, name, args, options) {
      const items = await store.queryAll(queryOptions(declared(declaration, name, 'query'), args as unknown[], options));
      return items.map((item) => ({ PK: item.PK as string, SK: item.SK as string }));
    },
  });
}

/** True for what defineEntity returns (the table renderer collects these from entities.ts files). */
export const isEntity = (value: unknown): value is Entity<unknown, Record<string, AccessPatternSpec>> =>
  typeof value === 'object' && value !== null && 'declaration' in value && typeof (value as { get?: unknown }).get === 'function';

// ---- rendering the access-pattern table ----

const SCOPE_SAMPLE: Scope = { accountId: '<accountId>', mode: '<mode>' as Scope['mode'] };

function render(fn: (...args: any[]) => unknown, args: readonly string[]): unknown {
  const sample = args.map((name) => (name === 'scope' ? SCOPE_SAMPLE : `<${name}>`));
  return fn(...sample);
}

const clean = (text: string) => text.replaceAll('A#<accountId>#<mode>', '<scope>').replace(/0+</g, '<');

function renderKey(key: Record<string, string>): string {
  return Object.entries(key)
    .map(([attribute, value]) => `${attribute}=${clean(value)}`)
    .join(', ');
}

export interface AccessPatternRow {
  name: string;
  key: string;
  index: 'table' | IndexName;
  notes?: string;
  /** Where it is declared (entity and owner); absent for rows not yet declared. */
  declaredBy?: string;
}

/** The table rows an entity's declaration stands for, in declaration order. */
export function accessPatternRows(decl: EntityDeclaration): AccessPatternRow[] {
  if (Object.keys(decl.patterns).length === 0) {
    return decl.summary
      ? [
          {
            name: decl.summary,
            key: keyTemplate(decl),
            index: 'table',
            ...(decl.notes ? { notes: decl.notes } : {}),
            declaredBy: `${decl.owner} ${decl.entity} v${decl.version} (written, not read)`,
          },
        ]
      : [];
  }
  return Object.entries(decl.patterns).map(([name, pattern]) => {
    let key: string;
    let index: 'table' | IndexName = 'table';
    if (pattern.kind === 'get') {
      key = renderKey(render(pattern.key, pattern.args) as Key);
    } else {
      const rendered = render(pattern.partition, pattern.args) as Partition | string;
      const partition = typeof rendered === 'string' ? { pk: rendered } : rendered;
      index = partition.index ?? 'table';
      key = `${partition.index ? `${partition.index}PK` : 'PK'}=${clean(partition.pk)}`;
      if (pattern.order === 'oldest first') key += ', ScanIndexForward=true';
      if (pattern.condition) key += `, ${pattern.condition}`;
    }
    const notes = [pattern.notes, decl.notes].filter(Boolean).join('; ');
    return { name: pattern.summary, key, index, ...(notes ? { notes } : {}), declaredBy: `${decl.owner} ${decl.entity} v${decl.version} .${name}` };
  });
}

/** The entity's primary key and index templates, rendered (`PK=<scope>#DISCOUNT, SK=<id>`). */
export function keyTemplate(decl: EntityDeclaration): string {
  const parts = [renderKey(render(decl.key, decl.keyArgs) as Key)];
  for (const index of Object.values(decl.indexes ?? {})) parts.push(renderKey(render(index.key, index.args) as IndexKey));
  return parts.join('; ');
}
