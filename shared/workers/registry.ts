import type { Job } from '../platform/ports';
import type { Deps } from '../platform/context';
import type { DomainEvent } from '../platform/events';
import type { AccessNeed } from '../registry';
import { PROCESSOR_JOB_HANDLERS } from '../processor/jobs';
import { SUBSCRIPTION_JOB_HANDLERS } from '../subscriptions/jobs';
import { creditRefillEmailConsumer } from '../credits/consumers';
import { subscriptionProcessorSyncConsumer, subscriptionTimersConsumer } from '../subscriptions/consumers';
import { webhookFanoutConsumer, webhookQueueHandler } from '../webhooks/workers';

/**
 * The asynchronous side of the service, declared once like the API operations: the CDK workers
 * stack creates a bus rule and a function for each consumer and the local runtime wires the same
 * handlers to its in-process bus, queue and scheduler.
 */
export interface BusConsumer {
  /** Function name; its Lambda entry is functions/workers/<name>.ts. */
  name: string;
  /** Event types it receives ('*' for all). */
  eventTypes: string[] | '*';
  /** What its function may touch in AWS (default: the table). */
  needs?: AccessNeed[];
  /** Must be idempotent on event.id: the bus delivers at least once. */
  handle(event: DomainEvent, deps: Deps): Promise<void>;
}

export type JobHandler = (job: Job, deps: Deps) => Promise<void>;
export type QueueHandler = (message: Record<string, unknown>, deps: Deps) => Promise<void>;

export const BUS_CONSUMERS: BusConsumer[] = [webhookFanoutConsumer, subscriptionTimersConsumer, subscriptionProcessorSyncConsumer, creditRefillEmailConsumer];

/** Handlers for jobs the scheduler fires, by job type. */
export const JOB_HANDLERS: Record<string, JobHandler> = {
  ...PROCESSOR_JOB_HANDLERS,
  ...SUBSCRIPTION_JOB_HANDLERS,
};

/** Consumers of the SQS queues other than the jobs queue (which dispatches to JOB_HANDLERS). */
export const QUEUE_HANDLERS: Partial<Record<'webhooks', QueueHandler>> = { webhooks: webhookQueueHandler };

export async function runJob(job: Job, deps: Deps): Promise<void> {
  const handler = JOB_HANDLERS[job.type];
  if (!handler) throw new Error(`No handler for job type ${job.type}`);
  await handler(job, deps);
}

export const matchesConsumer = (consumer: BusConsumer, type: string) => consumer.eventTypes === '*' || consumer.eventTypes.includes(type);
