import {
  BatchExecuteStatementCommand,
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException, TransactionCanceledException, type ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { recordCapacity, type CapacityMeter } from './capacity';
import { KEY_ATTRIBUTES, type Key } from './keys';
import { buildUpdate, decodeCursor, encodeCursor, mergeValues } from './expressions';
import { singleWriteCommand } from './single-write';
import { TABLE } from './table';
import type { BatchWriteRequest, Item, QueryOptions, QueryPage, TransactOp, WriteCompanion } from './types';

export type { BatchWriteRequest, Item, QueryOptions, QueryPage, TransactOp, WriteCompanion } from './types';

/** Thrown when a conditional write or a transaction's condition fails. */
const TRANSACTION_CONFLICT_TRIES = 8;
/** Per-statement errors of BatchExecuteStatement worth sending again. */
const RETRIED_STATEMENT_ERRORS = new Set([
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
  'RequestLimitExceeded',
  'TransactionConflict',
  'InternalServerError',
]);

export class ConditionFailed extends Error {
  constructor(readonly reasons: (string | undefined)[] = []) {
    super('Condition failed');
    this.name = 'ConditionFailed';
  }
}

/** Strips key attributes so repositories hand domain records, never raw items, to services. */
export function toRecord<T>(item: Item | undefined): T | undefined {
  if (!item) return undefined;
  const out: Item = {};
  for (const [name, value] of Object.entries(item)) if (!KEY_ATTRIBUTES.includes(name)) out[name] = value;
  return out as T;
}

/**
 * The small data-access layer every repository uses: conditional writes, transactions, cursor and
 * page pagination. It speaks items and keys; repositories turn them into domain records.
 */
export class Store {
  /** Capacity units this store has consumed since it was made (the local runtime reports it). */
  readonly totals = { read: 0, write: 0 };
  /** Told after each write (the local runtime wakes its stream reader, so an event waits for no poll). */
  afterWrite?: () => void;

  /** The store itself, whichever request's view it is reached through: the key of per-container caches. */
  readonly base: Store = this;
  /** The request's meter and write companion (set on a request's view only). */
  protected meter?: CapacityMeter;
  protected companion?: WriteCompanion;

  constructor(
    readonly client: DynamoDBDocumentClient,
    readonly tableName: string,
  ) {}

  /**
   * A view of this store for one request: the same client, totals and listeners, with the
   * request's capacity meter and write companion (`companion: undefined` drops an inherited one).
   */
  forRequest(parts: { meter?: CapacityMeter; companion?: WriteCompanion }): Store {
    const view = Object.create(this) as Store;
    if ('meter' in parts) view.meter = parts.meter;
    if ('companion' in parts) view.companion = parts.companion;
    return view;
  }

  private consumed(kind: 'read' | 'write', capacity: ConsumedCapacity | ConsumedCapacity[] | undefined) {
    if (this.meter) recordCapacity(this.meter, kind, capacity);
    for (const entry of [capacity ?? []].flat()) this.totals[kind] += entry.CapacityUnits ?? 0;
    if (kind === 'write') this.afterWrite?.();
  }

  async get<T = Item>(key: Key, options: { consistent?: boolean } = {}): Promise<T | undefined> {
    const out = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: options.consistent, ReturnConsumedCapacity: 'TOTAL' }),
    );
    this.consumed('read', out.ConsumedCapacity);
    return out.Item as T | undefined;
  }

  /** BatchGetItem in calls of 100 keys, up to 4 in flight; items come back in no particular order. */
  async batchGet<T = Item>(keyList: Key[]): Promise<T[]> {
    const results: T[] = [];
    const chunks: Key[][] = [];
    for (let i = 0; i < keyList.length; i += 100) chunks.push(keyList.slice(i, i + 100));
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(4, chunks.length) }, async () => {
        while (next < chunks.length) {
          let pending: Record<string, unknown>[] | undefined = chunks[next++];
          while (pending && pending.length) {
            const out = await this.client.send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: pending } }, ReturnConsumedCapacity: 'TOTAL' }));
            this.consumed('read', out.ConsumedCapacity);
            results.push(...((out.Responses?.[this.tableName] ?? []) as T[]));
            pending = out.UnprocessedKeys?.[this.tableName]?.Keys as Record<string, unknown>[] | undefined;
          }
        }
      }),
    );
    return results;
  }

  /**
   * Unconditional puts in BatchWriteItem calls of 25, `concurrency` calls in flight; unprocessed
   * items are sent again after a jittered pause. No conditions and no atomicity: for bulk writes
   * whose items are already guarded some other way (imports, seeding).
   */
  async batchPut(items: Item[], concurrency = 8): Promise<void> {
    await this.batchWrite(
      items.map((Item) => ({ PutRequest: { Item } })),
      concurrency,
    );
  }

  /** Puts and deletes as `batchPut` sends them: calls of 25, unprocessed requests sent again. */
  async batchWrite(requests: BatchWriteRequest[], concurrency = 8): Promise<void> {
    const chunks: BatchWriteRequest[][] = [];
    for (let i = 0; i < requests.length; i += 25) chunks.push(requests.slice(i, i + 25));
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, chunks.length) }, async () => {
        while (next < chunks.length) {
          let pending = chunks[next++]!;
          while (pending.length) {
            const out = await this.client.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: pending }, ReturnConsumedCapacity: 'TOTAL' }));
            this.consumed('write', out.ConsumedCapacity);
            pending = (out.UnprocessedItems?.[this.tableName] ?? []) as BatchWriteRequest[];
            if (pending.length) await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
          }
        }
      }),
    );
  }

  /**
   * PartiQL statements in BatchExecuteStatement calls of 25, `concurrency` calls in flight. Each
   * statement stands alone (no atomicity between them): the answer says, per statement, whether it
   * applied (false: its WHERE condition failed, e.g. a version check). Throttled statements are
   * sent again after a jittered pause; any other error is thrown. For many independent
   * conditional updates where one call per item would cost too much.
   */
  async batchStatements(statements: { statement: string; parameters: unknown[] }[], concurrency = 8): Promise<boolean[]> {
    const applied: boolean[] = new Array(statements.length).fill(false);
    const chunks: number[][] = [];
    for (let i = 0; i < statements.length; i += 25) chunks.push(Array.from({ length: Math.min(25, statements.length - i) }, (_, k) => i + k));
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, chunks.length) }, async () => {
        while (next < chunks.length) {
          let pending = chunks[next++]!;
          for (let attempt = 1; pending.length; attempt++) {
            const out = await this.client.send(
              new BatchExecuteStatementCommand({
                Statements: pending.map((i) => ({ Statement: statements[i]!.statement, Parameters: statements[i]!.parameters })),
                ReturnConsumedCapacity: 'TOTAL',
              }),
            );
            this.consumed('write', out.ConsumedCapacity);
            const again: number[] = [];
            (out.Responses ?? []).forEach((response, k) => {
              const code = response.Error?.Code;
              if (!code) applied[pending[k]!] = true;
              // DuplicateItem: an INSERT whose key exists (its implicit condition failed).
              else if (code === 'ConditionalCheckFailed' || code === 'DuplicateItem') applied[pending[k]!] = false;
              else if (RETRIED_STATEMENT_ERRORS.has(code) && attempt < TRANSACTION_CONFLICT_TRIES) again.push(pending[k]!);
              else throw new Error(`${code}: ${response.Error?.Message ?? 'statement failed'}`);
            });
            pending = again;
            if (pending.length) await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100));
          }
        }
      }),
    );
    return applied;
  }

  /** Put; `ifNotExists` makes it a create that fails with ConditionFailed when the key is taken. */
  async put(item: Item, options: { ifNotExists?: boolean; condition?: string; names?: Record<string, string>; values?: Record<string, unknown> } = {}) {
    const condition = options.ifNotExists ? 'attribute_not_exists(PK)' : options.condition;
    try {
      const out = await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: item,
          ConditionExpression: condition,
          ExpressionAttributeNames: options.names,
          ExpressionAttributeValues: options.values,
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      this.consumed('write', out.ConsumedCapacity);
      this.companion?.wrote();
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) throw new ConditionFailed();
      throw error;
    }
  }

  /** Updates named fields; returns the whole item after the update. */
  async update<T = Item>(
    key: Key,
    /** `add`: a number adds to a number; a set of strings joins a string set (DynamoDB ADD). */
    change: { set?: Record<string, unknown>; remove?: string[]; add?: Record<string, number | Set<string>> },
    options: { condition?: string; names?: Record<string, string>; values?: Record<string, unknown>; mustExist?: boolean } = {},
  ): Promise<T> {
    const update = buildUpdate(change.set ?? {}, change.remove, change.add);
    const conditions = [options.mustExist ? 'attribute_exists(PK)' : undefined, options.condition].filter(Boolean);
    try {
      const out = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: update.expression,
          ConditionExpression: conditions.length ? conditions.map((c) => `(${c})`).join(' AND ') : undefined,
          ExpressionAttributeNames: { ...update.names, ...(options.names ?? {}) },
          ExpressionAttributeValues: mergeValues(update.values, options.values),
          ReturnValues: 'ALL_NEW',
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      this.consumed('write', out.ConsumedCapacity);
      this.companion?.wrote();
      return out.Attributes as T;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) throw new ConditionFailed();
      throw error;
    }
  }

  async delete(key: Key, options: { condition?: string; names?: Record<string, string>; values?: Record<string, unknown> } = {}): Promise<Item | undefined> {
    try {
      const out = await this.client.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: key,
          ConditionExpression: options.condition,
          ExpressionAttributeNames: options.names,
          ExpressionAttributeValues: options.values,
          ReturnValues: 'ALL_OLD',
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      this.consumed('write', out.ConsumedCapacity);
      this.companion?.wrote();
      return out.Attributes;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) throw new ConditionFailed();
      throw error;
    }
  }

  /**
   * All-or-nothing writes: a state change and the outbox event it causes go through here together.
   * A failed condition raises ConditionFailed with the per-operation reasons.
   */
  async transact(ops: TransactOp[], token?: string): Promise<void> {
    if (ops.length === 0) return;
    if (ops.length > 100) throw new Error('A transaction holds at most 100 operations');
    // The request's companion writes (its activity entry) ride along when there is room.
    const companion = this.companion;
    const extra = companion?.pending(ops) ?? [];
    const carried = extra.length > 0 && ops.length + extra.length <= 100 && !token;
    const items = (carried ? [...ops, ...extra] : ops).map((op) => {
      if ('put' in op) {
        return {
          Put: {
            TableName: this.tableName,
            Item: op.put,
            ConditionExpression: op.condition,
            ExpressionAttributeNames: op.names,
            ExpressionAttributeValues: op.values,
          },
        };
      }
      if ('update' in op) {
        const update = buildUpdate(op.set, op.remove, op.add);
        return {
          Update: {
            TableName: this.tableName,
            Key: op.update,
            UpdateExpression: update.expression,
            ConditionExpression: op.condition,
            ExpressionAttributeNames: { ...update.names, ...(op.names ?? {}) },
            ExpressionAttributeValues: mergeValues(update.values, op.values),
          },
        };
      }
      if ('delete' in op) {
        return {
          Delete: {
            TableName: this.tableName,
            Key: op.delete,
            ConditionExpression: op.condition,
            ExpressionAttributeNames: op.names,
            ExpressionAttributeValues: op.values,
          },
        };
      }
      return {
        ConditionCheck: {
          TableName: this.tableName,
          Key: op.check,
          ConditionExpression: op.condition,
          ExpressionAttributeNames: op.names,
          ExpressionAttributeValues: op.values,
        },
      };
    });
    // One write alone is as atomic outside a transaction, and billed half (single-write.ts).
    const single = items.length === 1 && !token ? singleWriteCommand(items[0]!) : undefined;
    if (single) {
      try {
        this.consumed('write', (await this.client.send(single)).ConsumedCapacity);
        companion?.wrote();
        return;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) throw new ConditionFailed(['ConditionalCheckFailed']);
        throw error;
      }
    }
    for (let attempt = 1; ; attempt++) {
      try {
        const out = await this.client.send(new TransactWriteCommand({ TransactItems: items, ClientRequestToken: token, ReturnConsumedCapacity: 'TOTAL' }));
        this.consumed('write', out.ConsumedCapacity);
        if (carried) companion!.committed();
        else companion?.wrote();
        return;
      } catch (error) {
        if (error instanceof TransactionCanceledException) {
          const reasons = error.CancellationReasons?.map((r) => r.Code) ?? [];
          if (reasons.includes('ConditionalCheckFailed')) throw new ConditionFailed(reasons);
          // Another transaction held one of the items: nothing was written, so trying again (after
          // a jittered pause) is safe; the conditions decide once the other one is done.
          if (reasons.includes('TransactionConflict') && attempt < TRANSACTION_CONFLICT_TRIES) {
            await new Promise((r) => setTimeout(r, Math.random() * 20 * 2 ** attempt));
            continue;
          }
        }
        throw error;
      }
    }
  }

  /** One page of a partition, with an opaque cursor for the next. */
  async query<T = Item>(options: QueryOptions): Promise<QueryPage<T>> {
    const index = options.index ? TABLE.indexes.find((i) => i.name === options.index)! : undefined;
    const pkAttribute = index ? index.partitionKey : TABLE.partitionKey;
    const skAttribute = index ? index.sortKey : TABLE.sortKey;
    const names: Record<string, string> = { '#pk': pkAttribute, ...(options.filter?.names ?? {}) };
    const values: Record<string, unknown> = { ':pk': options.pk, ...(options.filter?.values ?? {}) };
    let condition = '#pk = :pk';
    if (options.beginsWith !== undefined) {
      names['#sk'] = skAttribute;
      values[':skp'] = options.beginsWith;
      condition += ' AND begins_with(#sk, :skp)';
    } else if (options.between) {
      names['#sk'] = skAttribute;
      values[':ska'] = options.between[0];
      values[':skb'] = options.between[1];
      condition += ' AND #sk BETWEEN :ska AND :skb';
    } else if (options.after !== undefined) {
      names['#sk'] = skAttribute;
      values[':ska'] = options.after;
      condition += ' AND #sk > :ska';
    } else if (options.before !== undefined) {
      names['#sk'] = skAttribute;
      values[':skb'] = options.before;
      condition += ' AND #sk < :skb';
    }
    const input: QueryCommandInput = {
      TableName: this.tableName,
      IndexName: options.index,
      KeyConditionExpression: condition,
      FilterExpression: options.filter?.expression,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: options.ascending ?? false,
      ConsistentRead: options.consistent,
      Limit: options.limit,
      ExclusiveStartKey: options.cursor ? decodeCursor(options.cursor, pkAttribute, options.pk) : undefined,
      ReturnConsumedCapacity: 'TOTAL',
    };
    const items: T[] = [];
    let lastKey: Item | undefined;
    // With a filter, DynamoDB may return short pages; keep reading until the page is full.
    do {
      const out = await this.client.send(new QueryCommand(input));
      this.consumed('read', out.ConsumedCapacity);
      items.push(...((out.Items ?? []) as T[]));
      lastKey = out.LastEvaluatedKey;
      input.ExclusiveStartKey = lastKey;
      if (options.limit) input.Limit = options.limit - items.length;
    } while (lastKey && (!options.limit || items.length < options.limit) && options.filter);
    return { items, cursor: lastKey ? encodeCursor(lastKey) : undefined };
  }

  /** Every item of a partition (bounded collections only: a tenant's webhooks, a job's files). */
  async queryAll<T = Item>(options: Omit<QueryOptions, 'limit' | 'cursor'>): Promise<T[]> {
    const all: T[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.query<T>({ ...options, cursor, limit: 1000 });
      all.push(...page.items);
      cursor = page.cursor;
    } while (cursor);
    return all;
  }

  /**
   * Page/pageSize pagination for the list endpoints that the spec defines that way. Reads the
   * partition's keys up to the requested page; fine for the per-tenant collection sizes involved,
   * and the total comes for free.
   */
  async queryPage<T = Item>(
    options: Omit<QueryOptions, 'limit' | 'cursor'>,
    page: number,
    pageSize: number,
  ): Promise<{ items: T[]; total: number; page: number; pageSize: number }> {
    const all = await this.queryAll<T>(options);
    const start = (page - 1) * pageSize;
    return { items: all.slice(start, start + pageSize), total: all.length, page, pageSize };
  }
}
