import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { inject } from 'vitest';
import { APP } from '../../shared/app';
import { localAdapters, type LocalAdapters } from '../../shared/composition/local-deps';
import { OffsetClock } from '../../shared/platform/clock';
import { loadConfig } from '../../shared/platform/config';
import type { Deps } from '../../shared/platform/context';
import { randomHex } from '../../shared/platform/ids';
import { ensureTable } from '../../shared/local/dynamodb';
import { documentClient } from '../../shared/store/client';
import { Store } from '../../shared/store/store';

/** Services and repositories against a fresh table in the shared DynamoDB Local, with local ports. */
export async function createTestDeps(env: Record<string, string> = {}): Promise<{ deps: Deps; adapters: LocalAdapters; clock: OffsetClock; store: Store }> {
  const endpoint = inject('dynamoEndpoint');
  const tableName = `t_${randomHex(6)}`;
  const raw = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await ensureTable(raw, tableName);
  raw.destroy();
  const config = loadConfig({ ...process.env, TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint, VALIDATE_OUTPUT: '1', ...env });
  const store = new Store(documentClient({ region: 'us-east-1', endpoint }), tableName);
  const clock = new OffsetClock();
  const adapters = localAdapters(APP, { store, clock, config, baseUrl: () => 'http://127.0.0.1:0' });
  return { deps: adapters.deps, adapters, clock, store };
}
