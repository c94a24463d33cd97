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
}

/**
 * In-process stand-in for EventBridge: the same consumers and type patterns, asynchronous
 * delivery, and retries on failure as Lambda's asynchronous invocation would do. With a data
 * folder each (consumer, event) pair is on disk before `publish` returns (so the stream position
 * moves on only once its events are kept) and leaves when the consumer succeeded; `resume()`
 * delivers what a crash left.
 */
export class LocalBus implements BusPort {
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

  private deliver(consumer: BusConsumer, event: DomainEvent, attempt: number) {
    const done = this.work.begin();
    setImmediate(async () => {
      try {
        await consumer.handle(event, this.deps());
        await this.spool.remove(deliveryId(consumer.name, event));
      } catch (error) {
        const delay = RETRY_DELAYS_MS[attempt];
        if (delay === undefined) {
          logger.error('bus consumer gave up', { consumer: consumer.name, eventId: event.id, error: error as Error });
          await this.spool.bury(deliveryId(consumer.name, event), { consumer: consumer.name, event }).catch(() => undefined);
        } else {
          const retryDone = this.work.begin();
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
