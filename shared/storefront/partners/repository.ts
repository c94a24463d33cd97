/** Partners, their referral-code guards, referrals and referral sales (children of the partner). */
import { keys, type Scope } from '../../store/keys';
import { toItem } from '../../store/items';
import { putNew } from '../../store/conditional';
import { toRecord, type Store, type TransactOp } from '../../store/store';
import { PARTNER, type PartnerRecord, type ReferralRecord, type ReferralSaleRecord } from './records';

const PARTNER_CODE = 'PARTNER_CODE';
const REFERRAL = 'REFERRAL';
const REFERRAL_SALE = 'REFERRAL_SALE';

export const loadPartner = async (store: Store, scope: Scope, id: string) => toRecord<PartnerRecord>(await store.get(keys.entity(scope, PARTNER, id)));
export const loadPartners = async (store: Store, scope: Scope) => (await store.queryAll({ pk: keys.collection(scope, PARTNER) })).map((i) => toRecord<PartnerRecord>(i)!);

export async function findPartnerByCode(store: Store, scope: Scope, normalizedCode: string): Promise<PartnerRecord | undefined> {
  const guard = await store.get<{ partnerId?: string }>(keys.unique(scope, PARTNER_CODE, normalizedCode));
  return guard?.partnerId ? loadPartner(store, scope, guard.partnerId) : undefined;
}

export const partnerPutOps = (scope: Scope, partner: PartnerRecord, normalizedCode: string): TransactOp[] => [
  putNew(toItem(keys.entity(scope, PARTNER, partner._id), 'Partner', partner)),
  putNew(toItem(keys.unique(scope, PARTNER_CODE, normalizedCode), 'PartnerCode', { partnerId: partner._id })),
];

export const insertReferral = (store: Store, scope: Scope, referral: ReferralRecord) =>
  store.put(toItem(keys.child(scope, PARTNER, referral.partnerId, REFERRAL, referral._id), 'PartnerReferral', referral), { ifNotExists: true });

/** One put per sale: a replayed sale cannot be counted twice. */
export const referralSalePut = (scope: Scope, sale: ReferralSaleRecord): TransactOp =>
  putNew(toItem(keys.child(scope, PARTNER, sale.partnerId, REFERRAL_SALE, sale._id), 'PartnerReferralSale', sale));

export const loadReferrals = async (store: Store, scope: Scope, partnerId: string) =>
  (await store.queryAll({ pk: keys.children(scope, PARTNER, partnerId, REFERRAL) })).map((i) => toRecord<ReferralRecord>(i)!);
export const loadReferralSales = async (store: Store, scope: Scope, partnerId: string) =>
  (await store.queryAll({ pk: keys.children(scope, PARTNER, partnerId, REFERRAL_SALE) })).map((i) => toRecord<ReferralSaleRecord>(i)!);
