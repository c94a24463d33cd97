import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { lambdaDeps } from '../../shared/adapters/aws/deps';
import { logger } from '../../shared/platform/logger';
import { webhookQueueHandler } from '../../shared/webhooks/workers';

/**
 * Webhooks queue: one attempt per message, all messages of a batch at once (an attempt may wait
 * up to 5 s on its receiver). Failed messages go back to the queue (partial batch response) and
 * the repeat resumes from the delivery's recorded state.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const deps = lambdaDeps();
  const results = await Promise.allSettled(event.Records.map((record) => webhookQueueHandler(JSON.parse(record.body), deps)));
  const failures: { itemIdentifier: string }[] = [];
  results.forEach((result, i) => {
    if (result.status === 'rejected') {
      logger.error('webhook delivery message failed', { messageId: event.Records[i]!.messageId, error: result.reason as Error });
      failures.push({ itemIdentifier: event.Records[i]!.messageId });
    }
  });
  return { batchItemFailures: failures };
};
