import type { QueueName, QueuePort } from '../../platform/ports';
import { randomHex } from '../../platform/ids';
import { logger } from '../../platform/logger';
import { Spool } from './spool';
import type { WorkTracker } from './work-tracker';

/** A message that failed every receive, kept until it is redriven. */
export interface LocalDeadLetter {
  id: string;
  queue: QueueName;
  message: Record<string, unknown>;
  error: string;
}

export type LocalQueueHandler = (message: Record<string, unknown>) => Promise<void>;

/** Doubles per receive (2, 4, 8, 16 s), so the retries outlast a lease a killed worker left (20 s). */
const VISIBILITY_TIMEOUT_MS = 2000;
const MAX_RECEIVES = 5;
/**
 * Messages of one queue handled at once, as a Lambda event source's concurrency would cap them:
 * without it a burst starts every message together and they queue on the SDK's sockets instead.
 */
const MAX_CONCURRENT_PER_QUEUE = 24;

interface SpooledMessage {
  queue: QueueName;
  message: Record<string, unknown>;
  /** Wall-clock time the message becomes visible (delays are real seconds, as in SQS). */
  visibleAtMs: number;
  receive: number;
  /** The last failure, kept on a dead letter. */
  error?: string;
}

/**
 * In-process stand-in for SQS: per-message delay, redelivery after a growing visibility timeout when
 * the handler throws, and a dead-letter list after five receives. With a data folder every message is
 * on disk from `send` until its handler succeeds, and `resume()` picks up what a crash left.
 */
export class LocalQueue implements QueuePort {
  readonly deadLetters: LocalDeadLetter[] = [];
  private readonly spool: Spool<SpooledMessage>;
  private readonly running = new Map<QueueName, number>();
  private readonly waiting = new Map<QueueName, (() => void)[]>();

  constructor(
    private readonly handlers: () => Record<QueueName, LocalQueueHandler | undefined>,
    private readonly work: WorkTracker,
    dataDir?: string,
    private readonly options: { visibilityTimeoutMs?: number; maxConcurrent?: number } = {},
  ) {
    this.spool = new Spool(dataDir, 'queue');
  }

  async send(queue: QueueName, message: Record<string, unknown>, options: { delaySeconds?: number } = {}): Promise<void> {
    const held = await this.hold(queue, message, `${Date.now().toString(36)}-${randomHex(6)}`, options);
    held.release();
  }

  /**
   * Writes the message down without running it yet, so a caller can first make the step that
   * hands work over (a timer's claim) and then release it, or discard it if that step lost.
   */
  async hold(queue: QueueName, message: Record<string, unknown>, id: string, options: { delaySeconds?: number } = {}) {
    // Messages are copied, as SQS would serialise them.
    const entry: SpooledMessage = {
      queue,
      message: JSON.parse(JSON.stringify(message)),
      visibleAtMs: Date.now() + (options.delaySeconds ?? 0) * 1000,
      receive: 1,
    };
    await this.spool.put(id, entry);
    return { release: () => this.schedule(id, entry), discard: () => this.spool.remove(id) };
  }

  /** Runs every message a previous run of this data folder left pending, and lists its dead letters again. */
  async resume(): Promise<number> {
    for (const { id, entry } of await this.spool.buried()) {
      if (!this.deadLetters.some((d) => d.id === id))
        this.deadLetters.push({ id, queue: entry.queue, message: entry.message, error: entry.error ?? 'failed in an earlier run' });
    }
    const pending = await this.spool.pending();
    for (const { id, entry } of pending.sort((a, b) => a.entry.visibleAtMs - b.entry.visibleAtMs)) this.schedule(id, entry);
    return pending.length;
  }

  names(): QueueName[] {
    return Object.keys(this.handlers());
  }

  /**
   * Sends dead letters back to their queue with a fresh receive count (SQS's message move task does
   * the same in AWS). Without `dryRun` they leave the list; answers what was (or would be) moved.
   */
  async redrive(options: { queue?: QueueName; dryRun?: boolean } = {}): Promise<LocalDeadLetter[]> {
    const chosen = this.deadLetters.filter((d) => !options.queue || d.queue === options.queue);
    if (options.dryRun) return chosen.map((d) => ({ ...d }));
    for (const dead of chosen) {
      this.deadLetters.splice(this.deadLetters.indexOf(dead), 1);
      const entry: SpooledMessage = { queue: dead.queue, message: dead.message, visibleAtMs: Date.now(), receive: 1 };
      await this.spool.unbury(dead.id, entry);
      this.schedule(dead.id, entry);
    }
    return chosen;
  }

  /** Waits for one of the queue's handler slots; the answer gives it back. */
  private async slot(queue: QueueName): Promise<() => void> {
    const limit = this.options.maxConcurrent ?? MAX_CONCURRENT_PER_QUEUE;
    if ((this.running.get(queue) ?? 0) >= limit) {
      await new Promise<void>((resolve) => {
        const list = this.waiting.get(queue) ?? [];
        list.push(resolve);
        this.waiting.set(queue, list);
      });
    } else this.running.set(queue, (this.running.get(queue) ?? 0) + 1);
    return () => {
      // Hand the slot straight to the next waiter, or give it back.
      const next = this.waiting.get(queue)?.shift();
      if (next) next();
      else this.running.set(queue, (this.running.get(queue) ?? 1) - 1);
    };
  }

  private schedule(id: string, entry: SpooledMessage) {
    const job = typeof entry.message.type === 'string' ? ` ${entry.message.type}` : '';
    const done = this.work.begin(`${entry.queue}${job}${entry.visibleAtMs > Date.now() ? ` (retry ${entry.receive})` : ''}`);
    setTimeout(
      async () => {
        const free = await this.slot(entry.queue);
        try {
          const handler = this.handlers()[entry.queue];
          if (!handler) throw new Error(`No consumer for queue ${entry.queue}`);
          await handler(entry.message);
          await this.spool.remove(id);
        } catch (error) {
          if (entry.receive >= MAX_RECEIVES) {
            // On disk first: once the list shows it, a new run of the data folder finds it dead, not pending.
            await this.spool
              .bury(id, { ...entry, error: (error as Error).message })
              .catch((e) => logger.error('could not spool a dead letter', { error: e as Error }));
            this.deadLetters.push({ id, queue: entry.queue, message: entry.message, error: (error as Error).message });
            logger.error('message moved to dead-letter list', { queue: entry.queue, error: error as Error });
          } else {
            const next = {
              ...entry,
              visibleAtMs: Date.now() + (this.options.visibilityTimeoutMs ?? VISIBILITY_TIMEOUT_MS) * 2 ** (entry.receive - 1),
              receive: entry.receive + 1,
            };
            await this.spool.put(id, next).catch((e) => logger.error('could not spool a retry', { error: e as Error }));
            this.schedule(id, next);
          }
        } finally {
          free();
          done();
        }
      },
      Math.max(0, entry.visibleAtMs - Date.now()),
    );
  }
}
