import type { Deps } from '../../platform/context';
import {
  ProcessorError,
  type Buyer,
  type CreateCheckoutInput,
  type LiveMembership,
  type MembershipAdjustment,
  type MembershipChargeInput,
  type PayInput,
  type PayResult,
  type PaymentClaim,
  type ProcessorPort,
  type RecoveryPolicy,
  type RefusableOperation,
} from '../../processor/port';
import type { Scope } from '../../store/keys';
import * as cards from './card-sessions';
import * as checkouts from './checkout-flow';
import { eraseSandboxBuyer } from './erase';
import { cancelRenewal, liveMembership, loadMembership, saveMembership, scheduleRenewal, type SandboxCore } from './core';
import * as payments from './payments';
import type { SandboxCardUpdate, SandboxCheckout } from './records';
import * as renewals from './renewals';
import { SANDBOX_SIGNING_SECRET, SIGNATURE_HEADER, verify } from './signing';

/**
 * The sandbox processor: a real part of the product, like a payment provider's test mode. It keeps
 * its own records in the table (SBX_* entities under the tenant scope, and the hosted checkout as a
 * capability item), charges test cards, renews memberships on the period boundary through the
 * scheduler, and reports everything that happens on its side as signed notifications posted to the
 * processor ingress route, exactly as a live processor would. Notifications are recorded in the
 * same transaction as the change they report and delivered by the jobs queue, retried until the
 * ingress accepts them.
 *
 * This class is the port; its sections live beside it: checkout-flow.ts (hosted checkout and the
 * first charge), renewals.ts (renewals, retries, changes of coming renewals), payments.ts (saved
 * cards, usage charges, refunds, disputes), card-sessions.ts (the card-update page), core.ts (what
 * they share).
 */
export class SandboxProcessor implements ProcessorPort {
  private readonly refusals = new Set<RefusableOperation>();
  private readonly core: SandboxCore;

  constructor(private readonly deps: Deps) {
    this.core = { deps, now: () => deps.clock.now(), refused: (operation) => this.refusals.delete(operation) };
  }

  /** Notifications it posted are signed with the deployment's sandbox secret (signing.ts). */
  async verifyNotification(headers: Record<string, string>, rawBody: string, nowSeconds: number) {
    return verify(await this.deps.ports.secrets.get(SANDBOX_SIGNING_SECRET), headers[SIGNATURE_HEADER], rawBody, nowSeconds);
  }

  refuseNext(operation: RefusableOperation): void {
    this.refusals.add(operation);
  }

  // ---- hosted checkout (checkout-flow.ts) ----

  createCheckout(scope: Scope, input: CreateCheckoutInput) {
    return checkouts.createCheckout(this.core, scope, input);
  }
  getCheckout(checkoutId: string): Promise<SandboxCheckout | undefined> {
    return checkouts.getCheckout(this.core, checkoutId);
  }
  payCheckout(checkoutId: string, input: PayInput): Promise<PayResult> {
    return checkouts.payCheckout(this.core, checkoutId, input);
  }
  completeFreeCheckout(checkoutId: string, buyer: Buyer, claim?: PaymentClaim): Promise<PayResult> {
    return checkouts.completeFreeCheckout(this.core, checkoutId, buyer, claim);
  }

  // ---- saved cards, usage charges, payments (payments.ts) ----

  chargeSavedCard(scope: Scope, input: { paymentMethodId: string; amountCents: number; currency: string; description: string }) {
    return payments.chargeSavedCard(this.core, scope, input);
  }
  detachSavedCard(scope: Scope, paymentMethodId: string) {
    return payments.detachSavedCard(this.core, scope, paymentMethodId);
  }
  /** A buyer erased: see erase.ts. */
  eraseBuyer(scope: Scope, buyer: { email: string; paymentMethodIds: string[] }) {
    return eraseSandboxBuyer(this.deps.store, scope, buyer);
  }
  chargeMembership(scope: Scope, membershipId: string, input: MembershipChargeInput) {
    return payments.chargeMembership(this.core, scope, membershipId, input);
  }
  getPayment(scope: Scope, paymentId: string) {
    return payments.getPayment(this.core, scope, paymentId);
  }
  refund(scope: Scope, paymentId: string, amountCents?: number) {
    return payments.refund(this.core, scope, paymentId, amountCents);
  }
  dispute(scope: Scope, paymentId: string) {
    return payments.dispute(this.core, scope, paymentId);
  }

  // ---- card update (card-sessions.ts) ----

  cardUpdateSession(scope: Scope, membershipId: string, input: { returnUrl: string; baseUrl: string }) {
    return cards.cardUpdateSession(this.core, scope, membershipId, input);
  }
  getCardUpdate(sessionId: string): Promise<SandboxCardUpdate | undefined> {
    return cards.getCardUpdate(this.core, sessionId);
  }
  /** The membership a card-update session is for, as the page shows it. */
  cardUpdateMembership(session: SandboxCardUpdate): Promise<LiveMembership> {
    return this.getMembership(session.scope, session.membershipId);
  }
  updateCard(sessionId: string, cardNumber: string) {
    return cards.updateCard(this.core, sessionId, cardNumber);
  }

  // ---- renewals and retention (renewals.ts) ----

  setRecoveryPolicy(scope: Scope, policy: RecoveryPolicy | null) {
    return renewals.setRecoveryPolicy(this.core, scope, policy);
  }
  adjustMembership(scope: Scope, membershipId: string, change: MembershipAdjustment) {
    return renewals.adjustMembership(this.core, scope, membershipId, change);
  }
  /** The scheduler's renewal timer, and the retry timers after a failed charge. */
  onRenewalDue(scope: Scope, membershipId: string) {
    return renewals.onRenewalDue(this.core, scope, membershipId);
  }
  renewNow(scope: Scope, membershipId: string, outcome: 'succeed' | 'fail') {
    return renewals.renewNow(this.core, scope, membershipId, outcome);
  }

  // ---- membership lifecycle ----

  async getMembership(scope: Scope, membershipId: string) {
    return liveMembership(await loadMembership(this.core, scope, membershipId));
  }

  async setCardDeclining(scope: Scope, membershipId: string, declining: boolean): Promise<void> {
    const m = await loadMembership(this.core, scope, membershipId);
    m.declining = declining;
    await saveMembership(this.core, scope, m);
  }

  async pauseMembership(scope: Scope, membershipId: string) {
    if (this.core.refused('pause')) throw new ProcessorError('The processor refused to pause this membership');
    const m = await loadMembership(this.core, scope, membershipId);
    if (m.status === 'canceled') throw new ProcessorError('The membership has ended', 'invalid');
    m.paused = true;
    await saveMembership(this.core, scope, m);
    await cancelRenewal(this.core, m.id);
    return liveMembership(m);
  }

  async resumeMembership(scope: Scope, membershipId: string) {
    if (this.core.refused('resume')) throw new ProcessorError('The processor refused to resume this membership');
    const m = await loadMembership(this.core, scope, membershipId);
    const now = this.core.now();
    if (m.status === 'canceled') {
      if (new Date(m.currentPeriodEnd) <= now) throw new ProcessorError('The membership has ended', 'invalid');
      m.status = m.trialEnd && new Date(m.trialEnd) > now ? 'trialing' : 'active';
    }
    m.paused = false;
    m.cancelAtPeriodEnd = false;
    await saveMembership(this.core, scope, m);
    if (m.status !== 'past_due') {
      const end = new Date(m.currentPeriodEnd);
      await scheduleRenewal(this.core, scope, m.id, end > now ? end : now);
    }
    return liveMembership(m);
  }

  async cancelMembership(scope: Scope, membershipId: string, options: { atPeriodEnd: boolean }) {
    if (this.core.refused('cancel')) throw new ProcessorError('The processor refused to cancel this membership');
    const m = await loadMembership(this.core, scope, membershipId);
    if (m.status === 'canceled') return liveMembership(m);
    if (options.atPeriodEnd) {
      m.cancelAtPeriodEnd = true;
      await saveMembership(this.core, scope, m);
    } else {
      m.status = 'canceled';
      m.cancelAtPeriodEnd = false;
      await saveMembership(this.core, scope, m);
      await cancelRenewal(this.core, m.id);
    }
    return liveMembership(m);
  }
}
