import { APP } from '../shared/app';
import { queueEntry } from '../shared/composition/lambda-app';

/** Every capability queue's worker: the queue named by APP_FUNCTION. */
export const handler = queueEntry(APP);
