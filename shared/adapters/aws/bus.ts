import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { lazily, type AwsPortEnv } from './env';
import type { BusPort } from '../../platform/ports';
import type { DomainEvent } from '../../platform/events';

export const EVENT_SOURCE = 'creator-commerce';

/** EventBridge: detail-type is the event type, so bus rules match on it. */
export class EventBridgeBus implements BusPort {
  constructor(
    private readonly client: Pick<EventBridgeClient, 'send'>,
    private readonly busName: string,
  ) {}

  async publish(events: DomainEvent[]): Promise<void> {
    for (let i = 0; i < events.length; i += 10) {
      const batch = events.slice(i, i + 10);
      const out = await this.client.send(
        new PutEventsCommand({
          Entries: batch.map((event) => ({ EventBusName: this.busName, Source: EVENT_SOURCE, DetailType: event.type, Detail: JSON.stringify(event) })),
        }),
      );
      // A partial failure must fail the stream batch so the records are retried, never dropped.
      if (out.FailedEntryCount) throw new Error(`EventBridge refused ${out.FailedEntryCount} of ${batch.length} events`);
    }
  }
}

/** The bus port (only the outbox dispatcher publishes). */
export function awsBusPort(env: AwsPortEnv): BusPort {
  const bus = lazily(() => new EventBridgeBus(new EventBridgeClient({ region: env.config.AWS_REGION }), env.config.EVENT_BUS_NAME));
  return { publish: (events) => bus().publish(events) };
}
