import { consumerMarkerEntity } from '../platform/entities';
import { ConditionFailed, type Store } from '../store/store';

const MARKER_TTL_SECONDS = 7 * 24 * 3600;

/**
 * Claims the sending of one event's mail: true for the first caller, false for any redelivery.
 * Written before the mail is handed over, so a mail goes at most once per event.
 */
export async function claimMail(store: Store, consumer: string, eventId: string, created: number): Promise<boolean> {
  try {
    await store.put(consumerMarkerEntity.item(consumerMarkerEntity.declaration.key(consumer, eventId), { eventId }, { expiresAt: created + MARKER_TTL_SECONDS }), { ifNotExists: true });
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
}

/** Gives the claim back when the provider refused the mail, so the bus's retry sends it. */
export const releaseMail = (store: Store, consumer: string, eventId: string) => store.delete(consumerMarkerEntity.declaration.key(consumer, eventId));
