import { APP } from '../shared/app';
import { streamEntry } from '../shared/composition/lambda-app';

/** The table stream: outbox inserts onto the event bus. */
export const handler = streamEntry(APP);
