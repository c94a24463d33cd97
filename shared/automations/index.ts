import { defineCapability } from '../platform/capability';
import { automationOperations } from './operations';
import { automationJobs } from './jobs';
import { automationOrderTrigger } from './triggers';

/** A small automation engine: a trigger and steps (send a mail post, wait), run per contact by one-time timers. */
export const automations = defineCapability({
  name: 'automations',
  build: {
    manifest: { url: import.meta.url, export: 'automations' },
    operations: './operations#automationOperations',
    jobs: './jobs#automationJobs',
    workers: { 'automation-order-trigger': './triggers#automationOrderTrigger' },
    jobNeeds: ['table', 'queue', 'scheduler'],
  },
  operations: automationOperations,
  needs: ['table'],
  jobs: automationJobs,
  consumers: [automationOrderTrigger],
});
