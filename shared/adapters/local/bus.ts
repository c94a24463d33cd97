import type { BusPort } from '../../platform/ports';
import type { DomainEvent } from '../../platform/events';
import { logger } from '../../platform/logger';
import { matchesConsumer, type BusConsumer } from '../../platform/capability';
import type { Deps } from '../../platform/context';
import type { WorkTracker } from './work-tracker';

const RETRY_DELAYS_MS = [200, 1000, 3000];

/**
 * In-process stand-in for EventBridge: the same consumers and type patterns, asynchronous
 * delivery, and retries on failure as Lambda's asynchronous invocation would do.
 */
export class LocalBus implements BusPort {
  constructor(
    private readonly consumers: () => BusConsumer[],
    private readonly deps: () => Deps,
    private readonly work: WorkTracker,
  ) {}

  async publish(events: DomainEvent[]): Promise<void> {
    for (const event of events) {
      for (const consumer of this.consumers()) {
        if (matchesConsumer(consumer, event.type)) this.deliver(consumer, event, 0);
      }
    }
  }

  private deliver(consumer: BusConsumer, event: DomainEvent, attempt: number) {
    const done = this.work.begin();
    setImmediate(async () => {
      try {
        await consumer.handle(event, this.deps());
      } catch (error) {
        const delay = RETRY_DELAYS_MS[attempt];
        if (delay === undefined) logger.error('bus consumer gave up', { consumer: consumer.name, eventId: event.id, error: error as Error });
        else {
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
