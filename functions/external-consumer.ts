import { APP } from '../shared/app';
import { externalConsumerEntry } from '../shared/composition/lambda-app';

/** Every default-bus rule target (other services' events): the consumer named by APP_FUNCTION. */
export const handler = externalConsumerEntry(APP);
