import { APP } from '../shared/app';
import { jobsEntry } from '../shared/composition/lambda-app';

/** A job group's queue (APP_FUNCTION): its timers and recurring schedules, by job type; without APP_FUNCTION, the old jobs queue's router. */
export const handler = jobsEntry(APP);
