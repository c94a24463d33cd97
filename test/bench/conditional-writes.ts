/**
 * What a write costs DynamoDB Local by shape, per item: `npx tsx test/bench/conditional-writes.ts`.
 * The import's email claim must be conditional (one contact per address while the API, forms and
 * checkouts create contacts at the same time), and the imports goal compares the import with
 * bare batched puts. This prints, for the same small items on a fresh DynamoDB Local, items a
 * second and the CPU of DynamoDB Local (from /proc) and of this process per item, for a bare
 * BatchWriteItem and for every API that can make a conditional write. Two turns: the first warms
 * the JVM, the second is the figure (docs/performance.md, imports).
 */
import { readFileSync } from 'node:fs';
import {
  BatchExecuteStatementCommand,
  BatchWriteItemCommand,
  CreateTableCommand,
  DynamoDBClient,
  PutItemCommand,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { startDynamoDbLocal } from '../../shared/local/dynamodb';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const TABLE = 'conditional_writes';

const dynamo = await startDynamoDbLocal();
const client = new DynamoDBClient({ region: 'us-east-1', endpoint: dynamo.endpoint, credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
await client.send(
  new CreateTableCommand({
    TableName: TABLE,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: 'PK', AttributeType: 'S' },
      { AttributeName: 'SK', AttributeType: 'S' },
    ],
    KeySchema: [
      { AttributeName: 'PK', KeyType: 'HASH' },
      { AttributeName: 'SK', KeyType: 'RANGE' },
    ],
  }),
);
const dynamoCpuMs = () => {
  const fields = readFileSync(`/proc/${dynamo.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
/** An email claim as the import writes it (16 partitions, as the write shards). */
const claim = (run: string, i: number) => ({
  PK: { S: `${run}#U#CONTACT_EMAIL#${i % 16}` },
  SK: { S: `user${i}@example.com` },
  contactId: { S: `c${i}` },
  entity: { S: 'ContactEmail' },
});
const ifNew = 'attribute_not_exists(PK)';

const shapes: { name: string; perCall: number; inFlight: number; call: (run: string, first: number) => Promise<unknown> }[] = [
  {
    name: 'BatchWriteItem, 25 puts (bare)',
    perCall: 25,
    inFlight: 8,
    call: (run, first) =>
      client.send(
        new BatchWriteItemCommand({ RequestItems: { [TABLE]: Array.from({ length: 25 }, (_, k) => ({ PutRequest: { Item: claim(run, first + k) } })) } }),
      ),
  },
  {
    name: 'BatchExecuteStatement, 25 INSERTs (conditional)',
    perCall: 25,
    inFlight: 8,
    call: (run, first) =>
      client.send(
        new BatchExecuteStatementCommand({
          Statements: Array.from({ length: 25 }, (_, k) => {
            const item = claim(run, first + k);
            return {
              Statement: `INSERT INTO "${TABLE}" VALUE {'PK': ?, 'SK': ?, 'contactId': ?, 'entity': ?}`,
              Parameters: [item.PK, item.SK, item.contactId, item.entity],
            };
          }),
        }),
      ),
  },
  {
    name: 'TransactWriteItems, 100 conditional puts',
    perCall: 100,
    inFlight: 4,
    call: (run, first) =>
      client.send(
        new TransactWriteItemsCommand({
          TransactItems: Array.from({ length: 100 }, (_, k) => ({ Put: { TableName: TABLE, Item: claim(run, first + k), ConditionExpression: ifNew } })),
        }),
      ),
  },
  {
    name: 'PutItem, conditional',
    perCall: 1,
    inFlight: 32,
    call: (run, first) => client.send(new PutItemCommand({ TableName: TABLE, Item: claim(run, first), ConditionExpression: ifNew })),
  },
  {
    name: 'PutItem, bare',
    perCall: 1,
    inFlight: 32,
    call: (run, first) => client.send(new PutItemCommand({ TableName: TABLE, Item: claim(run, first) })),
  },
];

let runs = 0;
async function measure(shape: (typeof shapes)[number]) {
  const run = `r${runs++}`;
  const calls = ITEMS / shape.perCall;
  const dynamoBefore = dynamoCpuMs();
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: shape.inFlight }, async () => {
      while (next < calls) await shape.call(run, shape.perCall * next++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const own = process.cpuUsage(ownBefore);
  return {
    shape: shape.name,
    'items/s': Math.round(ITEMS / seconds),
    'DynamoDB Local µs/item': Math.round(((dynamoCpuMs() - dynamoBefore) * 1000) / ITEMS),
    'client µs/item': Math.round((own.user + own.system) / ITEMS),
  };
}

try {
  for (const shape of shapes) await measure(shape); // warm-up turn
  const rows = [];
  for (const shape of shapes) rows.push(await measure(shape));
  console.table(rows);
} finally {
  client.destroy();
  await dynamo.stop();
}
