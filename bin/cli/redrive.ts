import { readFileSync } from 'node:fs';
import {
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  StartMessageMoveTaskCommand,
  type Message,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { PutEventsCommand, type EventBridgeClient } from '@aws-sdk/client-eventbridge';
import {
  GetRecordsCommand,
  GetShardIteratorCommand,
  TrimmedDataAccessException,
  type DynamoDBStreamsClient,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { EventBridgeBus } from '../../shared/adapters/aws/bus';
import { eventsFromStreamImages } from '../../shared/events/dispatcher';

/**
 * `npm run admin -- redrive`: moves a deployed stack's dead letters back, per kind of queue in the
 * Workers stack's `DeadLetterQueues` output (lib/workers-stack.ts):
 * - `sqs` (a capability queue, the jobs queue): SQS's own message move task, back to the source;
 * - `rule` (a bus rule target's DLQ): each message is the EventBridge event; it is put on the bus
 *   again and deleted once EventBridge took it. Every rule matching the type sees it again, and
 *   every consumer drops an event id it already handled;
 * - `stream` (the outbox dispatcher's on-failure queue): each message names a failed batch of the
 *   table stream (shard and sequence range); its records are read again (the stream keeps 24 h)
 *   and their outbox events published as the dispatcher would.
 * A dry run reads and lists, and changes nothing (received messages reappear after their
 * visibility timeout).
 */
export interface DeadLetterQueueOutput {
  kind: 'sqs' | 'rule' | 'stream';
  dlq: string;
  dlqArn: string;
  source?: string;
  consumer?: string;
}

export interface RedriveClients {
  sqs: Pick<SQSClient, 'send'>;
  events: Pick<EventBridgeClient, 'send'>;
  streams: Pick<DynamoDBStreamsClient, 'send'>;
}

export interface RedriveReport {
  queue: string;
  kind: DeadLetterQueueOutput['kind'];
  /** Messages moved back (or, in a dry run, that would be). */
  moved: number;
  /** One line per message (or the task) for the person running it. */
  lines: string[];
  /** Messages left where they were, with why. */
  left: string[];
}

/** Seconds a received message stays hidden while it is replayed; a failure shows it again after this. */
const VISIBILITY_SECONDS = 120;

/** The `DeadLetterQueues` and `EventBusName` outputs from `cdk deploy --outputs-file`. */
export function readStackOutputs(file: string): { queues: Record<string, DeadLetterQueueOutput>; busName: string } {
  const stacks = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
  // The workers stack's and the jobs stack's (the job groups' queues), merged.
  const listing = Object.values(stacks).filter((outputs) => outputs.DeadLetterQueues);
  if (!listing.length) throw new Error(`${file} has no DeadLetterQueues output (deploy with --outputs-file ${file})`);
  const queues = Object.assign({}, ...listing.map((outputs) => JSON.parse(outputs.DeadLetterQueues!))) as Record<string, DeadLetterQueueOutput>;
  return { queues, busName: listing.find((outputs) => outputs.EventBusName)?.EventBusName ?? '' };
}

/** The region of the queues, from an ARN (arn:aws:sqs:REGION:...). */
export const regionOf = (arn: string) => arn.split(':')[3];

export async function redrive(
  queues: Record<string, DeadLetterQueueOutput>,
  options: { queue?: string; dryRun?: boolean; busName: string },
  clients: RedriveClients,
): Promise<RedriveReport[]> {
  const names = options.queue ? [options.queue] : Object.keys(queues);
  for (const name of names) if (!queues[name]) throw new Error(`unknown dead-letter queue ${name}; known: ${Object.keys(queues).join(', ')}`);
  const reports: RedriveReport[] = [];
  for (const name of names) {
    const queue = queues[name]!;
    const report: RedriveReport = { queue: name, kind: queue.kind, moved: 0, lines: [], left: [] };
    if (queue.kind === 'sqs') await redriveSqs(queue, options, clients, report);
    else await replay(queue, options, clients, report);
    reports.push(report);
  }
  return reports;
}

async function redriveSqs(queue: DeadLetterQueueOutput, options: { dryRun?: boolean }, clients: RedriveClients, report: RedriveReport) {
  const attributes = await clients.sqs.send(new GetQueueAttributesCommand({ QueueUrl: queue.dlq, AttributeNames: ['ApproximateNumberOfMessages'] }));
  const waiting = Number(attributes.Attributes?.ApproximateNumberOfMessages ?? 0);
  report.moved = waiting;
  if (options.dryRun || waiting === 0) {
    report.lines.push(`${waiting} message(s) waiting in ${queue.dlqArn}${options.dryRun ? ', would move back to ' + queue.source : ''}`);
    return;
  }
  const task = await clients.sqs.send(new StartMessageMoveTaskCommand({ SourceArn: queue.dlqArn, DestinationArn: queue.source }));
  report.lines.push(`message move task ${task.TaskHandle} started: ${waiting} message(s) back to ${queue.source}`);
}

/** Receives every message once (a message seen again ends the pass), replaying each unless a dry run. */
async function replay(queue: DeadLetterQueueOutput, options: { dryRun?: boolean; busName: string }, clients: RedriveClients, report: RedriveReport) {
  const seen = new Set<string>();
  for (;;) {
    const received = await clients.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queue.dlq,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
        VisibilityTimeout: VISIBILITY_SECONDS,
        MessageAttributeNames: ['All'],
      }),
    );
    const fresh = (received.Messages ?? []).filter((m) => m.MessageId && !seen.has(m.MessageId));
    if (!fresh.length) return;
    for (const message of fresh) seen.add(message.MessageId!);
    if (queue.kind === 'rule') await replayRuleMessages(queue, fresh, options, clients, report);
    else for (const message of fresh) await replayStreamBatch(queue, message, options, clients, report);
  }
}

async function replayRuleMessages(
  queue: DeadLetterQueueOutput,
  messages: Message[],
  options: { dryRun?: boolean; busName: string },
  clients: RedriveClients,
  report: RedriveReport,
) {
  const events: { message: Message; event: { source: string; 'detail-type': string; detail: { id?: string } } }[] = [];
  for (const message of messages) {
    try {
      const event = JSON.parse(message.Body ?? '');
      if (typeof event?.source !== 'string' || typeof event['detail-type'] !== 'string' || typeof event.detail !== 'object')
        throw new Error('not an EventBridge event');
      events.push({ message, event });
      const why = message.MessageAttributes?.ERROR_MESSAGE?.StringValue;
      report.lines.push(`${event.detail.id ?? event.id} ${event['detail-type']}${why ? ` (failed: ${why})` : ''}`);
    } catch {
      report.left.push(`${message.MessageId}: body is not an EventBridge event`);
    }
  }
  if (options.dryRun) {
    report.moved += events.length;
    return;
  }
  if (!events.length) return;
  const answer = await clients.events.send(
    new PutEventsCommand({
      Entries: events.map(({ event }) => ({
        EventBusName: options.busName,
        Source: event.source,
        DetailType: event['detail-type'],
        Detail: JSON.stringify(event.detail),
      })),
    }),
  );
  const done: Message[] = [];
  events.forEach(({ message, event }, i) => {
    const entry = answer.Entries?.[i];
    if (entry && !entry.ErrorCode) done.push(message);
    else report.left.push(`${event.detail.id}: EventBridge refused it (${entry?.ErrorCode ?? 'no answer'} ${entry?.ErrorMessage ?? ''})`.trim());
  });
  if (!done.length) return;
  await clients.sqs.send(
    new DeleteMessageBatchCommand({ QueueUrl: queue.dlq, Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })) }),
  );
  report.moved += done.length;
}

interface StreamBatchInfo {
  shardId: string;
  startSequenceNumber: string;
  endSequenceNumber: string;
  batchSize?: number;
  streamArn: string;
}

async function replayStreamBatch(
  queue: DeadLetterQueueOutput,
  message: Message,
  options: { dryRun?: boolean; busName: string },
  clients: RedriveClients,
  report: RedriveReport,
) {
  let info: StreamBatchInfo;
  try {
    info = JSON.parse(message.Body ?? '').DDBStreamBatchInfo;
    if (!info?.shardId || !info.startSequenceNumber || !info.endSequenceNumber || !info.streamArn) throw new Error('no DDBStreamBatchInfo');
  } catch {
    report.left.push(`${message.MessageId}: body is not a stream failure record`);
    return;
  }
  let records: _Record[];
  try {
    records = await readRange(clients.streams, info);
  } catch (error) {
    if (error instanceof TrimmedDataAccessException) {
      report.left.push(
        `${info.shardId} ${info.startSequenceNumber}..${info.endSequenceNumber}: past the stream's 24 hours; GET /events lists the events (30 days)`,
      );
      return;
    }
    throw error;
  }
  const events = eventsFromStreamImages(
    records.map((r) => ({
      eventName: r.eventName,
      newImage: r.dynamodb?.NewImage ? unmarshall(r.dynamodb.NewImage as Record<string, AttributeValue>) : undefined,
    })),
  );
  report.lines.push(
    `${info.shardId} ${info.startSequenceNumber}..${info.endSequenceNumber}: ${records.length} record(s), events ${events.map((e) => `${e.id} ${e.type}`).join(', ') || 'none'}`,
  );
  if (options.dryRun) {
    report.moved += 1;
    return;
  }
  if (events.length) await new EventBridgeBus(clients.events, options.busName).publish(events);
  await clients.sqs.send(new DeleteMessageCommand({ QueueUrl: queue.dlq, ReceiptHandle: message.ReceiptHandle }));
  report.moved += 1;
}

/** The records of one shard from `start` through `end` (sequence numbers compare as integers). */
async function readRange(streams: RedriveClients['streams'], info: StreamBatchInfo): Promise<_Record[]> {
  const end = BigInt(info.endSequenceNumber);
  const iterator = await streams.send(
    new GetShardIteratorCommand({
      StreamArn: info.streamArn,
      ShardId: info.shardId,
      ShardIteratorType: 'AT_SEQUENCE_NUMBER',
      SequenceNumber: info.startSequenceNumber,
    }),
  );
  const out: _Record[] = [];
  let next = iterator.ShardIterator;
  // An open shard can answer empty pages before the range; a few are enough to reach it.
  for (let empty = 0; next && empty < 5; ) {
    const page = await streams.send(new GetRecordsCommand({ ShardIterator: next, Limit: 1000 }));
    if (!page.Records?.length) empty++;
    for (const record of page.Records ?? []) {
      if (BigInt(record.dynamodb?.SequenceNumber ?? '0') > end) return out;
      out.push(record);
    }
    if (out.length && BigInt(out.at(-1)!.dynamodb?.SequenceNumber ?? '0') === end) return out;
    next = page.NextShardIterator;
  }
  return out;
}
