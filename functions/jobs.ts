import { APP } from '../shared/app';
import { jobsEntry } from '../shared/composition/lambda-app';

/** The jobs queue: timers and recurring schedules, dispatched by job type. */
export const handler = jobsEntry(APP);
