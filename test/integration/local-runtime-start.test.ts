import { createServer, type Server } from 'node:http';
import { testDynamoEndpoint } from '../support/dynamo-endpoint';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalRuntime } from '../../shared/local/runtime';

let blocker: Server | undefined;
afterAll(() => blocker?.close());

describe('local runtime start-up', () => {
  it('says clearly when its port is taken', async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker!.listen(0, '127.0.0.1', () => resolve()));
    const port = (blocker.address() as AddressInfo).port;
    await expect(startLocalRuntime({ port, memory: true, dynamoEndpoint: testDynamoEndpoint(), tableName: 'port_clash' })).rejects.toThrow(
      new RegExp(`Port ${port} is in use`),
    );
  });

  it('says clearly when Java is missing for DynamoDB Local', async () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      await expect(startLocalRuntime({ port: 0, memory: true })).rejects.toThrow(/needs Java 17/);
    } finally {
      process.env.PATH = path;
    }
  });
});
