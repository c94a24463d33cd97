import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal, type DynamoDbLocalProcess } from '../../shared/local/dynamodb';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The first instance; files that need one fixed endpoint use it. */
    dynamoEndpoint: string;
    /** One in-memory DynamoDB Local per test worker (see `testDynamoEndpoint`). */
    dynamoEndpoints: string[];
  }
}

// DynamoDB Local serves every request on one SQLite connection and each write re-describes its
// table's stream, so one instance shared by every worker becomes the suite's bottleneck and slows
// as streams pile up. Each worker gets an instance of its own; they are started once in vitest's
// main process (every project calls this setup) and stopped when the last project is done.
// Vitest loads this module afresh for each project, so what the projects share lives on
// globalThis: module-level state started two instances per project, one project after another
// (about 6 s each, ~30 s before the first test of a full run).
const INSTANCES = Math.max(1, Number(process.env.TEST_DYNAMODB_INSTANCES ?? 2));
const shared = ((globalThis as { __testDynamoDb?: { dynamos?: Promise<DynamoDbLocalProcess[]>; users: number } }).__testDynamoDb ??= { users: 0 });

export async function setup(project: TestProject) {
  const external = process.env.TEST_DYNAMODB_ENDPOINT;
  if (external) {
    project.provide('dynamoEndpoint', external);
    project.provide('dynamoEndpoints', [external]);
    return;
  }
  shared.users++;
  shared.dynamos ??= Promise.all(Array.from({ length: INSTANCES }, () => startDynamoDbLocal()));
  const endpoints = (await shared.dynamos).map((instance) => instance.endpoint);
  project.provide('dynamoEndpoint', endpoints[0]!);
  project.provide('dynamoEndpoints', endpoints);
}

export async function teardown() {
  if (!shared.dynamos || --shared.users > 0) return;
  const running = shared.dynamos;
  shared.dynamos = undefined;
  await Promise.all((await running).map((instance) => instance.stop()));
}
