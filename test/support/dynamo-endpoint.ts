import { inject } from 'vitest';

let leased: string | undefined;

const desk = () => inject('dynamoPool');

/** Borrows a DynamoDB Local from the run's pool for this file (dynamo-file.ts calls it before the file's hooks). */
export async function leaseTestDynamo(): Promise<void> {
  if (!desk()) {
    leased = inject('dynamoExternal');
    return;
  }
  const res = await fetch(`${desk()}/lease`, { method: 'POST' });
  if (!res.ok) throw new Error(`no DynamoDB Local for this file: ${res.status} ${await res.text()}`);
  leased = ((await res.json()) as { endpoint: string }).endpoint;
}

/** Gives it back when the file is done (after the file's own afterAll hooks). */
export async function releaseTestDynamo(): Promise<void> {
  const endpoint = leased;
  leased = undefined;
  if (!endpoint || !desk()) return;
  await fetch(`${desk()}/release`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ endpoint }) });
}

/**
 * The DynamoDB Local this test file has borrowed: no other file uses it while this one runs, and
 * it is stable within the file. Only files of a project with test/support/dynamo-file.ts in its
 * setupFiles have one.
 */
export function testDynamoEndpoint(): string {
  if (!leased) throw new Error("This file has no DynamoDB Local: add test/support/dynamo-file.ts to its project's setupFiles in vitest.config.ts");
  return leased;
}
