import type { JobHandler } from '../../platform/capability';
import { deliverNotification } from './delivery';
import { JOB_DELIVER, JOB_RENEW } from './records';
import { SandboxProcessor } from './sandbox';

/** Jobs of the sandbox processor: notification delivery (retried by the queue) and renewal timers. */
export const SANDBOX_JOB_HANDLERS: Record<string, JobHandler> = {
  [JOB_DELIVER]: async (job, deps) => {
    if (!job.scope) return;
    await deliverNotification(deps, job.scope, String(job.payload.notificationId));
  },
  [JOB_RENEW]: async (job, deps) => {
    if (!job.scope) return;
    const processor = deps.ports.processorSandbox;
    const sandbox = processor instanceof SandboxProcessor ? processor : new SandboxProcessor(deps);
    await sandbox.onRenewalDue(job.scope, String(job.payload.membershipId));
  },
};
