import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { lambdaDeps } from '../../shared/adapters/aws/deps';
import { logger } from '../../shared/platform/logger';
import { runJob } from '../../shared/workers/registry';

/** Jobs queue: timers fired by EventBridge Scheduler. Failed jobs return to the queue (then DLQ). */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    try {
      await runJob(JSON.parse(record.body), lambdaDeps());
    } catch (error) {
      logger.error('job failed', { messageId: record.messageId, error: error as Error });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
};
