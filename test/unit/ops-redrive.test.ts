import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { marshall } from '@aws-sdk/util-dynamodb';
import { TrimmedDataAccessException } from '@aws-sdk/client-dynamodb-streams';
import { readStackOutputs, redrive, type DeadLetterQueueOutput } from '../../bin/cli/redrive';
import { LocalQueue } from '../../shared/adapters/local/queue';
import { WorkTracker } from '../../shared/adapters/local/work-tracker';
import { OUTBOX_ENTITY } from '../../shared/platform/events';

// SQS, EventBridge and DynamoDB Streams have no local engine here: the requests are checked exactly.
type Sent = { name: string; input: any };
function fakeClient(answer: (name: string, input: any) => unknown = () => ({})) {
  const sent: Sent[] = [];
  const client = {
    send: async (command: any) => {
      sent.push({ name: command.constructor.name, input: command.input });
      const result = answer(command.constructor.name, command.input);
      if (result instanceof Error) throw result;
      return result;
    },
  } as any;
  return { sent, client };
}

const ARN = 'arn:aws:sqs:eu-west-1:111122223333';
const QUEUES: Record<string, DeadLetterQueueOutput> = {
  webhooks: { kind: 'sqs', dlq: 'https://sqs/111/WebhooksDlq', dlqArn: `${ARN}:WebhooksDlq`, source: `${ARN}:Webhooks` },
  'consumer:webhooks-fanout': { kind: 'rule', dlq: 'https://sqs/111/FanoutDlq', dlqArn: `${ARN}:FanoutDlq`, consumer: 'webhooks-fanout' },
  stream: { kind: 'stream', dlq: 'https://sqs/111/StreamFailures', dlqArn: `${ARN}:StreamFailures` },
};

const ruleMessage = (id: string, eventId: string) => ({
  MessageId: id,
  ReceiptHandle: `rh-${id}`,
  Body: JSON.stringify({
    version: '0',
    id: `eb-${id}`,
    'detail-type': 'order.completed',
    source: 'creator-commerce',
    detail: { id: eventId, type: 'order.completed', data: { n: 1 } },
  }),
  MessageAttributes: { ERROR_MESSAGE: { StringValue: 'Lambda timed out', DataType: 'String' } },
});

/** Answers receives from a list of pages, then nothing. */
function sqsWith(pages: unknown[][], extra: (name: string, input: any) => unknown = () => ({})) {
  let page = 0;
  return fakeClient((name, input) => (name === 'ReceiveMessageCommand' ? { Messages: pages[page++] ?? [] } : extra(name, input)));
}
const noClient = () => fakeClient(() => new Error('not expected'));

describe('redrive of a deployed stack', () => {
  it('starts an SQS message move task from the DLQ back to its source queue', async () => {
    const sqs = fakeClient((name) => (name === 'GetQueueAttributesCommand' ? { Attributes: { ApproximateNumberOfMessages: '3' } } : { TaskHandle: 'task-1' }));
    const [report] = await redrive(QUEUES, { queue: 'webhooks', busName: 'bus' }, { sqs: sqs.client, events: noClient().client, streams: noClient().client });
    expect(sqs.sent).toEqual([
      { name: 'GetQueueAttributesCommand', input: { QueueUrl: 'https://sqs/111/WebhooksDlq', AttributeNames: ['ApproximateNumberOfMessages'] } },
      { name: 'StartMessageMoveTaskCommand', input: { SourceArn: `${ARN}:WebhooksDlq`, DestinationArn: `${ARN}:Webhooks` } },
    ]);
    expect(report).toMatchObject({ queue: 'webhooks', kind: 'sqs', moved: 3, left: [] });
    expect(report!.lines[0]).toContain('task-1');
  });

  it('only counts in a dry run', async () => {
    const sqs = fakeClient(() => ({ Attributes: { ApproximateNumberOfMessages: '2' } }));
    const [report] = await redrive(
      QUEUES,
      { queue: 'webhooks', dryRun: true, busName: 'bus' },
      { sqs: sqs.client, events: noClient().client, streams: noClient().client },
    );
    expect(sqs.sent.map((s) => s.name)).toEqual(['GetQueueAttributesCommand']);
    expect(report!.moved).toBe(2);
  });

  it("re-puts a rule DLQ's events on the bus and deletes only those EventBridge took", async () => {
    const sqs = sqsWith([[ruleMessage('m1', 'ev1'), ruleMessage('m2', 'ev2')]]);
    const events = fakeClient(() => ({ FailedEntryCount: 1, Entries: [{ EventId: 'x' }, { ErrorCode: 'InternalFailure', ErrorMessage: 'try later' }] }));
    const [report] = await redrive(
      QUEUES,
      { queue: 'consumer:webhooks-fanout', busName: 'creator-commerce-prod' },
      { sqs: sqs.client, events: events.client, streams: noClient().client },
    );
    expect(events.sent).toEqual([
      {
        name: 'PutEventsCommand',
        input: {
          Entries: ['ev1', 'ev2'].map((id) => ({
            EventBusName: 'creator-commerce-prod',
            Source: 'creator-commerce',
            DetailType: 'order.completed',
            Detail: JSON.stringify({ id, type: 'order.completed', data: { n: 1 } }),
          })),
        },
      },
    ]);
    expect(sqs.sent).toEqual([
      {
        name: 'ReceiveMessageCommand',
        input: { QueueUrl: 'https://sqs/111/FanoutDlq', MaxNumberOfMessages: 10, WaitTimeSeconds: 1, VisibilityTimeout: 120, MessageAttributeNames: ['All'] },
      },
      { name: 'DeleteMessageBatchCommand', input: { QueueUrl: 'https://sqs/111/FanoutDlq', Entries: [{ Id: '0', ReceiptHandle: 'rh-m1' }] } },
      { name: 'ReceiveMessageCommand', input: expect.objectContaining({ QueueUrl: 'https://sqs/111/FanoutDlq' }) },
    ]);
    expect(report).toMatchObject({ moved: 1, left: ['ev2: EventBridge refused it (InternalFailure try later)'] });
    expect(report!.lines).toEqual(['ev1 order.completed (failed: Lambda timed out)', 'ev2 order.completed (failed: Lambda timed out)']);
  });

  it('lists a rule DLQ in a dry run without putting or deleting, and ends when messages come round again', async () => {
    const sqs = sqsWith([[ruleMessage('m1', 'ev1')], [ruleMessage('m1', 'ev1')]]);
    const [report] = await redrive(
      QUEUES,
      { queue: 'consumer:webhooks-fanout', dryRun: true, busName: 'bus' },
      { sqs: sqs.client, events: noClient().client, streams: noClient().client },
    );
    expect(sqs.sent.map((s) => s.name)).toEqual(['ReceiveMessageCommand', 'ReceiveMessageCommand']);
    expect(report).toMatchObject({ moved: 1, lines: ['ev1 order.completed (failed: Lambda timed out)'] });
  });

  const outboxImage = (id: string) =>
    marshall({
      PK: 'A#acc#test#OUTBOX',
      SK: `E#${id}`,
      entity: OUTBOX_ENTITY,
      event: JSON.stringify({ id, type: 'product.created', accountId: 'acc', mode: 'test', created: 1, data: { productId: 'p1' } }),
    });
  const failure = {
    MessageId: 's1',
    ReceiptHandle: 'rh-s1',
    Body: JSON.stringify({
      requestContext: { condition: 'RetryAttemptsExhausted' },
      DDBStreamBatchInfo: {
        shardId: 'shard-1',
        startSequenceNumber: '100',
        endSequenceNumber: '300',
        batchSize: 2,
        streamArn: 'arn:aws:dynamodb:eu-west-1:1:table/T/stream/x',
      },
    }),
  };

  it('re-reads a failed stream batch and publishes its outbox events, then deletes the failure record', async () => {
    const sqs = sqsWith([[failure]]);
    const streams = fakeClient((name) =>
      name === 'GetShardIteratorCommand'
        ? { ShardIterator: 'it-1' }
        : {
            Records: [
              { eventName: 'INSERT', dynamodb: { SequenceNumber: '100', NewImage: outboxImage('ev1') } },
              { eventName: 'MODIFY', dynamodb: { SequenceNumber: '200', NewImage: outboxImage('ignored') } },
              { eventName: 'INSERT', dynamodb: { SequenceNumber: '300', NewImage: outboxImage('ev3') } },
              { eventName: 'INSERT', dynamodb: { SequenceNumber: '400', NewImage: outboxImage('after') } },
            ],
            NextShardIterator: 'it-2',
          },
    );
    const events = fakeClient(() => ({ FailedEntryCount: 0 }));
    const [report] = await redrive(QUEUES, { queue: 'stream', busName: 'bus' }, { sqs: sqs.client, events: events.client, streams: streams.client });
    expect(streams.sent).toEqual([
      {
        name: 'GetShardIteratorCommand',
        input: {
          StreamArn: 'arn:aws:dynamodb:eu-west-1:1:table/T/stream/x',
          ShardId: 'shard-1',
          ShardIteratorType: 'AT_SEQUENCE_NUMBER',
          SequenceNumber: '100',
        },
      },
      { name: 'GetRecordsCommand', input: { ShardIterator: 'it-1', Limit: 1000 } },
    ]);
    expect(events.sent).toHaveLength(1);
    expect(events.sent[0]!.input.Entries.map((e: any) => [e.EventBusName, e.Source, e.DetailType, JSON.parse(e.Detail).id])).toEqual([
      ['bus', 'creator-commerce', 'product.created', 'ev1'],
      ['bus', 'creator-commerce', 'product.created', 'ev3'],
    ]);
    expect(sqs.sent[1]).toEqual({ name: 'DeleteMessageCommand', input: { QueueUrl: 'https://sqs/111/StreamFailures', ReceiptHandle: 'rh-s1' } });
    expect(report).toMatchObject({ moved: 1, left: [] });
  });

  it("keeps a stream failure whose records are past the stream's retention, and says where the events are", async () => {
    const sqs = sqsWith([[failure]]);
    const streams = fakeClient(() => new TrimmedDataAccessException({ message: 'trimmed', $metadata: {} }));
    const [report] = await redrive(QUEUES, { queue: 'stream', busName: 'bus' }, { sqs: sqs.client, events: noClient().client, streams: streams.client });
    expect(sqs.sent.map((s) => s.name)).toEqual(['ReceiveMessageCommand', 'ReceiveMessageCommand']);
    expect(report!.moved).toBe(0);
    expect(report!.left[0]).toContain('GET /events');
  });

  it('refuses an unknown queue and reads the outputs file cdk deploy writes', async () => {
    await expect(
      redrive(QUEUES, { queue: 'nope', busName: 'bus' }, { sqs: noClient().client, events: noClient().client, streams: noClient().client }),
    ).rejects.toThrow(/known: webhooks/);
    const dir = await mkdtemp(join(tmpdir(), 'outputs-'));
    const file = join(dir, 'cdk-outputs.json');
    await writeFile(
      file,
      JSON.stringify({
        'CreatorCommerce-prod-Data': { TableName: 'T' },
        'CreatorCommerce-prod-Workers': { EventBusName: 'b', DeadLetterQueues: JSON.stringify(QUEUES) },
      }),
    );
    expect(readStackOutputs(file)).toEqual({ queues: QUEUES, busName: 'b' });
    // The job groups' dead-letter queues are the jobs stack's output: both lists are offered.
    const jobs = { 'jobs:sheets': { kind: 'sqs', dlq: 'https://sqs/jobs-sheets-dlq', dlqArn: 'arn:jobs-sheets-dlq', source: 'arn:jobs-sheets' } };
    await writeFile(
      file,
      JSON.stringify({
        'CreatorCommerce-prod-Jobs': { DeadLetterQueues: JSON.stringify(jobs) },
        'CreatorCommerce-prod-Workers': { EventBusName: 'b', DeadLetterQueues: JSON.stringify(QUEUES) },
      }),
    );
    expect(readStackOutputs(file)).toEqual({ queues: { ...QUEUES, ...jobs }, busName: 'b' });
    await rm(dir, { recursive: true });
  });
});

describe('local queue dead letters', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('keeps a dead letter across a restart and redrives it to its handler once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'queue-'));
    dirs.push(dir);
    const first = new LocalQueue(
      () => ({
        probe: async () => {
          throw new Error('down');
        },
      }),
      new WorkTracker(),
      dir,
      { visibilityTimeoutMs: 5 },
    );
    await first.send('probe', { n: 1 });
    await waitUntil(() => first.deadLetters.length === 1);
    expect(first.deadLetters[0]).toMatchObject({ queue: 'probe', message: { n: 1 }, error: 'down' });

    // A new run of the same data folder lists it again; a dry run changes nothing.
    const handled: unknown[] = [];
    const second = new LocalQueue(() => ({ probe: async (message) => void handled.push(message) }), new WorkTracker(), dir, { visibilityTimeoutMs: 5 });
    expect(await second.resume()).toBe(0);
    expect(second.deadLetters).toMatchObject([{ queue: 'probe', message: { n: 1 }, error: 'down' }]);
    expect(await second.redrive({ dryRun: true })).toHaveLength(1);
    expect(await second.redrive({ queue: 'other' })).toEqual([]);
    expect(await second.redrive({ queue: 'probe' })).toHaveLength(1);
    await waitUntil(() => handled.length === 1);
    expect(handled).toEqual([{ n: 1 }]);
    expect(second.deadLetters).toEqual([]);

    // Gone from disk too: a third run finds nothing dead and nothing pending.
    const third = new LocalQueue(() => ({}), new WorkTracker(), dir);
    expect(await third.resume()).toBe(0);
    expect(third.deadLetters).toEqual([]);
  });
});

async function waitUntil(condition: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}
