import { consumerMarkerEntity } from '../platform/entities';
import type { Key } from '../store/keys';

/**
 * The claim on one event's mail that releases before mail ids derived from the event wrote in the
 * transaction that queued the mail (kept 7 days). Read for events from before the switch only
 * (send.ts): such an event may come again after the upgrade.
 */
export const claimMarkerKey = (consumer: string, eventId: string): Key => consumerMarkerEntity.declaration.key(consumer, eventId);
