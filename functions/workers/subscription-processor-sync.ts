import { subscriptionProcessorSyncConsumer } from '../../shared/subscriptions/consumers';
import { busConsumerHandler } from '../../shared/workers/lambda';

/** Bus rule target: retries a buyer's portal change with the processor until it is accepted. */
export const handler = busConsumerHandler(subscriptionProcessorSyncConsumer);
