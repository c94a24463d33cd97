import { consumerMarkerEntity } from '../platform/entities';
import type { TransactOp } from '../store/store';

const MARKER_TTL_SECONDS = 7 * 24 * 3600;

/**
 * The claim on one event's mail, written in the transaction that queues the mail: the first
 * delivery of the event writes both, a redelivery fails the claim's condition and queues nothing.
 */
export const claimMailOp = (consumer: string, eventId: string, created: number): TransactOp => ({
  put: consumerMarkerEntity.item(consumerMarkerEntity.declaration.key(consumer, eventId), { eventId }, { expiresAt: created + MARKER_TTL_SECONDS }),
  condition: 'attribute_not_exists(PK)',
});
