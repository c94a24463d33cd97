import type { PrivacyPart } from '../platform/privacy';
import { withoutEmail } from '../platform/privacy';
import { eventsMentioningPage, outboxPartitions, rewriteEvent } from './repository';

/**
 * The outbox (GET /events, 30 days): every event that names the buyer loses the address and the
 * names beside it; amounts, ids and types stay. Not exported: events copy what the other parts
 * export. The stream ignores the rewrite (only inserts are dispatched), so nothing is resent.
 */
const eventsPart: PrivacyPart = {
  name: 'events',
  async erase(deps, scope, subject) {
    for (const partition of outboxPartitions(scope)) {
      let cursor: string | undefined;
      do {
        const page = await eventsMentioningPage(deps.store, partition, subject.email, cursor);
        for (const event of page.items) {
          const text = withoutEmail(event.text, subject.email);
          if (text !== undefined) await rewriteEvent(deps.store, event.key, text);
        }
        cursor = page.cursor;
      } while (cursor);
    }
  },
};

export const eventsPrivacy: PrivacyPart[] = [eventsPart];
