import type { JobHandler } from '../platform/capability';
import type { Deps } from '../platform/context';
import type { Scope } from '../store/keys';
import * as repo from './repository';

// The sweep of running imports (the manifest's `jobs`), apart from the service: its timers'
// function then carries no file parsing, catalog or blob store.

export const IMPORT_QUEUE = 'imports-run';
export const SWEEP_JOB = 'imports.sweep';
const SWEEP_SECONDS = 60;
export const sweepTimer = (scope: Scope, id: string) => `imports-sweep-${scope.accountId}-${scope.mode}-${id}`;

export const armSweep = (deps: Pick<Deps, 'ports' | 'clock'>, scope: Scope, id: string) =>
  deps.ports.scheduler.schedule(sweepTimer(scope, id), new Date(deps.clock.nowMs() + SWEEP_SECONDS * 1000), {
    type: SWEEP_JOB,
    scope,
    payload: { importId: id },
  });

/** The 1-minute sweep of one running import: a run whose lease ran out (a crashed worker) is queued again. */
export async function sweep(deps: Deps, scope: Scope, id: string): Promise<void> {
  const record = await repo.getImport(deps.store, scope, id);
  if (!record || record.status !== 'running') return;
  if (record.leaseUntil < deps.clock.nowMs()) await deps.ports.queue.send(IMPORT_QUEUE, { scope, importId: id });
  await armSweep(deps, scope, id);
}

export const importsJobs: Record<string, JobHandler> = {
  [SWEEP_JOB]: async (job, deps) => {
    if (job.scope) await sweep(deps, job.scope, String(job.payload.importId));
  },
};
