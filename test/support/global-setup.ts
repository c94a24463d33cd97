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
const INSTANCES = Math.max(1, Number(process.env.TEST_DYNAMODB_INSTANCES ?? 2));
let dynamos: Promise<DynamoDbLocalProcess[]> | undefined;
let users = 0;

export async function setup(project: TestProject) {
  const external = process.env.TEST_DYNAMODB_ENDPOINT;
  if (external) {
    project.provide('dynamoEndpoint', external);
    project.provide('dynamoEndpoints', [external]);
    return;
  }
  users++;
  dynamos ??= Promise.all(Array.from({ length: INSTANCES }, () => startDynamoDbLocal()));
  const endpoints = (await dynamos).map((instance) => instance.endpoint);
  project.provide('dynamoEndpoint', endpoints[0]!);
  project.provide('dynamoEndpoints', endpoints);
}

export async function teardown() {
  if (!dynamos || --users > 0) return;
  const running = dynamos;
  dynamos = undefined;
  await Promise.all((await running).map((instance) => instance.stop()));
}
