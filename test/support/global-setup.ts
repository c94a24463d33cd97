import type { TestProject } from 'vitest/node';
import { DynamoPool, servePool } from './dynamo-pool';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The lending desk of the run's DynamoDB Locals (see dynamo-pool.ts); '' with an external endpoint. */
    dynamoPool: string;
    /** TEST_DYNAMODB_ENDPOINT, when the run uses a DynamoDB Local already running ('' otherwise). */
    dynamoExternal: string;
  }
}

// Each test file borrows a DynamoDB Local for its duration (dynamo-file.ts) and creates its own
// tables there (dropped when it ends); an instance that has served enough work is replaced by a
// fresh one, since DynamoDB Local's writes slow down with every stream record it holds (see
// dynamo-pool.ts). Each worker runs one file at a time: two instances more than workers leave two
// starting or idle. The pool
// lives in vitest's main process; vitest loads this module afresh for each project, so that
// state lives on globalThis (started once, stopped when the last project is done).
const SIZE = Math.max(1, Number(process.env.TEST_DYNAMODB_INSTANCES ?? Number(process.env.TEST_WORKERS ?? 3) + 2));
const MAX_FILES = Math.max(1, Number(process.env.TEST_DYNAMODB_MAX_FILES ?? 8));
const MAX_CPU_SECONDS = Math.max(1, Number(process.env.TEST_DYNAMODB_MAX_CPU_SECONDS ?? 20));

type Shared = { desk?: Promise<{ pool: DynamoPool; url: string; close: () => void }>; users: number };
const holder = globalThis as { __testDynamoPool?: Shared };
holder.__testDynamoPool ??= { users: 0 };
const shared = holder.__testDynamoPool;

export async function setup(project: TestProject) {
  const external = process.env.TEST_DYNAMODB_ENDPOINT;
  if (external) {
    project.provide('dynamoPool', '');
    project.provide('dynamoExternal', external);
    return;
  }
  shared.users++;
  shared.desk ??= (async () => {
    const pool = new DynamoPool({ size: SIZE, maxFiles: MAX_FILES, maxCpuSeconds: MAX_CPU_SECONDS });
    await pool.start();
    const { url, server } = await servePool(pool);
    return { pool, url, close: () => server.close() };
  })();
  project.provide('dynamoPool', (await shared.desk).url);
  project.provide('dynamoExternal', '');
}

export async function teardown() {
  if (!shared.desk || --shared.users > 0) return;
  const desk = await shared.desk;
  shared.desk = undefined;
  desk.close();
  if (process.env.TEST_DYNAMODB_REPORT) console.log(`DynamoDB Local pool: ${desk.pool.replaced} instance(s) replaced`);
  await desk.pool.stop();
}
