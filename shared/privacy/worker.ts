import type { QueueDeclaration } from '../platform/capability';
import { ERASURE_QUEUE } from './records';
import { erasureMessage } from './schemas';
import { runErasure } from './service';

/** One customer's erasure, part by part (the service resumes after the parts already done). */
export const erasureQueue: QueueDeclaration = {
  name: ERASURE_QUEUE,
  handle: async (message, deps) => {
    const { accountId, mode, customerId } = erasureMessage.parse(message);
    await runErasure(deps, { accountId, mode }, customerId);
  },
  // scheduler: the sheets part arms the next spreadsheet batch.
  needs: ['table', 'queue', 'scheduler'],
  // A buyer with 10,000 orders is 10,000 small updates.
  timeoutSeconds: 900,
  batchSize: 1,
};
