import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESBUILD_OPTIONS } from '../../shared/composition/esbuild-options';
import { PROJECT_ROOT } from '../../shared/composition/function-entries';
import { ensureTable } from '../../shared/local/dynamodb-table';
import { randomHex } from '../../shared/platform/ids';
import * as unbundled from '../../shared/store/store';
import { documentClient } from '../../shared/store/client';
import { testDynamoEndpoint } from '../support/dynamo-endpoint';

// The Lambda build bundles and minifies the SDK (shared/composition/esbuild-options.ts). The store
// maps DynamoDB's typed errors (`instanceof ConditionalCheckFailedException`, a transaction's CancellationReasons) to
// its own; bundled, against the same DynamoDB Local, it must answer exactly as unbundled.
const dir = mkdtempSync(join(tmpdir(), 'store-bundle-'));
const tableName = `t_${randomHex(6)}`;
let endpoint: string;
let bundled: typeof unbundled & { documentClient: typeof documentClient };

beforeAll(async () => {
  endpoint = testDynamoEndpoint();
  const raw = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await ensureTable(raw, tableName);
  raw.destroy();
  // Beside the project's sources, so the entry's relative imports resolve (build/ is git-ignored).
  mkdirSync(join(PROJECT_ROOT, 'build'), { recursive: true });
  const entry = join(PROJECT_ROOT, 'build', `bundle-test-store-${randomHex(4)}.ts`);
  writeFileSync(entry, "export * from '../shared/store/store';\nexport { documentClient } from '../shared/store/client';");
  const outfile = join(dir, 'store.mjs');
  try {
    await build({ ...ESBUILD_OPTIONS, entryPoints: [entry], outfile, bundle: true, platform: 'node', logLevel: 'error' });
  } finally {
    rmSync(entry);
  }
  bundled = await import(pathToFileURL(outfile).href);
}, 60_000);

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  const raw = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await raw.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
  raw.destroy();
});

/** What a store call answered: its value, or its error's name, reasons, fault and status. */
const outcome = (call: Promise<unknown>) =>
  call.then(
    (value) => ({ value }),
    (error: Error & { reasons?: unknown; $fault?: string; $metadata?: { httpStatusCode?: number } }) => ({
      error: error.name,
      reasons: error.reasons,
      fault: error.$fault,
      status: error.$metadata?.httpStatusCode,
    }),
  );

async function exercise(lib: Pick<typeof unbundled, 'Store'>, client: ReturnType<typeof documentClient>, prefix: string) {
  const store = new lib.Store(client, tableName);
  const key = (id: string) => ({ PK: `${prefix}#${id}`, SK: 'X' });
  const missingTable = new lib.Store(client, `${tableName}_missing`);
  return {
    created: await outcome(store.put({ ...key('a'), n: 1 }, { ifNotExists: true })),
    taken: await outcome(store.put({ ...key('a'), n: 2 }, { ifNotExists: true })),
    mustExist: await outcome(store.update(key('none'), { set: { n: 1 } }, { mustExist: true })),
    cancelled: await outcome(
      store.transact([
        { put: { ...key('b'), n: 1 }, condition: 'attribute_not_exists(PK)' },
        { put: { ...key('a'), n: 3 }, condition: 'attribute_not_exists(PK)' },
      ]),
    ),
    unwritten: await outcome(store.get(key('b'))),
    noTable: await outcome(missingTable.get(key('a'))),
  };
}

describe('the store, bundled for Lambda', () => {
  it("maps DynamoDB's typed errors as unbundled: a taken key, a missing item, a cancelled transaction's reasons, an unknown table", async () => {
    const bundledAnswers = await exercise(bundled, bundled.documentClient({ region: 'us-east-1', endpoint }), 'BUNDLED');
    const unbundledAnswers = await exercise(unbundled, documentClient({ region: 'us-east-1', endpoint }), 'UNBUNDLED');
    expect(bundledAnswers).toEqual(unbundledAnswers);
    expect(unbundledAnswers).toMatchObject({
      created: { value: undefined },
      taken: { error: 'ConditionFailed' },
      mustExist: { error: 'ConditionFailed' },
      cancelled: { error: 'ConditionFailed', reasons: ['None', 'ConditionalCheckFailed'] },
      unwritten: { value: undefined },
      noTable: { error: 'ResourceNotFoundException', fault: 'client', status: 400 },
    });
  });
});
