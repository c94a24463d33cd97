import { getAccount } from '../platform/accounts';
import type { Account, Deps } from '../platform/context';
import type { Scope } from '../store/keys';
import type { EmailSettingsRecord } from './records';
import * as repo from './repository';
import type { Locale } from '../platform/i18n/locales';
import { loadedTranslator, loadTranslator, translator } from '../platform/i18n/translator';
import { withDefaults } from './settings';

/**
 * The store's mail choices other capabilities read on their own paths (the hosted checkout's
 * opt-in box, the owner's new-sale notice). Kept apart from service.ts, which asks the mail
 * provider about the sender: reading a setting needs no SESv2 in the caller's function.
 */

/**
 * The seller's words for the box as written; without them, the default in the buyer's language
 * (English for the seller's own view), whose catalogue the caller has loaded (the page's, or
 * checkoutOptIn's).
 */
export const optInWording = (
  settings: Pick<EmailSettingsRecord, 'checkoutOptInWording'>,
  account: Pick<Account, 'name' | 'email'> | undefined,
  locale?: Locale,
) =>
  settings.checkoutOptInWording ??
  (locale ? loadedTranslator(locale) : translator()).t('checkout.optInDefault', { store: account?.name ?? account?.email ?? '' });

export type OptInBox = { checked: boolean; wording: string };

/**
 * The opt-in box the hosted checkout shows, with the words beside it in a given language; null
 * when the seller turned it off. Answered as a function of the language so the settings can be
 * read alongside the branding that decides the language.
 */
export async function checkoutOptInFor(deps: Pick<Deps, 'store'>, scope: Scope): Promise<((locale?: Locale) => OptInBox) | null> {
  const stored = await repo.getSettings(deps.store, scope);
  if ((stored?.checkoutOptIn ?? 'unchecked') === 'off') return null;
  const account = stored?.checkoutOptInWording ? undefined : await getAccount(deps.store, scope.accountId);
  const settings = withDefaults(stored, account);
  return (locale) => ({ checked: stored?.checkoutOptIn === 'checked', wording: optInWording(settings, account, locale) });
}

export async function checkoutOptIn(deps: Pick<Deps, 'store'>, scope: Scope, locale?: Locale): Promise<OptInBox | null> {
  if (locale) await loadTranslator(locale);
  return (await checkoutOptInFor(deps, scope))?.(locale) ?? null;
}

/** Whether the store owner wants a mail for every paid order (default yes). */
export async function saleNotificationsOn(deps: Pick<Deps, 'store'>, scope: Scope): Promise<boolean> {
  return (await repo.getSettings(deps.store, scope))?.saleNotifications !== false;
}
