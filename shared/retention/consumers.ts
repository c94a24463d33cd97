import { sellerBrand } from '../account/branding';
import { escapeHtml as esc, formatMoney } from '../account/buyer-page';
import { prepareTransactional } from '../email/outbox';
import type { BusConsumer } from '../platform/capability';
import { toCents } from '../platform/money';
import { isConditionFailed } from '../store/conditional';
import type { Scope } from '../store/keys';
import { onInvoicePaid, onSubscriptionCreated } from './intro-yearly';
import { onRenewalFailed, onRenewalPaid, readRecoverySettings } from './recovery';
import * as repo from './repository';

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
    const data = event.data as { customer?: { email?: string }; subscription?: { name?: string }; recovery?: { attempt?: number; amount?: number; currency?: string; nextRetryAt?: string | null }; portalUrl?: string };
    const recovery = data.recovery ?? {};
    if (recovery.attempt !== 1 || !data.customer?.email) return;
    const scope: Scope = { accountId: event.accountId, mode: event.mode };
    if (!(await readRecoverySettings(deps, scope)).emailBuyer) return;
    if (await repo.hasEventMarker(deps.store, scope, MAIL_CONSUMER, event.id)) return;
    const portalUrl = typeof (recovery as Record<string, unknown>).portalUrl === 'string' ? String((recovery as Record<string, unknown>).portalUrl) : null;
    const base = deps.config.PUBLIC_BASE_URL?.replace(/\/$/, '') ?? (portalUrl ? new URL(portalUrl).origin : '');
    const brand = await sellerBrand(deps, scope, base);
    const name = data.subscription?.name || 'your subscription';
    const total = formatMoney(toCents(Number(recovery.amount ?? 0)), recovery.currency ?? 'USD');
    const retry = recovery.nextRetryAt ? ` We will try again on ${new Date(recovery.nextRetryAt).toUTCString().slice(0, 16)}.` : '';
    const queued = await prepareTransactional(deps, scope, {
      to: [data.customer.email],
      subject: `Please update your card to keep ${name}`,
      preview: `Your renewal of ${total} did not go through.`,
      html: [
        `<h1>Your renewal did not go through</h1>`,
        `<p>We could not charge ${esc(total)} for <strong>${esc(name)}</strong>.${esc(retry)}</p>`,
        portalUrl ? `<p><a href="${esc(portalUrl)}">Update your card</a> so that your subscription continues.</p>` : '',
      ].join('\n'),
      text: [`Your renewal did not go through.`, `We could not charge ${total} for ${name}.${retry}`, portalUrl ? `Update your card: ${portalUrl}` : ''].filter(Boolean).join('\n\n'),
      source: 'retention',
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
