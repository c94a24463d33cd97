import { subscriptionTimersConsumer } from '../../shared/subscriptions/consumers';
import { busConsumerHandler } from '../../shared/workers/lambda';

/** Bus rule target: keeps each subscriber's timers in line with its state after every change. */
export const handler = busConsumerHandler(subscriptionTimersConsumer);
