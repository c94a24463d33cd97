import { createHash } from 'node:crypto';
import type { Deps } from '../../platform/context';
import { prefixedId, randomBase62 } from '../../platform/ids';
import { isConditionFailed, onConditionFailed, putNew } from '../../store/conditional';
import type { Scope } from '../../store/keys';
import type { TransactOp } from '../../store/store';
import * as repo from './repository';
import { addDays, addInterval, cardBrand, cardOutcome, RETRY_DELAYS_DAYS } from './periods';
import { JOB_DELIVER, JOB_RENEW, SBX, type SandboxCardUpdate, type SandboxCheckout, type SandboxMembership, type SandboxNotification, type SandboxPayment } from './records';
import { SANDBOX_SIGNING_SECRET, SIGNATURE_HEADER, verify } from './signing';
import { eraseSandboxBuyer } from './erase';
import {
  ProcessorError,
  type Buyer,
  type CreateCheckoutInput,
  type LiveMembership,
  type LivePayment,
  type MembershipAdjustment,
  type PaymentMethod,
  type RecoveryPolicy,
  type PayInput,
  type PayResult,
  type PaymentClaim,
  type ProcessorPort,
  type RefusableOperation,
  type MembershipChargeInput,
} from '../../processor/port';

const CARD_UPDATE_TTL_MS = 60 * 60 * 1000;
const renewTimer = (membershipId: string) => `sbx-renew-${membershipId}`;

/**
 * The simulated tax of a sandbox checkout (processor settings `tax.simulatedRatePercent`): the
 * rate on top of the price, as Stripe Tax reports it (a test stand-in, not a tax engine).
 */
function simulatedTax(checkout: SandboxCheckout, amountCents: number, vatNumber: string | undefined) {
  const rate = checkout.tax?.simulatedRatePercent;
  if (!rate || amountCents <= 0) return null;
  return { amountCents: Math.round((amountCents * rate) / 100), ratePercent: rate, vatNumber: vatNumber?.trim() || null };
}

/**
 * The sandbox processor: a real part of the product, like a payment provider's test mode. It keeps
 * its own records in the table (SBX_* entities under the tenant scope, and the hosted checkout as a
 * capability item), charges test cards, renews memberships on the period boundary through the
 * scheduler, and reports everything that happens on its side as signed notifications posted to the
 * processor ingress route, exactly as a live processor would. Notifications are recorded in the
 * same transaction as the change they report and delivered by the jobs queue, retried until the
 * ingress accepts them.
 */

/** A succeeded sandbox payment: a first charge, a renewal, a saved-card or a usage charge. */
const succeededPayment = (p: { amountCents: number; currency: string; membershipId: string | null; paymentMethod: PaymentMethod | null; notifyUrl: string | null; at: string }): SandboxPayment => ({
  id: prefixedId('pay'),
  amountCents: p.amountCents,
  refundedCents: 0,
  currency: p.currency,
  status: 'succeeded',
  membershipId: p.membershipId,
  paymentMethod: p.paymentMethod,
  notifyUrl: p.notifyUrl,
  createdAt: p.at,
});

export class SandboxProcessor implements ProcessorPort {
  private readonly refusals = new Set<RefusableOperation>();

  constructor(private readonly deps: Deps) {}

  private get now() {
    return this.deps.clock.now();
  }

  /** Notifications it posted are signed with the deployment's sandbox secret (signing.ts). */
  async verifyNotification(headers: Record<string, string>, rawBody: string, nowSeconds: number) {
    return verify(await this.deps.ports.secrets.get(SANDBOX_SIGNING_SECRET), headers[SIGNATURE_HEADER], rawBody, nowSeconds);
  }

  refuseNext(operation: RefusableOperation): void {
    this.refusals.add(operation);
  }

  private refused(operation: RefusableOperation): boolean {
    return this.refusals.delete(operation);
  }

  // ---- hosted checkout ----

  async createCheckout(scope: Scope, input: CreateCheckoutInput) {
    const checkout: SandboxCheckout = {
      id: `cs_${randomBase62(32)}`,
      scope,
      sessionId: input.sessionId,
      kind: input.kind,
      description: input.description,
      amountCents: input.amountCents,
      currency: input.currency,
      interval: input.interval,
      trialDays: input.trialDays,
      offerSaveCard: input.offerSaveCard,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
      notifyUrl: input.notifyUrl,
      ...(input.tax?.simulatedRatePercent ? { tax: { simulatedRatePercent: input.tax.simulatedRatePercent } } : {}),
      planId: prefixedId('plan'),
      status: 'open',
      createdAt: this.now.toISOString(),
    };
    await this.deps.store.put(repo.checkoutItem(checkout), { ifNotExists: true });
    return { checkoutId: checkout.id, url: `${input.baseUrl}/processor/sandbox/checkout/${checkout.id}`, planId: checkout.planId };
  }

  async getCheckout(checkoutId: string): Promise<SandboxCheckout | undefined> {
    if (!/^cs_[0-9A-Za-z]{32}$/.test(checkoutId)) return undefined;
    return repo.getCheckout(this.deps.store, checkoutId);
  }

  async payCheckout(checkoutId: string, input: PayInput): Promise<PayResult> {
    const checkout = await this.getCheckout(checkoutId);
    if (!checkout) throw new ProcessorError('No such checkout', 'not_found');
    if (checkout.status === 'paid') return { status: 'already_paid', paymentId: checkout.paymentId, membershipId: checkout.membershipId, redirectUrl: checkout.successUrl };
    const digits = (input.cardNumber ?? '4242424242424242').replace(/[\s-]/g, '');
    const outcome = cardOutcome(digits);
    if (outcome === 'invalid') throw new ProcessorError('The card number is not valid', 'invalid');
    const charging = checkout.amountCents > 0 && !(checkout.kind === 'subscription' && checkout.trialDays);
    if (outcome === 'declines' || (charging && this.refused('charge'))) {
      return { status: 'declined', failureMessage: 'Your card was declined.', redirectUrl: undefined };
    }
    const card = this.cardFor(checkout.scope, input.buyer.email, digits);
    return this.complete(checkout, input.buyer, card, Boolean(input.saveCard && checkout.offerSaveCard), input.claim);
  }

  async completeFreeCheckout(checkoutId: string, buyer: Buyer, claim?: PaymentClaim): Promise<PayResult> {
    const checkout = await this.getCheckout(checkoutId);
    if (!checkout) throw new ProcessorError('No such checkout', 'not_found');
    if (checkout.amountCents !== 0) throw new ProcessorError('This checkout needs a card', 'invalid');
    if (checkout.status === 'paid') return { status: 'already_paid', redirectUrl: checkout.successUrl };
    return this.complete(checkout, buyer, null, false, claim);
  }

  private cardFor(scope: Scope, email: string, digits: string): PaymentMethod & { declines: boolean } {
    // Stable per card and buyer, like a processor's saved payment method id.
    const hash = createHash('sha256').update(`${scope.accountId}|${scope.mode}|${email.toLowerCase()}|${digits}`).digest('hex');
    const year = this.now.getUTCFullYear();
    return { id: `payt_${hash.slice(0, 24)}`, type: 'card', brand: cardBrand(digits), last4: digits.slice(-4), expMonth: 12, expYear: year + 3, declines: cardOutcome(digits) === 'declines' };
  }

  private async complete(
    checkout: SandboxCheckout,
    buyer: Buyer,
    card: (PaymentMethod & { declines: boolean }) | null,
    saveCard: boolean,
    claim: PaymentClaim | undefined,
  ): Promise<PayResult> {
    const { scope } = checkout;
    const now = this.now;
    const paymentMethod: PaymentMethod | null = card ? { id: card.id, type: 'card', brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear } : null;
    const ops: TransactOp[] = [];
    let payment: SandboxPayment | undefined;
    let membership: SandboxMembership | undefined;
    const trial = checkout.kind === 'subscription' && checkout.trialDays ? checkout.trialDays : 0;
    if (checkout.amountCents > 0 && !trial) {
      payment = {
        id: prefixedId('pay'),
        amountCents: checkout.amountCents,
        refundedCents: 0,
        currency: checkout.currency,
        status: 'succeeded',
        membershipId: null,
        paymentMethod,
        notifyUrl: checkout.notifyUrl,
        createdAt: now.toISOString(),
      };
    }
    if (checkout.kind === 'subscription') {
      const end = trial ? addDays(now, trial) : addInterval(now, checkout.interval ?? 'monthly');
      membership = {
        id: prefixedId('mem'),
        subscriptionId: prefixedId('sub'),
        planId: checkout.planId,
        status: trial ? 'trialing' : 'active',
        paused: false,
        cancelAtPeriodEnd: false,
        currentPeriodStart: now.toISOString(),
        currentPeriodEnd: end.toISOString(),
        trialEnd: trial ? end.toISOString() : null,
        amountCents: checkout.amountCents,
        currency: checkout.currency,
        interval: checkout.interval ?? 'monthly',
        failures: 0,
        declining: false,
        paymentMethod,
        notifyUrl: checkout.notifyUrl,
        createdAt: now.toISOString(),
      };
      if (payment) payment.membershipId = membership.id;
      ops.push(putNew(repo.membershipItem(scope, membership)));
    }
    if (payment) ops.push(putNew(repo.paymentItem(scope, payment)));
    if (card) ops.push({ put: repo.cardItem(scope, { ...card, email: buyer.email.toLowerCase(), saved: saveCard }) });
    ops.push({
      update: repo.checkoutKey(checkout.id),
      set: { status: 'paid', paymentId: payment?.id, membershipId: membership?.id },
      condition: '#status = :open',
      names: { '#status': 'status' },
      values: { ':open': 'open' },
    });
    const notification = this.notification(scope, 'checkout.completed', checkout.notifyUrl, {
      checkoutId: checkout.id,
      sessionId: checkout.sessionId,
      buyer: { email: buyer.email, firstName: buyer.firstName ?? null, lastName: buyer.lastName ?? null, country: buyer.country ?? null },
      paymentMethod,
      savedCard: saveCard,
      payment: payment ? { id: payment.id, amountCents: payment.amountCents, currency: payment.currency, planId: checkout.planId } : null,
      tax: simulatedTax(checkout, payment?.amountCents ?? 0, (buyer as { vatNumber?: string }).vatNumber),
      membership: membership
        ? { id: membership.id, status: membership.status, currentPeriodStart: membership.currentPeriodStart, currentPeriodEnd: membership.currentPeriodEnd, trialEnd: membership.trialEnd }
        : null,
    });
    ops.push(this.notificationPut(scope, notification));
    // The service's claim rides in the payment's transaction: both happen or neither does.
    if (claim) ops.push(...claim.ops);
    try {
      await this.deps.store.transact(ops);
    } catch (error) {
      if (isConditionFailed(error)) {
        const again = await this.getCheckout(checkout.id);
        if (again?.status === 'paid') return { status: 'already_paid', paymentId: again.paymentId, membershipId: again.membershipId, redirectUrl: checkout.successUrl };
        if (claim) throw new ProcessorError(claim.refusal.message, 'invalid', claim.refusal.code);
        return { status: 'already_paid', paymentId: again?.paymentId, membershipId: again?.membershipId, redirectUrl: checkout.successUrl };
      }
      throw error;
    }
    if (membership) await this.scheduleRenewal(scope, membership.id, new Date(membership.currentPeriodEnd));
    await this.enqueue(scope, notification.id);
    return { status: 'paid', paymentId: payment?.id, membershipId: membership?.id, redirectUrl: checkout.successUrl };
  }

  // ---- saved cards ----

  async chargeSavedCard(scope: Scope, input: { paymentMethodId: string; amountCents: number; currency: string; description: string }) {
    const card = await repo.getCard(this.deps.store, scope, input.paymentMethodId);
    if (!card || !card.saved) throw new ProcessorError('No such saved card', 'not_found');
    if (this.refused('charge') || card.declines) throw new ProcessorError('Your card was declined.', 'declined');
    const paymentMethod: PaymentMethod = { id: card.id, type: 'card', brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear };
    const payment = succeededPayment({ amountCents: input.amountCents, currency: input.currency, membershipId: null, paymentMethod, notifyUrl: null, at: this.now.toISOString() });
    await this.deps.store.put(repo.paymentItem(scope, payment), { ifNotExists: true });
    return { paymentId: payment.id, paymentMethod };
  }

  /** A buyer erased: see erase.ts. */
  async eraseBuyer(scope: Scope, buyer: { email: string; paymentMethodIds: string[] }): Promise<void> {
    await eraseSandboxBuyer(this.deps.store, scope, buyer);
  }

  /** Withdrawn consent: the card stays known (for reports) but is no longer saved for charges. */
  async detachSavedCard(scope: Scope, paymentMethodId: string): Promise<void> {
    const card = await repo.getCard(this.deps.store, scope, paymentMethodId);
    if (!card || !card.saved) return;
    await this.deps.store.put(repo.cardItem(scope, { ...card, saved: false }));
  }

  // ---- memberships ----

  /** A usage charge on the membership's card: declines while the card declines (control API). */
  async chargeMembership(scope: Scope, membershipId: string, input: MembershipChargeInput) {
    const m = await this.membership(scope, membershipId);
    if (this.refused('charge') || m.declining || !m.paymentMethod) throw new ProcessorError(m.paymentMethod ? 'Your card was declined.' : 'No payment method on file.', 'declined');
    const payment = succeededPayment({ amountCents: input.amountCents, currency: input.currency, membershipId: m.id, paymentMethod: m.paymentMethod, notifyUrl: m.notifyUrl, at: this.now.toISOString() });
    await this.deps.store.put(repo.paymentItem(scope, payment), { ifNotExists: true });
    return { paymentId: payment.id, paymentMethod: m.paymentMethod };
  }

  async setCardDeclining(scope: Scope, membershipId: string, declining: boolean): Promise<void> {
    const m = await this.membership(scope, membershipId);
    m.declining = declining;
    await this.saveMembership(scope, m);
  }

  // ---- card update ----

  /** A card-update page for the membership, valid for an hour and used once. */
  async cardUpdateSession(scope: Scope, membershipId: string, input: { returnUrl: string; baseUrl: string }) {
    const m = await this.membership(scope, membershipId);
    if (m.status === 'canceled') throw new ProcessorError('The membership has ended', 'invalid');
    const now = this.now;
    const session: SandboxCardUpdate = {
      id: `cu_${randomBase62(32)}`,
      scope,
      membershipId: m.id,
      returnUrl: input.returnUrl,
      status: 'open',
      validUntil: new Date(now.getTime() + CARD_UPDATE_TTL_MS).toISOString(),
      createdAt: now.toISOString(),
    };
    await this.deps.store.put(repo.cardUpdateItem(session), { ifNotExists: true });
    return { url: `${input.baseUrl}/processor/sandbox/card-update/${session.id}`, expiresAt: session.validUntil };
  }

  async getCardUpdate(sessionId: string): Promise<SandboxCardUpdate | undefined> {
    if (!/^cu_[0-9A-Za-z]{32}$/.test(sessionId)) return undefined;
    return repo.getCardUpdate(this.deps.store, sessionId);
  }

  /** The membership a card-update session is for, as the page shows it. */
  async cardUpdateMembership(session: SandboxCardUpdate): Promise<LiveMembership> {
    return this.getMembership(session.scope, session.membershipId);
  }

  /**
   * The buyer's new card from the card-update page. A card that declines is refused here, as a
   * processor's card setup would refuse it; an accepted card replaces the membership's card (and
   * clears a declining one), and a past-due membership is charged again at once with it.
   */
  async updateCard(sessionId: string, cardNumber: string): Promise<{ last4: string; retried: boolean }> {
    const session = await this.getCardUpdate(sessionId);
    if (!session || session.status !== 'open' || Date.parse(session.validUntil) <= this.now.getTime()) throw new ProcessorError('This card-update link has expired. Open it again from your subscription page.', 'not_found');
    const digits = cardNumber.replace(/[\s-]/g, '');
    const outcome = cardOutcome(digits);
    if (outcome === 'invalid') throw new ProcessorError('The card number is not valid', 'invalid');
    if (outcome === 'declines') throw new ProcessorError('This card was declined. Try another card; nothing changed.', 'declined');
    const { scope } = session;
    const m = await this.membership(scope, session.membershipId);
    if (m.status === 'canceled') throw new ProcessorError('The membership has ended', 'invalid');
    const id = createHash('sha256').update(`${scope.accountId}|${scope.mode}|${m.id}|${digits}`).digest('hex');
    m.paymentMethod = { id: `payt_${id.slice(0, 24)}`, type: 'card', brand: cardBrand(digits), last4: digits.slice(-4), expMonth: 12, expYear: this.now.getUTCFullYear() + 3 };
    m.declining = false;
    const retried = m.status === 'past_due' && !m.paused;
    await this.saveMembership(scope, m, [
      {
        update: repo.cardUpdateKey(session.id),
        set: { status: 'used', last4: m.paymentMethod.last4, retried },
        condition: '#status = :open',
        names: { '#status': 'status' },
        values: { ':open': 'open' },
      },
    ]);
    if (retried) {
      await this.scheduler().cancel(renewTimer(m.id));
      await this.charge(scope, m, false);
    }
    return { last4: m.paymentMethod.last4, retried };
  }

  private async membership(scope: Scope, id: string): Promise<SandboxMembership> {
    const record = /^mem_[0-9A-Za-z]{24}$/.test(id) ? await repo.getMembership(this.deps.store, scope, id) : undefined;
    if (!record) throw new ProcessorError('No such membership', 'not_found');
    return record;
  }

  private live(m: SandboxMembership): LiveMembership {
    return {
      id: m.id,
      // Memberships from before the sandbox named its subscriptions get a stable one from their id.
      subscriptionId: m.subscriptionId ?? `sub_${m.id.slice('mem_'.length)}`,
      status: m.status,
      paused: m.paused,
      cancelAtPeriodEnd: m.cancelAtPeriodEnd,
      currentPeriodStart: m.currentPeriodStart,
      currentPeriodEnd: m.currentPeriodEnd,
      trialEnd: m.trialEnd,
      amountCents: m.amountCents,
      currency: m.currency,
      interval: m.interval,
      retries: m.failures,
      paymentMethod: m.paymentMethod as PaymentMethod,
    };
  }

  private async saveMembership(scope: Scope, m: SandboxMembership, extra: TransactOp[] = []) {
    await this.deps.store.transact([{ put: repo.membershipItem(scope, m) }, ...extra]);
  }

  async getMembership(scope: Scope, membershipId: string) {
    return this.live(await this.membership(scope, membershipId));
  }

  async pauseMembership(scope: Scope, membershipId: string) {
    if (this.refused('pause')) throw new ProcessorError('The processor refused to pause this membership');
    const m = await this.membership(scope, membershipId);
    if (m.status === 'canceled') throw new ProcessorError('The membership has ended', 'invalid');
    m.paused = true;
    await this.saveMembership(scope, m);
    await this.scheduler().cancel(renewTimer(m.id));
    return this.live(m);
  }

  async resumeMembership(scope: Scope, membershipId: string) {
    if (this.refused('resume')) throw new ProcessorError('The processor refused to resume this membership');
    const m = await this.membership(scope, membershipId);
    const now = this.now;
    if (m.status === 'canceled') {
      if (new Date(m.currentPeriodEnd) <= now) throw new ProcessorError('The membership has ended', 'invalid');
      m.status = m.trialEnd && new Date(m.trialEnd) > now ? 'trialing' : 'active';
    }
    m.paused = false;
    m.cancelAtPeriodEnd = false;
    await this.saveMembership(scope, m);
    if (m.status !== 'past_due') {
      const end = new Date(m.currentPeriodEnd);
      await this.scheduleRenewal(scope, m.id, end > now ? end : now);
    }
    return this.live(m);
  }

  async cancelMembership(scope: Scope, membershipId: string, options: { atPeriodEnd: boolean }) {
    if (this.refused('cancel')) throw new ProcessorError('The processor refused to cancel this membership');
    const m = await this.membership(scope, membershipId);
    if (m.status === 'canceled') return this.live(m);
    if (options.atPeriodEnd) {
      m.cancelAtPeriodEnd = true;
      await this.saveMembership(scope, m);
    } else {
      m.status = 'canceled';
      m.cancelAtPeriodEnd = false;
      await this.saveMembership(scope, m);
      await this.scheduler().cancel(renewTimer(m.id));
    }
    return this.live(m);
  }

  // ---- retention: recovery policy and changes of coming renewals ----

  async setRecoveryPolicy(scope: Scope, policy: RecoveryPolicy | null): Promise<void> {
    await this.deps.store.put(repo.settingsItem(scope, { recovery: policy ? { retryDays: [...policy.retryDays] } : null }));
  }

  async adjustMembership(scope: Scope, membershipId: string, change: MembershipAdjustment): Promise<LiveMembership> {
    const m = await this.membership(scope, membershipId);
    if (m.status === 'canceled') throw new ProcessorError('The membership has ended', 'invalid');
    let reschedule = false;
    if (change.nextPayments) m.nextPayments = { amountCents: change.nextPayments.amountCents, remaining: change.nextPayments.payments };
    if (change.switchAtNextRenewal) m.switchAtRenewal = { ...change.switchAtNextRenewal };
    if (change.skipPeriods) {
      if (m.status === 'past_due' || m.paused) throw new ProcessorError('Only a membership in good standing can skip renewals', 'invalid');
      let end = new Date(m.currentPeriodEnd);
      for (let i = 0; i < change.skipPeriods; i++) end = addInterval(end, m.interval);
      m.currentPeriodEnd = end.toISOString();
      reschedule = true;
    }
    if (change.voidAndPause) {
      if (m.status !== 'past_due') throw new ProcessorError('Only a past-due membership has a renewal to void', 'invalid');
      Object.assign(m, { status: 'active', failures: 0, firstFailureAt: null, paused: true });
    }
    await this.saveMembership(scope, m);
    if (change.voidAndPause) await this.scheduler().cancel(renewTimer(m.id));
    if (reschedule) await this.scheduleRenewal(scope, m.id, new Date(m.currentPeriodEnd));
    return this.live(m);
  }

  /** The scheduler's renewal timer, and the retry timers after a failed charge. */
  async onRenewalDue(scope: Scope, membershipId: string): Promise<void> {
    let m: SandboxMembership;
    try {
      m = await this.membership(scope, membershipId);
    } catch {
      return;
    }
    if (m.status === 'canceled' || m.paused) return;
    const now = this.now;
    if (new Date(m.currentPeriodEnd) > now && m.status !== 'past_due') {
      // Fired early (rescheduled membership): wait for the real boundary.
      await this.scheduleRenewal(scope, m.id, new Date(m.currentPeriodEnd));
      return;
    }
    if (m.cancelAtPeriodEnd) {
      m.status = 'canceled';
      const notification = this.notification(scope, 'membership.canceled', m.notifyUrl, { membershipId: m.id, reason: 'period_end', canceledAt: now.toISOString() });
      await this.saveMembership(scope, m, [this.notificationPut(scope, notification)]);
      await this.enqueue(scope, notification.id);
      return;
    }
    await this.charge(scope, m, false);
  }

  async renewNow(scope: Scope, membershipId: string, outcome: 'succeed' | 'fail'): Promise<void> {
    const m = await this.membership(scope, membershipId);
    if (m.status === 'canceled') throw new ProcessorError('The membership has ended', 'invalid');
    m.declining = outcome === 'fail';
    await this.scheduler().cancel(renewTimer(m.id));
    await this.charge(scope, m, true);
  }

  private async charge(scope: Scope, m: SandboxMembership, forced: boolean): Promise<void> {
    const now = this.now;
    const billingReason = m.status === 'trialing' ? 'initial' : 'renewal';
    const refused = this.refused('charge');
    const ok = !refused && !m.declining && (m.amountCents === 0 || Boolean(m.paymentMethod));
    const ops: TransactOp[] = [];
    let notification: SandboxNotification;
    let nextTimer: Date | undefined;
    const recovered = m.status === 'past_due';
    // A switch of interval (yearly switch) starts with a new period, never on a retry of an old one.
    if (ok && !recovered && m.switchAtRenewal) {
      Object.assign(m, { interval: m.switchAtRenewal.interval, amountCents: m.switchAtRenewal.amountCents, switchAtRenewal: null });
    }
    const override = m.nextPayments && m.nextPayments.remaining > 0 ? m.nextPayments : null;
    const amountCents = override ? override.amountCents : m.amountCents;
    if (ok) {
      const start = forced || recovered ? now : new Date(m.currentPeriodEnd);
      const end = addInterval(start, m.interval);
      const payment = succeededPayment({ amountCents, currency: m.currency, membershipId: m.id, paymentMethod: m.paymentMethod, notifyUrl: m.notifyUrl, at: now.toISOString() });
      if (override) m.nextPayments = override.remaining > 1 ? { ...override, remaining: override.remaining - 1 } : null;
      Object.assign(m, { status: 'active', failures: 0, firstFailureAt: null, currentPeriodStart: start.toISOString(), currentPeriodEnd: end.toISOString() });
      ops.push(putNew(repo.paymentItem(scope, payment)));
      notification = this.notification(scope, 'charge.succeeded', m.notifyUrl, {
        membershipId: m.id,
        billingReason,
        recovered,
        payment: { id: payment.id, amountCents: payment.amountCents, currency: payment.currency, planId: m.planId },
        paymentMethod: m.paymentMethod,
        membership: { status: m.status, currentPeriodStart: m.currentPeriodStart, currentPeriodEnd: m.currentPeriodEnd },
      });
      nextTimer = end;
    } else {
      const failures = m.status === 'past_due' ? m.failures + 1 : 1;
      const firstFailureAt = m.status === 'past_due' && m.firstFailureAt ? new Date(m.firstFailureAt) : now;
      const policy = (await repo.getSettings(this.deps.store, scope))?.recovery;
      let final: boolean;
      let nextRetryAt: Date | null;
      if (policy) {
        // Recovery: retries on fixed days after the first failure; after the last one the
        // membership stays past due and the service applies its final action.
        const day = policy.retryDays[failures - 1];
        final = false;
        nextRetryAt = day === undefined ? null : addDays(firstFailureAt, day);
      } else {
        final = failures > RETRY_DELAYS_DAYS.length;
        nextRetryAt = final ? null : addDays(now, RETRY_DELAYS_DAYS[failures - 1]!);
      }
      Object.assign(m, { status: final ? 'canceled' : 'past_due', failures, firstFailureAt: firstFailureAt.toISOString() });
      notification = this.notification(scope, 'charge.failed', m.notifyUrl, {
        membershipId: m.id,
        billingReason,
        attempt: failures,
        final,
        nextRetryAt: nextRetryAt?.toISOString() ?? null,
        failureMessage: m.paymentMethod ? 'Your card was declined.' : 'No payment method on file.',
        declineCode: 'card_declined',
        amountCents,
        currency: m.currency,
        paymentMethod: m.paymentMethod,
      });
      nextTimer = nextRetryAt ?? undefined;
    }
    await this.saveMembership(scope, m, [...ops, this.notificationPut(scope, notification)]);
    if (nextTimer) await this.scheduleRenewal(scope, m.id, nextTimer);
    await this.enqueue(scope, notification.id);
  }

  // ---- payments ----

  private async paymentRecord(scope: Scope, paymentId: string): Promise<SandboxPayment> {
    const record = /^pay_[0-9A-Za-z]{24}$/.test(paymentId) ? await repo.getPayment(this.deps.store, scope, paymentId) : undefined;
    if (!record) throw new ProcessorError('No such payment', 'not_found');
    return record;
  }

  async getPayment(scope: Scope, paymentId: string): Promise<LivePayment> {
    const { notifyUrl: _n, ...live } = await this.paymentRecord(scope, paymentId);
    return live;
  }

  /**
   * Refunds race on the payment's refunded amount (a conditional write); the loser reads again
   * and is judged on what is left, so it refunds the rest or is refused, never fails.
   */
  async refund(scope: Scope, paymentId: string, amountCents?: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.refundOnce(scope, paymentId, amountCents);
      } catch (error) {
        // Each round one racer wins, so a crowd of them needs as many rounds.
        if (!isConditionFailed(error) || attempt >= 50) throw error;
        await new Promise((r) => setTimeout(r, Math.random() * 20));
      }
    }
  }

  private async refundOnce(scope: Scope, paymentId: string, amountCents?: number): Promise<void> {
    const p = await this.paymentRecord(scope, paymentId);
    const remaining = p.amountCents - p.refundedCents;
    const amount = amountCents ?? remaining;
    if (p.status === 'disputed') throw new ProcessorError('A disputed payment cannot be refunded', 'invalid');
    if (!Number.isInteger(amount) || amount <= 0 || amount > remaining) throw new ProcessorError(`Refund amount must be between 1 and ${remaining} cents`, 'invalid');
    const refundedCents = p.refundedCents + amount;
    const full = refundedCents === p.amountCents;
    const notification = this.notification(scope, 'payment.refunded', p.notifyUrl ?? '', {
      paymentId: p.id,
      refundId: prefixedId('re'),
      amountCents: amount,
      refundedCents,
      full,
      currency: p.currency,
    });
    await this.deps.store.transact([
      {
        update: repo.paymentKey(scope, p.id),
        set: { refundedCents, status: full ? 'refunded' : 'partially_refunded' },
        condition: 'refundedCents = :before',
        values: { ':before': p.refundedCents },
      },
      ...(p.notifyUrl ? [this.notificationPut(scope, notification)] : []),
    ]);
    if (p.notifyUrl) await this.enqueue(scope, notification.id);
  }

  async dispute(scope: Scope, paymentId: string): Promise<void> {
    const p = await this.paymentRecord(scope, paymentId);
    if (p.status === 'disputed') return;
    const notification = this.notification(scope, 'payment.disputed', p.notifyUrl ?? '', { paymentId: p.id, disputeId: prefixedId('dp'), amountCents: p.amountCents, currency: p.currency });
    await this.deps.store.transact([
      { update: repo.paymentKey(scope, p.id), set: { status: 'disputed' } },
      ...(p.notifyUrl ? [this.notificationPut(scope, notification)] : []),
    ]);
    if (p.notifyUrl) await this.enqueue(scope, notification.id);
  }

  // ---- notifications ----

  private notification(scope: Scope, type: string, notifyUrl: string, data: Record<string, unknown>): SandboxNotification {
    return { id: prefixedId('ntf'), type, accountId: scope.accountId, mode: scope.mode, created: Math.floor(this.deps.clock.nowMs() / 1000), data, notifyUrl, attempts: 0 };
  }

  private notificationPut(scope: Scope, notification: SandboxNotification): TransactOp {
    return putNew(repo.notificationItem(scope, notification));
  }

  private scheduler() {
    return this.deps.ports.scheduler;
  }

  private async scheduleRenewal(scope: Scope, membershipId: string, at: Date) {
    await this.scheduler().schedule(renewTimer(membershipId), at, { type: JOB_RENEW, scope, payload: { membershipId } });
  }

  /**
   * The notification is already recorded; a failed enqueue falls back to a scheduler timer so the
   * notification is still delivered.
   */
  private async enqueue(scope: Scope, notificationId: string) {
    const job = { type: JOB_DELIVER, scope, payload: { notificationId } };
    try {
      await this.deps.ports.queue.send('jobs', job);
    } catch {
      await this.scheduler().schedule(`sbx-deliver-${notificationId}`, this.now, job);
    }
  }
}
