import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, EventBridgeEvent, SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from '../platform/zod';
import { createStreamHandler } from '../events/stream-handler';
import type { BusConsumer, ExternalEventConsumer, JobHandler, QueueDeclaration } from '../platform/capability';
import { loadConfig } from '../platform/config';
import type { Deps } from '../platform/context';
import { domainEventSchema, type DomainEvent } from '../platform/events';
import { createApiHandler } from '../platform/http/api-handler';
import type { AnyOperation } from '../platform/operation';
import type { Job } from '../platform/ports';
import { composeDeps, type FunctionComposition } from './aws-deps';
import { JOBS_QUEUE, runJob } from './jobs';

/**
 * The Lambda handlers of the app, one per kind of function. Each deployed function's entry is
 * generated from the manifests (function-entries.ts) and passes only what that function runs and
 * the ports it needs, so its bundle holds nothing else. Dependencies are built once per container.
 */
export function lambdaDeps(composition: FunctionComposition): () => Deps {
  let deps: Deps | undefined;
  return () => (deps ??= composeDeps(composition, loadConfig()));
}

export const apiFunction = (operations: AnyOperation[], deps: () => Deps) => createApiHandler(operations, { deps });

/** A bus rule target. A throw makes Lambda retry the event, then send it to the rule's dead-letter queue. */
export function consumerFunction(consumer: BusConsumer, deps: () => Deps) {
  return async (event: EventBridgeEvent<string, unknown>): Promise<void> => {
    await consumer.handle(domainEventSchema.parse(event.detail) as DomainEvent, deps());
  };
}

/** A rule target on the default bus: another service's event, handed over with its detail as is. */
export function externalConsumerFunction(consumer: ExternalEventConsumer, deps: () => Deps) {
  return async (event: EventBridgeEvent<string, Record<string, unknown>>): Promise<void> => {
    await consumer.handle({ id: event.id, source: event.source, detailType: event['detail-type'], time: event.time, detail: event.detail ?? {} }, deps());
  };
}

const messageSchema = z.record(z.string(), z.unknown());
const jobSchema = z.object({
  type: z.string().check(z.minLength(1)),
  scope: z.optional(z.object({ accountId: z.string(), mode: z.enum(['live', 'test']) })),
  payload: z.record(z.string(), z.unknown()),
  recurring: z.optional(z.string()),
});

const parseBody = <T>(schema: z.ZodMiniType<T>, record: SQSRecord): T => schema.parse(JSON.parse(record.body));

/**
 * A capability queue's worker: every message of a batch at once; failed ones go back to the queue
 * (partial batch response), then to its dead-letter queue.
 */
export function queueFunction(queue: QueueDeclaration, deps: () => Deps) {
  const processor = new BatchProcessor(EventType.SQS);
  return (event: SQSEvent, context: Context) =>
    processPartialResponse(event, (record: SQSRecord) => queue.handle(parseBody(messageSchema, record), deps()), processor, {
      context,
      throwOnFullBatchFailure: false,
    });
}

/** A job group's jobs queue: timers fired by EventBridge Scheduler, one after another. */
export function jobsFunction(jobs: Record<string, JobHandler>, deps: () => Deps) {
  const processor = new BatchProcessor(EventType.SQS);
  return (event: SQSEvent, context: Context) =>
    processPartialResponse(event, (record: SQSRecord) => runJob({ jobs }, parseBody(jobSchema, record) as Job, deps()), processor, {
      context,
      processInParallel: false,
      throwOnFullBatchFailure: false,
    });
}

/**
 * The jobs queue every timer went to before each job group had its own: one-time schedules made
 * before that still fire into it, so its worker forwards each job, as is, to its group's queue.
 */
export function jobsRouterFunction(deps: () => Deps) {
  const processor = new BatchProcessor(EventType.SQS);
  return (event: SQSEvent, context: Context) =>
    processPartialResponse(event, (record: SQSRecord) => deps().ports.queue.send(JOBS_QUEUE, parseBody(jobSchema, record)), processor, {
      context,
      throwOnFullBatchFailure: false,
    });
}

/** The outbox dispatcher on the table stream. */
export const streamFunction = (deps: () => Deps) => createStreamHandler(() => deps().ports.bus);
