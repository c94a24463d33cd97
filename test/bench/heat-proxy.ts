import { BatchGetItemCommand, type BatchGetItemCommandOutput, DynamoDBClient, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TABLE } from '../../shared/store/table';

/**
 * A proxy between the runtime and DynamoDB Local that records the write units every write lands
 * on each partition (table and index partitions), for the partition-heat run of `npm run bench`.
 *
 * DynamoDB prices a write at one unit per started KiB of the larger of the item before and after
 * (two in a transaction, condition checks included), and each index whose key the item carries
 * (before or after) one more write of the item's size (the table projects every attribute). The
 * proxy reads each written key's image before and after the request, with its own client that
 * bypasses it, and charges those units to the partition key of the table and of each index.
 *
 * What it does not model: a write that races with another on the same item between the proxy's
 * reads (charged from the images it read); failed conditional writes are charged one unit per item,
 * as DynamoDB does; PartiQL writes are counted apart (`partiqlStatements`), not attributed.
 */
export interface HeatProxy {
  endpoint: string;
  /** Units per partition since the last reset, as `table:<PK>` or `<index>:<GSI PK>`. */
  units(): Map<string, number>;
  /** Units per entity (the item's `entity` attribute, table and index writes together) since the last reset. */
  entityUnits(): Map<string, number>;
  /** Per entity since the last reset: table writes, of which in a transaction, and the largest item (bytes). */
  entityWrites(): Map<string, { writes: number; transactional: number; maxBytes: number }>;
  partiqlStatements(): number;
  reset(): void;
  stop(): Promise<void>;
}

type Item = Record<string, AttributeValue>;
type Written = { key: Item; item?: Item; transactional: boolean };

const KIB = 1024;

/** DynamoDB's item size: attribute names plus values (numbers about one byte per two digits). */
export function itemSize(item: Item | undefined): number {
  if (!item) return 0;
  let size = 0;
  for (const [name, value] of Object.entries(item)) size += Buffer.byteLength(name) + valueSize(value);
  return size;
}

function valueSize(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S);
  if (value.N !== undefined) return Math.ceil(value.N.replace(/^-|\.|e.*$/gi, '').length / 2) + 1;
  // On the wire a binary is base64 text; DynamoDB bills its bytes.
  if (value.B !== undefined) return typeof (value.B as unknown) === 'string' ? Buffer.from(value.B as unknown as string, 'base64').length : value.B.length;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS) return value.SS.reduce((n, s) => n + Buffer.byteLength(s), 0);
  if (value.NS) return value.NS.reduce((n, s) => n + Math.ceil(s.length / 2) + 1, 0);
  if (value.L) return 3 + value.L.reduce((n, v) => n + 1 + valueSize(v), 0);
  if (value.M) return 3 + Object.entries(value.M).reduce((n, [k, v]) => n + 1 + Buffer.byteLength(k) + valueSize(v), 0);
  return 1;
}

const units = (bytes: number) => Math.max(1, Math.ceil(bytes / KIB));
const keyOf = (item: Item): Item => ({ [TABLE.partitionKey]: item[TABLE.partitionKey]!, [TABLE.sortKey]: item[TABLE.sortKey]! });
const id = (key: Item) => `${key[TABLE.partitionKey]?.S}\u0000${key[TABLE.sortKey]?.S}`;

/** The keys a write request touches (PartiQL apart). */
function writtenKeys(operation: string, body: Record<string, any>): Written[] {
  switch (operation) {
    case 'PutItem':
      return [{ key: keyOf(body.Item), item: body.Item, transactional: false }];
    case 'UpdateItem':
    case 'DeleteItem':
      return [{ key: body.Key, transactional: false }];
    case 'BatchWriteItem':
      return Object.values(body.RequestItems as Record<string, any[]>)
        .flat()
        .map((request) =>
          request.PutRequest
            ? { key: keyOf(request.PutRequest.Item), item: request.PutRequest.Item, transactional: false }
            : { key: request.DeleteRequest.Key, transactional: false },
        );
    case 'TransactWriteItems':
      return (body.TransactItems as any[]).map((entry) => {
        if (entry.Put) return { key: keyOf(entry.Put.Item), item: entry.Put.Item, transactional: true };
        const part = entry.Update ?? entry.Delete ?? entry.ConditionCheck;
        return { key: part.Key, transactional: true };
      });
    default:
      return [];
  }
}

export async function startHeatProxy(target: string): Promise<HeatProxy> {
  const reader = new DynamoDBClient({ endpoint: target, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  let tableName = '';
  let heat = new Map<string, number>();
  let byEntity = new Map<string, number>();
  let writes = new Map<string, { writes: number; transactional: number; maxBytes: number }>();
  const count = (name: string, transactional: boolean, bytes: number) => {
    const seen = writes.get(name) ?? { writes: 0, transactional: 0, maxBytes: 0 };
    writes.set(name, { writes: seen.writes + 1, transactional: seen.transactional + (transactional ? 1 : 0), maxBytes: Math.max(seen.maxBytes, bytes) });
  };
  let partiql = 0;
  let entity = '';
  const charge = (partition: string, n: number) => {
    heat.set(partition, (heat.get(partition) ?? 0) + n);
    byEntity.set(entity, (byEntity.get(entity) ?? 0) + n);
  };

  const images = async (keys: Item[]): Promise<Map<string, Item>> => {
    const found = new Map<string, Item>();
    const unique = [...new Map(keys.map((key) => [id(key), key])).values()];
    for (let i = 0; i < unique.length; i += 100) {
      let pending: Item[] | undefined = unique.slice(i, i + 100);
      while (pending?.length) {
        const out: BatchGetItemCommandOutput = await reader.send(
          new BatchGetItemCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }),
        );
        for (const item of out.Responses?.[tableName] ?? []) found.set(id(item), item);
        pending = out.UnprocessedKeys?.[tableName]?.Keys;
      }
    }
    return found;
  };

  const settle = (written: Written[], before: Map<string, Item>, after: Map<string, Item>, succeeded: boolean) => {
    for (const write of written) {
      const factor = write.transactional ? 2 : 1;
      const pk = write.key[TABLE.partitionKey]!.S!;
      const old = before.get(id(write.key));
      const now = after.get(id(write.key));
      entity = (now ?? old ?? write.item)?.entity?.S ?? '(no entity)';
      if (!succeeded) {
        entity = `${entity} (failed condition)`;
        charge(`table:${pk}`, factor);
        continue;
      }
      const size = Math.max(itemSize(old), itemSize(now));
      count(entity, write.transactional, size);
      charge(`table:${pk}`, factor * units(size));
      for (const index of TABLE.indexes) {
        const oldKey = old?.[index.partitionKey]?.S;
        const newKey = now?.[index.partitionKey]?.S;
        if (newKey) charge(`${index.name}:${newKey}`, units(oldKey === newKey ? size : itemSize(now)));
        if (oldKey && oldKey !== newKey) charge(`${index.name}:${oldKey}`, units(itemSize(old)));
      }
    }
  };

  const server: Server = createServer(async (request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const operation = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    let written: Written[] = [];
    let before = new Map<string, Item>();
    try {
      const body = raw.length ? JSON.parse(raw.toString('utf8')) : {};
      if (operation === 'ExecuteStatement') partiql++;
      if (operation === 'BatchExecuteStatement') partiql += body.Statements?.length ?? 0;
      written = writtenKeys(operation, body);
      if (written.length) {
        tableName ||= body.TableName ?? Object.keys(body.RequestItems ?? {})[0] ?? body.TransactItems?.[0]?.[Object.keys(body.TransactItems[0])[0]!]?.TableName;
        before = await images(written.map((w) => w.key));
      }
    } catch {
      written = [];
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers))
      if (name !== 'host' && name !== 'content-length' && typeof value === 'string') headers[name] = value;
    try {
      const answer = await fetch(`${target}${request.url ?? '/'}`, { method: request.method, headers, body: raw.length ? raw : undefined });
      const text = Buffer.from(await answer.arrayBuffer());
      if (written.length) {
        const succeeded = answer.status === 200;
        let done = written;
        if (succeeded && operation === 'BatchWriteItem') {
          const left = new Set(
            Object.values((JSON.parse(text.toString('utf8')).UnprocessedItems ?? {}) as Record<string, any[]>)
              .flat()
              .map((r) => id(r.PutRequest ? keyOf(r.PutRequest.Item) : r.DeleteRequest.Key)),
          );
          done = written.filter((w) => !left.has(id(w.key)));
        }
        settle(done, before, succeeded ? await images(done.map((w) => w.key)) : new Map(), succeeded);
      }
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection') out[name] = value;
      });
      response.writeHead(answer.status, out).end(text);
    } catch (error) {
      response.writeHead(502).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    units: () => new Map(heat),
    entityUnits: () => new Map(byEntity),
    entityWrites: () => new Map(writes),
    partiqlStatements: () => partiql,
    reset: () => {
      heat = new Map();
      byEntity = new Map();
      writes = new Map();
      partiql = 0;
    },
    stop: async () => {
      reader.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
