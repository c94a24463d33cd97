import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { testDynamoEndpoint } from './dynamo-endpoint';
import { APP } from '../../shared/app';
import { localAdapters, type LocalAdapters } from '../../shared/composition/local-deps';
import { OffsetClock } from '../../shared/platform/clock';
import { loadConfig } from '../../shared/platform/config';
import type { Deps } from '../../shared/platform/context';
import { randomHex } from '../../shared/platform/ids';
import { ensureTable } from '../../shared/local/dynamodb-table';
import { documentClient } from '../../shared/store/client';
import { Store } from '../../shared/store/store';

const created: { endpoint: string; tableName: string }[] = [];

/** Deletes this file's tables (run after each file by dynamo-file.ts): their streams would otherwise keep weighing on DynamoDB Local. */
export async function dropTestTables(): Promise<void> {
  for (const { endpoint, tableName } of created.splice(0)) {
    const raw = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    await raw.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
    raw.destroy();
  }
}

/** Services and repositories against a fresh table in the shared DynamoDB Local, with local ports. */
export async function createTestDeps(env: Record<string, string> = {}): Promise<{ deps: Deps; adapters: LocalAdapters; clock: OffsetClock; store: Store }> {
  const endpoint = testDynamoEndpoint();
  const tableName = `t_${randomHex(6)}`;
  const raw = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await ensureTable(raw, tableName);
  raw.destroy();
  created.push({ endpoint, tableName });
  const config = loadConfig({ ...process.env, TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint, VALIDATE_OUTPUT: '1', ...env });
  const store = new Store(documentClient({ region: 'us-east-1', endpoint }), tableName);
  const clock = new OffsetClock();
  const adapters = localAdapters(APP, { store, clock, config, baseUrl: () => 'http://127.0.0.1:0' });
  return { deps: adapters.deps, adapters, clock, store };
}
