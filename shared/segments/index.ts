import { defineCapability } from '../platform/capability';
import { segmentOperations } from './operations';
import { NIGHTLY_JOB, SEGMENTS_QUEUE } from './service';
import { refreshStepHandler, segmentJobs } from './workers';

/** Audience segments: saved rule sets evaluated live over contacts, and their nightly smart tags. */
export const segments = defineCapability({
  name: 'segments',
  build: {
    manifest: { url: import.meta.url, export: 'segments' },
    operations: './operations#segmentOperations',
    jobs: './workers#segmentJobs',
    jobNeeds: ['table', 'queue'],
  },
  operations: segmentOperations,
  needs: ['table', 'queue'],
  queues: [
    {
      name: SEGMENTS_QUEUE,
      handle: refreshStepHandler,
      needs: ['table', 'queue'],
      // One step: a page of 1,000 contacts and the tag writes of those that join or leave.
      timeoutSeconds: 120,
      batchSize: 1,
    },
  ],
  jobs: segmentJobs,
  schedules: [{ name: 'segments-nightly-refresh', every: { dailyAtUtc: { hour: 3, minute: 0 } }, job: { type: NIGHTLY_JOB, payload: {} } }],
});
