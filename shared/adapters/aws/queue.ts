import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { lazily, type AwsPortEnv } from './env';
import type { QueueName, QueuePort } from '../../platform/ports';

/** SQS with per-message delay (up to 900 s). */
export class SqsQueue implements QueuePort {
  constructor(
    private readonly client: Pick<SQSClient, 'send'>,
    private readonly urls: Partial<Record<QueueName, string>>,
  ) {}

  async send(queue: QueueName, message: Record<string, unknown>, options: { delaySeconds?: number } = {}): Promise<void> {
    const url = this.urls[queue];
    if (!url) throw new Error(`Queue ${queue} is not configured`);
    await this.client.send(
      new SendMessageCommand({ QueueUrl: url, MessageBody: JSON.stringify(message), DelaySeconds: Math.min(900, Math.max(0, Math.round(options.delaySeconds ?? 0))) }),
    );
  }
}

/** The queue port of a function whose needs include `queue`. */
export function awsQueuePort(env: AwsPortEnv): QueuePort {
  const queue = lazily(() => new SqsQueue(new SQSClient({ region: env.config.AWS_REGION }), env.queueUrls));
  return { send: (name, message, options) => queue().send(name, message, options) };
}
