import type { Scope } from '../store/keys';

/** Job types and timer names of the sheets capability (one timer of each kind per connection). */
export const BATCH_JOB = 'sheets.batch';
export const BACKFILL_JOB = 'sheets.backfill';
export const REQUEUE_JOB = 'sheets.requeue';

export const batchTimer = (scope: Scope) => `sheets-batch-${scope.accountId}-${scope.mode}`;
export const backfillTimer = (scope: Scope) => `sheets-backfill-${scope.accountId}-${scope.mode}`;
export const requeueTimer = (scope: Scope) => `sheets-requeue-${scope.accountId}-${scope.mode}`;
