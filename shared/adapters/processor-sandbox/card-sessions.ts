import { createHash } from 'node:crypto';
import { randomBase62 } from '../../platform/ids';
import { ProcessorError } from '../../processor/port';
import type { Scope } from '../../store/keys';
import { cancelRenewal, loadMembership, saveMembership, type SandboxCore } from './core';
import { cardBrand, cardOutcome } from './periods';
import type { SandboxCardUpdate } from './records';
import { charge } from './renewals';
import * as repo from './repository';

const CARD_UPDATE_TTL_MS = 60 * 60 * 1000;

/** A card-update page for the membership, valid for an hour and used once. */
export async function cardUpdateSession(core: SandboxCore, scope: Scope, membershipId: string, input: { returnUrl: string; baseUrl: string }) {
  const m = await loadMembership(core, scope, membershipId);
  if (m.status === 'canceled') throw new ProcessorError('The membership has ended', 'invalid');
  const now = core.now();
  const session: SandboxCardUpdate = {
    id: `cu_${randomBase62(32)}`,
    scope,
    membershipId: m.id,
    returnUrl: input.returnUrl,
    status: 'open',
    validUntil: new Date(now.getTime() + CARD_UPDATE_TTL_MS).toISOString(),
    createdAt: now.toISOString(),
  };
  await core.deps.store.put(repo.cardUpdateItem(session), { ifNotExists: true });
  return { url: `${input.baseUrl}/processor/sandbox/card-update/${session.id}`, expiresAt: session.validUntil };
}

export async function getCardUpdate(core: SandboxCore, sessionId: string): Promise<SandboxCardUpdate | undefined> {
  if (!/^cu_[0-9A-Za-z]{32}$/.test(sessionId)) return undefined;
  return repo.getCardUpdate(core.deps.store, sessionId);
}

/**
 * The buyer's new card from the card-update page. A card that declines is refused here, as a
 * processor's card setup would refuse it; an accepted card replaces the membership's card (and
 * clears a declining one), and a past-due membership is charged again at once with it.
 */
export async function updateCard(core: SandboxCore, sessionId: string, cardNumber: string): Promise<{ last4: string; retried: boolean }> {
  const session = await getCardUpdate(core, sessionId);
  if (!session || session.status !== 'open' || Date.parse(session.validUntil) <= core.now().getTime())
    throw new ProcessorError('This card-update link has expired. Open it again from your subscription page.', 'not_found');
  const digits = cardNumber.replace(/[\s-]/g, '');
  const outcome = cardOutcome(digits);
  if (outcome === 'invalid') throw new ProcessorError('The card number is not valid', 'invalid');
  if (outcome === 'declines') throw new ProcessorError('This card was declined. Try another card; nothing changed.', 'declined');
  const { scope } = session;
  const m = await loadMembership(core, scope, session.membershipId);
  if (m.status === 'canceled') throw new ProcessorError('The membership has ended', 'invalid');
  const id = createHash('sha256').update(`${scope.accountId}|${scope.mode}|${m.id}|${digits}`).digest('hex');
  m.paymentMethod = {
    id: `payt_${id.slice(0, 24)}`,
    type: 'card',
    brand: cardBrand(digits),
    last4: digits.slice(-4),
    expMonth: 12,
    expYear: core.now().getUTCFullYear() + 3,
  };
  m.declining = false;
  const retried = m.status === 'past_due' && !m.paused;
  await saveMembership(core, scope, m, [
    {
      update: repo.cardUpdateKey(session.id),
      set: { status: 'used', last4: m.paymentMethod.last4, retried },
      condition: '#status = :open',
      names: { '#status': 'status' },
      values: { ':open': 'open' },
    },
  ]);
  if (retried) {
    await cancelRenewal(core, m.id);
    await charge(core, scope, m, false);
  }
  return { last4: m.paymentMethod.last4, retried };
}
