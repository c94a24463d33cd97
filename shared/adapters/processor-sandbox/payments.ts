import { prefixedId } from '../../platform/ids';
import { ProcessorError, type LivePayment, type MembershipChargeInput, type PaymentMethod } from '../../processor/port';
import { isConditionFailed } from '../../store/conditional';
import type { Scope } from '../../store/keys';
import { enqueue, loadMembership, notification, notificationPut, succeededPayment, type SandboxCore } from './core';
import type { SandboxPayment } from './records';
import * as repo from './repository';

// ---- saved cards (credits auto-refill) ----

export async function chargeSavedCard(
  core: SandboxCore,
  scope: Scope,
  input: { paymentMethodId: string; amountCents: number; currency: string; description: string },
) {
  const card = await repo.getCard(core.deps.store, scope, input.paymentMethodId);
  if (!card || !card.saved) throw new ProcessorError('No such saved card', 'not_found');
  if (core.refused('charge') || card.declines) throw new ProcessorError('Your card was declined.', 'declined');
  const paymentMethod: PaymentMethod = { id: card.id, type: 'card', brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear };
  const payment = succeededPayment({
    amountCents: input.amountCents,
    currency: input.currency,
    membershipId: null,
    paymentMethod,
    notifyUrl: null,
    at: core.now().toISOString(),
  });
  await core.deps.store.put(repo.paymentItem(scope, payment), { ifNotExists: true });
  return { paymentId: payment.id, paymentMethod };
}

/** Withdrawn consent: the card stays known (for reports) but is no longer saved for charges. */
export async function detachSavedCard(core: SandboxCore, scope: Scope, paymentMethodId: string): Promise<void> {
  const card = await repo.getCard(core.deps.store, scope, paymentMethodId);
  if (!card || !card.saved) return;
  await core.deps.store.put(repo.cardItem(scope, { ...card, saved: false }));
}

/** A usage charge on the membership's card: declines while the card declines (control API). */
export async function chargeMembership(core: SandboxCore, scope: Scope, membershipId: string, input: MembershipChargeInput) {
  const m = await loadMembership(core, scope, membershipId);
  if (core.refused('charge') || m.declining || !m.paymentMethod)
    throw new ProcessorError(m.paymentMethod ? 'Your card was declined.' : 'No payment method on file.', 'declined');
  const payment = succeededPayment({
    amountCents: input.amountCents,
    currency: input.currency,
    membershipId: m.id,
    paymentMethod: m.paymentMethod,
    notifyUrl: m.notifyUrl,
    at: core.now().toISOString(),
  });
  await core.deps.store.put(repo.paymentItem(scope, payment), { ifNotExists: true });
  return { paymentId: payment.id, paymentMethod: m.paymentMethod };
}

// ---- payments: reads, refunds, disputes ----

async function paymentRecord(core: SandboxCore, scope: Scope, paymentId: string): Promise<SandboxPayment> {
  const record = /^pay_[0-9A-Za-z]{24}$/.test(paymentId) ? await repo.getPayment(core.deps.store, scope, paymentId) : undefined;
  if (!record) throw new ProcessorError('No such payment', 'not_found');
  return record;
}

export async function getPayment(core: SandboxCore, scope: Scope, paymentId: string): Promise<LivePayment> {
  const { notifyUrl: _n, ...live } = await paymentRecord(core, scope, paymentId);
  return live;
}

/**
 * Refunds race on the payment's refunded amount (a conditional write); the loser reads again
 * and is judged on what is left, so it refunds the rest or is refused, never fails.
 */
export async function refund(core: SandboxCore, scope: Scope, paymentId: string, amountCents?: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await refundOnce(core, scope, paymentId, amountCents);
    } catch (error) {
      // Each round one racer wins, so a crowd of them needs as many rounds.
      if (!isConditionFailed(error) || attempt >= 50) throw error;
      await new Promise((r) => setTimeout(r, Math.random() * 20));
    }
  }
}

async function refundOnce(core: SandboxCore, scope: Scope, paymentId: string, amountCents?: number): Promise<void> {
  const p = await paymentRecord(core, scope, paymentId);
  const remaining = p.amountCents - p.refundedCents;
  const amount = amountCents ?? remaining;
  if (p.status === 'disputed') throw new ProcessorError('A disputed payment cannot be refunded', 'invalid');
  if (!Number.isInteger(amount) || amount <= 0 || amount > remaining)
    throw new ProcessorError(`Refund amount must be between 1 and ${remaining} cents`, 'invalid');
  const refundedCents = p.refundedCents + amount;
  const full = refundedCents === p.amountCents;
  const n = notification(core, scope, 'payment.refunded', p.notifyUrl ?? '', {
    paymentId: p.id,
    refundId: prefixedId('re'),
    amountCents: amount,
    refundedCents,
    full,
    currency: p.currency,
  });
  await core.deps.store.transact([
    {
      update: repo.paymentKey(scope, p.id),
      set: { refundedCents, status: full ? 'refunded' : 'partially_refunded' },
      condition: 'refundedCents = :before',
      values: { ':before': p.refundedCents },
    },
    ...(p.notifyUrl ? [notificationPut(scope, n)] : []),
  ]);
  if (p.notifyUrl) await enqueue(core, scope, n.id);
}

export async function dispute(core: SandboxCore, scope: Scope, paymentId: string): Promise<void> {
  const p = await paymentRecord(core, scope, paymentId);
  if (p.status === 'disputed') return;
  const n = notification(core, scope, 'payment.disputed', p.notifyUrl ?? '', {
    paymentId: p.id,
    disputeId: prefixedId('dp'),
    amountCents: p.amountCents,
    currency: p.currency,
  });
  await core.deps.store.transact([{ update: repo.paymentKey(scope, p.id), set: { status: 'disputed' } }, ...(p.notifyUrl ? [notificationPut(scope, n)] : [])]);
  if (p.notifyUrl) await enqueue(core, scope, n.id);
}
