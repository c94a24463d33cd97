import { creditRefillEmailConsumer } from '../../shared/credits/consumers';
import { busConsumerHandler } from '../../shared/workers/lambda';

/** Bus rule target: mails the buyer when a credit top-off fails. */
export const handler = busConsumerHandler(creditRefillEmailConsumer);
