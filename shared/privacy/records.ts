/**
 * One erasure request for one customer. The email is kept only while the erasure runs (every part
 * finds its records by it) and removed when it completes; its hash stays on the do-not-recreate
 * list (shared/platform/privacy.ts).
 */
export interface ErasureRecord {
  _id: string;
  customerId: string;
  email?: string;
  status: 'running' | 'completed';
  /** The parts that finished (a string set): a resumed erasure skips these. */
  done?: Set<string>;
  requestedAt: string;
  completedAt?: string;
  /** Times the queue picked it up (a crash or a failing part makes it run again). */
  runs: number;
  lastError?: string;
}

export const ERASURE_QUEUE = 'privacy-erasure';
