/** Partners, their referral-code guards, referrals and referral sales (children of the partner); keys come from entities.ts. */
import { putNew } from '../../store/conditional';
import type { Scope } from '../../store/keys';
import type { Store, TransactOp } from '../../store/store';
import { partnerCodeEntity, partnerEntity, referralEntity, referralSaleEntity } from './entities';
import type { PartnerRecord, ReferralRecord, ReferralSaleRecord } from './records';

export const loadPartner = (store: Store, scope: Scope, id: string) => partnerEntity.get(store, 'byId', scope, id);
export const loadPartners = (store: Store, scope: Scope) => partnerEntity.queryAll(store, 'ofTenant', [scope]);

export async function findPartnerByCode(store: Store, scope: Scope, normalizedCode: string): Promise<PartnerRecord | undefined> {
  const guard = await partnerCodeEntity.get(store, 'byCode', scope, normalizedCode);
  return guard?.partnerId ? loadPartner(store, scope, guard.partnerId) : undefined;
}

export const partnerPutOps = (scope: Scope, partner: PartnerRecord, normalizedCode: string): TransactOp[] => [
  putNew(partnerEntity.item(partnerEntity.declaration.key(scope, partner._id), partner)),
  putNew(partnerCodeEntity.item(partnerCodeEntity.declaration.key(scope, normalizedCode), { partnerId: partner._id })),
];

export const insertReferral = (store: Store, scope: Scope, referral: ReferralRecord) =>
  store.put(referralEntity.item(referralEntity.declaration.key(scope, referral.partnerId, referral._id), referral), { ifNotExists: true });

/** One put per sale: a replayed sale cannot be counted twice. */
export const referralSalePut = (scope: Scope, sale: ReferralSaleRecord): TransactOp =>
  putNew(referralSaleEntity.item(referralSaleEntity.declaration.key(scope, sale.partnerId, sale._id), sale));

export const loadReferrals = (store: Store, scope: Scope, partnerId: string) => referralEntity.queryAll(store, 'ofPartner', [scope, partnerId]);
export const loadReferralSales = (store: Store, scope: Scope, partnerId: string) => referralSaleEntity.queryAll(store, 'ofPartner', [scope, partnerId]);
