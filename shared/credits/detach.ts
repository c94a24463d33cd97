import type { BusConsumer } from '../platform/capability';
import { logger } from '../platform/logger';

/**
 * Detaches the card at the processor once consent is withdrawn (the committed
 * `credit.consent.disabled`). Our own record already stops every top-off; this makes the processor
 * forget the card too. A refusal throws: the bus retries, then the rule's dead-letter queue alarms.
 */
export const creditConsentDetachConsumer: BusConsumer = {
  name: 'credit-consent-detach',
  needs: ['table', 'encryption'],
  eventTypes: ['credit.consent.disabled'],
  handle: async (event, deps) => {
    const paymentMethodId = (event.data as { paymentMethodId?: string | null }).paymentMethodId;
    if (!paymentMethodId) return;
    const scope = { accountId: event.accountId, mode: event.mode };
    try {
      await deps.ports.processor.detachSavedCard!(scope, paymentMethodId);
    } catch (error) {
      logger.warn('credits: saved card not detached yet', { eventId: event.id, error: error as Error });
      throw error;
    }
  },
};
