import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, EventBridgeEvent, SQSEvent, SQSRecord } from 'aws-lambda';
import { z } from 'zod';
import { createStreamHandler } from '../events/stream-handler';
import { loadConfig } from '../platform/config';
import type { Deps } from '../platform/context';
import { domainEventSchema, type DomainEvent } from '../platform/events';
import { createApiHandler } from '../platform/http/api-handler';
import type { Job } from '../platform/ports';
import type { App } from './assemble';
import { awsDeps } from './aws-deps';
import { runJob } from './jobs';

/**
 * The Lambda entries of the app, chosen by the function's `APP_FUNCTION` variable (the name of its
 * API group, bus consumer or queue), which the CDK stacks set from the same manifests.
 */
let deps: Deps | undefined;
const lambdaDeps = (app: App): Deps => (deps ??= awsDeps(app, loadConfig()));

function named<T extends { name: string }>(items: T[], name: string | undefined, what: string): T {
  const found = items.find((item) => item.name === name);
  if (!found) throw new Error(`No ${what} named ${name ?? '(APP_FUNCTION is not set)'} in this app`);
  return found;
}

export const apiEntry = (app: App, name = process.env.APP_FUNCTION) => createApiHandler(named(app.groups, name, 'API group').operations, { deps: () => lambdaDeps(app) });

/** A bus rule target. A throw makes Lambda retry the event, then send it to the rule's dead-letter queue. */
export function consumerEntry(app: App, name = process.env.APP_FUNCTION) {
  const consumer = named(app.consumers, name, 'bus consumer');
  return async (event: EventBridgeEvent<string, unknown>): Promise<void> => {
    await consumer.handle(domainEventSchema.parse(event.detail) as DomainEvent, lambdaDeps(app));
  };
}

const messageSchema = z.record(z.string(), z.unknown());
const jobSchema = z.object({
  type: z.string().min(1),
  scope: z.object({ accountId: z.string(), mode: z.enum(['live', 'test']) }).optional(),
  payload: z.record(z.string(), z.unknown()),
  recurring: z.string().optional(),
});

const parseBody = <T>(schema: z.ZodType<T>, record: SQSRecord): T => schema.parse(JSON.parse(record.body));

/**
 * A capability queue's worker: every message of a batch at once; failed ones go back to the queue
 * (partial batch response), then to its dead-letter queue.
 */
export function queueEntry(app: App, name = process.env.APP_FUNCTION) {
  const queue = named(app.queues, name, 'queue');
  const processor = new BatchProcessor(EventType.SQS);
  return (event: SQSEvent, context: Context) =>
    processPartialResponse(event, (record: SQSRecord) => queue.handle(parseBody(messageSchema, record), lambdaDeps(app)), processor, { context, throwOnFullBatchFailure: false });
}

/** The jobs queue: timers fired by EventBridge Scheduler, one after another. */
export function jobsEntry(app: App) {
  const processor = new BatchProcessor(EventType.SQS);
  return (event: SQSEvent, context: Context) =>
    processPartialResponse(event, (record: SQSRecord) => runJob(app, parseBody(jobSchema, record) as Job, lambdaDeps(app)), processor, {
      context,
      processInParallel: false,
      throwOnFullBatchFailure: false,
    });
}

/** The outbox dispatcher on the table stream. */
export const streamEntry = (app: App) => createStreamHandler(() => lambdaDeps(app).ports.bus);
