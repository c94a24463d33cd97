import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal, type DynamoDbLocalProcess } from '../../shared/local/dynamodb';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

let dynamo: DynamoDbLocalProcess | undefined;

/** One in-memory DynamoDB Local for the whole run; test files create their own tables in it. */
export async function setup(project: TestProject) {
  const external = process.env.TEST_DYNAMODB_ENDPOINT;
  if (external) {
    project.provide('dynamoEndpoint', external);
    return;
  }
  dynamo = await startDynamoDbLocal();
  project.provide('dynamoEndpoint', dynamo.endpoint);
}

export async function teardown() {
  await dynamo?.stop();
}
