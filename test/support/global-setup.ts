import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal, type DynamoDbLocalProcess } from '../../shared/local/dynamodb';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

// Every project of the run calls this setup; they all share one in-memory DynamoDB Local (this
// module is loaded once in vitest's main process), stopped when the last project is done. Test
// files create their own tables in it.
let dynamo: Promise<DynamoDbLocalProcess> | undefined;
let users = 0;

export async function setup(project: TestProject) {
  const external = process.env.TEST_DYNAMODB_ENDPOINT;
  if (external) {
    project.provide('dynamoEndpoint', external);
    return;
  }
  users++;
  dynamo ??= startDynamoDbLocal();
  project.provide('dynamoEndpoint', (await dynamo).endpoint);
}

export async function teardown() {
  if (!dynamo || --users > 0) return;
  const running = dynamo;
  dynamo = undefined;
  await (await running).stop();
}
