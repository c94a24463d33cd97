import type { QueueName, QueuePort } from '../../platform/ports';
import { logger } from '../../platform/logger';
import type { WorkTracker } from './work-tracker';

export type LocalQueueHandler = (message: Record<string, unknown>) => Promise<void>;

const VISIBILITY_TIMEOUT_MS = 2000;
const MAX_RECEIVES = 5;

/**
 * In-process stand-in for SQS: per-message delay, redelivery after a visibility timeout when the
 * handler throws, and a dead-letter list after five receives.
 */
export class LocalQueue implements QueuePort {
  readonly deadLetters: { queue: QueueName; message: Record<string, unknown>; error: string }[] = [];

  constructor(
    private readonly handlers: () => Record<QueueName, LocalQueueHandler | undefined>,
    private readonly work: WorkTracker,
  ) {}

  async send(queue: QueueName, message: Record<string, unknown>, options: { delaySeconds?: number } = {}): Promise<void> {
    // Messages are copied, as SQS would serialise them.
    this.schedule(queue, JSON.parse(JSON.stringify(message)), (options.delaySeconds ?? 0) * 1000, 1);
  }

  private schedule(queue: QueueName, message: Record<string, unknown>, delayMs: number, receive: number) {
    const done = this.work.begin();
    setTimeout(async () => {
      try {
        const handler = this.handlers()[queue];
        if (!handler) throw new Error(`No consumer for queue ${queue}`);
        await handler(message);
      } catch (error) {
        if (receive >= MAX_RECEIVES) {
          this.deadLetters.push({ queue, message, error: (error as Error).message });
          logger.error('message moved to dead-letter list', { queue, error: error as Error });
        } else {
          this.schedule(queue, message, VISIBILITY_TIMEOUT_MS, receive + 1);
        }
      } finally {
        done();
      }
    }, delayMs);
  }
}
