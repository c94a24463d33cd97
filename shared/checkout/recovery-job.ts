import { sellerBrand } from '../account/branding';
import { prepareTransactional } from '../email/outbox';
import type { JobHandler } from '../platform/capability';
import type { Job } from '../platform/ports';
import type { Deps } from '../platform/context';
import { newEvent, outboxPut } from '../platform/events';
import { randomBase62 } from '../platform/ids';
import { logger } from '../platform/logger';
import { negotiateLocale } from '../platform/i18n/locales';
import { loadTranslator } from '../platform/i18n/translator';
import { findCustomerOfEmail } from '../sales/lookups';
import { isConditionFailed } from '../store/conditional';
import { abandonedEventData } from './events';
import type { CheckoutSessionRecord, RecoveryLinkRecord } from './records';
import { recoveryMail } from './recovery-mail';
import { LINK_VALID_MS, recoveryDecision } from './recovery-rules';
import { JOB_CHECKOUT_RECOVERY, RECOVERY_PATH, recoverySettings } from './recovery-timer';
import { getSession, recoveryLinkPut, sessionAbandoned } from './repository';

/**
 * The abandoned-checkout timer's job, apart from the link and settings (recovery.ts) so that the
 * jobs function does not bundle the processor: when an unpaid session's timer fires, one
 * `checkout.abandoned` event and one mail in the buyer's language with a link back, committed
 * with the session's mark in one transaction (a second run, or a payment meanwhile, fails it).
 */

const baseOf = (deps: Pick<Deps, 'config'>, session: CheckoutSessionRecord) => {
  if (deps.config.PUBLIC_BASE_URL) return deps.config.PUBLIC_BASE_URL.replace(/\/$/, '');
  try {
    return new URL(session.url).origin;
  } catch {
    return '';
  }
};

/** The timer's job: the session is abandoned unless paid, bought otherwise, or recovery is off. */
export async function checkoutRecoveryJob(job: Job, deps: Deps): Promise<void> {
  const sessionId = job.payload.sessionId;
  if (!job.scope || typeof sessionId !== 'string') return;
  const scope = job.scope;
  const session = await getSession(deps.store, scope, sessionId);
  if (!session) return;
  const settings = await recoverySettings(deps, scope);
  const customer = session.customerEmail ? await findCustomerOfEmail(deps, scope, session.customerEmail) : undefined;
  const decision = recoveryDecision(session, settings, Boolean(customer?.productIds.includes(session.productId)));
  if (decision !== 'mail') {
    logger.info('abandoned-checkout timer: no mail', { sessionId, decision });
    return;
  }
  const email = session.customerEmail!;
  const now = deps.clock.now();
  const base = baseOf(deps, session);
  const link: RecoveryLinkRecord = {
    token: randomBase62(40),
    accountId: scope.accountId,
    mode: scope.mode,
    sessionId,
    validUntil: new Date(now.getTime() + LINK_VALID_MS).toISOString(),
  };
  const url = `${base}${RECOVERY_PATH}/${link.token}`;
  const brand = await sellerBrand(deps, scope, base);
  const locale = negotiateLocale({ saved: session.buyerLocale ?? customer?.locale, sellerDefault: brand.locale });
  const content = recoveryMail(await loadTranslator(locale), {
    brand,
    productName: session.productName,
    url,
    discountCode: settings.discountCode,
    testMode: scope.mode === 'test',
  });
  // Suppressed and unsubscribed addresses are left out here: then no mail, the event still tells the seller.
  const queued = await prepareTransactional(deps, scope, { to: [email], ...content, baseUrl: base, track: false, source: 'api' });
  const event = newEvent(
    scope,
    deps.clock,
    'checkout.abandoned',
    abandonedEventData(session, { email, discountCode: settings.discountCode, recoveryUrl: url, emailSent: queued.ops.length > 0 }),
  );
  try {
    await deps.store.transact([
      sessionAbandoned(scope, sessionId, now.toISOString()),
      recoveryLinkPut(link, Math.floor(Date.parse(link.validUntil) / 1000) + 24 * 3600),
      ...queued.ops,
      outboxPut(event),
    ]);
  } catch (error) {
    // Paid (or handled by a second run of this job) between the read and the write.
    if (!isConditionFailed(error)) throw error;
  }
}

export const checkoutJobs: Record<string, JobHandler> = { [JOB_CHECKOUT_RECOVERY]: checkoutRecoveryJob };
