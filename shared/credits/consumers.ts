import { lookupProduct } from '../catalog/service';
import { readBranding } from '../account/branding';
import { negotiateLocale } from '../platform/i18n/locales';
import { loadTranslator, type Translator } from '../platform/i18n/translator';
import { findCustomerOfEmail } from '../sales/lookups';
import { consumerMarkerEntity } from '../platform/entities';
import type { BusConsumer } from '../platform/capability';
import { reportRefusal } from '../platform-mail/send';
import type { Deps } from '../platform/context';
import { randomBase62 } from '../platform/ids';
import type { Scope } from '../store/keys';
import { onConditionFailed } from '../store/conditional';
import { creditLinkUrl } from './links';
import type { CreditAccountRecord } from './records';
import { creditAccountPut, creditLinkPut, getCreditAccount } from './repository';
import { markerSeen } from '../platform/markers';
import { escapeHtml } from '../platform/html';

const MARKER_DAYS = 7;
// The name from when it sent only the paused mail, kept so its bus rule, function and
// dead-letter queue keep their logical ids (and the markers of events it already mailed).
const CREDIT_MAILS = 'credit-refill-email';

/**
 * The buyer's balance link, made now for an account from before links existed. Written like any
 * change of the account (guarded by the balance and `updatedAt` read), so a racing deduction
 * retries on top of it instead of writing the account back without it.
 */
async function consentTokenOf(deps: Deps, scope: Scope, id: string): Promise<{ account: CreditAccountRecord; token: string } | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const account = await getCreditAccount(deps.store, scope, id);
    if (!account) return undefined;
    if (account.consentToken) return { account, token: account.consentToken };
    const next: CreditAccountRecord = { ...account, consentToken: randomBase62(32), updatedAt: deps.clock.now().toISOString() };
    if (
      await onConditionFailed(
        deps.store.transact([creditAccountPut(scope, next, account), creditLinkPut(scope, next.consentToken!, id)]).then(() => true),
        () => false,
      )
    ) {
      return { account: next, token: next.consentToken! };
    }
  }
  throw new Error(`credit account ${id} kept changing while its balance link was made`);
}

type Mail = { subject: string; text: string; html: string };

/** The words of each credit mail, in the buyer's language; every one carries the buyer's balance link (where auto top-ups are turned off). */
function creditMail(
  type: string,
  name: string,
  link: string,
  data: { failureMessage?: string; topOffCents?: number | null; currency: string },
  t: Translator,
): Mail | undefined {
  const product = { __html: `<strong>${escapeHtml(name)}</strong>` };
  const linkText = `${t.t('credits.link')}: ${link}`;
  const linkHtml = `<p><a href="${escapeHtml(link)}">${t.html('credits.link')}</a></p>`;
  switch (type) {
    case 'credit.auto_refill.failed': {
      const reason = data.failureMessage ?? 'declined';
      return {
        subject: t.t('credits.subject', { product: name }),
        text: `${t.t('credits.body', { product: name, reason })} ${t.t('credits.paused')}\n\n${linkText}`,
        html: `<p>${t.html('credits.body', { product, reason })}</p><p>${t.html('credits.paused')}</p>${linkHtml}`,
      };
    }
    case 'credit.consent.enabled': {
      const amount = data.topOffCents ? t.money(data.topOffCents, data.currency) : 'none';
      return {
        subject: t.t('credits.onSubject', { product: name }),
        text: `${t.t('credits.onBody', { product: name, amount })} ${t.t('credits.onTurnOff')}\n\n${linkText}`,
        html: `<p>${t.html('credits.onBody', { product, amount })}</p><p>${t.html('credits.onTurnOff')}</p>${linkHtml}`,
      };
    }
    case 'credit.consent.disabled':
      return {
        subject: t.t('credits.offSubject', { product: name }),
        text: `${t.t('credits.offBody', { product: name })}\n\n${t.t('credits.balance')}: ${link}`,
        html: `<p>${t.html('credits.offBody', { product })}</p><p><a href="${escapeHtml(link)}">${t.html('credits.balance')}</a></p>`,
      };
  }
  return undefined;
}

/**
 * The buyer's credit mails: auto top-ups switched on (at checkout) or off, and a balance paused
 * after a failed top-off. Each runs from its committed event, so a crash after the write cannot
 * lose it; the marker written after sending stops a redelivered event from mailing twice (at
 * worst, a crash between the two sends it twice, never zero times). Every mail carries the
 * buyer's balance link, where auto top-ups are turned off.
 */
export const creditEmailConsumer: BusConsumer = {
  name: CREDIT_MAILS,
  needs: ['table', 'email'],
  eventTypes: ['credit.auto_refill.failed', 'credit.consent.enabled', 'credit.consent.disabled'],
  handle: async (event, deps) => {
    if (await markerSeen(deps, CREDIT_MAILS, event.id, event.created)) return;
    const data = event.data as { account: { id: string; email: string; productId: string }; failureMessage?: string };
    const scope = { accountId: event.accountId, mode: event.mode };
    const held = await consentTokenOf(deps, scope, data.account.id);
    if (!held) return; // the account is gone: nobody to write to about it
    const product = await lookupProduct(deps, scope, data.account.productId);
    const topOffCents = product?.creditAutoRefill?.enabled ? product.creditAutoRefill.topOffCents : null;
    // The buyer's language: saved at their checkout, else the seller's default, else English.
    const [customer, branding] = await Promise.all([findCustomerOfEmail(deps, scope, data.account.email), readBranding(deps, scope)]);
    const t = await loadTranslator(negotiateLocale({ saved: customer?.locale, sellerDefault: branding.locale }));
    const mail = creditMail(
      event.type,
      product?.name ?? 'credits',
      creditLinkUrl(deps.config.PUBLIC_BASE_URL ?? '', held.token),
      { failureMessage: data.failureMessage, topOffCents, currency: held.account.currency },
      t,
    );
    if (!mail) return;
    try {
      await deps.ports.email.send({ to: [data.account.email], ...mail });
    } catch (error) {
      // Seen (logged, counted, alarmed), then thrown: the rule retries the event, then dead-letters it.
      reportRefusal('credit-paused', error, false);
      throw error;
    }
    await deps.store.put(
      consumerMarkerEntity.item(
        consumerMarkerEntity.declaration.key(CREDIT_MAILS, event.id),
        { eventId: event.id },
        { expiresAt: event.created + MARKER_DAYS * 24 * 3600 },
      ),
    );
  },
};
