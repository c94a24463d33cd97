import { APP } from '../shared/app';
import { consumerEntry } from '../shared/composition/lambda-app';

/** Every bus rule target: the consumer named by APP_FUNCTION. */
export const handler = consumerEntry(APP);
