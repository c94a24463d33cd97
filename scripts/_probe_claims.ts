import { performance } from 'node:perf_hooks';
import { startLocalRuntime } from '../shared/local/runtime';
import { randomHex } from '../shared/platform/ids';
import { BatchExecuteStatementCommand, BatchWriteCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';

const N = Number(process.env.N ?? 3000);
const runtime = await startLocalRuntime({ port: 0, memory: true, tableName: `probe_${randomHex(4)}` });
const doc = runtime.deps.store.client;
const T = runtime.tableName;
const item = (p: string, n: number) => ({ PK: `A#test#CONTACT_EMAIL#${p}`, SK: `e${n}@probe.example.com`, entity: 'ContactEmail', contactId: `c${n}` });
async function pool(count: number, inFlight: number, fn: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(Array.from({ length: inFlight }, async () => { while (next < count) await fn(next++); }));
}
async function time(name: string, fn: () => Promise<void>) {
  const s = performance.now();
  await fn();
  const sec = (performance.now() - s) / 1000;
  console.log(`${name}: ${(N / sec).toFixed(0)} items/s`);
}
await time('warm batchwrite', () => pool(N / 25, 8, (c) => doc.send(new BatchWriteCommand({ RequestItems: { [T]: Array.from({ length: 25 }, (_, j) => ({ PutRequest: { Item: item('w', c * 25 + j) } })) } }))));
await time('batchwrite 25 x8', () => pool(N / 25, 8, (c) => doc.send(new BatchWriteCommand({ RequestItems: { [T]: Array.from({ length: 25 }, (_, j) => ({ PutRequest: { Item: item('b', c * 25 + j) } })) } }))));
await time('transact 100 serial', () => pool(N / 100, 1, (c) => doc.send(new TransactWriteCommand({ TransactItems: Array.from({ length: 100 }, (_, j) => ({ Put: { TableName: T, Item: item('t', c * 100 + j), ConditionExpression: 'attribute_not_exists(PK)' } })) }))));
await time('transact 25 x4', () => pool(N / 25, 4, (c) => doc.send(new TransactWriteCommand({ TransactItems: Array.from({ length: 25 }, (_, j) => ({ Put: { TableName: T, Item: item('t4', c * 25 + j), ConditionExpression: 'attribute_not_exists(PK)' } })) }))));
await time('put cond x8', () => pool(N, 8, (i) => doc.send(new PutCommand({ TableName: T, Item: item('p', i), ConditionExpression: 'attribute_not_exists(PK)' }))));
await time('put cond x16', () => pool(N, 16, (i) => doc.send(new PutCommand({ TableName: T, Item: item('p16', i), ConditionExpression: 'attribute_not_exists(PK)' }))));
await time('partiql insert 25 x8', () => pool(N / 25, 8, async (c) => {
  const out = await doc.send(new BatchExecuteStatementCommand({ Statements: Array.from({ length: 25 }, (_, j) => { const it = item('q', c * 25 + j); return { Statement: `INSERT INTO "${T}" VALUE {'PK': ?, 'SK': ?, 'entity': ?, 'contactId': ?}`, Parameters: [it.PK, it.SK, it.entity, it.contactId] }; }) }));
  const errs = (out.Responses ?? []).filter((r) => r.Error);
  if (errs.length) console.log('errors', errs[0]);
}));
// duplicate insert: what error code?
const dup = item('q', 0);
const out = await doc.send(new BatchExecuteStatementCommand({ Statements: [{ Statement: `INSERT INTO "${T}" VALUE {'PK': ?, 'SK': ?, 'entity': ?, 'contactId': ?}`, Parameters: [dup.PK, dup.SK, dup.entity, 'other'] }] }));
console.log('dup', JSON.stringify(out.Responses));
await runtime.stop();
