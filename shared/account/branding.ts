import type { Account, Deps } from '../platform/context';
import { badRequest } from '../platform/errors';
import { getAccount } from '../platform/accounts';
import type { Scope } from '../store/keys';
import { matchLocale, type Locale } from '../platform/i18n/locales';
import { imageUrlById, missingImageIds } from '../storefront/images/references';
import { DEFAULT_ACCENT, accentOnWhite, textOnAccent } from './branding-rules';
import type { BrandingRecord } from './entities';
import { loadBranding, saveBranding } from './repository';

export type BrandingChange = Partial<
  Pick<BrandingRecord, 'displayName' | 'logoImageId' | 'accentColor' | 'supportEmail' | 'locale' | 'legalName' | 'legalAddress' | 'taxId'>
>;

const stored = (record: BrandingRecord | undefined) => ({
  displayName: record?.displayName ?? null,
  logoImageId: record?.logoImageId ?? null,
  accentColor: record?.accentColor ?? null,
  supportEmail: record?.supportEmail ?? null,
  locale: matchLocale(record?.locale) ?? null,
  legalName: record?.legalName ?? null,
  legalAddress: record?.legalAddress ?? null,
  taxId: record?.taxId ?? null,
  updatedAt: record?.updatedAt ?? null,
});

export async function readBranding(deps: Pick<Deps, 'store'>, scope: Scope) {
  return stored(await loadBranding(deps.store, scope));
}

/** Partial update; `null` clears a field. A logo must be one of the account's own images. */
export async function updateBranding(deps: Deps, scope: Scope, change: BrandingChange) {
  if (change.logoImageId && (await missingImageIds(deps, scope, [change.logoImageId])).length) {
    throw badRequest(`logoImageId: no image ${change.logoImageId} in this account (upload it with POST /images first)`, { field: 'logoImageId' });
  }
  const current = stored(await loadBranding(deps.store, scope));
  const next: BrandingRecord = {
    displayName: change.displayName === undefined ? current.displayName : change.displayName,
    logoImageId: change.logoImageId === undefined ? current.logoImageId : change.logoImageId,
    accentColor: change.accentColor === undefined ? current.accentColor : (change.accentColor?.toLowerCase() ?? null),
    supportEmail: change.supportEmail === undefined ? current.supportEmail : change.supportEmail,
    locale: change.locale === undefined ? current.locale : change.locale,
    legalName: change.legalName === undefined ? current.legalName : change.legalName,
    legalAddress: change.legalAddress === undefined ? current.legalAddress : change.legalAddress,
    taxId: change.taxId === undefined ? current.taxId : change.taxId,
    updatedAt: deps.clock.now().toISOString(),
  };
  await saveBranding(deps.store, scope, next);
  return stored(next);
}

/** What a buyer page or mail shows of the seller, defaults filled in. */
export interface SellerBrand {
  name: string;
  logoUrl: string | null;
  accent: string;
  /** The accent darkened where needed to read as text on white. */
  accentText: string;
  onAccent: string;
  supportEmail: string | null;
  /** The seller's default language for buyers (`PATCH /account/branding { locale }`), when set. */
  locale?: Locale | null;
}

/**
 * The seller as buyers see them: the branding record with the account's name and email as
 * defaults. Every buyer page and mail reads this one function.
 */
export async function sellerBrand(deps: Pick<Deps, 'store'>, scope: Scope, baseUrl: string, account?: Account): Promise<SellerBrand> {
  const [record, owner] = await Promise.all([loadBranding(deps.store, scope), account ? Promise.resolve(account) : getAccount(deps.store, scope.accountId)]);
  const accent = record?.accentColor ?? DEFAULT_ACCENT;
  return {
    name: record?.displayName ?? owner?.name ?? 'Checkout',
    logoUrl: record?.logoImageId ? await imageUrlById(deps, scope, record.logoImageId, baseUrl) : null,
    accent,
    accentText: accentOnWhite(accent),
    onAccent: textOnAccent(accent),
    supportEmail: record?.supportEmail ?? owner?.email ?? null,
    locale: matchLocale(record?.locale) ?? null,
  };
}
