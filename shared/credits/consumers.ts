import { lookupProduct } from '../catalog/service';
import { consumerMarkerEntity } from '../platform/entities';
import type { BusConsumer } from '../platform/capability';
import { reportRefusal } from '../platform-mail/send';

const MARKER_DAYS = 7;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Tells the buyer their balance is paused after a failed top-off. It runs from the committed
 * `credit.auto_refill.failed` event, so a crash after the write cannot lose the mail; the marker
 * written after sending stops a redelivered event from mailing twice (at worst, a crash between
 * the two sends it twice, never zero times).
 */
export const creditRefillEmailConsumer: BusConsumer = {
  name: 'credit-refill-email',
  needs: ['table', 'email'],
  eventTypes: ['credit.auto_refill.failed'],
  handle: async (event, deps) => {
    if (await consumerMarkerEntity.get(deps.store, 'byEvent', 'credit-refill-email', event.id)) return;
    const data = event.data as { account: { email: string; productId: string }; failureMessage?: string };
    const scope = { accountId: event.accountId, mode: event.mode };
    const product = await lookupProduct(deps, scope, data.account.productId);
    const name = product?.name ?? 'credits';
    const reason = data.failureMessage ?? 'declined';
    try {
      await deps.ports.email.send({
        to: [data.account.email],
        subject: `Your ${name} balance is paused`,
        text: `We could not charge your saved card for the ${name} top-off (${reason}). Your balance is paused until you buy more credits.`,
        html: `<p>We could not charge your saved card for the <strong>${escapeHtml(name)}</strong> top-off (${escapeHtml(reason)}).</p><p>Your balance is paused until you buy more credits.</p>`,
      });
    } catch (error) {
      // Seen (logged, counted, alarmed), then thrown: the rule retries the event, then dead-letters it.
      reportRefusal('credit-paused', error, false);
      throw error;
    }
    await deps.store.put(consumerMarkerEntity.item(consumerMarkerEntity.declaration.key('credit-refill-email', event.id), { eventId: event.id }, { expiresAt: event.created + MARKER_DAYS * 24 * 3600 }));
  },
};
