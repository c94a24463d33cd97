import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { APP } from '../../shared/app';
import { localAdapters } from '../../shared/composition/local-deps';
import { ensureTable } from '../../shared/local/dynamodb-table';
import { systemClock } from '../../shared/platform/clock';
import { loadConfig } from '../../shared/platform/config';
import { randomHex } from '../../shared/platform/ids';
import { documentClient } from '../../shared/store/client';
import { Store } from '../../shared/store/store';
import { testDynamoEndpoint } from '../support/dynamo-endpoint';

let store: Store;

beforeAll(async () => {
  const endpoint = testDynamoEndpoint();
  const tableName = `t_${randomHex(6)}`;
  const raw = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await ensureTable(raw, tableName);
  raw.destroy();
  store = new Store(documentClient({ region: 'us-east-1', endpoint }), tableName);
});

describe('local scheduler capacity', () => {
  it('keeps the timer items (EventBridge Scheduler in AWS) out of the capacity the runtime reports, on the same table', async () => {
    const { scheduler, deps } = localAdapters(APP, { store, clock: systemClock, config: loadConfig({}), baseUrl: () => 'http://127.0.0.1' });
    const at = new Date(Date.now() + 3_600_000);
    await deps.ports.scheduler.schedule('capacity-check', at, { type: 'imports.sweep', payload: {} });
    expect(await scheduler.has('capacity-check')).toBe(true);
    await deps.ports.scheduler.cancel('capacity-check');
    expect(await scheduler.has('capacity-check')).toBe(false);
    expect(store.totals).toEqual({ read: 0, write: 0 });
    // The application's own writes still count.
    await store.put({ PK: 'P', SK: 'S', entity: 'Check' });
    expect(store.totals.write).toBeGreaterThan(0);
  });
});
