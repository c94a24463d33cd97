import type { Deps } from '../platform/context';
import type { Scope } from '../store/keys';
import { ConditionFailed } from '../store/store';
import type { ContactRecord, ContactStatus, SuppressionReason } from './records';
import * as repo from './repository';

import { mayMarketTo, normalizeEmail } from './rules';
import { MAX_ATTEMPTS, changeContact, findContactByEmail, upsertContact } from './service';

/** Suppression, unsubscribes, consent and engagement: who may be mailed. */

export async function isSuppressed(deps: Deps, scope: Scope, email: string): Promise<boolean> {
  return Boolean(await repo.getSuppression(deps.store, scope, normalizeEmail(email)));
}

/**
 * Which of these addresses no mail may reach, and why: on the suppression list (bounce,
 * complaint) or a contact that unsubscribed. Every send (posts, transactional, funnels,
 * memberships) asks this first. Reads are batched.
 */
export async function blockedRecipients(deps: Deps, scope: Scope, emails: string[]): Promise<Map<string, 'suppressed' | 'unsubscribed'>> {
  const normalized = emails.map(normalizeEmail);
  const blocked = new Map<string, 'suppressed' | 'unsubscribed'>();
  for (const email of await repo.suppressedAmong(deps.store, scope, normalized)) blocked.set(email, 'suppressed');
  const rest = normalized.filter((e) => !blocked.has(e));
  const ids = await Promise.all(rest.map((email) => repo.findContactId(deps.store, scope, email)));
  const contacts = await repo.getContacts(
    deps.store,
    scope,
    ids.filter((id): id is string => Boolean(id)),
  );
  for (const contact of contacts)
    if (contact.status !== 'subscribed') blocked.set(contact.email, contact.status === 'unsubscribed' ? 'unsubscribed' : 'suppressed');
  return blocked;
}

/** Of a page of contacts about to be mailed, the emails on the suppression list. */
export async function suppressedAmong(deps: Deps, scope: Scope, emails: string[]): Promise<Set<string>> {
  return repo.suppressedAmong(deps.store, scope, emails.map(normalizeEmail));
}

/** The unsubscribe link or one-click post: the contact stops receiving posts. Idempotent. */
export async function unsubscribeEmail(deps: Deps, scope: Scope, email: string): Promise<ContactRecord | undefined> {
  const id = await repo.findContactId(deps.store, scope, normalizeEmail(email));
  if (!id) {
    // Mail sent to an address with no contact (transactional): remember the choice as a contact.
    const { contact } = await upsertContact(deps, scope, { email, status: 'unsubscribed', source: null });
    return contact.status === 'unsubscribed' ? contact : unsubscribeEmail(deps, scope, email);
  }
  return changeContact(deps, scope, id, (c, now) =>
    c.status === 'subscribed' ? { ...c, status: 'unsubscribed', unsubscribedAt: now, updatedAt: now } : undefined,
  );
}

/**
 * A bounce or complaint the mail provider reported: the address goes on the suppression list and
 * its contact (when there is one) takes the matching status, in one transaction.
 */
export async function suppressEmail(deps: Deps, scope: Scope, email: string, reason: SuppressionReason): Promise<void> {
  const address = normalizeEmail(email);
  const now = deps.clock.now().toISOString();
  const write = repo.suppressionWrite(scope, { email: address, reason, suppressedAt: now });
  const status: ContactStatus = reason === 'bounce' ? 'bounced' : 'complained';
  for (let attempt = 1; ; attempt++) {
    const id = await repo.findContactId(deps.store, scope, address, attempt > 1);
    const current = id ? await repo.getContact(deps.store, scope, id) : undefined;
    // A complaint outranks a bounce; neither is undone by a later report.
    const keep = current && (current.status === 'complained' || current.status === status);
    try {
      if (!current || keep) await deps.store.transact([write]);
      else await deps.store.transact([...repo.contactWrites.replace(scope, { ...current, status, updatedAt: now }, current), write]);
      return;
    } catch (error) {
      if (error instanceof ConditionFailed && attempt < MAX_ATTEMPTS) continue;
      throw error;
    }
  }
}

/** An open or click on a contact (last open / last click at). */
export async function recordEngagement(deps: Deps, scope: Scope, contactId: string, kind: 'open' | 'click'): Promise<void> {
  await repo.touchEngagement(deps.store, scope, contactId, kind === 'open' ? 'lastOpenAt' : 'lastClickAt', deps.clock.now().toISOString());
}

/**
 * Whether marketing mail (an automation or funnel step) may go to this address: a contact who
 * consented (`mayMarketTo`). An address with no contact has given nothing either.
 */
export async function marketingAllowed(deps: Deps, scope: Scope, email: string): Promise<boolean> {
  const contact = await findContactByEmail(deps, scope, email);
  return contact !== undefined && mayMarketTo(contact);
}

export { mayMarketTo };

/** One page of a post's audience, oldest first, with a cursor to resume from. */
export async function audiencePage(deps: Deps, scope: Scope, audience: { tag?: string }, page: { limit: number; cursor?: string }) {
  return repo.audiencePage(deps.store, scope, audience, page);
}
