import * as z from '../platform/zod';
import type { JobHandler } from '../platform/capability';
import { JOB_AUTOMATION_STEP, runStep } from './service';

const stepJob = z.object({ automationId: z.string(), email: z.string(), step: z.number().check(z.int(), z.nonnegative()) });
const scopeSchema = z.object({ accountId: z.string(), mode: z.enum(['live', 'test']) });

/** The automation step timer (the manifest's `jobs`), apart from the operations its function does not run. */
export const automationJobs: Record<string, JobHandler> = {
  [JOB_AUTOMATION_STEP]: async (job, deps) => {
    const payload = stepJob.parse(job.payload);
    await runStep(deps, scopeSchema.parse(job.scope), payload.automationId, payload.email, payload.step);
  },
};
