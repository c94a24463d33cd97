import { APP } from '../shared/app';
import { apiEntry } from '../shared/composition/lambda-app';

/** Every API function: the group named by APP_FUNCTION. */
export const handler = apiEntry(APP);
