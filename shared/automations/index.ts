import * as z from '../platform/zod';
import { defineCapability } from '../platform/capability';
import { automationOperations } from './operations';
import { JOB_AUTOMATION_STEP, runStep } from './service';

const stepJob = z.object({ automationId: z.string(), email: z.string(), step: z.number().check(z.int(), z.nonnegative()) });
const scopeSchema = z.object({ accountId: z.string(), mode: z.enum(['live', 'test']) });

/** A small automation engine: a trigger and steps (send a mail post, wait), run per contact by one-time timers. */
export const automations = defineCapability({
  name: 'automations',
  operations: automationOperations,
  needs: ['table'],
  jobs: {
    [JOB_AUTOMATION_STEP]: async (job, deps) => {
      const payload = stepJob.parse(job.payload);
      await runStep(deps, scopeSchema.parse(job.scope), payload.automationId, payload.email, payload.step);
    },
  },
});
