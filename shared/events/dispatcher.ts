import type { BusPort } from '../platform/ports';
import { eventFromItem, type DomainEvent } from '../platform/events';

/**
 * The outbox dispatcher: turns the table's stream records into bus events. Only inserts of outbox
 * items count; a record seen twice is published twice and consumers drop the copy by event id.
 */
export function eventsFromStreamImages(images: { eventName?: string; newImage?: Record<string, unknown> }[]): DomainEvent[] {
  const events: DomainEvent[] = [];
  for (const image of images) {
    if (image.eventName !== 'INSERT' || !image.newImage) continue;
    const event = eventFromItem(image.newImage);
    if (event) events.push(event);
  }
  return events;
}

export async function dispatchStreamImages(bus: BusPort, images: { eventName?: string; newImage?: Record<string, unknown> }[]): Promise<number> {
  const events = eventsFromStreamImages(images);
  if (events.length) await bus.publish(events);
  return events.length;
}
