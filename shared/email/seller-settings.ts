import { getAccount } from '../platform/accounts';
import type { Account, Deps } from '../platform/context';
import type { Scope } from '../store/keys';
import type { EmailSettingsRecord } from './records';
import * as repo from './repository';
import { withDefaults } from './settings';

/**
 * The store's mail choices other capabilities read on their own paths (the hosted checkout's
 * opt-in box, the owner's new-sale notice). Kept apart from service.ts, which asks the mail
 * provider about the sender: reading a setting needs no SESv2 in the caller's function.
 */

export const optInWording = (settings: Pick<EmailSettingsRecord, 'checkoutOptInWording'>, account: Pick<Account, 'name' | 'email'> | undefined) =>
  settings.checkoutOptInWording ?? `Email me news and offers from ${account?.name ?? 'this store'}. I can unsubscribe at any time.`;

/** The opt-in box the hosted checkout shows, with the words beside it; null when the seller turned it off. */
export async function checkoutOptIn(deps: Pick<Deps, 'store'>, scope: Scope): Promise<{ checked: boolean; wording: string } | null> {
  const stored = await repo.getSettings(deps.store, scope);
  if ((stored?.checkoutOptIn ?? 'unchecked') === 'off') return null;
  const account = stored?.checkoutOptInWording ? undefined : await getAccount(deps.store, scope.accountId);
  return { checked: stored?.checkoutOptIn === 'checked', wording: optInWording(withDefaults(stored, account), account) };
}

/** Whether the store owner wants a mail for every paid order (default yes). */
export async function saleNotificationsOn(deps: Pick<Deps, 'store'>, scope: Scope): Promise<boolean> {
  return (await repo.getSettings(deps.store, scope))?.saleNotifications !== false;
}
