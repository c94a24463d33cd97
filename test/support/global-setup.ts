import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal, type DynamoDbLocalProcess } from '../../shared/local/dynamodb';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The first instance; files that need one fixed endpoint use it. */
    dynamoEndpoint: string;
    /** One in-memory DynamoDB Local per test worker (see `testDynamoEndpoint`). */
    dynamoEndpoints: string[];
    /** How many files run at once (vitest's maxWorkers): each worker owns its share of the instances. */
    testWorkers: number;
  }
}

// DynamoDB Local serves every request on one SQLite connection, and every write costs more the
// more tables the instance has held: deleted tables stay behind (measured: a put on a new table
// took 7.6 ms on a fresh instance, 20 ms after 40 tables had come and gone). So each worker owns
// instances no other worker uses, and its files take turns over them (dynamo-endpoint.ts): six
// instances in all, about 20 files each in a full run. They are started together, once, in vitest's
// main process; vitest loads this module afresh for each project, so that state lives on
// globalThis (module state started two instances per project, one project after another).
const INSTANCES = Math.max(1, Number(process.env.TEST_DYNAMODB_INSTANCES ?? 6));
const shared = ((globalThis as { __testDynamoDb?: { dynamos?: Promise<DynamoDbLocalProcess[]>; users: number } }).__testDynamoDb ??= { users: 0 });

export async function setup(project: TestProject) {
  const external = process.env.TEST_DYNAMODB_ENDPOINT;
  if (external) {
    project.provide('dynamoEndpoint', external);
    project.provide('dynamoEndpoints', [external]);
    project.provide('testWorkers', 1);
    return;
  }
  shared.users++;
  shared.dynamos ??= Promise.all(Array.from({ length: INSTANCES }, () => startDynamoDbLocal()));
  const endpoints = (await shared.dynamos).map((instance) => instance.endpoint);
  project.provide('dynamoEndpoint', endpoints[0]!);
  project.provide('dynamoEndpoints', endpoints);
  project.provide('testWorkers', Number(project.vitest.config.maxWorkers) || 1);
}

export async function teardown() {
  if (!shared.dynamos || --shared.users > 0) return;
  const running = shared.dynamos;
  shared.dynamos = undefined;
  await Promise.all((await running).map((instance) => instance.stop()));
}
