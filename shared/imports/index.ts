import { defineCapability } from '../platform/capability';
import { importsOperations } from './operations';
import { importsPrivacy } from './privacy';
import { IMPORT_QUEUE, importsJobs } from './sweep';
import { runBatchHandler } from './workers';

/**
 * Store imports: products, customers, purchase history and subscribers from CSV exports of other
 * platforms, checked by a dry run, then run in batches from a queue, resumable and idempotent.
 */
export const imports = defineCapability({
  name: 'imports',
  build: {
    manifest: { url: import.meta.url, export: 'imports' },
    operations: './operations#importsOperations',
    privacy: './privacy#importsPrivacy',
    jobs: './sweep#importsJobs',
    jobNeeds: ['table', 'queue', 'scheduler'],
  },
  operations: importsOperations,
  privacy: importsPrivacy,
  needs: ['table', 'queue', 'scheduler', 'blob'],
  queues: [
    {
      name: IMPORT_QUEUE,
      handle: runBatchHandler,
      needs: ['table', 'queue', 'scheduler', 'blob'],
      // One run message (up to 8 batches of 250 rows, 20 s), one chunk of a large file's rows, or a large import's dry run
      // (one pass over every row: ~50 s for 50,000 rows on DynamoDB Local under load).
      timeoutSeconds: 300,
      batchSize: 1,
    },
  ],
  jobs: importsJobs,
});
