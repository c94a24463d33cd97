import { webhookFanoutConsumer } from '../../shared/webhooks/workers';
import { busConsumerHandler } from '../../shared/workers/lambda';

/** Bus rule target: one delivery per subscribed endpoint, idempotent on event id + endpoint. */
export const handler = busConsumerHandler(webhookFanoutConsumer);
