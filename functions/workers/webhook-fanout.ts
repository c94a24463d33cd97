import type { EventBridgeEvent } from 'aws-lambda';
import { lambdaDeps } from '../../shared/adapters/aws/deps';
import { domainEventSchema, type DomainEvent } from '../../shared/events/event';
import { webhookFanoutConsumer } from '../../shared/webhooks/workers';

/**
 * Bus rule target: one delivery per subscribed endpoint. A throw makes Lambda's asynchronous
 * invocation retry the event (then its DLQ); the fan-out is idempotent on event id + endpoint.
 */
export const handler = async (event: EventBridgeEvent<string, unknown>): Promise<void> => {
  await webhookFanoutConsumer.handle(domainEventSchema.parse(event.detail) as DomainEvent, lambdaDeps());
};
