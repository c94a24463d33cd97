/**
 * The floor of `npm run bench`, in its own process: a bare Node HTTP server whose routes each make
 * one bare DynamoDB call with the SDK's document client on the same DynamoDB Local and table as the
 * runtime under test, over copies of the very items the API reads and writes. Load hits it with
 * the same autocannon settings, so an API figure over its floor is the cost of everything else.
 *
 *   tsx test/bench/floor-server.ts '<json: { endpoint, table, getKey, queryPk, item }>'
 * prints `listening <port>` once ready.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';

const { endpoint, table, getKey, queryPk, item } = JSON.parse(process.argv[2]!) as {
  endpoint: string;
  table: string;
  getKey: Record<string, string>;
  queryPk: string;
  item: Record<string, unknown>;
};
const client = DynamoDBDocumentClient.from(
  new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  {
    marshallOptions: { removeUndefinedValues: true },
  },
);

let n = 0;
const copy = (sk: string) => ({ ...item, PK: 'FLOOR#writes', SK: sk, GSI1PK: undefined, GSI1SK: undefined, GSI2PK: undefined, GSI2SK: undefined });

const routes: Record<string, () => Promise<unknown>> = {
  '/noop': async () => ({ ok: true }),
  '/get': async () => (await client.send(new GetCommand({ TableName: table, Key: getKey }))).Item,
  '/query20': async () =>
    (
      await client.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': queryPk },
          Limit: 20,
          ScanIndexForward: false,
        }),
      )
    ).Items,
  '/put': async () => client.send(new PutCommand({ TableName: table, Item: copy(`p${process.pid}-${n++}`), ConditionExpression: 'attribute_not_exists(PK)' })),
  '/transact': async () =>
    client.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: table, Item: copy(`t${process.pid}-${n}`), ConditionExpression: 'attribute_not_exists(PK)' } },
          { Put: { TableName: table, Item: copy(`e${process.pid}-${n++}`) } },
        ],
      }),
    ),
};

const server = createServer((request, response) => {
  const route = routes[request.url ?? ''];
  request.resume();
  if (!route) return void response.writeHead(404).end();
  route().then(
    (out) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out ?? {})),
    (error) => response.writeHead(500).end(String(error)),
  );
});
server.keepAliveTimeout = 60_000;
// Stopped with SIGTERM: exit normally so that `--cpu-prof` writes its profile.
process.on('SIGTERM', () => process.exit(0));
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
