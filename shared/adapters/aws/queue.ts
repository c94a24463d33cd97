import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { jobsQueueFor, lazily, type AwsPortEnv } from './env';
import { JOBS_QUEUE, type QueueName, type QueuePort } from '../../platform/ports';

/**
 * SQS with per-message delay (up to 900 s). A job sent to the jobs queue goes to the queue of the
 * job group that handles its type.
 */
export class SqsQueue implements QueuePort {
  constructor(
    private readonly client: Pick<SQSClient, 'send'>,
    private readonly urls: Partial<Record<QueueName, string>>,
    private readonly jobsQueueUrl?: (type: string) => string,
  ) {}

  async send(queue: QueueName, message: Record<string, unknown>, options: { delaySeconds?: number } = {}): Promise<void> {
    const url = queue === JOBS_QUEUE && this.jobsQueueUrl && typeof message.type === 'string' ? this.jobsQueueUrl(message.type) : this.urls[queue];
    if (!url) throw new Error(`Queue ${queue} is not configured`);
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: url,
        MessageBody: JSON.stringify(message),
        DelaySeconds: Math.min(900, Math.max(0, Math.round(options.delaySeconds ?? 0))),
      }),
    );
  }
}

/** The queue port of a function whose needs include `queue`. */
export function awsQueuePort(env: AwsPortEnv): QueuePort {
  const queue = lazily(
    () =>
      new SqsQueue(
        new SQSClient({ region: env.config.AWS_REGION }),
        env.queueUrls,
        jobsQueueFor(env, env.config.JOBS_QUEUE_URL_PREFIX, 'JOBS_QUEUE_URL_PREFIX'),
      ),
  );
  return { send: (name, message, options) => queue().send(name, message, options) };
}
