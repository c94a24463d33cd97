import type { QueueHandler } from '../platform/capability';
import type { Scope } from '../store/keys';
import type { Kind } from './platforms';
import { dryRunInBackground } from './dry-run';
import { runBatch } from './run';
import { storeFileRows } from './service';

/**
 * The imports queue carries two kinds of message: one batch of a run (`{ importId }`; the next
 * batch is a new message, so a crash loses at most a lease), and one chunk of a large file's rows
 * to store (`{ importId, store: kind, uploadId }`) or of a removed file's rows to delete
 * (`{ importId, purge: kind, uploadId }`), and a large import's dry run (`{ importId, dryRun: requestedAt }`).
 */
export const runBatchHandler: QueueHandler = async (message, deps) => {
  const scope = message.scope as Scope;
  const id = String(message.importId);
  if (typeof message.store === 'string') return storeFileRows(deps, scope, id, message.store as Kind, String(message.uploadId));
  if (typeof message.dryRun === 'string') return dryRunInBackground(deps, scope, id, message.dryRun);
  if (typeof message.purge === 'string') return storeFileRows(deps, scope, id, message.purge as Kind, String(message.uploadId), true);
  return runBatch(deps, scope, id);
};
