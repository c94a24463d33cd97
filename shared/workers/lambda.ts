import type { EventBridgeEvent } from 'aws-lambda';
import { lambdaDeps } from '../adapters/aws/deps';
import { domainEventSchema, type DomainEvent } from '../platform/events';
import type { BusConsumer } from './registry';

/**
 * The Lambda entry of a bus consumer (an EventBridge rule target). A throw makes Lambda's
 * asynchronous invocation retry the event, then send it to the rule's dead-letter queue; consumers
 * are idempotent on the event id.
 */
export const busConsumerHandler =
  (consumer: BusConsumer) =>
  async (event: EventBridgeEvent<string, unknown>): Promise<void> => {
    await consumer.handle(domainEventSchema.parse(event.detail) as DomainEvent, lambdaDeps());
  };
