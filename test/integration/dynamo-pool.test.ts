import { CreateTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { DynamoPool, servePool } from '../support/dynamo-pool';

// The test run's own pool of DynamoDB Locals (test/support/dynamo-pool.ts): a file waits for a
// free instance, and one that has served its files is replaced by a fresh, empty one.
const client = (endpoint: string) => new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
const pool = new DynamoPool({ size: 1, maxFiles: 1, maxCpuSeconds: 1_000 });
afterAll(() => pool.stop());

describe('DynamoDB Local pool', () => {
  it('lends an instance to one file at a time and replaces it, empty, once it has served its files', async () => {
    await pool.start();
    const { url, server } = await servePool(pool);
    try {
      const lease = () => fetch(`${url}/lease`, { method: 'POST' }).then(async (res) => ((await res.json()) as { endpoint: string }).endpoint);
      const first = await lease();
      const used = client(first);
      await used.send(
        new CreateTableCommand({
          TableName: 'worn',
          BillingMode: 'PAY_PER_REQUEST',
          KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
          AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        }),
      );
      used.destroy();
      let second: string | undefined;
      const waiting = lease().then((endpoint) => (second = endpoint));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(second).toBeUndefined(); // the only instance is lent out

      expect((await fetch(`${url}/release`, { method: 'POST', body: JSON.stringify({ endpoint: first }) })).status).toBe(200);
      await waiting;
      expect(second).not.toBe(first);
      expect(pool.replaced).toBe(1);
      const fresh = client(second!);
      expect((await fresh.send(new ListTablesCommand({}))).TableNames).toEqual([]);
      fresh.destroy();
      expect((await fetch(`${url}/release`, { method: 'POST', body: '{}' })).status).toBe(400);
      expect((await fetch(`${url}/release`, { method: 'POST', body: 'not json' })).status).toBe(400);
    } finally {
      server.close();
    }
  }, 60_000);
});
