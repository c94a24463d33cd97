import { sellerBrand } from '../account/branding';

import { negotiateLocale } from '../platform/i18n/locales';
import { loadTranslator } from '../platform/i18n/translator';
import { findCustomerOfEmail } from '../sales/lookups';
import { prepareTransactional } from '../email/outbox';
import type { BusConsumer } from '../platform/capability';
import { toCents } from '../platform/money';
import { isConditionFailed } from '../store/conditional';
import type { Scope } from '../store/keys';
import { onInvoicePaid, onSubscriptionCreated } from './intro-yearly';
import { onRenewalFailed, onRenewalPaid, readRecoverySettings } from './recovery';
import * as repo from './repository';
import { escapeHtml } from '../platform/html';

/** Failed and paid renewals drive the recovery cases (idempotent on the event id). */
export const recoveryConsumer: BusConsumer = {
  name: 'retention-recovery',
  needs: ['table', 'scheduler'],
  eventTypes: ['invoice.payment_failed', 'invoice.payment_succeeded'],
  handle: async (event, deps) => {
    if (event.type === 'invoice.payment_failed') await onRenewalFailed(deps, event);
    else await onRenewalPaid(deps, event);
  },
};

const MAIL_CONSUMER = 'retention-recovery-mail';

/**
 * Once per recovery, at its start: the buyer gets a mail with the portal link to update the card,
 * when the seller asked for it. The mail is queued for the email worker in the transaction that
 * writes the event's marker, so a redelivery queues nothing.
 */
export const recoveryMailConsumer: BusConsumer = {
  name: 'retention-recovery-mail',
  needs: ['table'],
  eventTypes: ['subscription.payment_failed'],
  handle: async (event, deps) => {
    const data = event.data as {
      customer?: { email?: string };
      subscription?: { name?: string };
      recovery?: { attempt?: number; amount?: number; currency?: string; nextRetryAt?: string | null };
      portalUrl?: string;
    };
    const recovery = data.recovery ?? {};
    if (recovery.attempt !== 1 || !data.customer?.email) return;
    const scope: Scope = { accountId: event.accountId, mode: event.mode };
    if (!(await readRecoverySettings(deps, scope)).emailBuyer) return;
    if (await repo.hasEventMarker(deps.store, scope, MAIL_CONSUMER, event.id)) return;
    const portalUrl = typeof (recovery as Record<string, unknown>).portalUrl === 'string' ? String((recovery as Record<string, unknown>).portalUrl) : null;
    const base = deps.config.PUBLIC_BASE_URL?.replace(/\/$/, '') ?? (portalUrl ? new URL(portalUrl).origin : '');
    const brand = await sellerBrand(deps, scope, base);
    // The buyer's language: saved at their checkout, else the seller's default, else English.
    const t = await loadTranslator(
      negotiateLocale({ saved: (await findCustomerOfEmail(deps, scope, data.customer.email))?.locale, sellerDefault: brand.locale }),
    );
    const name = data.subscription?.name || t.t('portal.yourSubscription');
    const total = t.money(toCents(Number(recovery.amount ?? 0)), recovery.currency ?? 'USD');
    const retry = recovery.nextRetryAt ? ` ${t.t('failed.retryOn', { date: t.date(recovery.nextRetryAt) })}` : '';
    const queued = await prepareTransactional(deps, scope, {
      to: [data.customer.email],
      subject: t.t('renewal.subject', { product: name }),
      preview: t.t('renewal.preview', { amount: total }),
      html: [
        `<h1>${t.html('renewal.heading')}</h1>`,
        `<p>${t.html('renewal.body', { amount: total, product: { __html: `<strong>${escapeHtml(name)}</strong>` } })}${escapeHtml(retry)}</p>`,
        portalUrl ? `<p>${t.html('renewal.update', { link: { __html: `<a href="${escapeHtml(portalUrl)}">${t.html('failed.updateCard')}</a>` } })}</p>` : '',
      ].join('\n'),
      text: [
        `${t.t('renewal.heading')}.`,
        `${t.t('renewal.body', { amount: total, product: name })}${retry}`,
        portalUrl ? t.t('mail.line', { label: t.t('failed.updateCard'), value: portalUrl }) : '',
      ]
        .filter(Boolean)
        .join('\n\n'),
      source: 'retention',
      locale: t.locale,
      baseUrl: base,
    });
    await deps.store.transact([repo.eventMarkerPut(scope, MAIL_CONSUMER, event.id, Math.floor(deps.clock.nowMs() / 1000)), ...queued.ops]).catch((error) => {
      if (!isConditionFailed(error)) throw error;
    });
  },
};

/** Intro pricing for new subscribers, and the payment count behind the yearly-switch prompt. */
export const introYearlyConsumer: BusConsumer = {
  name: 'retention-intro-yearly',
  needs: ['table'],
  eventTypes: ['customer.subscription.created', 'invoice.payment_succeeded'],
  handle: async (event, deps) => {
    if (event.type === 'customer.subscription.created') await onSubscriptionCreated(deps, event);
    else await onInvoicePaid(deps, event);
  },
};
