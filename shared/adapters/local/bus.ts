import type { BusPort } from '../../platform/ports';
import type { DomainEvent } from '../../platform/events';
import { logger } from '../../platform/logger';
import { matchesConsumer, type BusConsumer } from '../../platform/capability';
import type { Deps } from '../../platform/context';
import { Spool } from './spool';
import type { WorkTracker } from './work-tracker';

const RETRY_DELAYS_MS = [200, 1000, 3000];

interface SpooledDelivery {
  consumer: string;
  event: DomainEvent;
  /** The last failure, kept on a dead letter. */
  error?: string;
}

/** A delivery its consumer refused on every attempt, kept until it is redriven (a rule's DLQ in AWS). */
export interface LocalDeadDelivery {
  id: string;
  consumer: string;
  event: DomainEvent;
  error: string;
}

/**
 * In-process stand-in for EventBridge: the same consumers and type patterns, asynchronous
 * delivery, and retries on failure as Lambda's asynchronous invocation would do. With a data
 * folder each (consumer, event) pair is on disk before `publish` returns (so the stream position
 * moves on only once its events are kept) and leaves when the consumer succeeded; `resume()`
 * delivers what a crash left.
 */
export class LocalBus implements BusPort {
  readonly deadLetters: LocalDeadDelivery[] = [];
  private readonly spool: Spool<SpooledDelivery>;

  constructor(
    private readonly consumers: () => BusConsumer[],
    private readonly deps: () => Deps,
    private readonly work: WorkTracker,
    dataDir?: string,
  ) {
    this.spool = new Spool(dataDir, 'bus');
  }

  async publish(events: DomainEvent[]): Promise<void> {
    const deliveries: [BusConsumer, DomainEvent][] = [];
    for (const event of events) {
      for (const consumer of this.consumers()) if (matchesConsumer(consumer, event.type)) deliveries.push([consumer, event]);
    }
    await Promise.all(deliveries.map(([consumer, event]) => this.spool.put(deliveryId(consumer.name, event), { consumer: consumer.name, event })));
    for (const [consumer, event] of deliveries) this.deliver(consumer, event, 0);
  }

  async resume(): Promise<number> {
    for (const { id, entry } of await this.spool.buried()) {
      if (!this.deadLetters.some((d) => d.id === id))
        this.deadLetters.push({ id, consumer: entry.consumer, event: entry.event, error: entry.error ?? 'failed in an earlier run' });
    }
    let resumed = 0;
    for (const { id, entry } of await this.spool.pending()) {
      const consumer = this.consumers().find((c) => c.name === entry.consumer);
      if (!consumer) {
        await this.spool.bury(id, entry);
        continue;
      }
      this.deliver(consumer, entry.event, 0);
      resumed++;
    }
    return resumed;
  }

  consumerNames(): string[] {
    return this.consumers().map((c) => c.name);
  }

  /**
   * Hands dead deliveries to their consumer again (only that consumer: the others already have the
   * event). Without `dryRun` they leave the list; answers what was (or would be) redelivered.
   */
  async redrive(options: { consumer?: string; dryRun?: boolean } = {}): Promise<LocalDeadDelivery[]> {
    const chosen = this.deadLetters.filter((d) => !options.consumer || d.consumer === options.consumer);
    if (options.dryRun) return chosen.map((d) => ({ ...d }));
    const moved: LocalDeadDelivery[] = [];
    for (const dead of chosen) {
      const consumer = this.consumers().find((c) => c.name === dead.consumer);
      if (!consumer) continue; // its consumer is gone from the app: it stays listed
      this.deadLetters.splice(this.deadLetters.indexOf(dead), 1);
      await this.spool.unbury(dead.id, { consumer: dead.consumer, event: dead.event });
      this.deliver(consumer, dead.event, 0);
      moved.push(dead);
    }
    return moved;
  }

  private deliver(consumer: BusConsumer, event: DomainEvent, attempt: number) {
    const done = this.work.begin(`${event.type} → ${consumer.name}`);
    setImmediate(async () => {
      try {
        await consumer.handle(event, this.deps());
        await this.spool.remove(deliveryId(consumer.name, event));
      } catch (error) {
        const delay = RETRY_DELAYS_MS[attempt];
        if (delay === undefined) {
          logger.error('bus consumer gave up', { consumer: consumer.name, eventId: event.id, error: error as Error });
          const id = deliveryId(consumer.name, event);
          const message = (error as Error).message;
          // On disk first: once the list shows it, a new run of the data folder finds it dead, not pending.
          await this.spool
            .bury(id, { consumer: consumer.name, event, error: message })
            .catch((e) => logger.error('could not spool a dead letter', { error: e as Error }));
          if (!this.deadLetters.some((d) => d.id === id)) this.deadLetters.push({ id, consumer: consumer.name, event, error: message });
        } else {
          const retryDone = this.work.begin(`${event.type} → ${consumer.name} (retry ${attempt + 1})`);
          setTimeout(() => {
            // Deliver first, so the tracker never reads idle between the two.
            this.deliver(consumer, event, attempt + 1);
            retryDone();
          }, delay);
        }
      } finally {
        done();
      }
    });
  }
}

const deliveryId = (consumer: string, event: DomainEvent) => `${consumer}~${event.id}`;
