import { defineEntity } from '../../store/entity';
import { keys, type Scope } from '../../store/keys';
import { PARTNER, type PartnerRecord, type ReferralRecord, type ReferralSaleRecord } from './records';

const PARTNER_CODE = 'PARTNER_CODE';
const REFERRAL = 'REFERRAL';
const REFERRAL_SALE = 'REFERRAL_SALE';
const partnerKey = (scope: Scope, id: string) => keys.entity(scope, PARTNER, id);
const codeKey = (scope: Scope, normalizedCode: string) => keys.unique(scope, PARTNER_CODE, normalizedCode);

export const partnerEntity = defineEntity<PartnerRecord>()({
  entity: 'Partner',
  version: 1,
  owner: 'storefront/partners',
  key: partnerKey,
  keyArgs: ['scope', 'id'],
  patterns: {
    byId: { kind: 'get', summary: 'Partner by id', key: partnerKey, args: ['scope', 'id'] },
    ofTenant: {
      kind: 'query',
      summary: 'Partners of a tenant (list, stats)',
      partition: (scope: Scope) => keys.collection(scope, PARTNER),
      args: ['scope'],
      notes: 'bounded per-tenant list',
    },
  },
});

export const partnerCodeEntity = defineEntity<{ partnerId: string }>()({
  entity: 'PartnerCode',
  version: 1,
  owner: 'storefront/partners',
  key: codeKey,
  keyArgs: ['scope', 'UPPER(code)'],
  patterns: {
    byCode: { kind: 'get', summary: 'Partner by referral code / code uniqueness', key: codeKey, args: ['scope', 'UPPER(code)'], notes: 'holds partnerId' },
  },
});

export const referralEntity = defineEntity<ReferralRecord>()({
  entity: 'PartnerReferral',
  version: 1,
  owner: 'storefront/partners',
  key: (scope: Scope, partnerId: string, id: string) => keys.child(scope, PARTNER, partnerId, REFERRAL, id),
  keyArgs: ['scope', 'partnerId', 'referralId'],
  patterns: {
    ofPartner: {
      kind: 'query',
      summary: 'Referrals of a partner',
      partition: (scope: Scope, partnerId: string) => keys.children(scope, PARTNER, partnerId, REFERRAL),
      args: ['scope', 'partnerId'],
      notes: 'all-partner lists read each partner',
    },
  },
});

export const referralSaleEntity = defineEntity<ReferralSaleRecord>()({
  entity: 'PartnerReferralSale',
  version: 1,
  owner: 'storefront/partners',
  key: (scope: Scope, partnerId: string, saleId: string) => keys.child(scope, PARTNER, partnerId, REFERRAL_SALE, saleId),
  keyArgs: ['scope', 'partnerId', 'saleId'],
  patterns: {
    ofPartner: {
      kind: 'query',
      summary: 'Referral sales of a partner',
      partition: (scope: Scope, partnerId: string) => keys.children(scope, PARTNER, partnerId, REFERRAL_SALE),
      args: ['scope', 'partnerId'],
      notes: 'SK is the sale id (one per sale, written by checkout); all-partner lists read each partner',
    },
  },
});
