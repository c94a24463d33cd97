import { accountEntity, dashboardSessionEntity, memberAccessEntity, type DashboardSessionRecord } from '../platform/entities';
import type { Account } from '../platform/context';
import { ConditionFailed, type Store } from '../store/store';
import type { SignInLinkRecord } from './records';
import { signInLinkEntity, signInRateEntity } from './entities';
import type { Grant } from './rules';

// Sign-in reads nothing of a tenant's partitions: accounts and team grants are found through the
// person index (GSI2, keys.personIndex) that the account item and each grant carry themselves.

const epoch = (iso: string | number) => Math.floor((typeof iso === 'number' ? iso : Date.parse(iso)) / 1000);

export const ownedAccounts = (store: Store, email: string): Promise<Account[]> => accountEntity.queryAll(store, 'ownedBy', [email], { beginsWith: 'OWNER#' });
export const grantsOf = async (store: Store, email: string): Promise<Grant[]> =>
  (await memberAccessEntity.queryAll(store, 'ofPerson', [email], { beginsWith: 'MEMBER#' })) as Grant[];
export const accountById = (store: Store, accountId: string) => accountEntity.get(store, 'byId', accountId);

/** Counts one link in the address's window; false once `max` are counted. */
export async function countLink(store: Store, emailHash: string, windowStart: number, windowEndMs: number, max: number): Promise<boolean> {
  try {
    await store.update(
      signInRateEntity.declaration.key(emailHash, String(windowStart)),
      { set: { expiresAt: epoch(windowEndMs), entity: signInRateEntity.declaration.entity, v: signInRateEntity.declaration.version }, add: { count: 1 } },
      { condition: 'attribute_not_exists(#count) OR #count < :max', names: { '#count': 'count' }, values: { ':max': max } },
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
}

export async function putLink(store: Store, tokenHash: string, link: SignInLinkRecord) {
  // Kept a day past its time, so a late click hears "expired" rather than "invalid".
  await store.put(signInLinkEntity.item(signInLinkEntity.declaration.key(tokenHash), link, { expiresAt: epoch(link.validUntil) + 24 * 3600 }), {
    ifNotExists: true,
  });
}

export const getLink = (store: Store, tokenHash: string) => signInLinkEntity.get(store, 'byTokenHash', tokenHash);

/**
 * Uses the link and opens the sign-in in one transaction: two racing exchanges of one link cannot
 * both succeed. ConditionFailed when the link was used (or lapsed) in the meantime.
 */
export async function useLink(store: Store, tokenHash: string, now: Date, session: DashboardSessionRecord) {
  await store.transact([
    {
      update: signInLinkEntity.declaration.key(tokenHash),
      set: { usedAt: now.toISOString() },
      condition: 'attribute_exists(PK) AND attribute_not_exists(usedAt) AND validUntil > :now',
      values: { ':now': now.toISOString() },
    },
    {
      put: dashboardSessionEntity.item(dashboardSessionEntity.declaration.key(session.sid), session, { expiresAt: epoch(session.validUntil) + 3600 }),
      condition: 'attribute_not_exists(PK)',
    },
  ]);
}

/** Signing out deletes the sign-in: every token naming it is refused from the next request on. */
export const deleteSession = (store: Store, sid: string) => store.delete(dashboardSessionEntity.declaration.key(sid));
export const getSession = (store: Store, sid: string) => dashboardSessionEntity.get(store, 'bySid', sid);
