import { lookupProduct } from '../catalog/service';
import { readBranding } from '../account/branding';
import { negotiateLocale } from '../platform/i18n/locales';
import { translator } from '../platform/i18n/translator';
import { findCustomerOfEmail } from '../sales/lookups';
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
    // The buyer's language: saved at their checkout, else the seller's default, else English.
    const [customer, branding] = await Promise.all([findCustomerOfEmail(deps, scope, data.account.email), readBranding(deps, scope)]);
    const t = translator(negotiateLocale({ saved: customer?.locale, sellerDefault: branding.locale }));
    try {
      await deps.ports.email.send({
        to: [data.account.email],
        subject: t.t('credits.subject', { product: name }),
        text: `${t.t('credits.body', { product: name, reason })} ${t.t('credits.paused')}`,
        html: `<p>${t.html('credits.body', { product: { __html: `<strong>${escapeHtml(name)}</strong>` }, reason })}</p><p>${t.html('credits.paused')}</p>`,
      });
    } catch (error) {
      // Seen (logged, counted, alarmed), then thrown: the rule retries the event, then dead-letters it.
      reportRefusal('credit-paused', error, false);
      throw error;
    }
    await deps.store.put(consumerMarkerEntity.item(consumerMarkerEntity.declaration.key('credit-refill-email', event.id), { eventId: event.id }, { expiresAt: event.created + MARKER_DAYS * 24 * 3600 }));
  },
};
